//! The async waits for a count: [`Producer::wait_slots_async`] and
//! [`Consumer::wait_items_async`], the futures of
//! [`wait_slots`](Producer::wait_slots) and
//! [`wait_items`](Consumer::wait_items). They move nothing: they wait until
//! `n` slots (items) are there, so that the try call after them succeeds.
//! With [`Producer::push`] that is a send which keeps its value when the
//! wait is cancelled (by a timeout, or a `select!` that took another
//! branch): the value is never in the future.
//!
//! Each poll is `future.rs`'s `poll_wait` on the same slot as the
//! push/pop futures, so the wake-up protocol is theirs (`slot.rs`).

use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};

use super::future::{poll_wait, retract};
use super::{Check, WaitError};
use crate::{Consumer, Producer};

impl<T> Producer<T> {
    /// Waits until at least `n` slots are free, as a future, and returns
    /// how many are free then (at least `n`): a
    /// [`write_chunk_uninit(n)`](Self::write_chunk_uninit), a
    /// [`push_slice`](Self::push_slice) of `n` items or `n`
    /// [`push`](Self::push)es then succeed. [`WaitError::Abandoned`] when
    /// fewer than `n` are free and the consumer is gone;
    /// [`WaitError::ExceedsCapacity`] on the first poll when `n` is more
    /// than the ring can ever free. It never returns
    /// [`WaitError::Timeout`]: put it under your runtime's timeout.
    ///
    /// Cancellation-safe: it holds no value and reserves nothing, so
    /// dropping it at any point changes nothing in the ring. That makes it
    /// the first half of an async push that keeps its value on a timeout:
    ///
    /// ```
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
    /// # }
    /// use hotq_spsc::{RingBuffer, WaitError};
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(2);
    /// let value = String::from("kept");
    /// // `tokio::time::timeout(d, tx.wait_slots_async(1))` in a real program:
    /// // when it fires, only the wait is dropped; `value` is still ours.
    /// assert_eq!(block_on(tx.wait_slots_async(1)), Ok(2));
    /// tx.push(value).unwrap(); // cannot fail: the slot was seen free
    /// assert_eq!(rx.pop().as_deref(), Ok("kept"));
    ///
    /// assert_eq!(
    ///     block_on(tx.wait_slots_async(3)),
    ///     Err(WaitError::ExceedsCapacity { requested: 3, capacity: 2 })
    /// );
    /// tx.push(String::new()).unwrap();
    /// tx.push(String::new()).unwrap();
    /// drop(rx);
    /// assert_eq!(block_on(tx.wait_slots_async(1)), Err(WaitError::Abandoned));
    /// ```
    pub fn wait_slots_async(&mut self, n: usize) -> WaitSlotsFuture<'_, T> {
        WaitSlotsFuture {
            producer: self,
            n,
            registered: false,
        }
    }
}

impl<T> Consumer<T> {
    /// Waits until at least `n` items are ready, as a future, and returns
    /// how many are ready then (at least `n`): a
    /// [`read_chunk(n)`](Self::read_chunk), a [`pop_slice`](Self::pop_slice)
    /// of `n` or `n` [`pop`](Self::pop)s then succeed.
    /// [`WaitError::Abandoned`] when fewer than `n` are ready and the
    /// producer is gone (the items there are still yours to take);
    /// [`WaitError::ExceedsCapacity`] on the first poll when `n` is more
    /// than the ring can ever hold. It never returns
    /// [`WaitError::Timeout`]: put it under your runtime's timeout.
    ///
    /// Cancellation-safe: it takes nothing, so dropping it at any point
    /// leaves every item in the ring.
    ///
    /// ```
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
    /// # }
    /// use hotq_spsc::{RingBuffer, WaitError};
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(4);
    /// assert_eq!(tx.push_slice(&[1, 2, 3]), 3);
    /// assert_eq!(block_on(rx.wait_items_async(2)), Ok(3));
    /// assert_eq!(rx.read_chunk(2).unwrap().into_iter().collect::<Vec<_>>(), [1, 2]);
    ///
    /// assert_eq!(
    ///     block_on(rx.wait_items_async(5)),
    ///     Err(WaitError::ExceedsCapacity { requested: 5, capacity: 4 })
    /// );
    /// drop(tx);
    /// assert_eq!(block_on(rx.wait_items_async(2)), Err(WaitError::Abandoned));
    /// assert_eq!(rx.pop(), Ok(3)); // what was pushed is still there
    /// ```
    pub fn wait_items_async(&mut self, n: usize) -> WaitItemsFuture<'_, T> {
        WaitItemsFuture {
            consumer: self,
            n,
            registered: false,
        }
    }
}

/// The future of [`Producer::wait_slots_async`]: pending while fewer than
/// `n` slots are free; woken when the consumer frees some (or is dropped).
///
/// ```
/// use std::future::Future;
/// use std::pin::pin;
/// use std::task::{Context, Poll, Waker};
/// use hotq_spsc::{RingBuffer, WaitError};
///
/// let mut cx = Context::from_waker(Waker::noop());
/// let (mut tx, mut rx) = RingBuffer::new(2);
/// assert_eq!(tx.push_slice(&[1, 2]), 2);
/// {
///     let mut wait = pin!(tx.wait_slots_async(1));
///     assert!(wait.as_mut().poll(&mut cx).is_pending()); // full
///     assert_eq!(rx.pop(), Ok(1)); // room: the waker would be woken now
///     assert_eq!(wait.as_mut().poll(&mut cx), Poll::Ready(Ok(1)));
/// }
/// drop(rx);
/// let mut wait = pin!(tx.wait_slots_async(2));
/// assert_eq!(wait.as_mut().poll(&mut cx), Poll::Ready(Err(WaitError::Abandoned)));
/// ```
#[must_use = "futures do nothing unless polled"]
pub struct WaitSlotsFuture<'a, T> {
    producer: &'a mut Producer<T>,
    /// The free slots to wait for.
    n: usize,
    /// Whether the room slot holds this future's waker.
    registered: bool,
}

