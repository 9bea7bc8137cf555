//! The sequential specification of a disruptor ring driven by event
//! pollers, as a [`Model`] for the linearizability checker: the producers'
//! `try_publish`, `try_batch_publish` and `remaining_capacity`, and each
//! poller's `poll`, with the pollers in stages (a poller of stage `k > 0`
//! sees an event only once every poller of stage `k - 1` has released it;
//! the producers are gated on the last stage).
//!
//! Some calls of a disruptor do their work at two instants, and the model
//! has one call per instant (the history records both over the same
//! interval, as `hotq-spsc`'s slices are recorded):
//!
//! - A poll hands out every event available when it looks ([`Call::Take`])
//!   and releases them to the producers and the next stage only after its
//!   closure has handled them ([`Call::Release`]), as its docs say ("hands
//!   every event available now to `f`, then releases them"). In between a
//!   producer still finds their slots taken: with one instant for both, a
//!   producer that published one more event and then found the ring full
//!   while the poller was handling its batch has no place in the order.
//! - A multi-producer publish claims its sequences with one CAS
//!   ([`Call::Claim`]: where room is decided and the sequence given out)
//!   and publishes each claimed event later by its availability flag
//!   ([`Call::Mark`], one per event: a batch's flags are stored one by
//!   one). A single-producer publish is one instant, its cursor store
//!   ([`Call::Publish`]): the room it found then is still there.

use crate::history::Op;
use crate::lincheck::{self, Model};

/// A disruptor sequence (`-1`: nothing yet).
pub type Sequence = i64;

/// One event as a poll handed it out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Event {
    pub seq: Sequence,
    pub value: u64,
    pub end_of_batch: bool,
}

/// What a thread asked of the disruptor.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Call {
    /// Claim and publish these events at once (one producer's
    /// `try_publish` is one value, `try_batch_publish` several):
    /// [`Ret::Published`] with the highest sequence, or [`Ret::Full`].
    Publish(Vec<u64>),
    /// Claim sequences for these events, unpublished (several producers):
    /// [`Ret::Published`] with the highest sequence, or [`Ret::Full`].
    Claim(Vec<u64>),
    /// Publish the claimed event of this sequence: [`Ret::Done`].
    Mark(Sequence),
    /// `remaining_capacity`: [`Ret::Count`].
    Capacity,
    /// A poll of this poller hands out every event available to it:
    /// [`Ret::Events`].
    Take(usize),
    /// That poll releases what it handed out: [`Ret::Done`].
    Release(usize),
}

/// What the disruptor answered.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ret {
    Published(Sequence),
    Full,
    Count(usize),
    Events(Vec<Event>),
    Done,
    /// The model's answer to a call it cannot take in its state (a mark of
    /// an unclaimed event, a release with nothing taken): never recorded,
    /// so the checker tries another order.
    Impossible,
}

/// A call of a disruptor history.
pub type RingOp = Op<Call, Ret>;

/// One poller's position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Poller {
    stage: usize,
    /// The last sequence handed out.
    taken: Sequence,
    /// The last sequence released. Invariant: `released <= taken`, and
    /// `released == taken` except between a take and its release.
    released: Sequence,
}

/// A disruptor ring of `size` with pollers in stages: the sequential
/// specification.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ring {
    size: Sequence,
    /// The sequence of `events[0]`: every event before it has been handed
    /// out to every poller, and is forgotten (a smaller state to copy and
    /// to compare in the search).
    base: Sequence,
    /// The claimed events from `base` on, by sequence: each one's value
    /// and whether it is published. The cursor (highest claimed) is the
    /// last one.
    events: Vec<(u64, bool)>,
    pollers: Vec<Poller>,
    last_stage: usize,
}

impl Ring {
    /// An empty ring of `size` (a power of two) whose stage `k` has
    /// `stages[k]` pollers, numbered stage by stage from 0.
    pub fn new(size: usize, stages: &[usize]) -> Self {
        assert!(size.is_power_of_two(), "a ring of {size}");
        assert!(
            !stages.is_empty() && stages.iter().all(|&n| n > 0),
            "every stage has a poller: {stages:?}"
        );
        let pollers = stages
            .iter()
            .enumerate()
            .flat_map(|(stage, &n)| {
                (0..n).map(move |_| Poller {
                    stage,
                    taken: -1,
                    released: -1,
                })
            })
            .collect();
        Ring {
            size: size as Sequence,
            base: 0,
            events: Vec::new(),
            pollers,
            last_stage: stages.len() - 1,
        }
    }

    fn cursor(&self) -> Sequence {
        self.base + self.events.len() as Sequence - 1
    }

    /// Event `seq` (claimed, not forgotten).
    fn event(&mut self, seq: Sequence) -> Option<&mut (u64, bool)> {
        let index = usize::try_from(seq - self.base).ok()?;
        self.events.get_mut(index)
    }

    /// The lowest release among the pollers of `stage`.
    fn released_by(&self, stage: usize) -> Sequence {
        self.pollers
            .iter()
            .filter(|p| p.stage == stage)
            .map(|p| p.released)
            .min()
            .expect("every stage has a poller")
    }

