//! The multi-producer sequencer: producers claim by a CAS on the shared
//! cursor and publish through per-slot availability flags.
//!
//! With several producers the cursor says what is *claimed*, not what is
//! written: producer A may claim 5, producer B 6, and B finish first.
//! Consumers therefore read, for each slot, the lap of the last event
//! published into it (LMAX's `availableBuffer`): event `s` is published iff
//! `flags[s & mask] == (s >> log2(size)) as u8`, and they read nothing
//! else: the cursor is the producers' line (`SequenceBarrier::available`
//! says why a consumer keeps off it).
//!
//! A flag only grows, one lap at a time: `s + size` cannot be claimed
//! before every leaf has consumed `s`, and `s` not before `s - size` was
//! published and consumed. So a consumer that asks about `s` (it has
//! consumed `s - size`, and is a leaf or upstream of one) finds the lap of
//! `s - size` or that of `s`, nothing older or newer, and two consecutive
//! laps differ in their low 8 bits: a byte per slot is as exact as a whole
//! `i64`. It is 8 times denser (64 slots a cache line): a consumer scanning
//! a batch loads one line where it loaded eight. The report's sequencer
//! 3P-1C A/B, two pairs of runs: ÷ the `disruptor` crate 0.79 and 0.79
//! with `i64` flags, 0.97 and 0.92 with bytes.

use crate::error::PublishError;
use crate::sequence::{INITIAL, Sequence};
use crate::sequencer::{RoomWait, Wait, give_up};
use crate::shared::Shared;
use crate::sync::{AtomicU8, Ordering};

/// The lap of the last event published into each slot.
///
/// Invariants: `flags.len() == mask + 1` is the ring size (a power of two)
/// and `shift == log2(size)`; `flags[i]` is `INITIAL as u8` (the lap
/// before the first) until the first event of slot `i` is published, then
/// the low byte of the lap `s >> shift` of the last event `s` published
/// into it (why a byte is enough: see the module docs).
pub(crate) struct AvailabilityFlags {
    flags: Box<[AtomicU8]>,
    mask: usize,
    shift: u32,
}

impl AvailabilityFlags {
    pub(crate) fn new(size: usize) -> Self {
        debug_assert!(size.is_power_of_two());
        AvailabilityFlags {
            flags: (0..size).map(|_| AtomicU8::new(INITIAL as u8)).collect(),
            mask: size - 1,
            shift: size.trailing_zeros(),
        }
    }

    /// The slot index of `sequence` (explicitly parenthesised: disrustor's
    /// `seq & mask >> shift` parsed as `seq & (mask >> shift)`).
    #[inline]
    fn index(&self, sequence: Sequence) -> usize {
        (sequence as usize) & self.mask
    }

    /// The flag of `sequence`'s slot.
    #[inline]
    fn flag(&self, sequence: Sequence) -> &AtomicU8 {
        // SAFETY: `index` masks with `mask == flags.len() - 1` (the
        // invariant above), so it is below the length. Unchecked for the
        // reason `RingBuffer::slot` is: a bounds check's panic is an unwind
        // edge inside every publish.
        unsafe { self.flags.get_unchecked(self.index(sequence)) }
    }

    /// The low byte of the lap of `sequence` (the truncation is the point:
    /// see the module docs).
    #[inline]
    fn lap(&self, sequence: Sequence) -> u8 {
        (sequence >> self.shift) as u8
    }

    /// Marks `lo..=hi` (inclusive on both ends: LMAX's `publish(lo, hi)`
    /// once stopped one short) as published.
    ///
    /// Half-open loops here and in the consumers' loops (`lo..hi + 1`, not
    /// `lo..=hi`): a `RangeInclusive` carries an "exhausted" flag that the
    /// compiler kept, 12 instructions a flag instead of 5 (callgrind,
    /// `benches/probes/hot_path`). `hi + 1` does not overflow: sequences
    /// stay far below `i64::MAX` (see [`Sequence`]).
    #[inline]
    pub(crate) fn publish(&self, lo: Sequence, hi: Sequence) {
        for s in lo..hi + 1 {
            // Release: pairs with the Acquire in `is_published`; the
            // producer's writes to the event happen before a consumer reads it.
            self.flag(s).store(self.lap(s), Ordering::Release);
        }
    }

    /// True if event `sequence` is published.
    #[inline]
    pub(crate) fn is_published(&self, sequence: Sequence) -> bool {
        // Acquire: pairs with the Release in `publish`.
        self.flag(sequence).load(Ordering::Acquire) == self.lap(sequence)
    }

    /// The highest `s` in `lo - 1..=hi` such that every event of `lo..=s`
    /// is published (`lo - 1` if `lo` is not).
    #[inline]
    pub(crate) fn highest_published(&self, lo: Sequence, hi: Sequence) -> Sequence {
        for s in lo..hi + 1 {
            if !self.is_published(s) {
                return s - 1;
            }
        }
        hi
    }
}

/// One producer handle's private claim state (each `MultiProducer` clone
/// has its own, so the cache is never shared or contended).
///
/// Invariant: `cached_limit` is `m + size` for some `m` that the slowest
/// leaf had reached when this handle last loaded the leaves' sequences
/// (`Acquire`), so claiming up to it never overwrites an unconsumed event,
/// and this handle's own load is what orders the consumers' reads before
/// its writes.
#[derive(Clone)]
pub(crate) struct MultiProducerSequencer {
    cached_limit: Sequence,
}

