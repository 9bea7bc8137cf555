//! The receiving half.

use core::fmt;
use core::task::{Context, Poll};
use std::time::{Duration, Instant};

use super::future::RecvFut;
use super::iter::{Iter, TryIter};
use super::waiters::Waiter;
use super::{RecvError, RecvTimeoutError, Shared, TryRecvError, add_handle};
use crate::sync::blocking::{Arc, Ordering};

/// The receiving half of a channel: clone it for more consumers (each item
/// goes to one of them). When the last `Receiver` is dropped, blocked
/// senders wake and get their values back as `Disconnected`, and every
/// item still in the channel is dropped at once.
///
/// `Send + Sync` when `T: Send`.
///
/// ```
/// let (tx, rx) = hotq_mpmc::bounded(4);
/// let rx2 = rx.clone();
/// tx.send(1).unwrap();
/// tx.send(2).unwrap();
/// assert_eq!(rx.recv(), Ok(1));
/// assert_eq!(rx2.recv(), Ok(2));
/// ```
pub struct Receiver<T> {
    pub(super) shared: Arc<Shared<T>>,
}

impl<T> Receiver<T> {
    /// Receives an item if there is one now, without blocking:
    /// [`TryRecvError::Empty`] when there is none (or the next slot is
    /// held by a [`Permit`](crate::channel::Permit) not sent yet), and
    /// [`TryRecvError::Disconnected`] when there is none and every sender
    /// is gone (what was sent before is still received first).
    ///
    /// With nobody waiting this is [`Queue::pop`](crate::Queue::pop) and
    /// one load: no lock, no allocation, no system call.
    ///
    /// ```
    /// use hotq_mpmc::TryRecvError;
    ///
    /// let (tx, rx) = hotq_mpmc::bounded(2);
    /// assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
    /// tx.send(1).unwrap();
    /// drop(tx);
    /// assert_eq!(rx.try_recv(), Ok(1));
    /// assert_eq!(rx.try_recv(), Err(TryRecvError::Disconnected));
    /// ```
    #[inline]
    pub fn try_recv(&self) -> Result<T, TryRecvError> {
        let shared = &*self.shared;
        match shared.queue.pop() {
            Some(v) => {
                // After the claim (pop's SeqCst CAS on `head`): see
                // `waiters.rs` for the store→load order.
                let _ = shared.send_waiters.notify_one();
                Ok(v)
            }
            None => self.empty_or_disconnected(),
        }
    }

    #[cold]
    #[inline(never)]
    fn empty_or_disconnected(&self) -> Result<T, TryRecvError> {
        let shared = &*self.shared;
        if let Some(timer) = &shared.timer {
            // A timer's queue is always empty: it answers (`timer.rs`).
            return timer.try_recv().ok_or(TryRecvError::Empty);
        }
        if let Some(zero) = &shared.zero {
            // A rendezvous channel's queue is always empty (`zero.rs`).
            return zero.try_recv();
        }
        // A dropped permit's tombstone at `head`: skip it and look again
        // (`pop_cold` skips any more of them).
        if shared.skip_tombstone().is_some() {
            if let Some(v) = self.pop_cold() {
                return Ok(v);
            }
        }
        // Relaxed, and still ordered: once the flag is seen, every send made
        // before the last sender left must be visible to the pop below, so
        // that it finds any item the first one missed. The pop orders it:
        // before it decides "empty" it runs a `fence(SeqCst)` (in
        // `Queue::pop`), which acquires for this load, pairing with the
        // Release store in `Shared::disconnect`; its `tail` load after the
        // fence then sees every sender's claim, and it waits for the item.
        // (Weakening the Release there, or the senders' AcqRel count, fails
        // loom's `try_recv_sees_every_send_made_before_disconnection`.)
        if !shared.disconnected.load(Ordering::Relaxed) {
            return Err(TryRecvError::Empty);
        }
        match self.pop_cold() {
            Some(v) => Ok(v),
            // Closed (`Receiver::close`) with a permit still held: it is
            // delivered later (`reserve.rs`), so not drained yet.
            None if !shared.queue.is_drained() => Err(TryRecvError::Empty),
            None => Err(TryRecvError::Disconnected),
        }
    }

