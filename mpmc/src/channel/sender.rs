//! The sending half.

use core::fmt;
use std::time::{Duration, Instant};

use super::future::SendFut;
use super::{SendError, SendTimeoutError, Shared, TrySendError, add_handle};
use crate::queue::Refused;
use crate::sync::Position;
use crate::sync::blocking::{Arc, Ordering};

/// The sending half of a channel: clone it for more producers. When the
/// last `Sender` is dropped, blocked receivers wake, receive what is left
/// and then see the channel disconnected.
///
/// `Send + Sync` when `T: Send`.
///
/// ```
/// let (tx, rx) = hotq_mpmc::bounded(4);
/// let tx2 = tx.clone();
/// tx.send(1).unwrap();
/// tx2.send(2).unwrap();
/// drop(tx);
/// assert_eq!((rx.recv(), rx.recv()), (Ok(1), Ok(2)));
/// drop(rx);
/// assert_eq!(tx2.send(3), Err(hotq_mpmc::SendError(3))); // no receiver left
/// ```
pub struct Sender<T> {
    pub(super) shared: Arc<Shared<T>>,
}

impl<T> Sender<T> {
    /// Sends `value` if there is room now, without blocking. Gives it back
    /// as [`TrySendError::Full`] when the channel is full, and as
    /// [`TrySendError::Disconnected`] when every receiver is gone.
    ///
    /// With nobody waiting this is [`Queue::push`](crate::Queue::push)
    /// and two loads: no lock, no allocation, no system call. A send that
    /// races the last receiver's drop either fails or counts as made before
    /// it (its item dropped with the rest); it never takes room that the
    /// drop's drain made.
    ///
    /// On a rendezvous channel (`bounded(0)`) it succeeds only when a
    /// receiver is waiting (in `recv`, a timed receive, a pending
    /// `recv_async` or a select's receive arm), which then has the value.
    ///
    /// ```
    /// use hotq_mpmc::TrySendError;
    ///
    /// let (tx, rx) = hotq_mpmc::bounded(1);
    /// assert_eq!(tx.try_send('a'), Ok(()));
    /// assert_eq!(tx.try_send('b'), Err(TrySendError::Full('b')));
    /// drop(rx);
    /// assert_eq!(tx.try_send('c'), Err(TrySendError::Disconnected('c')));
    ///
    /// // Rendezvous: only into a waiting receive.
    /// # use std::{future::Future, pin::pin, task::{Context, Poll, Waker}};
    /// let (tx, rx) = hotq_mpmc::bounded(0);
    /// assert_eq!(tx.try_send(1), Err(TrySendError::Full(1))); // nobody waits
    /// let mut cx = Context::from_waker(Waker::noop());
    /// let mut waiting = pin!(rx.recv_async());
    /// assert_eq!(waiting.as_mut().poll(&mut cx), Poll::Pending); // now one does
    /// assert_eq!(tx.try_send(2), Ok(()));
    /// assert_eq!(waiting.as_mut().poll(&mut cx), Poll::Ready(Ok(2)));
    /// ```
    // `always`, not a hint: with the flag's check after the claim, plain
    // `#[inline]` no longer inlined it into a caller's loop, and the call
    // cost 24 instructions a send+receive (callgrind, `hot_path
    // hotq-mpmc-channel-try`: 89 before the check, 113 called, 94 inlined
    // without the hint before the claim, 97 with it).
    #[inline(always)]
    pub fn try_send(&self, value: T) -> Result<(), TrySendError<T>> {
        let shared = &*self.shared;
        // Relaxed: a hint that saves a claim nobody will receive, and that
        // keeps a send on a channel already disconnected from claiming at
        // all (a refused claim leaves a tombstone, which stays, counted by
        // `is_full`, behind a permit the receivers' drain could not pass:
        // the fuzz target `mpmc_channel_model` found that).
        if shared.disconnected.load(Ordering::Relaxed) {
            return Err(TrySendError::Disconnected(value));
        }
        // The flag is asked again after the claim: the last receiver's
        // drop stores it and then drains, and a send that claims room the
        // drain made must fail, not take the room (the channel was full
        // and nobody received). Relaxed: the claim's Acquire stamp load
        // read the drain pop's freeing store (Release), which the flag
        // store precedes, so this load sees the flag. Room made otherwise
        // (a send that raced the drop and found room the drop did not
        // make) is a send made before the disconnection.
        match shared
            .queue
            .push_unless(value, || shared.disconnected.load(Ordering::Relaxed))
        {
            Ok(()) => {
                // After the claim (push's SeqCst CAS on `tail`): see
                // `waiters.rs` for the store→load order.
                if shared.recv_waiters.notify_one() {
                    self.discard();
                }
                Ok(())
            }
            Err(Refused::Full(value)) => self.full_or_closed(value),
            Err(Refused::Claimed(value, position)) => self.refused(value, position),
        }
    }

