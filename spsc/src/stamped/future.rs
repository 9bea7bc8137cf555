//! The stamped ring's async waits: `push_async` and `pop_async` on a ring
//! made for waits ([`RingBuffer::with_waits`](super::RingBuffer::with_waits)).
//!
//! Each poll is [`crate::RingBuffer`]'s (`wait/future.rs`, `poll_wait`:
//! check; yield first while yields pay; else register the task's waker in
//! the slot, heavy barrier included, and check again) on the conditions of
//! this ring's blocking calls, in the same slots: the consumer waits in
//! `waiters.items` for the stamp of its line, the producer in
//! `waiters.room` for `head`. The store→load order they rely on is the
//! one `stamped/blocking.rs` states at its top: the working side stores
//! its stamp or `head` (or `abandoned`) and then loads the slot's state;
//! the waiter stores its registration and then loads the stamp or `head`.
//! A future adds no ordering of its own.

use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};

use super::{Consumer, Producer};
use crate::wait::Check;
use crate::wait::WaitSlot;
use crate::wait::future::{AsyncPush, poll_push, poll_wait, retract};
use crate::{PopAsyncError, PopError, PushAsyncError, PushError};

impl<T> Producer<T, true> {
    /// Appends `value` when there is room, as a future; gives the value
    /// back in [`PushAsyncError::Abandoned`] when the ring is full and the
    /// consumer is gone. As [`crate::Producer::push_async`]: it completes
    /// on its first poll when there is room, is `Send` when `T` is, and is
    /// cancellation-safe (dropping it unfinished pushes nothing and drops
    /// only its own value); while the ring stays full it may first yield
    /// (wake its own task and return `Pending`) up to 8 times, while that
    /// pays, before it registers its waker.
    ///
    /// ```
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
    /// # }
    /// use hotq_spsc::PushAsyncError;
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// let (mut tx, rx) = RingBuffer::<[u8; 64]>::with_waits(1); // one item to a line: exactly 1
    /// block_on(tx.push_async([1; 64])).unwrap();
    /// drop(rx);
    /// assert_eq!(block_on(tx.push_async([2; 64])), Err(PushAsyncError::Abandoned([2; 64])));
    /// ```
    pub fn push_async(&mut self, value: T) -> PushFuture<'_, T> {
        PushFuture {
            producer: self,
            value: Some(value),
            registered: false,
        }
    }
}

impl<T> Consumer<T, true> {
    /// Removes the oldest item when there is one, as a future;
    /// [`PopAsyncError::Abandoned`] when the ring is empty and the producer
    /// is gone (items it pushed before are still returned first). As
    /// [`crate::Consumer::pop_async`]: it completes on its first poll when
    /// an item is ready, is `Send` when `T` is, and is cancellation-safe
    /// (dropping it unfinished takes nothing out of the ring); while the
    /// ring stays empty it may first yield up to 8 times, while that pays,
    /// before it registers its waker.
    ///
    /// ```
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
    /// # }
    /// use hotq_spsc::PopAsyncError;
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// let (mut tx, mut rx) = RingBuffer::with_waits(2);
    /// tx.push('a').unwrap();
    /// drop(tx);
    /// assert_eq!(block_on(rx.pop_async()), Ok('a'));
    /// assert_eq!(block_on(rx.pop_async()), Err(PopAsyncError::Abandoned));
    /// ```
    pub fn pop_async(&mut self) -> PopFuture<'_, T> {
        PopFuture {
            consumer: self,
            registered: false,
        }
    }
}

/// The future of [`Producer::push_async`] (a stamped ring made for waits).
///
/// Pending while the ring is full; woken when the consumer leaves a line
/// (or is dropped). Dropping it before it completes pushes nothing.
///
/// ```
/// use std::future::Future;
/// use std::pin::pin;
/// use std::task::{Context, Poll, Waker};
/// use hotq_spsc::PushAsyncError;
/// use hotq_spsc::stamped::RingBuffer;
///
/// let mut cx = Context::from_waker(Waker::noop());
/// let (mut tx, mut rx) = RingBuffer::<[u8; 64]>::with_waits(1); // one item to a line
/// tx.push([1; 64]).unwrap();
/// {
///     let mut push = pin!(tx.push_async([2; 64]));
///     assert!(push.as_mut().poll(&mut cx).is_pending()); // full
///     assert_eq!(rx.pop(), Ok([1; 64])); // room: the waker would be woken now
///     assert_eq!(push.as_mut().poll(&mut cx), Poll::Ready(Ok(())));
/// }
/// drop(rx);
/// // Full and the consumer gone: the value comes back.
/// let mut push = pin!(tx.push_async([3; 64]));
/// assert_eq!(push.as_mut().poll(&mut cx), Poll::Ready(Err(PushAsyncError::Abandoned([3; 64]))));
/// ```
#[must_use = "futures do nothing unless polled"]
pub struct PushFuture<'a, T> {
    producer: &'a mut Producer<T, true>,
    /// The value, until it is pushed (or handed back).
    value: Option<T>,
    /// Whether the room slot holds this future's waker.
    registered: bool,
}

