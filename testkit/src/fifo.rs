//! The sequential specification of a bounded FIFO queue, as a
//! [`Model`] for the linearizability checker. One call type covers every
//! operation of the hotq queues: single items (`push`, `force_push`, `pop`,
//! `peek`), slices and chunks (several items at one linearization point),
//! and observations (`len`-style counts, `is_empty`, `is_full`).

use std::collections::VecDeque;

use crate::history::Op;
use crate::lincheck::{self, Model};

/// What a thread asked of the queue.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Call {
    /// Insert one item, or answer [`Ret::Full`].
    Push(u64),
    /// Insert one item, evicting the oldest if full: [`Ret::Evicted`].
    ForcePush(u64),
    /// Remove the oldest item: [`Ret::Popped`].
    Pop,
    /// Look at the oldest item without removing it: [`Ret::Peeked`].
    Peek,
    /// Insert as many of these (in order) as fit: [`Ret::Count`].
    PushSlice(Vec<u64>),
    /// Reserve `reserve` free slots ([`Ret::TooFew`] with the free count if
    /// there are fewer), then insert `values` (at most `reserve`) at once:
    /// [`Ret::Pushed`].
    WriteChunk { reserve: usize, values: Vec<u64> },
    /// Remove up to `max` items: [`Ret::Values`].
    PopSlice(usize),
    /// Insert a prefix of `values` at once, of a length the queue chooses:
    /// `took`, which must be at least 1 when there is room and `values` is
    /// not empty, 0 otherwise, and never more than fits: [`Ret::Count`] of
    /// `took`. A batch claim that stops at the first slot not free yet
    /// (hotq-mpmc's `push_many`). `took` is what the call returned: an
    /// order in which it breaks those bounds is rejected.
    PushUpTo { values: Vec<u64>, took: usize },
    /// Remove a prefix of the items at once, of a length the queue
    /// chooses: `took`, at least 1 when there are items and `max > 0`, 0
    /// otherwise, never more than `max` or than there are: [`Ret::Values`].
    /// A batch claim that stops at the first item not published yet
    /// (hotq-mpmc's `pop_many`).
    PopUpTo { max: usize, took: usize },
    /// Look at the oldest `reserve` items ([`Ret::TooFew`] with the count if
    /// there are fewer) and remove the first `commit` of them at once:
    /// [`Ret::Values`] of all `reserve` looked at.
    ReadChunk { reserve: usize, commit: usize },
    /// How many items are inside: [`Ret::Count`].
    Len,
    /// How many free slots there are: [`Ret::Count`].
    Free,
    /// [`Ret::Bool`].
    IsEmpty,
    /// [`Ret::Bool`].
    IsFull,
}

/// What the queue answered.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ret {
    Pushed,
    Full,
    /// `force_push`'s answer: the evicted item, if any.
    Evicted(Option<u64>),
    Popped(Option<u64>),
    Peeked(Option<u64>),
    Count(usize),
    Values(Vec<u64>),
    TooFew(usize),
    Bool(bool),
}

/// A call of a FIFO history.
pub type FifoOp = Op<Call, Ret>;

/// A bounded FIFO queue of `capacity`: the sequential specification.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BoundedFifo {
    capacity: usize,
    items: VecDeque<u64>,
}

impl BoundedFifo {
    /// An empty queue of `capacity`.
    pub fn new(capacity: usize) -> Self {
        BoundedFifo {
            capacity,
            items: VecDeque::new(),
        }
    }

    fn free(&self) -> usize {
        self.capacity - self.items.len()
    }
}

impl Model for BoundedFifo {
    type Call = Call;
    type Ret = Ret;

