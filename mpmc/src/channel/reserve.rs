//! `Sender::reserve` and its kin: a [`Permit`] holds one slot of the
//! channel, and its [`send`](Permit::send) then never fails and never
//! waits (tokio's `reserve`/`Permit`). With it an async send can be
//! cancelled, or given a timeout, without losing its value: reserve
//! first (cancelling a pending [`ReserveFut`] loses nothing), then send.
//!
//! # On the queue
//!
//! A permit is a *reserved* slot of the queue (`queue/reserve.rs`): the
//! slot at `tail` claimed as a push claims it, with a stamp that tells
//! consumers "empty for now" instead of making them wait for it. So a
//! permit keeps its place in the FIFO order: items sent after the reserve
//! are received after the permit's item, and a receiver that reaches the
//! held slot waits there (as for an empty channel) until the permit sends
//! or is dropped. Unlike tokio's permit, which holds capacity and no
//! place, items sent behind a held permit are not received before it.
//!
//! # Wake-ups
//!
//! - `Permit::send` publishes like a push, then runs a `fence(SeqCst)` and
//!   loads the receivers' waiter flag; a receiver that found the slot
//!   reserved registered its flag and re-tried, and its re-try runs a
//!   `fence(SeqCst)` before it loads the stamp again (`Queue::pop`):
//!   either it sees the item, or the permit sees the flag. Once the
//!   channel has had a permit and `membarrier` works, the permit's fence
//!   is a compiler fence and the receiver's registration makes the system
//!   call instead (`fill_barrier.rs`): the fence waited for the slot's
//!   cache line on every send. The permit
//!   then wakes every waiting receiver, not one: while the slot was held,
//!   sends behind it woke receivers that found the held slot and went
//!   back to sleep, so their items need a receiver each now.
//! - A dropped permit leaves a tombstone; whoever skips it frees the slot
//!   and wakes a blocked sender (the permit itself when its slot is the
//!   oldest, else the receiver that gets there: `Shared::pop`). The
//!   permit also wakes the waiting receivers, as a send does, after the
//!   `fence(SeqCst)` that follows its tombstone store.
//! - A pending [`ReserveFut`] is a waiting sender like a pending
//!   `SendFut`: dropped, it takes nothing and passes on a wake-up it had.

use core::fmt;
use core::future::Future;
use core::mem::ManuallyDrop;
use core::pin::Pin;
use core::task::{Context, Poll};
use std::time::{Duration, Instant};

use super::waiters::Waiter;
use super::{SendError, SendTimeoutError, Sender, Shared, TrySendError};
use crate::sync::Position;

/// What a reserve on a rendezvous channel panics with.
const NO_SLOT_TO_RESERVE: &str = "a rendezvous channel (`bounded(0)`) has no slot to reserve: \
     `send` hands the value straight to a receiver instead";
use crate::sync::blocking::{Arc, Ordering};

/// One slot of a channel, held for a value to come: [`send`](Self::send)
/// puts the value there and never fails or waits. Made by
/// [`Sender::try_reserve`], [`Sender::reserve`] and their timed and async
/// forms.
///
/// While it is held, `len()` plus the permits held never exceeds
/// `capacity()`; receivers take the items sent before it, and other
/// senders use the other free slots. It keeps its place in the FIFO order
/// (where tokio's permit holds capacity and no place): items sent after
/// the reserve are received after the permit's item, so a receiver that
/// reaches the held slot waits (as on an empty channel) until the permit
/// sends or is dropped. Hold it briefly.
///
/// Dropped unsent, it gives its slot back: at once when it is the oldest
/// in the channel (a blocked sender or reserver is woken), else when the
/// receivers reach it (they skip it).
///
/// ```
/// use hotq_mpmc::TrySendError;
///
/// let (tx, rx) = hotq_mpmc::bounded(1);
/// let permit = tx.try_reserve().unwrap();
/// assert_eq!(tx.try_send(1), Err(TrySendError::Full(1))); // the permit holds the slot
/// assert_eq!(rx.len(), 0);
/// permit.send(2);
/// assert_eq!(rx.recv(), Ok(2));
/// drop(tx.try_reserve().unwrap()); // dropped unsent: the slot comes back
/// assert_eq!(tx.try_send(3), Ok(()));
/// ```
#[must_use = "a permit holds a slot until it is used or dropped"]
pub struct Permit<'a, T> {
    sender: &'a Sender<T>,
    position: Position,
}

