//! `Sender::force_send`: a send that never waits for room, evicting the
//! oldest item of a full channel instead (async-channel's `force_send`,
//! on the queue's [`Queue::force_push`](crate::Queue::force_push)).
//!
//! It follows `try_send`'s wake-up protocol (`waiters.rs`) unchanged:
//! `force_push` claims `tail` with a `SeqCst` operation (its CAS, or the
//! `SeqCst` store after an eviction), and the receivers' flags are loaded
//! after it. An eviction frees no room (the new item takes the old one's
//! slot), so no blocked sender is woken.

use super::{SendError, Sender};
use crate::sync::blocking::Ordering;

impl<T> Sender<T> {
    /// Sends `value` without waiting: on a full channel the oldest item
    /// is evicted to make room and returned as `Ok(Some(oldest))`; with
    /// room, `Ok(None)`. Every other item keeps its FIFO place, and no
    /// receiver gets the evicted one. Wakes a blocked receiver as a send
    /// does. Gives the value back as [`SendError`] when every receiver is
    /// gone. On a rendezvous channel (`bounded(0)`), which holds nothing,
    /// the value goes to a waiting receiver (`Ok(None)`) or, with none
    /// waiting, is itself the one evicted (`Ok(Some(value))`).
    ///
    /// A [`Permit`](crate::channel::Permit) is no item to evict: while the
    /// oldest slot of a full channel is a held permit, this waits (spinning,
    /// then yielding) until the permit sends or is dropped. Do not call it
    /// while this thread holds that permit.
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded(2);
    /// assert_eq!(tx.force_send(1), Ok(None));
    /// assert_eq!(tx.force_send(2), Ok(None));
    /// assert_eq!(tx.force_send(3), Ok(Some(1))); // full: the oldest goes
    /// assert_eq!((rx.recv(), rx.recv()), (Ok(2), Ok(3)));
    /// drop(rx);
    /// assert_eq!(tx.force_send(4), Err(hotq_mpmc::SendError(4))); // nobody to take it
    ///
    /// let (tx, _rx) = hotq_mpmc::bounded(0);
    /// assert_eq!(tx.force_send(5), Ok(Some(5))); // no receiver waits: nothing sent
    /// ```
    pub fn force_send(&self, value: T) -> Result<Option<T>, SendError<T>> {
        let shared = &*self.shared;
        // Relaxed: a hint, read before the claim only (`try_send` reads
        // it after its claim too): a force send that races the last
        // receiver's drop may use room the drop's drain made and report
        // no eviction; its item is then dropped with the rest, settled by
        // `CLOSED` below.
        if shared.disconnected.load(Ordering::Relaxed) {
            return Err(SendError(value));
        }
        // A closed queue (`Receiver::close`) gives the value back.
        let evicted = match shared.queue.force_push_or_closed(value) {
            Ok(evicted) => evicted,
            // A rendezvous channel's queue is always closed (`zero.rs`).
            Err(value) => match &shared.zero {
                Some(zero) => return zero.force_send(value),
                None => return Err(SendError(value)),
            },
        };
        // After the claim: see `waiters.rs` for the store→load order.
        if shared.recv_waiters.notify_one() {
            // The last receiver left meanwhile: drop what its drain may
            // have missed, as `try_send` does.
            shared.drop_all(|| shared.pop());
        }
        Ok(evicted)
    }
}