    fn step(&mut self, call: &Call) -> Ret {
        match *call {
            Call::Push(v) => {
                if self.free() == 0 {
                    return Ret::Full;
                }
                self.items.push_back(v);
                Ret::Pushed
            }
            Call::ForcePush(v) => {
                let evicted = if self.free() == 0 {
                    self.items.pop_front()
                } else {
                    None
                };
                self.items.push_back(v);
                Ret::Evicted(evicted)
            }
            Call::Pop => Ret::Popped(self.items.pop_front()),
            Call::Peek => Ret::Peeked(self.items.front().copied()),
            Call::PushSlice(ref values) => {
                let n = values.len().min(self.free());
                self.items.extend(&values[..n]);
                Ret::Count(n)
            }
            Call::WriteChunk {
                reserve,
                ref values,
            } => {
                assert!(values.len() <= reserve, "a chunk commits what it reserved");
                if self.free() < reserve {
                    return Ret::TooFew(self.free());
                }
                self.items.extend(values);
                Ret::Pushed
            }
            Call::PopSlice(max) => {
                let n = max.min(self.items.len());
                Ret::Values(self.items.drain(..n).collect())
            }
            Call::PushUpTo { ref values, took } => {
                if !took_fits(took, values.len().min(self.free())) {
                    return Ret::TooFew(usize::MAX);
                }
                self.items.extend(&values[..took]);
                Ret::Count(took)
            }
            Call::PopUpTo { max, took } => {
                if !took_fits(took, max.min(self.items.len())) {
                    return Ret::TooFew(usize::MAX);
                }
                Ret::Values(self.items.drain(..took).collect())
            }
            Call::ReadChunk { reserve, commit } => {
                assert!(commit <= reserve, "a chunk commits what it reserved");
                if self.items.len() < reserve {
                    return Ret::TooFew(self.items.len());
                }
                let seen = self.items.iter().take(reserve).copied().collect();
                self.items.drain(..commit);
                Ret::Values(seen)
            }
            Call::Len => Ret::Count(self.items.len()),
            Call::Free => Ret::Count(self.free()),
            Call::IsEmpty => Ret::Bool(self.items.is_empty()),
            Call::IsFull => Ret::Bool(self.free() == 0),
        }
    }
}

/// Whether a batch that moved `took` items, when `most` could have moved,
/// kept its bounds: some (at least one) when any could move, none
/// otherwise. (Breaking them answers [`Ret::TooFew`]`(usize::MAX)`, which no
/// call records, so the order is rejected.)
fn took_fits(took: usize, most: usize) -> bool {
    if most == 0 {
        took == 0
    } else {
        (1..=most).contains(&took)
    }
}