    /// Claims `values`, published or not.
    fn claim(&mut self, values: &[u64], published: bool) -> Ret {
        let n = values.len() as Sequence;
        assert!(
            (1..=self.size).contains(&n),
            "a batch of {n} in a ring of {}",
            self.size
        );
        // Room only for what every leaf has released: the slot of
        // `cursor + n` last held `cursor + n - size`.
        if self.cursor() + n > self.released_by(self.last_stage) + self.size {
            return Ret::Full;
        }
        self.events.extend(values.iter().map(|&v| (v, published)));
        Ret::Published(self.cursor())
    }

    /// The highest sequence poller `p` may be handed out now.
    fn available_to(&self, p: usize) -> Sequence {
        let from = self.pollers[p].taken + 1;
        match self.pollers[p].stage {
            // Up to the first claimed event not yet published.
            0 => {
                let published = self.events[(from - self.base) as usize..]
                    .iter()
                    .take_while(|&&(_, published)| published)
                    .count();
                from - 1 + published as Sequence
            }
            stage => self.released_by(stage - 1),
        }
    }
}

impl Model for Ring {
    type Call = Call;
    type Ret = Ret;

    fn step(&mut self, call: &Call) -> Ret {
        match *call {
            Call::Publish(ref values) => self.claim(values, true),
            Call::Claim(ref values) => self.claim(values, false),
            Call::Mark(seq) => match self.event(seq) {
                Some((_, published @ false)) => {
                    *published = true;
                    Ret::Done
                }
                _ => Ret::Impossible,
            },
            Call::Capacity => {
                let used = self.cursor() - self.released_by(self.last_stage);
                Ret::Count((self.size - used) as usize)
            }
            Call::Take(p) => {
                if self.pollers[p].taken != self.pollers[p].released {
                    return Ret::Impossible; // its previous poll has not released
                }
                let from = self.pollers[p].taken + 1;
                let to = self.available_to(p);
                let events = (from..=to)
                    .map(|seq| Event {
                        seq,
                        value: self.events[(seq - self.base) as usize].0,
                        end_of_batch: seq == to,
                    })
                    .collect();
                self.pollers[p].taken = to.max(from - 1);
                let every = self.pollers.iter().map(|p| p.taken).min();
                let forget = (every.expect("a poller") + 1 - self.base) as usize;
                self.events.drain(..forget);
                self.base += forget as Sequence;
                Ret::Events(events)
            }
            Call::Release(p) => {
                let poller = &mut self.pollers[p];
                if poller.taken == poller.released {
                    return Ret::Impossible; // nothing taken
                }
                poller.released = poller.taken;
                Ret::Done
            }
        }
    }
}

