//! Batch receives: `try_recv_many`, `recv_many`, `recv_many_timeout` and
//! `recv_many_async` (tokio's `recv_many`), each appending up to `limit`
//! items to a `Vec` in FIFO order (the batch sends are `send_many.rs`).
//!
//! Each batch is one claim on the queue ([`Queue::pop_many`]: one CAS for
//! the whole batch, `queue/batch.rs`), followed by one load of the
//! senders' waiter flags, as after a single item's claim, that wakes up to
//! one waiter per item taken (`Waiters::notify_many`). So the wake-up
//! protocol is `waiters.rs`'s, unchanged: the batch's claim CAS is
//! `SeqCst`, the flag load after it `SeqCst`, and a batch that finds
//! nothing runs the queue's `fence(SeqCst)` before deciding "empty", after
//! the waiter's flag store. No item is ever held across a wait: the
//! future takes items only in the poll that completes it, so dropping it
//! pending loses nothing (and passes on a wake-up it had, as `RecvFut`).
//!
//! A batch receive first waits for a batch with as many again behind it
//! (`Receiver::batch_ready`), for `BATCH_HOLD` (1 µs) at most: a spin
//! (blocking, which takes a whole batch at once too) or polls that wake
//! their own task (async; up to `STREAMING_HOLD`, 4 µs, while items
//! stream in), with no registration,
//! so the protocol above has nothing to do with it. It ends
//! early once the senders are gone, and what follows it is the usual try,
//! so it can delay an item, never lose one.
//!
//! [`Queue::pop_many`]: crate::Queue::pop_many

use alloc::vec::Vec;
use core::cell::Cell;
use core::fmt;
use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};
use std::time::{Duration, Instant};