// The value is never pinned (it is moved into the ring or handed back), so
// the future does not need to stay put whatever `T` is.
impl<T> Unpin for PushFuture<'_, T> {}

impl<T> Future for PushFuture<'_, T> {
    type Output = Result<(), PushAsyncError<T>>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        poll_push(
            &mut *this.producer,
            &mut this.value,
            &mut this.registered,
            cx,
        )
    }
}

// `block_for_room`'s parking check: room for one item, `head` reloaded.
impl<T> AsyncPush<T> for Producer<T, true> {
    #[inline(always)]
    fn try_push(&mut self, value: T) -> Result<(), PushError<T>> {
        self.push(value)
    }
    #[inline(always)]
    fn room_slot(&self) -> &WaitSlot {
        &self.ring.waiters.room
    }
    #[inline(always)]
    fn wait_index(&self) -> usize {
        self.at.index
    }
    #[inline(always)]
    fn ring_capacity(&self) -> usize {
        self.capacity()
    }
    #[inline(always)]
    fn free(&self, _wanted: usize) -> usize {
        self.slots()
    }
    #[inline(always)]
    fn consumer_gone(&self) -> bool {
        self.is_abandoned()
    }
}

impl<T> Drop for PushFuture<'_, T> {
    fn drop(&mut self) {
        retract(&self.producer.ring.waiters.room, &mut self.registered);
    }
}

/// The future of [`Consumer::pop_async`] (a stamped ring made for waits).
///
/// Pending while the ring is empty; woken when the producer pushes (or is
/// dropped). Dropping it before it completes takes nothing.
///
/// ```
/// use std::future::Future;
/// use std::pin::pin;
/// use std::task::{Context, Poll, Waker};
/// use hotq_spsc::PopAsyncError;
/// use hotq_spsc::stamped::RingBuffer;
///
/// let mut cx = Context::from_waker(Waker::noop());
/// let (mut tx, mut rx) = RingBuffer::with_waits(1);
/// {
///     let mut pop = pin!(rx.pop_async());
///     assert!(pop.as_mut().poll(&mut cx).is_pending()); // empty
///     tx.push('a').unwrap(); // the waker would be woken now
///     assert_eq!(pop.as_mut().poll(&mut cx), Poll::Ready(Ok('a')));
/// }
/// drop(tx);
/// // Empty and the producer gone: no item ever comes.
/// let mut pop = pin!(rx.pop_async());
/// assert_eq!(pop.as_mut().poll(&mut cx), Poll::Ready(Err(PopAsyncError::Abandoned)));
/// ```
#[must_use = "futures do nothing unless polled"]
pub struct PopFuture<'a, T> {
    consumer: &'a mut Consumer<T, true>,
    /// Whether the items slot holds this future's waker.
    registered: bool,
}

impl<T> Future for PopFuture<'_, T> {
    type Output = Result<T, PopAsyncError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        let consumer = &*this.consumer;
        // A yield pays when the producer filled half the ring meanwhile:
        // the item half a ring on is published.
        let half = consumer.capacity().div_ceil(2).max(1) - 1;
        let ready = poll_wait(
            &consumer.ring.waiters.items,
            cx,
            &mut this.registered,
            consumer.at.index,
            consumer.capacity(),
            || pop_check(consumer),
            || match consumer.published_ahead(half) {
                true => consumer.capacity(),
                false => 0,
            },
        );
        match ready {
            Poll::Pending => Poll::Pending,
            // The stamp that covered the item stays put until the consumer
            // leaves its line, so `pop` sees it again.
            Poll::Ready(Ok(())) => match this.consumer.pop() {
                Ok(value) => Poll::Ready(Ok(value)),
                Err(PopError::Empty) => {
                    unreachable!("an item was seen, and only this consumer takes it")
                }
            },
            Poll::Ready(Err(())) => Poll::Ready(Err(PopAsyncError::Abandoned)),
        }
    }
}

/// Whether an item is ready, or never will be: the check of both the async
/// and the blocking pop (`stamped/blocking.rs`).
pub(super) fn pop_check<T>(consumer: &Consumer<T, true>) -> Check<()> {
    if !consumer.is_empty() {
        return Check::Ready(());
    }
    if !consumer.is_abandoned() {
        return Check::Wait;
    }
    // Gone: everything it pushed is visible now (`is_abandoned`).
    if consumer.is_empty() {
        Check::Abandoned
    } else {
        Check::Ready(())
    }
}

impl<T> Drop for PopFuture<'_, T> {
    fn drop(&mut self) {
        retract(&self.consumer.ring.waiters.items, &mut self.registered);
    }
}

impl<T> core::fmt::Debug for PushFuture<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("stamped::PushFuture")
            .finish_non_exhaustive()
    }
}

impl<T> core::fmt::Debug for PopFuture<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("stamped::PopFuture").finish_non_exhaustive()
    }
}
