//! The single-producer sequencer: the producer alone moves the cursor.

use crate::error::PublishError;
use crate::sequence::{INITIAL, Sequence};
use crate::sequencer::{RoomWait, Wait, give_up};
use crate::shared::Shared;
use crate::sync::Ordering;

/// The producer's private claim state.
///
/// Invariants: `INITIAL <= next_value`; every sequence up to `next_value` is
/// claimed (and published once the claim call returns); `cached_limit` is
/// `m + size` for some `m` that the slowest leaf consumer had reached
/// (loaded with `Acquire`) no later than now, so every sequence up to
/// `cached_limit` lands in a slot that every leaf has finished with.
/// Consumers only move forward, so a stale `cached_limit` is only too small,
/// never too large.
pub(crate) struct SingleProducerSequencer {
    next_value: Sequence,
    cached_limit: Sequence,
}

impl SingleProducerSequencer {
    pub(crate) fn new(size: usize) -> Self {
        SingleProducerSequencer {
            next_value: INITIAL,
            // Every leaf starts at INITIAL: the first lap is free.
            cached_limit: INITIAL + size as Sequence,
        }
    }

    /// Claims `n` (in `1..=size`) sequences; returns the highest. While the
    /// ring is full it does what `wait` says. A failed claim claims nothing.
    #[inline]
    pub(crate) fn claim<E>(
        &mut self,
        shared: &Shared<E>,
        n: usize,
        wait: Wait,
    ) -> Result<Sequence, PublishError> {
        if shared.control.is_halted() {
            return Err(PublishError::Halted);
        }
        let next = self.next_value + n as Sequence;
        if next > self.cached_limit {
            self.refresh(shared, next, wait)?;
        }
        self.next_value = next;
        Ok(next)
    }

    #[cold]
    fn refresh<E>(
        &mut self,
        shared: &Shared<E>,
        next: Sequence,
        wait: Wait,
    ) -> Result<(), PublishError> {
        let mut room = RoomWait::new();
        let deadline = wait.deadline();
        loop {
            // `=`, not `+=`: the limit is recomputed from the consumers'
            // position (disruptor-rs added the free count to the old limit,
            // letting its producer overwrite unread events).
            // Acquire: pairs with each leaf's Release store of its
            // sequence (`BatchEventProcessor::run`, `EventPoller`), so every
            // leaf's reads of the slots it passed happen before this
            // producer overwrites them.
            self.cached_limit =
                shared.min_gating(self.next_value, Ordering::Acquire) + shared.size();
            if next <= self.cached_limit {
                return Ok(());
            }
            if let Some(error) = give_up(wait, deadline) {
                return Err(error);
            }
            if shared.control.is_halted() {
                return Err(PublishError::Halted);
            }
            room.step();
        }
    }

    /// Slots the producer could claim now without waiting.
    pub(crate) fn remaining_capacity<E>(&self, shared: &Shared<E>) -> usize {
        // Relaxed: an estimate returned to the caller (stale as soon as it
        // returns); it does not move `cached_limit`, so no claim relies on
        // it: a claim that needs room loads the leaves again with Acquire.
        let consumed = shared.min_gating(self.next_value, Ordering::Relaxed);
        shared.size() as usize - (self.next_value - consumed) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Drives the sequencer against a model: a claim of `n` succeeds iff
    /// its last sequence is at most a ring ahead of the slowest leaf. The
    /// leaves move by hand, unevenly, across many laps; the cache must
    /// never let a claim through that the model refuses (the disruptor-rs
    /// `+=` bug did) nor refuse one it allows.
    #[test]
    fn cached_limit_never_passes_the_slowest_leaf() {
        for size in [1usize, 2, 8] {
            let (shared, leaves) = Shared::for_test(size, false, 2);
            let mut seq = SingleProducerSequencer::new(size);
            let size_s = size as Sequence;
            let mut claimed = INITIAL;
            let mut rng = 0x2545_f491_4f6c_dd1du64;
            let mut next_rand = || {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                rng
            };
            // Under miri 500 rounds: still hundreds of laps of each ring.
            for _ in 0..if cfg!(miri) { 500 } else { 5_000 } {
                let n = 1 + (next_rand() % size as u64) as usize;
                // Relaxed in this test: one thread moves the leaves by hand.
                let slowest = leaves
                    .iter()
                    .map(|l| l.load(Ordering::Relaxed))
                    .min()
                    .unwrap();
                let allowed = claimed + n as Sequence - size_s <= slowest;
                match seq.claim(&shared, n, Wait::No) {
                    Ok(hi) => {
                        assert!(
                            allowed,
                            "size {size}: claimed up to {hi} with the slowest leaf at {slowest}"
                        );
                        assert_eq!(hi, claimed + n as Sequence);
                        claimed = hi;
                        shared.publish::<true>(hi - n as Sequence + 1, hi);
                    }
                    Err(e) => {
                        assert_eq!(e, PublishError::Full);
                        assert!(
                            !allowed,
                            "size {size}: refused {n} with room (slowest {slowest}, claimed {claimed})"
                        );
                    }
                }
                assert_eq!(
                    seq.remaining_capacity(&shared) as Sequence,
                    size_s
                        - (claimed
                            - leaves
                                .iter()
                                .map(|l| l.load(Ordering::Relaxed))
                                .min()
                                .unwrap())
                );
                // Each leaf moves forward by a random step, up to what is published.
                for leaf in &leaves {
                    let at = leaf.load(Ordering::Relaxed);
                    let step = (next_rand() % (size as u64 + 1)) as Sequence;
                    leaf.store((at + step).min(claimed), Ordering::Relaxed);
                }
            }
        }
    }

    #[test]
    fn a_halted_claim_fails_even_with_room() {
        let (shared, _leaves) = Shared::for_test(4, false, 1);
        let mut seq = SingleProducerSequencer::new(4);
        shared.control.halt();
        assert_eq!(
            seq.claim(&shared, 1, Wait::Forever),
            Err(PublishError::Halted)
        );
    }
}
