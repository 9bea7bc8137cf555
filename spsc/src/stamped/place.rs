//! A half's position in a stamped ring: the free-running index of the
//! next item and where that item lives (a line and a place in it).

use core::ptr::NonNull;

use super::RingBuffer;

/// Where the next item of one half goes or comes from.
///
/// The index is free-running (it wraps at `usize::MAX + 1`); the line and
/// the place follow it by counting, never by dividing the index, so the
/// wrap moves them on like any other step. Invariant: `slot <
/// RingBuffer::<T>::PER_LINE`, and `line` is the start of one of the
/// ring's lines.
#[derive(Clone, Copy)]
pub(crate) struct Place {
    pub(crate) index: usize,
    pub(crate) slot: usize,
    pub(crate) line: NonNull<u8>,
}

impl Place {
    /// Item `index`, at the start of the first line.
    pub(crate) fn start(index: usize, first_line: NonNull<u8>) -> Place {
        Place {
            index,
            slot: 0,
            line: first_line,
        }
    }

    /// Moves on by one item; true when that enters a new line.
    #[inline(always)]
    pub(crate) fn step<T>(&mut self, ring: &RingBuffer<T>) -> bool {
        self.index = self.index.wrapping_add(1);
        self.slot += 1;
        if self.slot == RingBuffer::<T>::PER_LINE {
            self.slot = 0;
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