impl MultiProducerSequencer {
    pub(crate) fn new(size: usize) -> Self {
        MultiProducerSequencer {
            cached_limit: INITIAL + size as Sequence,
        }
    }

    /// Claims `n` (in `1..=size`) consecutive sequences; returns the
    /// lowest and the highest. While the ring is full it does what `wait`
    /// says; a failed claim claims nothing (no CAS was made).
    ///
    /// A claim is a CAS from the cursor this handle saw to that plus `n`,
    /// made only once there is room: a producer waiting for room holds no
    /// claim, so a halt never leaves a claimed slot unpublished.
    #[inline]
    pub(crate) fn claim<E>(
        &mut self,
        shared: &Shared<E>,
        n: usize,
        wait: Wait,
    ) -> Result<(Sequence, Sequence), PublishError> {
        // The waiting state is made only once the ring is found full, so
        // that the fast path does not initialise it on every claim.
        let mut room: Option<RoomWait> = None;
        // Read the clock only once the ring is found full.
        let mut deadline = None;
        // Relaxed: the claim publishes nothing (the availability flags do)
        // and needs nothing from the previous claimer; room is decided by
        // this handle's own Acquire loads of the leaves' sequences.
        let mut current = shared.cursor.atomic().load(Ordering::Relaxed);
        loop {
            if shared.control.is_halted() {
                return Err(PublishError::Halted);
            }
            let next = current + n as Sequence;
            if next > self.cached_limit {
                // `=` from the consumers' position, never `+=`.
                // Acquire: pairs with each leaf's Release store of its
                // sequence, so the leaves' reads of the slots this claim
                // reuses happen before this handle's writes to them.
                self.cached_limit = shared.min_gating(current, Ordering::Acquire) + shared.size();
                if next > self.cached_limit {
                    if let Wait::Within(_) = wait {
                        deadline = deadline.or_else(|| wait.deadline());
                    }
                    if let Some(error) = give_up(wait, deadline) {
                        return Err(error);
                    }
                    room.get_or_insert_with(RoomWait::new).step();
                    current = shared.cursor.atomic().load(Ordering::Relaxed);
                    continue;
                }
            }
            // Relaxed on both sides, as the load above.
            match shared.cursor.atomic().compare_exchange_weak(
                current,
                next,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return Ok((current + 1, next)),
                Err(actual) => current = actual,
            }
        }
    }

    /// Slots a producer could claim now without waiting (others may take
    /// them first).
    pub(crate) fn remaining_capacity<E>(&self, shared: &Shared<E>) -> usize {
        // Relaxed: an estimate, as any answer is once it returns.
        let claimed = shared.cursor.atomic().load(Ordering::Relaxed);
        // Relaxed too: the estimate does not move `cached_limit`; a claim
        // that needs room loads the leaves again with Acquire.
        let consumed = shared.min_gating(claimed, Ordering::Relaxed);
        (shared.size() - (claimed - consumed).min(shared.size())) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Publishes `s` alone, and checks that exactly `s` (of the window of
    /// laps around it) reads as published.
    fn published_alone(size: usize, s: Sequence) {
        let flags = AvailabilityFlags::new(size);
        flags.publish(s, s);
        assert!(flags.is_published(s), "size {size}: {s} not published");
        let size = size as Sequence;
        for other in [s - size, s + size, s + 2 * size] {
            if other >= 0 {
                assert!(
                    !flags.is_published(other),
                    "size {size}: {other} aliases {s}"
                );
            }
        }
    }

    #[test]
    fn availability_flags_tell_laps_apart() {
        for size in [1usize, 2, 8, 1024] {
            for s in [0, 1, 7, 8, 9, 1023, 1024, 1025, 1 << 40] {
                published_alone(size, s);
            }
        }
    }

    #[test]
    fn availability_flags_tell_a_lap_from_the_one_before_across_the_byte_wrap() {
        // Laps 255 → 256 (and 511 → 512) wrap the stored byte: a slot that
        // holds lap 255 must read as published for event 255 of its slot
        // and unpublished for event 256, and the other way round after.
        for size in [1usize, 2, 8] {
            let flags = AvailabilityFlags::new(size);
            let size = size as Sequence;
            for lap in [254, 255, 256, 511, 512] {
                let s = lap * size + size - 1;
                flags.publish(s, s);
                assert!(flags.is_published(s), "size {size}, lap {lap}");
                assert!(!flags.is_published(s + size), "size {size}, lap {lap} + 1");
            }
        }
    }

    #[test]
    fn availability_flags_cover_the_whole_range_inclusive() {
        for size in [1usize, 2, 8] {
            let flags = AvailabilityFlags::new(size);
            let size = size as Sequence;
            // Publish three laps, one full ring at a time, as a producer would.
            let mut lo = 0;
            while lo < 3 * size {
                let hi = lo + size - 1;
                assert_eq!(flags.highest_published(lo, hi), lo - 1);
                flags.publish(lo, hi);
                assert_eq!(
                    flags.highest_published(lo, hi),
                    hi,
                    "size {size}, {lo}..={hi}"
                );
                lo = hi + 1;
            }
        }
    }

    #[test]
    fn highest_published_stops_at_the_first_hole() {
        let flags = AvailabilityFlags::new(8);
        flags.publish(0, 2);
        flags.publish(4, 5);
        assert_eq!(flags.highest_published(0, 5), 2);
        flags.publish(3, 3);
        assert_eq!(flags.highest_published(0, 5), 5);
        assert_eq!(flags.highest_published(6, 7), 5);
    }
}
