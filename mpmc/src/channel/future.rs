//! The futures of `send_async` and `recv_async`.

use core::fmt;
use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};

use super::waiters::Waiter;
use super::{Receiver, RecvError, SendError, Sender, TrySendError};
use crate::sync::blocking::Arc;

/// The future of [`Sender::send_async`]: resolves to `Ok(())` once the
/// value is in the channel, or gives it back in a [`SendError`] when every
/// receiver is gone. Dropping it unfinished drops its value and nothing
/// else.
///
/// ```
/// use std::future::Future;
/// use std::pin::pin;
/// use std::task::{Context, Poll, Waker};
///
/// let (tx, rx) = hotq_mpmc::bounded(1);
/// let mut cx = Context::from_waker(Waker::noop());
/// assert_eq!(pin!(tx.send_async(1)).poll(&mut cx), Poll::Ready(Ok(())));
/// let mut second = pin!(tx.send_async(2));
/// assert_eq!(second.as_mut().poll(&mut cx), Poll::Pending); // full: waits for room
/// drop(rx);
/// assert_eq!(
///     second.as_mut().poll(&mut cx),
///     Poll::Ready(Err(hotq_mpmc::SendError(2))) // no receiver left: the value comes back
/// );
/// ```
#[must_use = "futures do nothing unless polled"]
pub struct SendFut<'a, T> {
    sender: &'a Sender<T>,
    /// The value, until it is sent (or given back).
    value: Option<T>,
    /// This future's place on the senders' waiting list, between polls.
    waiter: Option<Arc<Waiter>>,
}

/// The future of [`Receiver::recv_async`]: resolves to the next item, or
/// to [`RecvError`] once the channel is empty and every sender is gone.
/// Dropping it unfinished takes no item.
///
/// ```
/// use std::future::Future;
/// use std::pin::pin;
/// use std::task::{Context, Poll, Waker};
///
/// let (tx, rx) = hotq_mpmc::bounded(1);
/// let mut cx = Context::from_waker(Waker::noop());
/// let mut next = pin!(rx.recv_async());
/// assert_eq!(next.as_mut().poll(&mut cx), Poll::Pending); // empty: waits for an item
/// tx.send(5).unwrap();
/// assert_eq!(next.as_mut().poll(&mut cx), Poll::Ready(Ok(5)));
/// drop(tx);
/// assert_eq!(
///     pin!(rx.recv_async()).poll(&mut cx),
///     Poll::Ready(Err(hotq_mpmc::RecvError)) // empty and no sender left
/// );
/// ```
#[must_use = "futures do nothing unless polled"]
pub struct RecvFut<'a, T> {
    receiver: &'a Receiver<T>,
    /// This future's place on the receivers' waiting list, between polls.
    waiter: Option<Arc<Waiter>>,
}

impl<'a, T> SendFut<'a, T> {
    pub(super) fn new(sender: &'a Sender<T>, value: T) -> Self {
        SendFut {
            sender,
            value: Some(value),
            waiter: None,
        }
    }
}

impl<'a, T> RecvFut<'a, T> {
    pub(super) fn new(receiver: &'a Receiver<T>) -> Self {
        RecvFut {
            receiver,
            waiter: None,
        }
    }
}

// Neither future points into itself: moving one between polls is fine.
impl<T> Unpin for SendFut<'_, T> {}
impl<T> Unpin for RecvFut<'_, T> {}

impl<T> Future for SendFut<'_, T> {
    type Output = Result<(), SendError<T>>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        let shared = this.sender.shared();
        if let Some(zero) = &shared.zero {
            // Completes once a receiver has taken the value (`zero.rs`).
            return zero.poll_send(&mut this.value, &mut this.waiter, cx, &shared.recv_waiters);
        }
        // The value stays in the future between the tries (taken, and put
        // back when the try fails): moved out to the poll's frame and back,
        // it halved the async sends at 4P4C (22 against 49–53 M items/s,
        // docs/goals-missed.md, "One poll step for the four futures").
        let (sender, value) = (this.sender, &mut this.value);
        shared.send_waiters.poll_wait(&mut this.waiter, cx, || {
            let Some(v) = value.take() else {
                // A failed try puts the value back: only a poll after
                // the future completed finds none.
                panic!("`SendFut` polled after it completed");
            };
            match sender.try_send(v) {
                Ok(()) => Poll::Ready(Ok(())),
                Err(TrySendError::Disconnected(v)) => Poll::Ready(Err(SendError(v))),
                Err(TrySendError::Full(v)) => {
                    *value = Some(v);
                    Poll::Pending
                }
            }
        })
    }
}

impl<T> Future for RecvFut<'_, T> {
    type Output = Result<T, RecvError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        this.receiver.poll_recv(&mut this.waiter, cx)
    }
}

impl<T> Drop for SendFut<'_, T> {
    fn drop(&mut self) {
        if let Some(w) = self.waiter.take() {
            let shared = self.sender.shared();
            match &shared.zero {
                // Its offer, if no receiver took it, is withdrawn.
                Some(zero) => zero.cancel_send(&w),
                // A slot this future was told about goes to the next sender.
                None => shared.send_waiters.leave(&w),
            }
        }
    }
}

impl<T> Drop for RecvFut<'_, T> {
    fn drop(&mut self) {
        if let Some(w) = self.waiter.take() {
            // An item this future was told about goes to the next receiver.
            self.receiver.leave_waiting(&w);
        }
    }
}

impl<T> fmt::Debug for SendFut<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SendFut")
            .field("sent", &self.value.is_none())
            .field("waiting", &self.waiter.is_some())
            .finish_non_exhaustive()
    }
}

impl<T> fmt::Debug for RecvFut<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RecvFut")
            .field("waiting", &self.waiter.is_some())
            .finish_non_exhaustive()
    }
}