/// The future of [`Sender::reserve_async`]: resolves to a [`Permit`] once
/// there is room, or to [`SendError`] when every receiver is gone (or the
/// channel is closed). Dropping it pending takes no slot, and passes on a
/// wake-up it had to another waiting sender.
///
/// ```
/// use std::future::Future;
/// use std::pin::pin;
/// use std::task::{Context, Poll, Waker};
///
/// let (tx, rx) = hotq_mpmc::bounded(1);
/// let mut cx = Context::from_waker(Waker::noop());
/// tx.send(1).unwrap();
/// let mut reserve = pin!(tx.reserve_async());
/// assert!(reserve.as_mut().poll(&mut cx).is_pending()); // full: waits for room
/// assert_eq!(rx.recv(), Ok(1));
/// let Poll::Ready(Ok(permit)) = reserve.as_mut().poll(&mut cx) else { panic!() };
/// permit.send(2);
/// assert_eq!(rx.recv(), Ok(2));
/// drop(rx);
/// let Poll::Ready(Err(e)) = pin!(tx.reserve_async()).poll(&mut cx) else { panic!() };
/// assert_eq!(e, hotq_mpmc::SendError(())); // nobody to take it
/// ```
#[must_use = "futures do nothing unless polled"]
pub struct ReserveFut<'a, T> {
    sender: &'a Sender<T>,
    /// This future's place on the senders' waiting list, between polls.
    waiter: Option<Arc<Waiter>>,
    /// Set once it has resolved.
    done: bool,
}