    /// `try_recv`'s pop and notification, off the hot path: keeping
    /// `Queue::pop` to one call site on the hot path lets it be inlined
    /// there.
    #[inline(never)]
    fn pop_cold(&self) -> Option<T> {
        let v = self.shared.pop()?;
        // (`CLOSED` here would say the senders are gone: nothing to do.)
        let _ = self.shared.send_waiters.notify_one();
        Some(v)
    }

    /// Receives an item, blocking while the channel is empty. Fails only
    /// when the channel is empty and every sender is gone.
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded(1);
    /// let t = std::thread::spawn(move || tx.send("hi").unwrap());
    /// assert_eq!(rx.recv(), Ok("hi"));
    /// t.join().unwrap(); // `tx` is gone now
    /// assert_eq!(rx.recv(), Err(hotq_mpmc::RecvError));
    /// ```
    #[inline]
    pub fn recv(&self) -> Result<T, RecvError> {
        self.recv_until(|| None).map_err(|_| RecvError)
    }

    /// Receives an item, blocking while the channel is empty for at most
    /// `timeout`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use hotq_mpmc::RecvTimeoutError;
    ///
    /// let (tx, rx) = hotq_mpmc::bounded(1);
    /// assert_eq!(rx.recv_timeout(Duration::from_millis(10)), Err(RecvTimeoutError::Timeout));
    /// tx.send(3).unwrap();
    /// assert_eq!(rx.recv_timeout(Duration::from_millis(10)), Ok(3));
    /// drop(tx);
    /// assert_eq!(rx.recv_timeout(Duration::from_secs(60)), Err(RecvTimeoutError::Disconnected));
    /// ```
    pub fn recv_timeout(&self, timeout: Duration) -> Result<T, RecvTimeoutError> {
        // A timeout too long to represent is no timeout.
        self.recv_until(|| Instant::now().checked_add(timeout))
    }

    /// Receives an item, blocking while the channel is empty until
    /// `deadline` at the latest. A deadline in the past never blocks.
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    /// use hotq_mpmc::RecvTimeoutError;
    ///
    /// let (tx, rx) = hotq_mpmc::bounded(1);
    /// assert_eq!(rx.recv_deadline(Instant::now()), Err(RecvTimeoutError::Timeout));
    /// tx.send(1).unwrap();
    /// assert_eq!(rx.recv_deadline(Instant::now() + Duration::from_secs(1)), Ok(1));
    /// ```
    pub fn recv_deadline(&self, deadline: Instant) -> Result<T, RecvTimeoutError> {
        self.recv_until(|| Some(deadline))
    }

    /// One try inline (the common case: an item is there), the waiting
    /// loop out of line. `deadline` is called only when the try fails: a
    /// `recv_timeout` that finds an item reads no clock (`Instant::now`
    /// took 43-53 ns here, more than the try itself); its timeout counts from
    /// that failed try.
    #[inline]
    fn recv_until(
        &self,
        deadline: impl FnOnce() -> Option<Instant>,
    ) -> Result<T, RecvTimeoutError> {
        match self.try_recv() {
            Ok(v) => Ok(v),
            Err(TryRecvError::Disconnected) => Err(RecvTimeoutError::Disconnected),
            Err(TryRecvError::Empty) => self.recv_waiting(deadline()),
        }
    }

    #[cold]
    #[inline(never)]
    fn recv_waiting(&self, deadline: Option<Instant>) -> Result<T, RecvTimeoutError> {
        if let Some(timer) = &self.shared.timer {
            // Nothing notifies a timer's receivers (`timer.rs`).
            return timer.recv_until(deadline);
        }
        if let Some(zero) = &self.shared.zero {
            // Waits for a sender's hand-off (`zero.rs`).
            return zero.recv(deadline, &self.shared.send_waiters);
        }
        let got = self.shared.recv_waiters.block_on(
            deadline,
            || match self.try_recv() {
                Ok(v) => Some(Ok(v)),
                Err(TryRecvError::Disconnected) => Some(Err(RecvTimeoutError::Disconnected)),
                Err(TryRecvError::Empty) => None,
            },
            || true,
        );
        got.unwrap_or(Err(RecvTimeoutError::Timeout))
    }

