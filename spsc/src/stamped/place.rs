//! A half's position in a stamped ring: the free-running index of the
//! next item, the line that holds it, and the index at which that line
//! ends.

use core::ptr::NonNull;

use super::RingBuffer;

/// Where the next item of one half goes or comes from.
///
/// The index is free-running (it wraps at `usize::MAX + 1`); the line
/// follows it by counting, never by dividing the index, so the wrap moves
/// it on like any other step. Invariant: `line` is the start of one of the
/// ring's lines, and `line_end - index` (wrapping) lies in `1..=PER_LINE`:
/// the item's place in its line is `PER_LINE` minus that.
///
/// The line's end, not the place in it: a step then stores one word (the
/// index) except when it enters a line. Where the caller's loop keeps a
/// half in memory (a half passed by value to a function that is not
/// inlined, as in the report's SPSC loop), a push that also stored the
/// place ran at 136-160 M items/s against 211-232 with the line's end
/// (capacity 1024, fresh processes; rtrb 178-205 in the same runs). In
/// the regime grid, where the halves stay in registers, it put 11-12 more
/// of 144 cells at 1.0 × the best peer or more (`docs/spsc-regime-grid.md`,
/// "One store per step").
#[derive(Clone, Copy)]
pub(crate) struct Place {
    pub(crate) index: usize,
    pub(crate) line_end: usize,
    pub(crate) line: NonNull<u8>,
}

impl Place {
    /// Item `index`, at the start of the first line.
    pub(crate) fn start<T>(index: usize, first_line: NonNull<u8>) -> Place {
        Place::at::<T>(index, 0, first_line)
    }

    /// Item `index`, at place `slot` (`< PER_LINE`) of `line`.
    pub(crate) fn at<T>(index: usize, slot: usize, line: NonNull<u8>) -> Place {
        debug_assert!(slot < RingBuffer::<T>::PER_LINE);
        Place {
            index,
            line_end: index.wrapping_add(RingBuffer::<T>::PER_LINE - slot),
            line,
        }
    }

    /// The item's place in its line, below `PER_LINE`.
    #[inline(always)]
    pub(crate) fn slot<T>(&self) -> usize {
        RingBuffer::<T>::PER_LINE - self.line_end.wrapping_sub(self.index)
    }

    /// Moves on by one item; true when that enters a new line.
    #[inline(always)]
    pub(crate) fn step<T>(&mut self, ring: &RingBuffer<T>) -> bool {
        self.index = self.index.wrapping_add(1);
        if self.index == self.line_end {
            self.line_end = self.index.wrapping_add(RingBuffer::<T>::PER_LINE);
            self.line = ring.next_line(self.line);
            return true;
        }
        false
    }
}

/// Whether a stamp shows item `index` published: `stamp > index`, in the
/// wrapping order of free-running indices (their distance is always below
/// `2^(usize::BITS - 1)`: the ring holds fewer items than that).
#[inline(always)]
pub(crate) fn covers(stamp: usize, index: usize) -> bool {
    (stamp.wrapping_sub(index) as isize) > 0
}