/// Checks a FIFO history against an empty [`BoundedFifo`] of `capacity`.
pub fn check(history: &[FifoOp], capacity: usize) -> Result<(), String> {
    lincheck::check(&BoundedFifo::new(capacity), history)
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::Rng;
    use crate::history::{self, Body, Log};

    /// A history op from (thread, call, result, invoked, returned).
    fn op(thread: usize, call: Call, ret: Ret, invoked: u64, returned: u64) -> FifoOp {
        Op {
            thread,
            call,
            ret,
            invoked,
            returned,
        }
    }

    #[test]
    fn accepts_overlapping_calls_in_either_order() {
        // Two pushes overlap, so the pops may see them in either order.
        let h = [
            op(0, Call::Push(1), Ret::Pushed, 0, 10),
            op(1, Call::Push(2), Ret::Pushed, 5, 15),
            op(0, Call::Pop, Ret::Popped(Some(2)), 20, 30),
            op(1, Call::Pop, Ret::Popped(Some(1)), 31, 40),
            op(0, Call::Pop, Ret::Popped(None), 41, 50),
        ];
        assert_eq!(check(&h, 2), Ok(()));
        // A pop that overlaps a push may miss it (it came first)...
        let h = [
            op(0, Call::Push(1), Ret::Pushed, 0, 10),
            op(1, Call::Pop, Ret::Popped(None), 5, 6),
        ];
        assert_eq!(check(&h, 1), Ok(()));
        // ... and a push that overlaps a pop may see the queue still full.
        let h = [
            op(0, Call::Push(1), Ret::Pushed, 0, 1),
            op(1, Call::Pop, Ret::Popped(Some(1)), 2, 10),
            op(0, Call::Push(2), Ret::Full, 3, 4),
        ];
        assert_eq!(check(&h, 1), Ok(()));
    }

    #[test]
    fn batches_of_a_chosen_length_are_prefixes_within_their_bounds() {
        // Two items in; a batch pop may take one of them (a short batch)...
        let h = [
            op(
                0,
                Call::PushUpTo {
                    values: vec![1, 2, 3],
                    took: 2,
                },
                Ret::Count(2),
                0,
                1,
            ),
            op(
                1,
                Call::PopUpTo { max: 5, took: 1 },
                Ret::Values(vec![1]),
                2,
                3,
            ),
            op(
                1,
                Call::PopUpTo { max: 5, took: 1 },
                Ret::Values(vec![2]),
                4,
                5,
            ),
            op(
                1,
                Call::PopUpTo { max: 5, took: 0 },
                Ret::Values(vec![]),
                6,
                7,
            ),
        ];
        assert_eq!(check(&h, 2), Ok(()));
        // ... but not none while they are there,
        let h = [
            op(
                0,
                Call::PushUpTo {
                    values: vec![1, 2],
                    took: 2,
                },
                Ret::Count(2),
                0,
                1,
            ),
            op(
                1,
                Call::PopUpTo { max: 5, took: 0 },
                Ret::Values(vec![]),
                2,
                3,
            ),
        ];
        assert!(check(&h, 2).is_err());
        // nor more than `max`, nor any but the oldest,
        let h = [
            op(
                0,
                Call::PushUpTo {
                    values: vec![1, 2],
                    took: 2,
                },
                Ret::Count(2),
                0,
                1,
            ),
            op(
                1,
                Call::PopUpTo { max: 1, took: 2 },
                Ret::Values(vec![1, 2]),
                2,
                3,
            ),
        ];
        assert!(check(&h, 2).is_err());
        let h = [
            op(
                0,
                Call::PushUpTo {
                    values: vec![1, 2],
                    took: 2,
                },
                Ret::Count(2),
                0,
                1,
            ),
            op(
                1,
                Call::PopUpTo { max: 1, took: 1 },
                Ret::Values(vec![2]),
                2,
                3,
            ),
        ];
        assert!(check(&h, 2).is_err());
        // and a batch push takes none only when full, never more than fits.
        let h = [op(
            0,
            Call::PushUpTo {
                values: vec![1],
                took: 0,
            },
            Ret::Count(0),
            0,
            1,
        )];
        assert!(check(&h, 2).is_err());
        let h = [op(
            0,
            Call::PushUpTo {
                values: vec![1, 2, 3],
                took: 3,
            },
            Ret::Count(3),
            0,
            1,
        )];
        assert!(check(&h, 2).is_err());
    }

    #[test]
    fn rejects_lifo_order() {
        let h = [
            op(0, Call::Push(1), Ret::Pushed, 0, 1),
            op(0, Call::Push(2), Ret::Pushed, 2, 3),
            op(1, Call::Pop, Ret::Popped(Some(2)), 4, 5),
        ];
        assert!(check(&h, 2).is_err());
    }

    #[test]
    fn rejects_a_lost_item() {
        // The push returned before the pop began, yet the pop saw nothing.
        let h = [
            op(0, Call::Push(1), Ret::Pushed, 0, 1),
            op(1, Call::Pop, Ret::Popped(None), 2, 3),
        ];
        assert!(check(&h, 1).is_err());
    }

    #[test]
    fn rejects_a_duplicated_item() {
        let h = [
            op(0, Call::Push(1), Ret::Pushed, 0, 1),
            op(1, Call::Pop, Ret::Popped(Some(1)), 2, 5),
            op(2, Call::Pop, Ret::Popped(Some(1)), 3, 6),
        ];
        assert!(check(&h, 1).is_err());
    }

    #[test]
    fn rejects_a_spurious_full_and_a_wrong_eviction() {
        let h = [op(0, Call::Push(1), Ret::Full, 0, 1)];
        assert!(check(&h, 1).is_err());
        let h = [
            op(0, Call::Push(1), Ret::Pushed, 0, 1),
            op(0, Call::Push(2), Ret::Pushed, 2, 3),
            op(0, Call::ForcePush(3), Ret::Evicted(Some(2)), 4, 5),
        ];
        assert!(check(&h, 2).is_err());
    }

    #[test]
    fn chunks_and_observations_follow_the_model() {
        let h = [
            op(
                0,
                Call::WriteChunk {
                    reserve: 3,
                    values: vec![1, 2],
                },
                Ret::Pushed,
                0,
                1,
            ),
            op(0, Call::Free, Ret::Count(1), 2, 3),
            op(
                1,
                Call::ReadChunk {
                    reserve: 2,
                    commit: 1,
                },
                Ret::Values(vec![1, 2]),
                4,
                5,
            ),
            op(1, Call::Len, Ret::Count(1), 6, 7),
            op(0, Call::PushSlice(vec![3, 4, 5]), Ret::Count(2), 8, 9),
            op(0, Call::IsFull, Ret::Bool(true), 10, 11),
            op(1, Call::PopSlice(5), Ret::Values(vec![2, 3, 4]), 12, 13),
            op(1, Call::IsEmpty, Ret::Bool(true), 14, 15),
        ];
        assert_eq!(check(&h, 3), Ok(()));
        // A chunk that reserved more than was free at every instant.
        let h = [
            op(0, Call::Push(1), Ret::Pushed, 0, 1),
            op(
                0,
                Call::WriteChunk {
                    reserve: 2,
                    values: vec![2],
                },
                Ret::Pushed,
                2,
                3,
            ),
        ];
        assert!(check(&h, 2).is_err());
        // A read chunk whose uncommitted item vanished.
        let h = [
            op(0, Call::PushSlice(vec![1, 2]), Ret::Count(2), 0, 1),
            op(
                1,
                Call::ReadChunk {
                    reserve: 2,
                    commit: 1,
                },
                Ret::Values(vec![1, 2]),
                2,
                3,
            ),
            op(1, Call::Len, Ret::Count(0), 4, 5),
        ];
        assert!(check(&h, 2).is_err());
    }

    /// How a deliberately broken reference queue misbehaves.
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Fault {
        None,
        /// `pop` takes the newest item.
        Lifo,
        /// Every third accepted push is reported `Pushed` but dropped.
        LostItem,
        /// Every other `pop` reports empty without looking.
        SpuriousEmpty,
        /// Every third `pop` returns the oldest item but leaves it inside.
        Duplicate,
    }

    /// A `Mutex<VecDeque>` queue of `capacity` with `fault`.
    struct Reference {
        capacity: usize,
        fault: Fault,
        items: Mutex<VecDeque<u64>>,
        calls: AtomicUsize,
    }

    impl Reference {
        fn push(&self, v: u64) -> bool {
            let mut items = self.items.lock().unwrap();
            if items.len() == self.capacity {
                return false;
            }
            let n = self.calls.fetch_add(1, Ordering::Relaxed);
            if !(self.fault == Fault::LostItem && n % 3 == 2) {
                items.push_back(v);
            }
            true
        }

        fn pop(&self) -> Option<u64> {
            let mut items = self.items.lock().unwrap();
            let n = self.calls.fetch_add(1, Ordering::Relaxed);
            match self.fault {
                Fault::Lifo => items.pop_back(),
                Fault::SpuriousEmpty if n % 2 == 1 => None,
                Fault::Duplicate if n % 3 == 2 => items.front().copied(),
                _ => items.pop_front(),
            }
        }
    }

    /// One history of 3 threads × 30 random pushes and pops on a
    /// [`Reference`] of capacity 2.
    fn history_of(fault: Fault, seed: u64) -> Vec<FifoOp> {
        let queue = Reference {
            capacity: 2,
            fault,
            items: Mutex::new(VecDeque::new()),
            calls: AtomicUsize::new(0),
        };
        let queue = &queue;
        let bodies: Vec<Body<'_, Call, Ret>> = (0..3)
            .map(|t| {
                Box::new(move |log: &mut Log<Call, Ret>| {
                    let mut rng = Rng::for_thread(seed, t);
                    for seq in 0..30u64 {
                        rng.pause(32);
                        let v = (t as u64) << 32 | seq;
                        if rng.below(2) == 0 {
                            log.record(
                                Call::Push(v),
                                || queue.push(v),
                                |ok| {
                                    if ok { Ret::Pushed } else { Ret::Full }
                                },
                            );
                        } else {
                            log.record(Call::Pop, || queue.pop(), Ret::Popped);
                        }
                    }
                }) as Body<'_, Call, Ret>
            })
            .collect();
        history::run(bodies)
    }

    const RUNS: u64 = if cfg!(miri) { 2 } else { 50 };

    #[test]
    fn accepts_every_history_of_a_correct_queue() {
        for seed in 0..RUNS {
            let h = history_of(Fault::None, seed);
            assert_eq!(check(&h, 2), Ok(()), "seed {seed}");
        }
    }

    #[test]
    fn rejects_histories_of_broken_queues() {
        for fault in [
            Fault::Lifo,
            Fault::LostItem,
            Fault::SpuriousEmpty,
            Fault::Duplicate,
        ] {
            let rejected = (0..RUNS)
                .filter(|&seed| check(&history_of(fault, seed), 2).is_err())
                .count();
            // Each fault shows in almost every history; one is enough.
            assert!(rejected > 0, "{fault:?}: all {RUNS} histories accepted");
        }
    }
}
