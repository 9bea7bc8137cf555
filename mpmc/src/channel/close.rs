//! `Receiver::close`: the receivers stop the senders and drain what is
//! left (tokio's `Receiver::close`).
//!
//! # How a close is ordered against the sends
//!
//! The close is one step on the queue: `Queue::close` moves `tail` a
//! fixed, huge distance on (see `queue.rs`), after which no producer's
//! claim can succeed. So each send is on one side of it: a push that
//! claimed its slot before is in the queue, before the close point, and
//! the receivers take it; a push that comes after fails and the value
//! comes back (`Disconnected`). A receiver reports `Disconnected` only
//! when it has taken everything up to the close point.
//!
//! Then `Shared::disconnect` runs as for a disconnection, except that it
//! wakes the blocked receivers without marking their list `CLOSED` (that
//! mark would make a racing sender drop what is left, which is for the
//! last receiver's drop only: here the receivers are still there to drain
//! it). The `disconnected` store (Release) comes after the move of `tail`:
//! a receiver that sees the flag runs `pop`'s `fence(SeqCst)` before it
//! decides "empty" (see `Receiver::try_recv`), which acquires the store,
//! so its `tail` load sees the close and it waits for every item claimed
//! before it.
//!
//!
use super::Receiver;

impl<T> Receiver<T> {
    /// Closes the channel for sending, keeping what is in it: every later
    /// `send`, `try_send`, `send_async` or `force_send` fails with its
    /// value given back, blocked senders wake and get theirs back, and
    /// the receivers go on taking the items already sent; after the last
    /// of them, receives report the channel disconnected. A send racing
    /// the close either gets in (and is received) or fails (and keeps its
    /// value), never both or neither. Closing twice does nothing more.
    ///
    /// On the timer channels nothing sends, so there is nothing to stop:
    /// an [`after`](crate::after) or [`tick`](crate::tick) receiver keeps
    /// its messages coming, and a [`never`](fn@crate::never) receiver
    /// reports the channel disconnected from then on.
    ///
    /// ```
    /// use hotq_mpmc::{RecvError, TrySendError};
    ///
    /// let (tx, rx) = hotq_mpmc::bounded(4);
    /// tx.send(1).unwrap();
    /// tx.send(2).unwrap();
    /// rx.close();
    /// assert_eq!(tx.try_send(3), Err(TrySendError::Disconnected(3))); // refused, value back
    /// assert!(tx.is_disconnected());
    /// assert_eq!(rx.recv(), Ok(1)); // what was sent before is still there
    /// assert_eq!(rx.recv(), Ok(2));
    /// assert_eq!(rx.recv(), Err(RecvError)); // drained
    /// ```
    pub fn close(&self) {
        self.shared.queue.close();
        self.shared.disconnect(false);
    }
}