impl<T> Sender<T> {
    /// Reserves a slot if there is one now, without blocking:
    /// [`TrySendError::Full`] when the channel is full (counting the slots
    /// held by other permits), [`TrySendError::Disconnected`] when every
    /// receiver is gone or the channel is closed. A reserve that races the
    /// last receiver's drop either fails or counts as made before it; it
    /// never takes room that the drop's drain made.
    ///
    /// ```
    /// use hotq_mpmc::TrySendError;
    ///
    /// let (tx, rx) = hotq_mpmc::bounded(1);
    /// let permit = tx.try_reserve().unwrap();
    /// assert_eq!(tx.try_reserve().unwrap_err(), TrySendError::Full(()));
    /// permit.send('a');
    /// assert_eq!(rx.recv(), Ok('a'));
    /// rx.close();
    /// assert_eq!(tx.try_reserve().unwrap_err(), TrySendError::Disconnected(()));
    /// ```
    ///
    /// # Panics
    ///
    /// On a rendezvous channel (`bounded(0)`): it holds no item, so it has
    /// no slot to reserve, now or ever (a `send` hands its value straight
    /// to a receiver instead).
    ///
    /// ```should_panic
    /// let (tx, _rx) = hotq_mpmc::bounded::<u8>(0);
    /// let _ = tx.try_reserve(); // panics: a rendezvous channel has no slot
    /// ```
    pub fn try_reserve(&self) -> Result<Permit<'_, T>, TrySendError<()>> {
        let shared = self.shared();
        // Relaxed: a hint that saves a claim nobody will receive.
        if shared.disconnected.load(Ordering::Relaxed) {
            return Err(TrySendError::Disconnected(()));
        }
        match shared.reserve() {
            Reserved::Slot(position) => Ok(Permit {
                sender: self,
                position,
            }),
            Reserved::Disconnected => Err(TrySendError::Disconnected(())),
            Reserved::Full => Err(TrySendError::Full(())),
        }
    }

    /// Reserves a slot, blocking while the channel is full. Fails only
    /// when every receiver is gone or the channel is closed.
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded(1);
    /// tx.send(1).unwrap();
    /// std::thread::scope(|s| {
    ///     let t = s.spawn(|| tx.reserve().map(|permit| permit.send(2)));
    ///     assert_eq!(rx.recv(), Ok(1)); // makes room: the reserve goes ahead
    ///     assert_eq!(rx.recv(), Ok(2));
    ///     t.join().unwrap().unwrap();
    /// });
    /// drop(rx);
    /// assert_eq!(tx.reserve().unwrap_err(), hotq_mpmc::SendError(()));
    /// ```
    ///
    /// # Panics
    ///
    /// On a rendezvous channel, as [`try_reserve`](Self::try_reserve).
    pub fn reserve(&self) -> Result<Permit<'_, T>, SendError<()>> {
        self.reserve_until(|| None).map_err(|_| SendError(()))
    }

    /// Reserves a slot, blocking while the channel is full for at most
    /// `timeout`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use hotq_mpmc::SendTimeoutError;
    ///
    /// let (tx, rx) = hotq_mpmc::bounded::<u8>(1);
    /// let permit = tx.reserve_timeout(Duration::from_millis(10)).unwrap();
    /// let late = tx.reserve_timeout(Duration::from_millis(10));
    /// assert_eq!(late.unwrap_err(), SendTimeoutError::Timeout(()));
    /// drop(permit);
    /// drop(rx);
    /// let gone = tx.reserve_timeout(Duration::ZERO);
    /// assert_eq!(gone.unwrap_err(), SendTimeoutError::Disconnected(()));
    /// ```
    ///
    /// # Panics
    ///
    /// On a rendezvous channel, as [`try_reserve`](Self::try_reserve).
    pub fn reserve_timeout(
        &self,
        timeout: Duration,
    ) -> Result<Permit<'_, T>, SendTimeoutError<()>> {
        // A timeout too long to represent is no timeout.
        self.reserve_until(|| Instant::now().checked_add(timeout))
    }

    /// Reserves a slot, blocking while the channel is full until
    /// `deadline` at the latest. A deadline in the past never blocks (one
    /// try).
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    /// use hotq_mpmc::SendTimeoutError;
    ///
    /// let (tx, _rx) = hotq_mpmc::bounded::<u8>(1);
    /// let permit = tx.reserve_deadline(Instant::now()).unwrap(); // room: no wait
    /// let late = Instant::now() + Duration::from_millis(10);
    /// assert_eq!(tx.reserve_deadline(late).unwrap_err(), SendTimeoutError::Timeout(()));
    /// assert!(Instant::now() >= late);
    /// permit.send(1);
    /// ```
    ///
    /// # Panics
    ///
    /// On a rendezvous channel, as [`try_reserve`](Self::try_reserve).
    pub fn reserve_deadline(
        &self,
        deadline: Instant,
    ) -> Result<Permit<'_, T>, SendTimeoutError<()>> {
        self.reserve_until(|| Some(deadline))
    }

    /// One try, then the senders' waiting loop (`Sender::send`'s, without
    /// the look ahead for room: a reserver wants one slot, at once).
    fn reserve_until(
        &self,
        deadline: impl FnOnce() -> Option<Instant>,
    ) -> Result<Permit<'_, T>, SendTimeoutError<()>> {
        match self.try_reserve() {
            Ok(permit) => return Ok(permit),
            Err(TrySendError::Disconnected(())) => return Err(SendTimeoutError::Disconnected(())),
            Err(TrySendError::Full(())) => {}
        }
        let got = self.shared().send_waiters.block_on(
            deadline(),
            || match self.try_reserve() {
                Ok(permit) => Some(Ok(permit)),
                Err(TrySendError::Disconnected(())) => {
                    Some(Err(SendTimeoutError::Disconnected(())))
                }
                Err(TrySendError::Full(())) => None,
            },
            || true,
        );
        got.unwrap_or(Err(SendTimeoutError::Timeout(())))
    }

    /// Reserves a slot, waiting asynchronously while the channel is full;
    /// a `Send` future for any runtime. Cancellation-safe: dropping it
    /// pending takes no slot and passes on a wake-up it had, so an async
    /// send that must keep its value on a timeout or in a `select!`
    /// reserves first and sends with the permit.
    ///
    /// ```
    /// # use std::future::Future;
    /// # fn block_on<F: Future>(f: F) -> F::Output {
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     let mut f = std::pin::pin!(f);
    /// #     loop {
    /// #         if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; }
    /// #         std::thread::yield_now();
    /// #     }
    /// # }
    /// let (tx, rx) = hotq_mpmc::bounded(1);
    /// block_on(async {
    ///     tx.reserve_async().await.unwrap().send("x");
    ///     assert_eq!(rx.recv_async().await, Ok("x"));
    ///     drop(rx);
    ///     assert_eq!(tx.reserve_async().await.unwrap_err(), hotq_mpmc::SendError(()));
    /// });
    /// ```
    ///
    /// # Panics
    ///
    /// When polled on a rendezvous channel, as
    /// [`try_reserve`](Self::try_reserve).
    pub fn reserve_async(&self) -> ReserveFut<'_, T> {
        ReserveFut {
            sender: self,
            waiter: None,
            done: false,
        }
    }
}

