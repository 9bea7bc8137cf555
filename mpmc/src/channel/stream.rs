//! `futures_core::Stream` for a receiver (feature `stream`).

use core::fmt;
use core::pin::Pin;
use core::task::{Context, Poll};

use futures_core::Stream;

use super::Receiver;
use super::waiters::Waiter;
use crate::sync::blocking::Arc;

/// A [`Stream`] of a receiver's items, from [`Receiver::stream`]; it ends
/// when the channel is empty and every sender is gone. Each `poll_next`
/// is one poll of a [`recv_async`](Receiver::recv_async), with the same
/// cancellation safety.
///
/// ```
/// use futures_core::Stream;
/// use std::pin::pin;
/// use std::task::{Context, Poll, Waker};
///
/// let (tx, rx) = hotq_mpmc::bounded(2);
/// let mut items = pin!(rx.stream());
/// let mut cx = Context::from_waker(Waker::noop());
/// assert_eq!(items.as_mut().poll_next(&mut cx), Poll::Pending); // empty: waits
/// tx.send('a').unwrap();
/// assert_eq!(items.as_mut().poll_next(&mut cx), Poll::Ready(Some('a')));
/// drop(tx);
/// assert_eq!(items.as_mut().poll_next(&mut cx), Poll::Ready(None)); // no sender left: the end
/// ```
pub struct RecvStream<T> {
    receiver: Receiver<T>,
    /// This stream's place on the receivers' waiting list, between polls.
    waiter: Option<Arc<Waiter>>,
}

impl<T> Receiver<T> {
    /// A [`Stream`] of this channel's items (with a receiver of its own).
    ///
    /// ```
    /// use futures_core::Stream;
    /// use std::pin::pin;
    /// use std::task::{Context, Poll, Waker};
    ///
    /// let (tx, rx) = hotq_mpmc::bounded(2);
    /// tx.send(1).unwrap();
    /// drop(tx);
    /// let mut s = pin!(rx.stream());
    /// let mut cx = Context::from_waker(Waker::noop());
    /// assert_eq!(s.as_mut().poll_next(&mut cx), Poll::Ready(Some(1)));
    /// assert_eq!(s.as_mut().poll_next(&mut cx), Poll::Ready(None));
    /// ```
    pub fn stream(&self) -> RecvStream<T> {
        RecvStream {
            receiver: self.clone(),
            waiter: None,
        }
    }
}

impl<T> Unpin for RecvStream<T> {}

impl<T> Stream for RecvStream<T> {
    type Item = T;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
        let this = self.get_mut();
        this.receiver
            .poll_recv(&mut this.waiter, cx)
            .map(Result::ok)
    }
}

impl<T> Drop for RecvStream<T> {
    fn drop(&mut self) {
        if let Some(w) = self.waiter.take() {
            self.receiver.leave_waiting(&w);
        }
    }
}

impl<T> fmt::Debug for RecvStream<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RecvStream")
            .field("waiting", &self.waiter.is_some())
            .finish_non_exhaustive()
    }
}
