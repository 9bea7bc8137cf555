//! Gates: whom a consumer, or the producers, must stay behind.

use crate::sequence::{AtomicSequence, Sequence};
use crate::sync::{Arc, Ordering};

/// The sequences of the consumers someone must stay behind: a consumer's
/// direct dependencies in the graph (none for one that waits on the
/// producers alone), or, for the producers, the leaves (the consumers that
/// nobody is after).
///
/// Invariant: a consumer never passes one it is after (its own gate holds
/// it back), so its direct dependencies bound it as tightly as all of its
/// ancestors would, and the gate reads only those. A dropped
/// [`EventPoller`](crate::EventPoller) stands at [`Sequence::MAX`] and
/// bounds nothing: in its place the gate reads that poller's own gate
/// (`behind`), so whoever was behind the poller stays behind what the
/// poller was behind. (Gating on the nearest stage alone let the producers
/// lap, and the next stage overtake, a live consumer of an earlier stage
/// once a whole later stage was dropped: found by the `disruptor_model`
/// fuzz target. In a graph the fallback must be per poller, not per stage:
/// a consumer after a dropped poller C and a live D must still stay behind
/// C's own dependency, which D may be far ahead of.)
#[derive(Clone)]
pub(crate) struct Gate {
    dependencies: Box<[Dependency]>,
}

/// One consumer a gate reads.
#[derive(Clone)]
pub(crate) struct Dependency {
    pub(crate) sequence: Arc<AtomicSequence>,
    /// For an event poller: its own gate, read in its place once it is
    /// dropped. `None` for a processor (whose sequence never reaches MAX).
    pub(crate) behind: Option<Box<Gate>>,
}

impl Gate {
    pub(crate) fn new(dependencies: Vec<Dependency>) -> Self {
        Gate {
            dependencies: dependencies.into_boxed_slice(),
        }
    }

    /// How many consumers it reads directly.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.dependencies.len()
    }

    /// The slowest of the dependencies, each sequence loaded with the
    /// caller's `order`, a dropped poller standing for its own gate; `None`
    /// when there is none, or when every one resolves to none (the caller
    /// is then bounded by the producers alone).
    ///
    /// A dropped poller is passed over only after its `MAX` was loaded with
    /// `order`: with `Acquire` that pairs with the poller's Release store of
    /// `MAX` at its drop, so its reads of the events come before whatever
    /// the caller does next with them.
    #[inline]
    pub(crate) fn slowest(&self, order: Ordering) -> Option<Sequence> {
        let mut min = Sequence::MAX;
        for dependency in self.dependencies.iter() {
            let s = dependency.sequence.load(order);
            min = min.min(if s == Sequence::MAX {
                dependency.in_place_of_dropped(order)
            } else {
                s
            });
        }
        (min != Sequence::MAX).then_some(min)
    }
}

impl Dependency {
    /// What bounds in place of a dropped poller: its own gate's slowest,
    /// or `MAX` (nothing) if it was behind the producers alone.
    #[cold]
    #[inline(never)]
    fn in_place_of_dropped(&self, order: Ordering) -> Sequence {
        self.behind
            .as_ref()
            .and_then(|gate| gate.slowest(order))
            .unwrap_or(Sequence::MAX)
    }
}
