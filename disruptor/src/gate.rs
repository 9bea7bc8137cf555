//! Gates: whom a consumer, or the producers, must stay behind.

use crate::sequence::{AtomicSequence, Sequence, minimum};
use crate::sync::{Arc, Ordering};

/// The consumers' sequences of a chain of stages, nearest stage first. A
/// consumer's gate lists every stage before its own; the producers' gate
/// lists every stage, the last one first.
///
/// Invariant: a consumer never passes a consumer of an earlier stage (its
/// own gate holds it back), so the nearest stage with a live consumer gives
/// the tightest bound and the stages behind it are only read when it has
/// none. A dropped [`EventPoller`](crate::EventPoller) stands at
/// [`Sequence::MAX`] and bounds nothing: when every consumer of a stage is
/// dropped, the stage before it bounds in its place. (Gating on the nearest
/// stage alone let the producers lap, and the next stage overtake, a live
/// consumer of an earlier stage once a whole later stage was dropped: found
/// by the `disruptor_model` fuzz target.)
pub(crate) struct Gate {
    stages: Box<[Box<[Arc<AtomicSequence>]>]>,
}

impl Gate {
    /// `stages`, nearest first; none for a consumer of the first stage.
    pub(crate) fn new(stages: Vec<Box<[Arc<AtomicSequence>]>>) -> Self {
        Gate {
            stages: stages.into_boxed_slice(),
        }
    }

    /// The slowest live consumer of the nearest stage that has one, each
    /// sequence loaded with the caller's `order`; `None` when there is no
    /// stage or every consumer of every stage is dropped.
    ///
    /// A stage found all dropped is passed over only after its `MAX` was
    /// loaded with `order`: with `Acquire` that pairs with each poller's
    /// Release store of `MAX` at its drop, so its reads of the events come
    /// before whatever the caller does next with them.
    #[inline]
    pub(crate) fn slowest(&self, order: Ordering) -> Option<Sequence> {
        self.stages.iter().find_map(|stage| {
            let min = minimum(stage, Sequence::MAX, order);
            (min != Sequence::MAX).then_some(min)
        })
    }
}
