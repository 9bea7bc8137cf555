//! Batch receive: `try_recv_many`, `recv_many`, `recv_many_timeout` and
//! `recv_many_async` (tokio's `recv_many`), each appending up to `limit`
//! items to a `Vec` in FIFO order.
//!
//! Each is one receive of the single-item kind for the first item (with
//! its waiting, if any), then `try_recv`s until `limit` or an empty
//! channel: every item is taken by its own `Queue::pop` and followed by
//! the usual notification of a blocked sender, so the wake-up protocol is
//! `waiters.rs`'s, unchanged. No item is ever held across a wait: the
//! future takes items only in the poll that completes it, so dropping it
//! pending loses nothing (and passes on a wake-up it had, as `RecvFut`).

use alloc::vec::Vec;
use core::fmt;
use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};
use std::time::Duration;

use super::waiters::Waiter;
use super::{Receiver, RecvError, RecvTimeoutError, TryRecvError};
use crate::sync::blocking::Arc;

impl<T> Receiver<T> {
    /// Appends to `buf` the items there are now, up to `limit`, without
    /// blocking, and returns how many: at least one, or
    /// [`TryRecvError::Empty`] when there is none, and
    /// [`TryRecvError::Disconnected`] when there is none and every sender
    /// is gone. `limit == 0` returns `Ok(0)` at once.
    ///
    /// ```
    /// use hotq_mpmc::TryRecvError;
    ///
    /// let (tx, rx) = hotq_mpmc::bounded(8);
    /// let mut buf = Vec::new();
    /// assert_eq!(rx.try_recv_many(&mut buf, 4), Err(TryRecvError::Empty));
    /// (1..=5).for_each(|i| tx.send(i).unwrap());
    /// assert_eq!(rx.try_recv_many(&mut buf, 3), Ok(3));
    /// assert_eq!(rx.try_recv_many(&mut buf, 0), Ok(0));
    /// assert_eq!(rx.try_recv_many(&mut buf, 10), Ok(2)); // fewer than asked
    /// assert_eq!(buf, [1, 2, 3, 4, 5]);
    /// drop(tx);
    /// assert_eq!(rx.try_recv_many(&mut buf, 10), Err(TryRecvError::Disconnected));
    /// ```
    pub fn try_recv_many(&self, buf: &mut Vec<T>, limit: usize) -> Result<usize, TryRecvError> {
        if limit == 0 {
            return Ok(0);
        }
        let first = self.try_recv()?;
        Ok(self.append(buf, first, limit))
    }

    /// Appends to `buf` up to `limit` items, blocking while the channel is
    /// empty, and returns how many: at least one, or [`RecvError`] once
    /// the channel is empty and every sender is gone. `limit == 0` returns
    /// `Ok(0)` at once.
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded(8);
    /// let t = std::thread::spawn(move || (0..3).for_each(|i| tx.send(i).unwrap()));
    /// let mut buf = Vec::new();
    /// while buf.len() < 3 {
    ///     assert!(rx.recv_many(&mut buf, 16).unwrap() >= 1); // waits for the first
    /// }
    /// assert_eq!(buf, [0, 1, 2]);
    /// t.join().unwrap();
    /// assert_eq!(rx.recv_many(&mut buf, 16), Err(hotq_mpmc::RecvError));
    /// ```
    pub fn recv_many(&self, buf: &mut Vec<T>, limit: usize) -> Result<usize, RecvError> {
        if limit == 0 {
            return Ok(0);
        }
        let first = self.recv()?;
        Ok(self.append(buf, first, limit))
    }

    /// As [`recv_many`](Self::recv_many), blocking for at most `timeout`
    /// for the first item.
    ///
    /// ```
    /// use std::time::Duration;
    /// use hotq_mpmc::RecvTimeoutError;
    ///
    /// let (tx, rx) = hotq_mpmc::bounded(4);
    /// let mut buf = Vec::new();
    /// let wait = Duration::from_millis(10);
    /// assert_eq!(rx.recv_many_timeout(&mut buf, 4, wait), Err(RecvTimeoutError::Timeout));
    /// tx.send('a').unwrap();
    /// tx.send('b').unwrap();
    /// assert_eq!(rx.recv_many_timeout(&mut buf, 4, wait), Ok(2));
    /// assert_eq!(buf, ['a', 'b']);
    /// drop(tx);
    /// assert_eq!(rx.recv_many_timeout(&mut buf, 4, wait), Err(RecvTimeoutError::Disconnected));
    /// ```
    pub fn recv_many_timeout(
        &self,
        buf: &mut Vec<T>,
        limit: usize,
        timeout: Duration,
    ) -> Result<usize, RecvTimeoutError> {
        if limit == 0 {
            return Ok(0);
        }
        let first = self.recv_timeout(timeout)?;
        Ok(self.append(buf, first, limit))
    }

