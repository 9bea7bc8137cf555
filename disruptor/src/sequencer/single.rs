//! The single-producer sequencer: the producer alone moves the cursor.

use crate::error::PublishError;
use crate::sequence::{INITIAL, Sequence};
use crate::sequencer::RoomWait;
use crate::shared::Shared;

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

    /// Claims `n` (in `1..=size`) sequences; returns the highest. Waits for
    /// room if `wait`, else fails with `Full`.
    #[inline]
    pub(crate) fn claim<E>(
        &mut self,
        shared: &Shared<E>,
        n: usize,
        wait: bool,
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
        wait: bool,
    ) -> Result<(), PublishError> {
        let mut room = RoomWait::new();
        loop {
            // `=`, not `+=`: the limit is recomputed from the consumers'
            // position (disruptor-rs added the free count to the old limit,
            // letting its producer overwrite unread events).
            self.cached_limit = shared.min_gating(self.next_value) + shared.size();
            if next <= self.cached_limit {
                return Ok(());
            }
            if !wait {
                return Err(PublishError::Full);
            }
            if shared.control.is_halted() {
                return Err(PublishError::Halted);
            }
            room.step();
        }
    }

    /// Slots the producer could claim now without waiting.
    pub(crate) fn remaining_capacity<E>(&self, shared: &Shared<E>) -> usize {
        let consumed = shared.min_gating(self.next_value);
        shared.size() as usize - (self.next_value - consumed) as usize
    }
}
