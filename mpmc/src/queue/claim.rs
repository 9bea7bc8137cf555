//! A push in two steps, for a select's send arm: [`Queue::claim`] takes
//! the slot at `tail` (the claim of `push`), and [`Queue::write_claimed`]
//! later writes the value into it and publishes it (the rest of `push`).
//! A select learns that a send can go ahead before its caller has the
//! value to send (`select!` evaluates a send arm's value only once that
//! arm is chosen), so it must hold the slot meanwhile, as
//! `crossbeam_channel`'s select does.
//!
//! Between the two steps the slot is claimed and not yet published, as in
//! a push whose thread is preempted there: consumers that reach it wait
//! for it (see `Queue::pop`). The orderings are `push`'s, for its
//! reasons, each argued at its site in `push_or_else`.

use super::{Queue, moved_past};
use crate::sync::{Backoff, Ordering, Position, fence};
use core::mem::MaybeUninit;

impl<T> Queue<T> {
    /// Claims the slot at `tail` for a later [`write_claimed`]
    /// (Self::write_claimed), or returns `None` when the queue is full.
    /// The caller must write the claimed position exactly once: until it
    /// does, consumers reaching the slot wait.
    pub(crate) fn claim(&self) -> Option<Position> {
        let backoff = Backoff::new();
        let mut tail = self.tail.load(Ordering::Relaxed);
        loop {
            let slot = self.slot(tail);
            let new_tail = self.step(tail);
            // Acquire pairs with the Release stamp store in `pop` (or
            // `force_push`) that freed the slot: last lap's read of the
            // value happens before our write in `write_claimed`.
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
                if !moved_past(stamp, tail) {
                    // SeqCst fence: as in `push_or_else`, pairs with the
                    // consumers' SeqCst claims in `pop` and with the fence
                    // of `pop`'s own check: "full" only if no pop had
                    // claimed an item by then. It is also the fence after a
                    // select's waiter-flag stores (`channel/select.rs`).
                    fence(Ordering::SeqCst);
                    let head = self.head.load(Ordering::Relaxed);
                    if head.wrapping_add(self.one_lap) == tail {
                        return None;
                    }
                }
                backoff.snooze();
                tail = self.tail.load(Ordering::Relaxed);
            }
        }
    }

    /// Writes `value` into the slot [`claim`](Self::claim) returned
    /// `position` for, and publishes it.
    ///
    /// # Safety
    ///
    /// `position` came from `claim` on this queue and was not written yet.
    pub(crate) unsafe fn write_claimed(&self, position: Position, value: T) {
        let slot = self.slot(position);
        // SAFETY: the caller's claim made position `position` ours and it
        // is not published: no one else touches the slot until the stamp
        // store below.
        slot.value
            .with_mut(|p| unsafe { p.write(MaybeUninit::new(value)) });
        // Release pairs with the Acquire stamp load in `pop`: the value is
        // written before it is read.
        slot.stamp
            .store(position.wrapping_add(1), Ordering::Release);
    }
}