    /// A failed push: the queue is full, or closed by `Receiver::close`
    /// (`close.rs`), which the queue reports as full, or the channel is a
    /// rendezvous channel, whose queue is closed from the start: then the
    /// hand-off to a waiting receiver is tried here, off the array path
    /// (`zero.rs`). A full channel whose receivers are gone is
    /// disconnected, not full.
    #[cold]
    #[inline(never)]
    fn full_or_closed(&self, value: T) -> Result<(), TrySendError<T>> {
        if let Some(zero) = &self.shared.zero {
            return zero.try_send(value);
        }
        // Relaxed: at one instant of the call, as `is_disconnected`.
        if self.shared.queue.is_closed() || self.shared.disconnected.load(Ordering::Relaxed) {
            Err(TrySendError::Disconnected(value))
        } else {
            Err(TrySendError::Full(value))
        }
    }

    /// The push claimed a slot and then found the channel disconnected:
    /// the slot goes back as a dropped permit's does (a tombstone), and
    /// the value to the caller.
    #[cold]
    #[inline(never)]
    fn refused(&self, value: T, position: Position) -> Result<(), TrySendError<T>> {
        let shared = &*self.shared;
        shared.queue.hold(position);
        // SAFETY: `push_unless` claimed `position` for this send, held
        // just now as a reservation is, and nobody filled or released it:
        // released exactly once.
        unsafe { shared.release(position) };
        Err(TrySendError::Disconnected(value))
    }

    /// The last receiver left while this send was under way, and its
    /// drain may have missed the item: drop what is left, as the drain
    /// would have. (The send counts as made just before the disconnection,
    /// its item among those the drain dropped.)
    #[cold]
    #[inline(never)]
    fn discard(&self) {
        self.shared.drop_all(|| self.shared.pop());
    }

    /// Sends `value`, blocking while the channel is full. Fails (giving
    /// the value back) only when every receiver is gone.
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded(1);
    /// tx.send(1).unwrap();
    /// let t = std::thread::spawn(move || tx.send(2)); // blocks until `recv` makes room
    /// assert_eq!(rx.recv(), Ok(1));
    /// assert_eq!(rx.recv(), Ok(2));
    /// t.join().unwrap().unwrap();
    /// ```
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded(1);
    /// drop(rx);
    /// assert_eq!(tx.send(1), Err(hotq_mpmc::SendError(1)));
    /// ```
    #[inline]
    pub fn send(&self, value: T) -> Result<(), SendError<T>> {
        match self.send_until(value, || None) {
            Ok(()) => Ok(()),
            Err(SendTimeoutError::Disconnected(v) | SendTimeoutError::Timeout(v)) => {
                Err(SendError(v))
            }
        }
    }

    /// Sends `value`, blocking while the channel is full for at most
    /// `timeout`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use hotq_mpmc::SendTimeoutError;
    ///
    /// let (tx, rx) = hotq_mpmc::bounded(1);
    /// assert_eq!(tx.send_timeout(1, Duration::from_millis(10)), Ok(()));
    /// assert_eq!(tx.send_timeout(2, Duration::from_millis(10)), Err(SendTimeoutError::Timeout(2)));
    /// drop(rx);
    /// assert_eq!(tx.send_timeout(3, Duration::ZERO), Err(SendTimeoutError::Disconnected(3)));
    /// ```
    pub fn send_timeout(&self, value: T, timeout: Duration) -> Result<(), SendTimeoutError<T>> {
        // A timeout too long to represent is no timeout.
        self.send_until(value, || Instant::now().checked_add(timeout))
    }