impl<T> Permit<'_, T> {
    /// Puts `value` in the held slot. Never fails and never waits; wakes
    /// the waiting receivers. When every receiver is gone (the channel
    /// disconnected, not only closed) the value is dropped, as the last
    /// receiver drops what the channel held; after `Receiver::close` it
    /// is delivered.
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded(2);
    /// let first = tx.try_reserve().unwrap();
    /// tx.send(2).unwrap(); // behind the permit
    /// first.send(1);
    /// assert_eq!((rx.recv(), rx.recv()), (Ok(1), Ok(2))); // the permit kept its place
    /// let late = tx.try_reserve().unwrap();
    /// drop(rx);
    /// late.send(3); // nobody to take it: dropped
    /// ```
    pub fn send(self, value: T) {
        let this = ManuallyDrop::new(self);
        // SAFETY: `position` is this permit's reservation on its sender's
        // channel, and `ManuallyDrop` keeps `Drop` from releasing it too:
        // filled exactly once.
        unsafe { this.sender.shared().fill(this.position, value) };
    }
}

impl<T> Drop for Permit<'_, T> {
    fn drop(&mut self) {
        // SAFETY: `position` is this permit's reservation, not filled
        // (`send` forgets the permit): released exactly once.
        unsafe { self.sender.shared().release(self.position) };
    }
}

/// What [`Shared::reserve`] got.
pub(crate) enum Reserved {
    /// The slot of this position, claimed and held for a permit.
    Slot(Position),
    /// No room.
    Full,
    /// Closed, or every receiver is gone: nothing reserved.
    Disconnected,
}

impl<T> Shared<T> {
    /// Reserves the slot at `tail` (`Sender::try_reserve`, a select's send
    /// arm).
    ///
    /// The disconnection flag is asked again after the claim: the last
    /// receiver's drop stores it and then drains, and a reserve that
    /// claims room the drain made must fail, not take it (the channel was
    /// full and nobody received; a permit's send would drop its value
    /// unseen). Relaxed: the claim's Acquire stamp load read the drain
    /// pop's freeing store (Release), which the flag store precedes, so
    /// this load sees the flag. Room made otherwise is a reserve made
    /// before the disconnection, settled when the permit sends (`fill`).
    pub(crate) fn reserve(&self) -> Reserved {
        let Some(position) = self.queue.reserve() else {
            // A rendezvous channel's queue is closed from the start: there
            // is no slot to hold, now or ever (`Sender::try_reserve`,
            // "Panics"). A select's send arm never comes here for one.
            assert!(self.zero.is_none(), "{NO_SLOT_TO_RESERVE}");
            return match self.queue.is_closed() {
                true => Reserved::Disconnected,
                false => Reserved::Full,
            };
        };
        if self.disconnected.load(Ordering::Relaxed) {
            // SAFETY: reserved just now, neither filled nor released:
            // released exactly once.
            unsafe { self.release(position) };
            return Reserved::Disconnected;
        }
        Reserved::Slot(position)
    }