    /// As [`recv_many`](Self::recv_many), waiting asynchronously for the
    /// first item; a `Send` future for any runtime. Cancellation-safe:
    /// dropping it before it completes takes no item (it takes them all
    /// in the poll that completes it), and hands a wake-up it may have had
    /// on to another waiting receiver.
    ///
    /// ```
    /// use std::future::Future;
    /// use std::pin::pin;
    /// use std::task::{Context, Poll, Waker};
    ///
    /// let (tx, rx) = hotq_mpmc::bounded(8);
    /// let mut cx = Context::from_waker(Waker::noop());
    /// let mut buf = Vec::new();
    /// {
    ///     let mut batch = pin!(rx.recv_many_async(&mut buf, 2));
    ///     assert_eq!(batch.as_mut().poll(&mut cx), Poll::Pending); // empty: waits
    ///     (1..=3).for_each(|i| tx.send(i).unwrap());
    ///     assert_eq!(batch.as_mut().poll(&mut cx), Poll::Ready(Ok(2)));
    /// }
    /// assert_eq!(buf, [1, 2]); // 3 is still in the channel
    /// drop(tx);
    /// assert_eq!(pin!(rx.recv_many_async(&mut buf, 2)).poll(&mut cx), Poll::Ready(Ok(1)));
    /// assert_eq!(
    ///     pin!(rx.recv_many_async(&mut buf, 2)).poll(&mut cx),
    ///     Poll::Ready(Err(hotq_mpmc::RecvError)) // empty and no sender left
    /// );
    /// ```
    pub fn recv_many_async<'a>(&'a self, buf: &'a mut Vec<T>, limit: usize) -> RecvManyFut<'a, T> {
        RecvManyFut {
            receiver: self,
            buf,
            limit,
            waiter: None,
        }
    }

    /// Pushes `first`, then takes items with `try_recv` until `limit` in
    /// all or an empty channel; returns how many were appended.
    fn append(&self, buf: &mut Vec<T>, first: T, limit: usize) -> usize {
        // Room for what is there now, not for `limit` (which may be huge).
        buf.reserve(limit.min(self.len() + 1));
        buf.push(first);
        let mut taken = 1;
        while taken < limit {
            match self.try_recv() {
                Ok(v) => {
                    buf.push(v);
                    taken += 1;
                }
                Err(_) => break,
            }
        }
        taken
    }
}

/// The future of [`Receiver::recv_many_async`]: resolves to how many
/// items it appended (at least one), or to [`RecvError`] once the channel
/// is empty and every sender is gone. Dropping it unfinished takes no
/// item.
///
/// ```
/// use std::future::Future;
/// use std::pin::pin;
/// use std::task::{Context, Poll, Waker};
///
/// let (tx, rx) = hotq_mpmc::bounded::<u8>(2);
/// let mut cx = Context::from_waker(Waker::noop());
/// let mut buf = Vec::new();
/// let mut batch = pin!(rx.recv_many_async(&mut buf, 8));
/// assert_eq!(batch.as_mut().poll(&mut cx), Poll::Pending);
/// drop(tx);
/// assert_eq!(batch.as_mut().poll(&mut cx), Poll::Ready(Err(hotq_mpmc::RecvError)));
/// ```
#[must_use = "futures do nothing unless polled"]
pub struct RecvManyFut<'a, T> {
    receiver: &'a Receiver<T>,
    buf: &'a mut Vec<T>,
    limit: usize,
    /// This future's place on the receivers' waiting list, between polls.
    waiter: Option<Arc<Waiter>>,
}

// It does not point into itself: moving it between polls is fine.
impl<T> Unpin for RecvManyFut<'_, T> {}

impl<T> Future for RecvManyFut<'_, T> {
    type Output = Result<usize, RecvError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        if this.limit == 0 {
            return Poll::Ready(Ok(0));
        }
        match this.receiver.poll_recv(&mut this.waiter, cx) {
            Poll::Ready(Ok(first)) => {
                Poll::Ready(Ok(this.receiver.append(this.buf, first, this.limit)))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<T> Drop for RecvManyFut<'_, T> {
    fn drop(&mut self) {
        if let Some(w) = self.waiter.take() {
            // An item this future was told about goes to the next receiver.
            self.receiver.leave_waiting(&w);
        }
    }
}

impl<T> fmt::Debug for RecvManyFut<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RecvManyFut")
            .field("limit", &self.limit)
            .field("waiting", &self.waiter.is_some())
            .finish_non_exhaustive()
    }
}
