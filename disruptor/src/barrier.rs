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
        // Acquire: pairs with the single producer's Release store of the
        // cursor (`Shared::publish`), so its writes to the events up to
        // `cursor` happen before the consumer reads them. (With several
        // producers the cursor only says what is claimed and the
        // availability flags' Acquire does this job; the same load serves
        // both.)
        let cursor = shared.cursor.load(Ordering::Acquire);
        if cursor < next {
            return cursor;
        }
        shared.highest_published(next, cursor)
    }

    /// Waits, per the consumer's strategy, until `next` is available;
    /// returns the highest available sequence, or why it stopped waiting.
    #[inline]
    pub(crate) fn wait_for<E>(&self, shared: &Shared<E>, next: Sequence) -> Result<Sequence, Stop> {
        self.waiter
            .wait_for(next, &shared.control, || self.available(shared, next))
    }
}