    /// Fills the reserved slot of `position` with `value` and wakes the
    /// waiting receivers (see the module docs); when the last receiver has
    /// gone meanwhile, drops what is left, as `try_send` does.
    ///
    /// # Safety
    ///
    /// As for `Queue::fill`: `position` came from `Queue::reserve` on this
    /// channel's queue and was neither filled nor released.
    pub(crate) unsafe fn fill(&self, position: Position, value: T) {
        // SAFETY: the caller's promise.
        unsafe { self.queue.fill(position, value) };
        // The publishing stamp store (Release, in `fill`) before the
        // waiter-flag load: a `fence(SeqCst)` that pairs with the fence in
        // `Queue::pop`'s held-slot branch, which a receiver that found the
        // slot reserved runs after storing its flag and before it loads
        // the stamp again, or, once the channel has had a permit and
        // `membarrier` works, a compiler fence that pairs with the
        // system call the receivers then make after their flag stores
        // (`fill_barrier.rs`). (A push's claim is a SeqCst CAS that
        // `load_after_claim` follows; this store is not.)
        self.recv_waiters.after_fill();
        if self.recv_waiters.notify_all_after_fence() {
            // The last receiver left meanwhile (`CLOSED`): drop what its
            // drain may have missed, this item included.
            self.drop_all(|| self.pop());
        }
    }

    /// Releases the reserved slot of `position` unfilled (a dropped permit
    /// or select send arm): leaves a tombstone, skipped at once if it is
    /// the oldest (then a blocked sender is woken), and wakes the waiting
    /// receivers (items behind the slot may now be reachable).
    ///
    /// # Safety
    ///
    /// As for [`fill`](Self::fill).
    pub(crate) unsafe fn release(&self, position: Position) {
        // SAFETY: the caller's promise. `Queue::release` ends with a
        // `fence(SeqCst)` after the tombstone store, and its skip (if any)
        // is a SeqCst claim: the flag loads below are ordered after both.
        let skipped = unsafe { self.queue.release(position) };
        if skipped {
            // Room: as after a receive (the skip is a consumer's claim).
            let _ = self.send_waiters.notify_one();
        }
        if self.recv_waiters.notify_all_after_fence() && skipped {
            // The last receiver has gone: what it could not reach behind
            // this slot is dropped now.
            self.drop_all(|| self.pop());
        }
    }
}

impl<'a, T> Future for ReserveFut<'a, T> {
    type Output = Result<Permit<'a, T>, SendError<()>>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        assert!(!this.done, "`ReserveFut` polled after it completed");
        let sender: &'a Sender<T> = this.sender;
        let done = &mut this.done;
        let waiters = &sender.shared().send_waiters;
        waiters.poll_wait(&mut this.waiter, cx, || {
            let got = match sender.try_reserve() {
                Ok(permit) => Ok(permit),
                Err(TrySendError::Disconnected(())) => Err(SendError(())),
                Err(TrySendError::Full(())) => return Poll::Pending,
            };
            *done = true;
            Poll::Ready(got)
        })
    }
}

// It does not point into itself.
impl<T> Unpin for ReserveFut<'_, T> {}

impl<T> Drop for ReserveFut<'_, T> {
    fn drop(&mut self) {
        if let Some(w) = self.waiter.take() {
            // A slot this future was told about goes to the next sender.
            self.sender.shared().send_waiters.leave(&w);
        }
    }
}

impl<T> fmt::Debug for Permit<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Permit").finish_non_exhaustive()
    }
}

impl<T> fmt::Debug for ReserveFut<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReserveFut")
            .field("waiting", &self.waiter.is_some())
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}