/// Checks a disruptor history against an empty [`Ring`] of `size` with
/// pollers in `stages` (see [`Ring::new`]).
pub fn check(history: &[RingOp], size: usize, stages: &[usize]) -> Result<(), String> {
    lincheck::check(&Ring::new(size, stages), history)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(thread: usize, call: Call, ret: Ret, invoked: u64, returned: u64) -> RingOp {
        Op {
            thread,
            call,
            ret,
            invoked,
            returned,
        }
    }

    fn events(from: Sequence, values: &[u64]) -> Ret {
        let last = from + values.len() as Sequence - 1;
        Ret::Events(
            values
                .iter()
                .zip(from..)
                .map(|(&value, seq)| Event {
                    seq,
                    value,
                    end_of_batch: seq == last,
                })
                .collect(),
        )
    }

    #[test]
    fn a_sequential_run_follows_the_ring() {
        let h = [
            op(0, Call::Publish(vec![10, 11]), Ret::Published(1), 0, 1),
            op(0, Call::Publish(vec![12]), Ret::Full, 2, 3),
            op(0, Call::Capacity, Ret::Count(0), 4, 5),
            op(1, Call::Take(0), events(0, &[10, 11]), 6, 7),
            op(1, Call::Release(0), Ret::Done, 6, 7),
            op(1, Call::Take(0), events(0, &[]), 8, 9),
            op(0, Call::Capacity, Ret::Count(2), 10, 11),
            op(0, Call::Publish(vec![12]), Ret::Published(2), 12, 13),
        ];
        assert_eq!(check(&h, 2, &[1]), Ok(()));
    }

    #[test]
    fn rejects_a_poll_that_misses_or_invents_an_event() {
        // The publish returned before the poll began.
        let h = [
            op(0, Call::Publish(vec![10]), Ret::Published(0), 0, 1),
            op(1, Call::Take(0), events(0, &[]), 2, 3),
        ];
        assert!(check(&h, 1, &[1]).is_err());
        let h = [
            op(0, Call::Publish(vec![10]), Ret::Published(0), 0, 1),
            op(1, Call::Take(0), events(0, &[11]), 2, 3),
            op(1, Call::Release(0), Ret::Done, 2, 3),
        ];
        assert!(check(&h, 1, &[1]).is_err());
        // An event handed out twice.
        let h = [
            op(0, Call::Publish(vec![10]), Ret::Published(0), 0, 1),
            op(1, Call::Take(0), events(0, &[10]), 2, 3),
            op(1, Call::Release(0), Ret::Done, 2, 3),
            op(1, Call::Take(0), events(0, &[10]), 4, 5),
            op(1, Call::Release(0), Ret::Done, 4, 5),
        ];
        assert!(check(&h, 1, &[1]).is_err());
    }

    #[test]
    fn full_is_exact_against_the_slowest_leaf() {
        // Two leaves: one released event 0, the other did not.
        let h = [
            op(0, Call::Publish(vec![10]), Ret::Published(0), 0, 1),
            op(1, Call::Take(0), events(0, &[10]), 2, 3),
            op(1, Call::Release(0), Ret::Done, 2, 3),
            op(0, Call::Publish(vec![11]), Ret::Full, 4, 5),
        ];
        assert_eq!(check(&h, 1, &[2]), Ok(()));
        assert!(check(&h, 1, &[1]).is_err(), "a spurious full");
        let h = [
            op(0, Call::Publish(vec![10]), Ret::Published(0), 0, 1),
            op(0, Call::Publish(vec![11]), Ret::Published(1), 2, 3),
        ];
        assert!(check(&h, 1, &[1]).is_err(), "an overwritten event");
    }

    #[test]
    fn a_later_stage_waits_for_the_release_of_the_one_before() {
        let h = [
            op(0, Call::Publish(vec![10]), Ret::Published(0), 0, 1),
            op(1, Call::Take(0), events(0, &[10]), 2, 10),
            // Overlaps the first stage's poll, which has taken but maybe
            // not released: either answer is right.
            op(2, Call::Take(1), events(0, &[]), 3, 4),
            op(1, Call::Release(0), Ret::Done, 2, 10),
            op(2, Call::Take(1), events(0, &[10]), 11, 12),
            op(2, Call::Release(1), Ret::Done, 11, 12),
        ];
        assert_eq!(check(&h, 1, &[1, 1]), Ok(()));
        // A second-stage poll after the first stage's release must see it.
        let mut late = h.to_vec();
        late[4].ret = events(0, &[]);
        late.pop();
        assert!(check(&late, 1, &[1, 1]).is_err());
        // The producer is gated on the last stage, not the first.
        let h = [
            op(0, Call::Publish(vec![10]), Ret::Published(0), 0, 1),
            op(1, Call::Take(0), events(0, &[10]), 2, 3),
            op(1, Call::Release(0), Ret::Done, 2, 3),
            op(0, Call::Publish(vec![11]), Ret::Published(1), 4, 5),
        ];
        assert!(check(&h, 1, &[1, 1]).is_err());
    }

    #[test]
    fn a_poll_stops_at_the_first_unpublished_claim() {
        let h = [
            op(0, Call::Claim(vec![10]), Ret::Published(0), 0, 20),
            op(1, Call::Claim(vec![11]), Ret::Published(1), 1, 2),
            op(1, Call::Mark(1), Ret::Done, 1, 2),
            // Event 0's publish is still in flight: 1 waits behind it.
            op(2, Call::Take(0), events(0, &[]), 3, 4),
            op(0, Call::Mark(0), Ret::Done, 0, 20),
            op(2, Call::Take(0), events(0, &[10, 11]), 21, 22),
            op(2, Call::Release(0), Ret::Done, 21, 22),
        ];
        assert_eq!(check(&h, 2, &[1]), Ok(()));
        // Handing out 1 before 0 is published, or without 0, is wrong.
        let mut skipped = h.to_vec();
        skipped[3].ret = Ret::Events(vec![Event {
            seq: 1,
            value: 11,
            end_of_batch: true,
        }]);
        assert!(check(&skipped, 2, &[1]).is_err());
        // Once both publishes returned, a poll must see both.
        let mut stale = h.to_vec();
        stale[5].ret = events(0, &[10]);
        assert!(check(&stale, 2, &[1]).is_err());
    }

    #[test]
    fn the_producer_waits_for_the_release_not_the_take() {
        // The poll has taken event 0 and is handling it when the producer
        // finds the ring of 1 full: right, the slot is not released yet.
        let h = [
            op(0, Call::Publish(vec![10]), Ret::Published(0), 0, 1),
            op(1, Call::Take(0), events(0, &[10]), 2, 10),
            op(1, Call::Release(0), Ret::Done, 2, 10),
            op(0, Call::Publish(vec![11]), Ret::Full, 3, 4),
        ];
        assert_eq!(check(&h, 1, &[1]), Ok(()));
        // The poll took event 0 alone; the producer then published 1 and
        // found no room for 2, the poll not having released 0. With one
        // instant for the poll's take and release there is no order: the
        // take must come before 1 is published, and the release before
        // the full.
        let h = [
            op(0, Call::Publish(vec![10]), Ret::Published(0), 0, 1),
            op(1, Call::Take(0), events(0, &[10]), 2, 10),
            op(0, Call::Publish(vec![11]), Ret::Published(1), 3, 4),
            op(0, Call::Publish(vec![12]), Ret::Full, 5, 6),
            op(1, Call::Release(0), Ret::Done, 2, 10),
        ];
        assert_eq!(check(&h, 2, &[1]), Ok(()));
    }
}