    /// Sends `value`, blocking while the channel is full until `deadline`
    /// at the latest. A deadline in the past never blocks (one try).
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    /// use hotq_mpmc::SendTimeoutError;
    ///
    /// let (tx, _rx) = hotq_mpmc::bounded(1);
    /// tx.send_deadline(1, Instant::now()).unwrap(); // room: no wait needed
    /// let late = Instant::now() + Duration::from_millis(10);
    /// assert_eq!(tx.send_deadline(2, late), Err(SendTimeoutError::Timeout(2)));
    /// assert!(Instant::now() >= late);
    /// ```
    pub fn send_deadline(&self, value: T, deadline: Instant) -> Result<(), SendTimeoutError<T>> {
        self.send_until(value, || Some(deadline))
    }

    /// One try inline (the common case: there is room), the waiting loop
    /// out of line. `deadline` is called only when the try fails: a
    /// `send_timeout` that finds room reads no clock (`Instant::now` took
    /// 43-53 ns here, more than the try itself); its timeout counts from that
    /// failed try.
    #[inline]
    fn send_until(
        &self,
        value: T,
        deadline: impl FnOnce() -> Option<Instant>,
    ) -> Result<(), SendTimeoutError<T>> {
        match self.try_send(value) {
            Ok(()) => Ok(()),
            Err(TrySendError::Disconnected(v)) => Err(SendTimeoutError::Disconnected(v)),
            Err(TrySendError::Full(v)) => self.send_waiting(v, deadline()),
        }
    }

    #[cold]
    #[inline(never)]
    fn send_waiting(&self, value: T, deadline: Option<Instant>) -> Result<(), SendTimeoutError<T>> {
        if let Some(zero) = &self.shared.zero {
            // Waits for a receiver to take the value (`zero.rs`).
            return zero.send(value, deadline, &self.shared.recv_waiters);
        }
        let mut value = Some(value);
        let queue = &self.shared.queue;
        // Between tries of the spin phase, wait until half the ring is free
        // again. A full channel's receivers are the bottleneck; retrying as
        // soon as one slot frees puts this sender on the slot and the
        // `head` they work on, so each item takes two lines from them
        // (kanal's blocked senders wait on a flag of their own instead).
        // Refilling half a ring at a time keeps the sender half a ring
        // behind them: 1P1C at capacity 1024, hotq ÷ kanal in one process,
        // went from 0.32–0.45 to 1.39–1.97 (medians of 9 rounds, three
        // process pairs each), 2P2C from 0.59–1.06 to 2.06–2.58; no change
        // at capacity 8. Nothing the receivers could take is delayed: half
        // the ring still holds items.
        let ahead = queue.capacity() / 2;
        let room_ahead = || queue.has_room_ahead(ahead);
        let sent = self.shared.send_waiters.block_on(
            deadline,
            || {
                let v = value
                    .take()
                    .expect("the value is back after every failed try");
                match self.try_send(v) {
                    Ok(()) => Some(Ok(())),
                    Err(TrySendError::Disconnected(v)) => Some(Err(v)),
                    Err(TrySendError::Full(v)) => {
                        value = Some(v);
                        None
                    }
                }
            },
            room_ahead,
        );
        match sent {
            Some(Ok(())) => Ok(()),
            Some(Err(v)) => Err(SendTimeoutError::Disconnected(v)),
            None => Err(SendTimeoutError::Timeout(
                value.expect("a timed-out send still holds its value"),
            )),
        }
    }

    /// Sends `value`, waiting asynchronously while the channel is full; a
    /// `Send` future for any runtime (`core::task` only). It completes on
    /// its first poll when there is room. Cancellation-safe: dropping it
    /// before it completes drops only its own value, and hands a wake-up it
    /// may have had on to another waiting sender.
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
    /// block_on(async {
    ///     tx.send_async(1).await.unwrap();
    ///     assert_eq!(rx.recv_async().await, Ok(1));
    ///     drop(rx);
    ///     assert_eq!(tx.send_async(2).await, Err(hotq_mpmc::SendError(2)));
    /// });
    /// ```
    pub fn send_async(&self, value: T) -> SendFut<'_, T> {
        SendFut::new(self, value)
    }

    pub(super) fn shared(&self) -> &Shared<T> {
        &self.shared
    }
}

impl<T> Clone for Sender<T> {
    /// Another sender into the same channel.
    fn clone(&self) -> Self {
        add_handle(&self.shared.senders);
        Sender {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        // AcqRel: the Release half orders this sender's sends before the
        // decrement; the Acquire half makes the last sender see every other
        // sender's, so its `disconnect` (Release) publishes them all to the
        // receiver that reads the flag.
        if self.shared.senders.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.shared.disconnect(true);
        }
    }
}

queries!(Sender, tx);
