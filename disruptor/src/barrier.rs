//! Sequence barriers: how far a consumer may go.

use crate::gate::Gate;
use crate::sequence::Sequence;
use crate::shared::Shared;
use crate::sync::Ordering;
use crate::wait::{Stop, Waiter};

/// What one consumer waits on: the published events if it is in the first
/// stage, else the consumers of the stage before it (which only ever pass
/// published events).
///
/// Invariant: `dependencies` holds the sequences of every consumer of every
/// earlier stage, nearest first (none for the first stage); a consumer
/// never reads an event beyond what [`available`](Self::available) returned.
pub(crate) struct SequenceBarrier {
    dependencies: Gate,
    waiter: Waiter,
}

impl SequenceBarrier {
    pub(crate) fn new(dependencies: Gate, waiter: Waiter) -> Self {
        SequenceBarrier {
            dependencies,
            waiter,
        }
    }

    /// The highest sequence the consumer may read now, for a consumer whose
    /// next event is `next` (less than `next` if there is none).
    ///
    /// Every read that hands out an event is an `Acquire` (the sequences
    /// below, the availability flags), so the writes to each event (and a
    /// previous stage's changes to it) happen before the consumer reads it.
    #[inline]
    pub(crate) fn available<E>(&self, shared: &Shared<E>, next: Sequence) -> Sequence {
        // Acquire: pairs with the Release store of each dependency's
        // sequence (`BatchEventProcessor::run`, `EventPoller::poll`'s
        // release guard and drop), so the earlier stages' reads of and
        // writes to the events up to the bound happen before this consumer
        // touches them.
        if let Some(bound) = self.dependencies.slowest(Ordering::Acquire) {
            return bound;
        }
        // First stage, or every earlier consumer is a dropped poller: gate
        // on the producers.
        match &shared.availability {
            // Several producers: the flags alone, never the cursor. The
            // cursor is the line the producers claim on by CAS; a consumer
            // that loads it on every poll takes that line from them between
            // a producer's load and its CAS, and the claims fail and retry
            // (the report's sequencer 3P-1C on 2 cores, `BusySpin`: 1.95×
            // the events/s without the load, 95 % interval 1.88-2.52 over 21
            // interleaved rounds, `ab_disruptor_sequencer.sh`). The
            // scan stops at the first unpublished event, claimed or not:
            // `next..next + size` are `size` different slots, and no
            // producer can claim `next + size` before this consumer (or a
            // leaf behind it) has passed `next`, so no flag in the window
            // can read as a later lap. The flags' Acquire orders the
            // events' writes before the consumer reads them.
            Some(flags) => flags.highest_published(next, next + shared.size() - 1),
            // Acquire: pairs with the single producer's Release store of
            // the cursor (`Shared::publish`), so its writes to the events
            // up to `cursor` happen before the consumer reads them.
            None => shared.cursor.load(Ordering::Acquire),
        }
    }

    /// Waits, per the consumer's strategy, until `next` is available;
    /// returns the highest available sequence, or why it stopped waiting.
    #[inline]
    pub(crate) fn wait_for<E>(&self, shared: &Shared<E>, next: Sequence) -> Result<Sequence, Stop> {
        self.waiter
            .wait_for(next, &shared.control, || self.available(shared, next))
    }
}