    /// Receives an item, waiting asynchronously while the channel is
    /// empty; a `Send` future for any runtime (`core::task` only). It
    /// completes on its first poll when an item is there.
    /// Cancellation-safe: dropping it before it completes takes no item,
    /// and hands a wake-up it may have had on to another waiting receiver.
    /// On a rendezvous channel (`bounded(0)`) a pending one is a waiting
    /// receiver that a sender may hand a value to; dropped before a poll
    /// returned that value, it gives the value back (to another waiting
    /// receiver, or into the channel for the next receive): never lost.
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
    /// let (tx, rx) = hotq_mpmc::bounded(1);
    /// let t = std::thread::spawn(move || tx.send(9).unwrap());
    /// assert_eq!(block_on(rx.recv_async()), Ok(9));
    /// t.join().unwrap();
    /// assert_eq!(block_on(rx.recv_async()), Err(hotq_mpmc::RecvError));
    /// ```
    pub fn recv_async(&self) -> RecvFut<'_, T> {
        RecvFut::new(self)
    }

    /// One poll of an asynchronous receive whose waiter (if it has one
    /// from an earlier poll) is in `waiter`.
    pub(super) fn poll_recv(
        &self,
        waiter: &mut Option<Arc<Waiter>>,
        cx: &mut Context<'_>,
    ) -> Poll<Result<T, RecvError>> {
        if let Some(timer) = &self.shared.timer {
            // Nothing notifies a timer's receivers (`timer.rs`).
            return timer.poll(cx).map(Ok);
        }
        if let Some(zero) = &self.shared.zero {
            return zero.poll_recv(waiter, cx, &self.shared.send_waiters);
        }
        self.shared
            .recv_waiters
            .poll_wait(waiter, cx, || match self.try_recv() {
                Ok(v) => Poll::Ready(Ok(v)),
                Err(TryRecvError::Disconnected) => Poll::Ready(Err(RecvError)),
                Err(TryRecvError::Empty) => Poll::Pending,
            })
    }

    /// A pending asynchronous receive whose waiter is `waiter` is dropped:
    /// a wake-up it may have had goes to the next receiver, and on a
    /// rendezvous channel a value handed to it goes back (`zero.rs`).
    pub(super) fn leave_waiting(&self, waiter: &Arc<Waiter>) {
        match &self.shared.zero {
            Some(zero) => zero.cancel_recv(waiter, &self.shared.recv_waiters),
            None => self.shared.recv_waiters.leave(waiter),
        }
    }

    /// A blocking iterator: [`recv`](Self::recv) until the channel is
    /// empty and disconnected.
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded(4);
    /// std::thread::spawn(move || (0..10).for_each(|i| tx.send(i).unwrap()));
    /// assert_eq!(rx.iter().collect::<Vec<_>>(), (0..10).collect::<Vec<_>>());
    /// ```
    pub fn iter(&self) -> Iter<'_, T> {
        Iter { receiver: self }
    }

    /// A non-blocking iterator: [`try_recv`](Self::try_recv) until the
    /// channel is empty (or disconnected).
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded(4);
    /// tx.send(1).unwrap();
    /// tx.send(2).unwrap();
    /// assert_eq!(rx.try_iter().collect::<Vec<_>>(), [1, 2]);
    /// assert_eq!(rx.try_iter().next(), None); // empty, though `tx` is still there
    /// ```
    pub fn try_iter(&self) -> TryIter<'_, T> {
        TryIter { receiver: self }
    }
}

impl<T> Clone for Receiver<T> {
    /// Another receiver from the same channel.
    fn clone(&self) -> Self {
        add_handle(&self.shared.receivers);
        Receiver {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl<T> Drop for Receiver<T> {
    fn drop(&mut self) {
        // Relaxed: the last receiver's drain below needs nothing from the
        // other receivers (each pop synchronises through the queue's stamps).
        if self.shared.receivers.fetch_sub(1, Ordering::Relaxed) == 1 {
            self.shared.disconnect(true);
            // Every item still inside is dropped now, not when the last
            // sender goes. A send racing this drop whose item the drain
            // misses sees `CLOSED` after its claim and drops what is left
            // itself (the order is in `waiters.rs`): nothing stays inside.
            self.shared.drop_all(|| self.pop_cold());
            if let Some(zero) = &self.shared.zero {
                // Values given back by cancelled receives (`zero.rs`).
                zero.drop_given_back();
            }
        }
    }
}

queries!(Receiver, rx);