impl<T> Future for WaitSlotsFuture<'_, T> {
    type Output = Result<usize, WaitError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        poll_slots(this.producer, this.n, cx, &mut this.registered)
    }
}

/// One poll of a wait for `n` free slots; `registered` says whether the
/// room slot holds the caller's waker (the future's flag, or the
/// producer's own for [`Producer::poll_slots`]).
pub(super) fn poll_slots<T>(
    producer: &Producer<T>,
    n: usize,
    cx: &mut Context<'_>,
    registered: &mut bool,
) -> Poll<Result<usize, WaitError>> {
    let capacity = producer.capacity();
    if n > capacity {
        return Poll::Ready(Err(WaitError::ExceedsCapacity {
            requested: n,
            capacity,
        }));
    }
    let ring = producer.ring();
    poll_wait(
        &ring.waiters.room,
        cx,
        registered,
        producer.tail(),
        capacity,
        // `usize::MAX`: the latest head, so the count is the free slots
        // now, not a cached lower bound (as `wait_slots`).
        || match producer.free_slots(usize::MAX) {
            free if free >= n => Check::Ready(free),
            _ if !ring.is_abandoned() => Check::Wait,
            // Gone: every slot it freed is visible now (`is_abandoned`).
            _ => match producer.free_slots(usize::MAX) {
                free if free >= n => Check::Ready(free),
                _ => Check::Abandoned,
            },
        },
        || producer.free_slots(0),
    )
    .map(|ready| ready.map_err(|()| WaitError::Abandoned))
}

impl<T> Drop for WaitSlotsFuture<'_, T> {
    fn drop(&mut self) {
        retract(&self.producer.ring().waiters.room, &mut self.registered);
    }
}

/// The future of [`Consumer::wait_items_async`]: pending while fewer than
/// `n` items are ready; woken when the producer pushes (or is dropped).
///
/// ```
/// use std::future::Future;
/// use std::pin::pin;
/// use std::task::{Context, Poll, Waker};
/// use hotq_spsc::{RingBuffer, WaitError};
///
/// let mut cx = Context::from_waker(Waker::noop());
/// let (mut tx, mut rx) = RingBuffer::new(4);
/// {
///     let mut wait = pin!(rx.wait_items_async(2));
///     tx.push('a').unwrap();
///     assert!(wait.as_mut().poll(&mut cx).is_pending()); // one of two
///     tx.push('b').unwrap(); // the waker would be woken now
///     assert_eq!(wait.as_mut().poll(&mut cx), Poll::Ready(Ok(2)));
/// }
/// drop(tx);
/// let mut wait = pin!(rx.wait_items_async(3));
/// assert_eq!(wait.as_mut().poll(&mut cx), Poll::Ready(Err(WaitError::Abandoned)));
/// ```
#[must_use = "futures do nothing unless polled"]
pub struct WaitItemsFuture<'a, T> {
    consumer: &'a mut Consumer<T>,
    /// The ready items to wait for.
    n: usize,
    /// Whether the items slot holds this future's waker.
    registered: bool,
}

impl<T> Future for WaitItemsFuture<'_, T> {
    type Output = Result<usize, WaitError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        poll_items(this.consumer, this.n, cx, &mut this.registered)
    }
}

/// One poll of a wait for `n` ready items (as [`poll_slots`]).
pub(super) fn poll_items<T>(
    consumer: &Consumer<T>,
    n: usize,
    cx: &mut Context<'_>,
    registered: &mut bool,
) -> Poll<Result<usize, WaitError>> {
    let capacity = consumer.capacity();
    if n > capacity {
        return Poll::Ready(Err(WaitError::ExceedsCapacity {
            requested: n,
            capacity,
        }));
    }
    let ring = consumer.ring();
    poll_wait(
        &ring.waiters.items,
        cx,
        registered,
        consumer.head(),
        capacity,
        // `usize::MAX`: the latest tail (as `wait_items`).
        || match consumer.ready_items(usize::MAX) {
            ready if ready >= n => Check::Ready(ready),
            _ if !ring.is_abandoned() => Check::Wait,
            // Gone: everything it pushed is visible now (`is_abandoned`).
            _ => match consumer.ready_items(usize::MAX) {
                ready if ready >= n => Check::Ready(ready),
                _ => Check::Abandoned,
            },
        },
        || consumer.ready_items(0),
    )
    .map(|ready| ready.map_err(|()| WaitError::Abandoned))
}

impl<T> Drop for WaitItemsFuture<'_, T> {
    fn drop(&mut self) {
        retract(&self.consumer.ring().waiters.items, &mut self.registered);
    }
}

impl<T> core::fmt::Debug for WaitSlotsFuture<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("WaitSlotsFuture")
            .field("n", &self.n)
            .finish_non_exhaustive()
    }
}

impl<T> core::fmt::Debug for WaitItemsFuture<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("WaitItemsFuture")
            .field("n", &self.n)
            .finish_non_exhaustive()
    }
}
