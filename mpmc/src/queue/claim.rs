//! A push in two steps, for a channel's permits and a select's send arm:
//! [`Queue::claim`] takes the slot at `tail` (the claim of `push`), and
//! `Queue::fill` (`queue/reserve.rs`) later writes the value into it and
//! publishes it (the rest of `push`).
//! A select learns that a send can go ahead before its caller has the
//! value to send (`select!` evaluates a send arm's value only once that
//! arm is chosen), so it must hold the slot meanwhile, as
//! `crossbeam_channel`'s select does.
//!
//! A claimed slot reads as a push preempted between claim and publish:
//! consumers that reach it wait for it (see `Queue::pop`). So a holder
//! marks it reserved at once (`Queue::reserve`, `queue/reserve.rs`), and
//! consumers then read it as "empty for now". The orderings are `push`'s,
//! for its reasons, each argued at its site in `push_or_else`.

use super::{Queue, is_closed_gap, moved_past};
use crate::sync::{Backoff, Ordering, Position, fence};

impl<T> Queue<T> {
    /// Claims the slot at `tail` for `Queue::reserve`, or returns `None`
    /// when the queue is full or closed.
    pub(crate) fn claim(&self) -> Option<Position> {
        let backoff = Backoff::new();
        let mut tail = self.tail.load(Ordering::Relaxed);
        loop {
            let slot = self.slot(tail);
            let new_tail = self.step(tail);
            // Acquire pairs with the Release stamp store in `pop` (or
            // `force_push`) that freed the slot: last lap's read of the
            // value happens before our write in `fill`.
            let stamp = slot.stamp.load(Ordering::Acquire);
            if stamp == tail {
                // SeqCst: a producer's claim, in the one total order with
                // the consumers' fences and the waiters' flag loads, for
                // the reason at the claim in `push_or_else`.
                match self.tail.compare_exchange_weak(
                    tail,
                    new_tail,
                    Ordering::SeqCst,
                    Ordering::Relaxed,
                ) {
                    Ok(_) => return Some(tail),
                    Err(current) => {
                        tail = current;
                        backoff.spin();
                    }
                }
            } else {
                // The oldest slot a tombstone (a dropped permit): skip it
                // (or let the thread that did finish), and look again.
                if !self.skip_oldest_tombstone(tail, stamp) && !moved_past(stamp, tail) {
                    // SeqCst fence: as in `push_or_else`, pairs with the
                    // consumers' SeqCst claims in `pop` and with the fence
                    // of `pop`'s own check: "full" only if no pop had
                    // claimed an item by then. It is also the fence after a
                    // select's waiter-flag stores (`channel/select.rs`).
                    fence(Ordering::SeqCst);
                    // Full, or closed (a closed queue's `tail` has jumped
                    // past every slot: no stamp ever matches it again, so
                    // without this check the loop would never end).
                    let gap = tail.wrapping_sub(self.head.load(Ordering::Relaxed));
                    if gap == self.one_lap || is_closed_gap(gap) {
                        return None;
                    }
                }
                backoff.snooze();
                tail = self.tail.load(Ordering::Relaxed);
            }
        }
    }
}