use super::waiters::Waiter;
use super::{Receiver, RecvError, RecvTimeoutError, TryRecvError};
use crate::sync::Backoff;
use crate::sync::blocking::{Arc, BATCH_HOLD, Ordering, STREAMING_HOLD, STREAMING_ITEMS};

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
        if self.shared.one_at_a_time() {
            // A timer's or a rendezvous channel's queue is always empty:
            // the timer answers (`timer.rs`), or a blocked sender hands
            // over (`zero.rs`).
            let first = self.try_recv()?;
            return Ok(self.append(buf, first, limit));
        }
        match self.take_many(buf, limit) {
            0 => self.none_taken(buf, limit),
            taken => Ok(taken),
        }
    }

    /// Batch claims of up to `limit` items into `buf` (one, or one per run
    /// of items between dropped permits' tombstones), then the
    /// senders' notification (one per item taken).
    fn take_many(&self, buf: &mut Vec<T>, limit: usize) -> usize {
        let shared = &*self.shared;
        let backoff = Backoff::new();
        let mut taken = 0;
        while taken < limit {
            taken += shared.queue.pop_many(buf, limit - taken);
            if taken == limit {
                break;
            }
            // A dropped permit's tombstone at `head` stops a batch as it
            // stops a `pop`: skip it and go on (as `Shared::pop`), so that
            // a batch takes the items behind it too.
            match shared.skip_tombstone() {
                None => break,
                Some(true) => {}
                // Another thread's skip of it is under way: let it finish.
                Some(false) => backoff.snooze(),
            }
        }
        if taken > 0 {
            // After the claim (pop_many's SeqCst CAS on `head`): see
            // `waiters.rs` for the store→load order. (`CLOSED` here would
            // say the senders are gone: nothing to do.)
            let _ = shared.send_waiters.notify_many(taken);
        }
        taken
    }

    /// An empty batch: empty, or disconnected once what was sent before
    /// the last sender left is taken (`try_recv`'s argument, with the
    /// batch's `fence(SeqCst)` in `Queue::pop_many` in the place of
    /// `pop`'s).
    #[cold]
    fn none_taken(&self, buf: &mut Vec<T>, limit: usize) -> Result<usize, TryRecvError> {
        // Relaxed: the batch below runs a `fence(SeqCst)` before it
        // decides "empty", which acquires for this load (pairing with the
        // Release store in `Shared::disconnect`), as in `try_recv`.
        if !self.shared.disconnected.load(Ordering::Relaxed) {
            return Err(TryRecvError::Empty);
        }
        match self.take_many(buf, limit) {
            // Closed (`Receiver::close`) with a permit still held: it is
            // delivered later (`reserve.rs`), so not drained yet (as in
            // `try_recv`).
            0 if !self.shared.queue.is_drained() => Err(TryRecvError::Empty),
            0 => Err(TryRecvError::Disconnected),
            taken => Ok(taken),
        }
    }

    /// Appends to `buf` up to `limit` items, blocking while the channel is
    /// empty, and returns how many: at least one, or [`RecvError`] once
    /// the channel is empty and every sender is gone. `limit == 0` returns
    /// `Ok(0)` at once.
    ///
    /// It takes a batch at once when there is a whole one, or half the
    /// ring (`min(limit, capacity / 2)` items); with fewer there, it waits
    /// up to 1 µs for a batch with as many again behind it
    /// (`min(2 × limit, capacity / 2)` items), then takes what there is
    /// (or waits for the first item, as [`recv`](Self::recv) does). A
    /// receiver that took each item as it came would stay on the heels of
    /// senders that send one at a time, reading the lines they write, and
    /// slow them (five-fold, in docs/goals-missed.md, "A batch receive that
    /// keeps pace"). An item so reaches it up to about a microsecond later
    /// than it reaches [`recv`](Self::recv).
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
        self.recv_many_until(buf, limit, || None)
            .map_err(|_| RecvError)
    }

    /// As [`recv_many`](Self::recv_many), blocking for at most `timeout`
    /// for the first item (its wait for a batch ends at the timeout too,
    /// and the items there then are taken).
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
        // A timeout too long to represent is no timeout.
        self.recv_many_until(buf, limit, || Instant::now().checked_add(timeout))
    }

    /// One batch try, then (when it finds the channel empty) the waiting
    /// loop of `recv`, each try a batch. `deadline` is called only when the
    /// first try fails, as in `recv_until`.
    fn recv_many_until(
        &self,
        buf: &mut Vec<T>,
        limit: usize,
        deadline: impl FnOnce() -> Option<Instant>,
    ) -> Result<usize, RecvTimeoutError> {
        if limit == 0 {
            return Ok(0);
        }
        if self.shared.one_at_a_time() {
            // Nothing notifies a timer's receivers: its own wait
            // (`timer.rs`); a rendezvous channel's hand-off (`zero.rs`).
            let first = match deadline() {
                None => self.recv().map_err(|_| RecvTimeoutError::Disconnected)?,
                Some(at) => self.recv_deadline(at)?,
            };
            return Ok(self.append(buf, first, limit));
        }
        // `deadline` is called once: by the hold, or after a first try
        // that found nothing (as in `recv_until`).
        let mut deadline = Some(deadline);
        let held = self.hold_for_a_batch(limit, || deadline.take().and_then(|d| d()));
        match self.try_recv_many(buf, limit) {
            Ok(taken) => return Ok(taken),
            Err(TryRecvError::Disconnected) => return Err(RecvTimeoutError::Disconnected),
            Err(TryRecvError::Empty) => {}
        }
        let (held_since, deadline) = match held {
            Some((since, at)) => (Some(since), at),
            None => (None, deadline.take().and_then(|d| d())),
        };
        // Between tries of the spin phase, wait for a batch with as many
        // again behind it (`batch_ready`), or for any item once
        // `BATCH_HOLD` has passed since the hold began (before the first
        // try, or at the first look here). A receiver that takes what
        // there is as soon as one item is in catches up with the senders
        // and stays on their heels: each of its tries loads the slot they
        // are writing and the `tail` they claim (an empty try's check),
        // so every send takes both lines back, and each batch is a few
        // items. The mirror of a blocked sender's wait for half a ring of
        // room (`Sender::send_waiting`).
        let first_look = Cell::new(held_since);
        let batch_ready = || {
            let now = Instant::now();
            let since = *first_look.get().get_or_insert(now);
            first_look.set(Some(since));
            if now.duration_since(since) < BATCH_HOLD {
                self.batch_ready(limit)
            } else {
                self.shared.queue.has_items_ahead(0)
            }
        };
        let got = self.shared.recv_waiters.block_on(
            deadline,
            || match self.try_recv_many(buf, limit) {
                Ok(taken) => Some(Ok(taken)),
                Err(TryRecvError::Disconnected) => Some(Err(RecvTimeoutError::Disconnected)),
                Err(TryRecvError::Empty) => None,
            },
            batch_ready,
        );
        got.unwrap_or(Err(RecvTimeoutError::Timeout))
    }

    /// As [`recv_many`](Self::recv_many), waiting asynchronously for the
    /// first item; a `Send` future for any runtime. Cancellation-safe:
    /// dropping it before it completes takes no item (it takes them all
    /// in the poll that completes it), and hands a wake-up it may have had
    /// on to another waiting receiver.
    ///
    /// Its wait of up to 1 µs for a batch with as many again behind it is
    /// `recv_many`'s (but a whole batch alone does not end it: taken at
    /// once, it leaves the receiver on the heels of single-item senders),
    /// made of polls that yield to the executor (each wakes
    /// its own task before it returns `Pending`, so the senders of the same
    /// executor run meanwhile), and goes on to 4 µs while items stream in
    /// (16 or more there at 1 µs), as single-item senders fill a batch
    /// slower than a receiver takes it; after it, the future registers and
    /// sleeps until a send wakes it, as [`recv_async`](Self::recv_async)
    /// does.
    /// With 4 senders and 4 receivers on a 2-thread tokio runtime it took
    /// the receivers from 11 to 66 M items/s at limit 256, where `recv_async`
    /// ran at 62 (docs/goals-missed.md, "An async batch receive that keeps
    /// pace").
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
    ///     (1..=4).for_each(|i| tx.send(i).unwrap()); // a batch, and as many again
    ///     assert_eq!(batch.as_mut().poll(&mut cx), Poll::Ready(Ok(2)));
    /// }
    /// assert_eq!(buf, [1, 2]); // 3 and 4 are still in the channel
    /// drop(tx); // no sender left: no wait for a batch
    /// assert_eq!(pin!(rx.recv_many_async(&mut buf, 2)).poll(&mut cx), Poll::Ready(Ok(2)));
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
            held_since: None,
        }
    }

    /// Whether a batch is there with a batch to spare: `min(2 × limit,
    /// capacity / 2)` items published from `head` on (at least one). A
    /// receiver that takes a batch as soon as it is whole catches up with
    /// the senders and reads the lines they are writing; one that waits
    /// for twice as many stays a batch behind them. Half the ring at most:
    /// the other half is the senders' room, as a blocked sender waits for
    /// half a ring of room. One Relaxed stamp load, of a slot no sender is
    /// writing.
    fn batch_ready(&self, limit: usize) -> bool {
        self.shared
            .queue
            .has_items_ahead(self.batch_wanted(limit) - 1)
    }

    /// Whether a blocking `recv_many` takes at once: a whole batch is
    /// there, or a batch with as many again behind it
    /// ([`batch_ready`](Self::batch_ready)), whichever is fewer items
    /// (`min(limit, capacity / 2)`); one Relaxed stamp load, as there.
    /// (An async one holds on for `batch_ready`: taking a whole batch at
    /// once there put `recv_many_async(16)` behind single-item senders,
    /// 1P1C 52.9 → 43.8 M items/s; docs/goals-missed.md, "A whole batch,
    /// taken at once".)
    fn whole_batch(&self, limit: usize) -> bool {
        self.shared
            .queue
            .has_items_ahead(limit.min(self.batch_wanted(limit)) - 1)
    }

    /// How many items make [`batch_ready`](Self::batch_ready) hold.
    fn batch_wanted(&self, limit: usize) -> usize {
        let capacity = self.shared.queue.capacity();
        limit.saturating_mul(2).min(capacity / 2).max(1)
    }

    /// Whether items are streaming in for a batch that is not ready:
    /// [`STREAMING_ITEMS`] there (for a batch wanting more). One Relaxed
    /// stamp load, as in `batch_ready`.
    fn streaming(&self, limit: usize) -> bool {
        self.batch_wanted(limit) > STREAMING_ITEMS
            && self.shared.queue.has_items_ahead(STREAMING_ITEMS - 1)
    }

    /// A blocking batch receive's hold before its first try, when there
    /// are items but neither a whole batch nor a batch to spare
    /// ([`whole_batch`](Self::whole_batch)): spins until there is a batch
    /// to spare ([`batch_ready`](Self::batch_ready)), for
    /// [`BATCH_HOLD`] at most, not past `deadline` and not once the
    /// senders are gone. Returns when it began, and the deadline (from
    /// `deadline`, called then), if it did. (On an empty channel the first
    /// try fails at once and the spin phase holds instead, as before a
    /// park.)
    fn hold_for_a_batch(
        &self,
        limit: usize,
        deadline: impl FnOnce() -> Option<Instant>,
    ) -> Option<(Instant, Option<Instant>)> {
        let queue = &self.shared.queue;
        if BATCH_HOLD.is_zero() || !queue.has_items_ahead(0) || self.whole_batch(limit) {
            return None;
        }
        let (since, deadline) = (Instant::now(), deadline());
        let backoff = Backoff::new();
        // Relaxed: a hint; the try that follows decides.
        while !self.shared.disconnected.load(Ordering::Relaxed) && !self.batch_ready(limit) {
            let now = Instant::now();
            if now.duration_since(since) >= BATCH_HOLD || deadline.is_some_and(|d| now >= d) {
                break;
            }
            backoff.spin();
        }
        Some((since, deadline))
    }

    /// The batch of a channel whose items come one at a time (a timer's,
    /// a rendezvous channel's: `Shared::one_at_a_time`): pushes `first`,
    /// then takes items with `try_recv` until `limit` in all or an empty
    /// channel; returns how many were appended.
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
    /// When a poll first found less than a batch with as many again
    /// behind it: until `BATCH_HOLD` has passed since (`STREAMING_HOLD`
    /// while items stream in), a poll that finds so yields to the executor
    /// (`recv_many`'s wait for a batch, in the executor's time). `None`
    /// while no poll has held.
    held_since: Option<Instant>,
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
        let (receiver, limit) = (this.receiver, this.limit);
        if receiver.shared.one_at_a_time() {
            // One item at a time from the timer (`timer.rs`) or a
            // rendezvous channel's sender (`zero.rs`).
            return match receiver.poll_recv(&mut this.waiter, cx) {
                Poll::Ready(Ok(first)) => Poll::Ready(Ok(receiver.append(this.buf, first, limit))),
                Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
                Poll::Pending => Poll::Pending,
            };
        }
        // `Receiver::poll_recv`'s protocol, each try a batch.
        let waiters = &receiver.shared.recv_waiters;
        waiters.take_place(&mut this.waiter);
        // The hold for a batch (`recv_many`'s, with yields to the executor
        // in the place of a spin, and unregistered: nothing to undo when
        // dropped): not yet worth a try.
        if !BATCH_HOLD.is_zero() && !receiver.batch_ready(limit) {
            let since = *this.held_since.get_or_insert_with(Instant::now);
            // Relaxed: a hint; the try that follows the hold decides.
            let gone = receiver.shared.disconnected.load(Ordering::Relaxed);
            let held = since.elapsed();
            // Past BATCH_HOLD only while items stream in (STREAMING_HOLD).
            if !gone && (held < BATCH_HOLD || held < STREAMING_HOLD && receiver.streaming(limit)) {
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
        }
        let buf = &mut *this.buf;
        waiters.poll_wait(&mut this.waiter, cx, || {
            match receiver.try_recv_many(buf, limit) {
                Ok(taken) => Poll::Ready(Ok(taken)),
                Err(TryRecvError::Disconnected) => Poll::Ready(Err(RecvError)),
                Err(TryRecvError::Empty) => Poll::Pending,
            }
        })
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

#[cfg(all(test, not(loom)))]
mod tests {
    /// `whole_batch` is one stamp load for "a whole batch is there, or a
    /// batch with as many again behind it": the two thresholds' smaller.
    #[test]
    fn whole_batch_is_a_whole_batch_or_a_batch_to_spare() {
        for capacity in 1..=9 {
            for limit in 1..=12 {
                let (tx, rx) = crate::bounded::<u8>(capacity);
                for items in 0..=capacity {
                    let whole = items >= limit.min(capacity);
                    let spare = items >= (2 * limit).min(capacity / 2).max(1);
                    assert_eq!(
                        rx.whole_batch(limit),
                        whole || spare,
                        "capacity {capacity}, limit {limit}, {items} items"
                    );
                    if items < capacity {
                        tx.send(0).unwrap();
                    }
                }
            }
        }
    }
}
