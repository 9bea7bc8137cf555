//! Asking about disconnection: `is_disconnected` on either half, and
//! `Sender::disconnected_async`, a future that completes once no receiver
//! can take anything any more (tokio's `is_closed` and `closed`).
//!
//! # The wake-up protocol
//!
//! The future waits on its own list, `Shared::closed_waiters`, which only
//! a disconnection notifies (all at once, [`Waiters::close`]), so it never
//! takes a notification meant for a blocked sender. Its store→load order
//! is carried by that list's lock alone:
//!
//! - disconnecting side: store `disconnected` → lock the list, take every
//!   waiter, unlock → wake them;
//! - waiting side: lock the list, put itself on it, unlock → load
//!   `disconnected`.
//!
//! Whichever lock comes second sees what the other did before its own:
//! the disconnection sees the waiter on the list (and wakes it), or the
//! waiter's load sees the flag (and it completes). No atomic ordering is
//! needed beyond the lock's.
//!
//! [`Waiters::close`]: super::waiters::Waiters::close

use core::fmt;
use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};

use super::waiters::Waiter;
use super::{Receiver, Sender};
use crate::sync::blocking::{Arc, Ordering};

impl<T> Sender<T> {
    /// Whether no receiver can take anything any more: every
    /// [`Receiver`] is gone. A send then fails with its value given back.
    /// At one instant during the call; once `true`, it stays `true`.
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded::<u8>(1);
    /// assert!(!tx.is_disconnected());
    /// drop(rx);
    /// assert!(tx.is_disconnected());
    /// assert_eq!(tx.send(1), Err(hotq_mpmc::SendError(1)));
    /// ```
    pub fn is_disconnected(&self) -> bool {
        // Relaxed: a snapshot, as `len` is; whoever must act on it with
        // certainty does so through a send, which orders itself.
        self.shared.disconnected.load(Ordering::Relaxed)
    }

    /// A future that completes once no receiver can take anything any
    /// more (when [`is_disconnected`](Self::is_disconnected) becomes
    /// `true`): for a producer that wants to stop early when nobody
    /// listens. Cancellation-safe: dropping it changes nothing.
    ///
    /// ```
    /// # use std::future::Future;
    /// # fn block_on<F: Future>(f: F) -> F::Output {
    /// #     let waker = std::task::Waker::noop();
    /// #     let mut cx = std::task::Context::from_waker(&waker);
    /// #     let mut f = std::pin::pin!(f);
    /// #     loop {
    /// #         if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; }
    /// #         std::thread::yield_now();
    /// #     }
    /// # }
    /// let (tx, rx) = hotq_mpmc::bounded::<u8>(1);
    /// let t = std::thread::spawn(move || drop(rx));
    /// block_on(tx.disconnected_async()); // returns once `rx` is gone
    /// assert!(tx.is_disconnected());
    /// t.join().unwrap();
    /// ```
    ///
    /// Still pending while a receiver is there:
    ///
    /// ```
    /// use std::future::Future;
    /// use std::pin::pin;
    /// use std::task::{Context, Poll, Waker};
    ///
    /// let (tx, rx) = hotq_mpmc::bounded::<u8>(1);
    /// let mut cx = Context::from_waker(Waker::noop());
    /// let mut closed = pin!(tx.disconnected_async());
    /// assert_eq!(closed.as_mut().poll(&mut cx), Poll::Pending);
    /// drop(rx);
    /// assert_eq!(closed.as_mut().poll(&mut cx), Poll::Ready(()));
    /// ```
    pub fn disconnected_async(&self) -> DisconnectedFut<'_, T> {
        DisconnectedFut {
            sender: self,
            waiter: None,
        }
    }
}

impl<T> Receiver<T> {
    /// Whether every [`Sender`] is gone: the receivers then take what is
    /// left and see the channel disconnected. At one instant during the
    /// call; once `true`, it stays `true`. Items may still be there:
    /// `true` does not mean empty.
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded(1);
    /// tx.send(1).unwrap();
    /// assert!(!rx.is_disconnected());
    /// drop(tx);
    /// assert!(rx.is_disconnected());
    /// assert_eq!(rx.recv(), Ok(1)); // still there
    /// assert_eq!(rx.recv(), Err(hotq_mpmc::RecvError));
    /// ```
    pub fn is_disconnected(&self) -> bool {
        // Relaxed: a snapshot (see `Sender::is_disconnected`).
        self.shared.disconnected.load(Ordering::Relaxed)
    }
}

/// The future of [`Sender::disconnected_async`]: completes once every
/// receiver is gone. Dropping it unfinished changes nothing.
///
/// ```
/// use std::future::Future;
/// use std::pin::pin;
/// use std::task::{Context, Poll, Waker};
///
/// let (tx, rx) = hotq_mpmc::bounded::<u8>(1);
/// let mut cx = Context::from_waker(Waker::noop());
/// let mut gone = pin!(tx.disconnected_async());
/// assert_eq!(gone.as_mut().poll(&mut cx), Poll::Pending); // `rx` is there
/// drop(rx);
/// assert_eq!(gone.as_mut().poll(&mut cx), Poll::Ready(()));
/// ```
#[must_use = "futures do nothing unless polled"]
pub struct DisconnectedFut<'a, T> {
    sender: &'a Sender<T>,
    /// This future's place on the `closed_waiters` list, between polls.
    waiter: Option<Arc<Waiter>>,
}

// It does not point into itself: moving it between polls is fine.
impl<T> Unpin for DisconnectedFut<'_, T> {}

impl<T> Future for DisconnectedFut<'_, T> {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let this = self.get_mut();
        let waiters = &this.sender.shared().closed_waiters;
        if let Some(w) = this.waiter.take() {
            waiters.unregister(&w);
        }
        if this.sender.is_disconnected() {
            return Poll::Ready(());
        }
        let w = Waiter::task(cx.waker());
        waiters.register(&w);
        // The load after the lock (see the module docs).
        if this.sender.is_disconnected() {
            waiters.unregister(&w);
            return Poll::Ready(());
        }
        this.waiter = Some(w);
        Poll::Pending
    }
}

impl<T> Drop for DisconnectedFut<'_, T> {
    fn drop(&mut self) {
        if let Some(w) = self.waiter.take() {
            // Nothing to pass on: a disconnection wakes every waiter.
            self.sender.shared().closed_waiters.unregister(&w);
        }
    }
}

impl<T> fmt::Debug for DisconnectedFut<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DisconnectedFut")
            .field("waiting", &self.waiter.is_some())
            .finish_non_exhaustive()
    }
}
