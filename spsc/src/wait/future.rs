//! The async waits: futures that register the task's waker in the ring's
//! slot (`core::task` only, no runtime, no `std`), and the `Stream` impl.

use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};

use super::{Check, WaitSlot};
use crate::sync::ASYNC_YIELDS;
use crate::{Consumer, PopAsyncError, Producer, PushAsyncError, PushError};

/// One poll of a wait: check; if it must wait, either yield (wake our own
/// task and return `Pending`), or register `cx`'s waker and check again
/// (the protocol's second load). `registered` tracks whether the slot holds
/// our waker, so that a dropped future can withdraw it; `at` is the
/// waiter's own index (`WaitSlot::register`), `capacity` the ring's, and
/// `moved` counts, once the check holds after yields, the items (or free
/// slots) the check found.
///
/// Why yield: a registration costs the heavy barrier (a `membarrier`
/// system call that interrupts every CPU running a thread of the process,
/// several µs on a virtual machine, or, once the slot is fenced, a fence
/// on every publish of the other half), and then the other half pays a
/// wake-up. When both halves run on one executor thread, the other cannot
/// run until this poll returns: returning `Pending` with our own task
/// already woken lets it fill or drain the ring first, and our re-poll
/// finds it ready: no barrier, no wake-up, on either side. Measured before
/// the slots could fence (`perf stat -e syscalls:sys_enter_membarrier`,
/// `waiting_probe async8 hotq 200000`, tokio with 2 workers): 54,887 to
/// 55,323 barriers without yields, 28 to 1,269 with 8. A spin in the poll
/// instead (63 spin hints, 1.6 µs here) did not help: it burns the time
/// the other half needs when both share a thread or an oversubscribed core.
///
/// Why not always: when the other half runs on another thread, a yield is
/// a spin through the executor. The re-poll finds a few items, and the
/// task, back in its worker's queue, is where an idle worker steals it
/// from. Registering at once is better there: on tokio's multi-thread
/// runtime the wake-up puts the task in the waking worker's LIFO slot, so
/// the two halves come to share one worker and hand over whole rings (what
/// kanal's futures, which never yield, get). So the waiter yields first,
/// up to `ASYNC_YIELDS` times in a row, only while that pays: a wait that
/// ended after yields with half the ring moved keeps yielding; a wait whose
/// yields found less, or that had to register, makes the next waits
/// register at once, and after `REGISTERED_WAITS` of those one tries
/// yielding again (`WaitSlot::take_yield`, `WaitSlot::after_wait`,
/// `yield_next`). Small rings included: they used to yield first always,
/// since a hand-over of a few items did not pay for a wake-up, but that
/// was the slot's clock reads (`barrier::Pace`, 17 % of the samples at
/// capacity 8) more than the wake-up; without them, registering at once
/// at capacity 8 ran at 2.42 [2.17-2.59] x always yielding first
/// (`waiting_probe async8`, 5 interleaved runs, 2026-12-05; the two tasks
/// then share a worker in 98 % of the samples, against 7-50 %).
///
/// Measured against yielding up to 8 times in every wait (`waiting_probe`,
/// tokio multi-thread, 5M items at capacity 1024 and 2M at capacity 8, 7
/// interleaved runs of each build, quiet 2-core VM, 2026-12-05), with the
/// slots' choice of fences by items per registration (`barrier::Pace`):
/// with 2 workers 1.66 [1.39-1.88] at capacity 1024 and 0.95 [0.87-1.08]
/// at 8; with 1 worker 0.97 [0.96-0.97] and 0.98 [0.97-1.00]. Never
/// yielding: 1.14 and 1.30 with 2 workers, but 0.36 and 0.43 with 1 (every
/// wait registers, and the fenced slots fence every push and pop). A
/// self-wake cannot lose a wake-up: the task is already scheduled when we
/// return.
pub(crate) fn poll_wait<R>(
    slot: &WaitSlot,
    cx: &mut Context<'_>,
    registered: &mut bool,
    at: usize,
    capacity: usize,
    mut check: impl FnMut() -> Check<R>,
    moved: impl FnOnce() -> usize,
) -> Poll<Result<R, ()>> {
    if !*registered {
        slot.unfence_if_stale(at);
    }
    let mut outcome = check();
    if let Check::Wait = outcome {
        if !*registered && slot.take_yield(ASYNC_YIELDS) {
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        slot.register(cx.waker(), at);
        *registered = true;
        outcome = check();
    }
    if !matches!(outcome, Check::Wait) && (*registered || slot.yielded()) {
        slot.after_wait(yield_next(capacity, !*registered, moved));
    }
    match outcome {
        Check::Wait => Poll::Pending,
        Check::Ready(r) => {
            retract(slot, registered);
            Poll::Ready(Ok(r))
        }
        Check::Abandoned => {
            retract(slot, registered);
            Poll::Ready(Err(()))
        }
    }
}

/// Whether the waits after one that just ended should yield first: only
/// when this wait `yielded` (did not register) and its yields paid: the
/// check then found `moved` items (or free slots), half the ring or more.
#[inline]
fn yield_next(capacity: usize, yielded: bool, moved: impl FnOnce() -> usize) -> bool {
    yielded && moved() >= capacity.div_ceil(2)
}

/// Withdraws our waker if the slot holds it. Inline: every completed poll
/// and every dropped future calls it, and almost never with a waker in
/// the slot; out of line, it was a call per item that also kept the
/// future's `registered` flag in memory.
#[inline]
pub(crate) fn retract(slot: &WaitSlot, registered: &mut bool) {
    if core::mem::take(registered) {
        slot.retract();
    }
}

impl<T> Producer<T> {
    /// Appends `value` when there is room, as a future; gives the value
    /// back in [`PushAsyncError::Abandoned`] when the ring is full and the
    /// consumer is gone.
    ///
    /// The future completes on its first poll when there is room, is `Send`
    /// when `T` is, and is cancellation-safe: dropping it before it
    /// completes pushes nothing and drops only its own value.
    ///
    /// While the ring stays full the future may first yield: wake its own
    /// task and return `Pending`, up to 8 times in a row, so that the
    /// consumer, if it runs on the same executor thread, can make room;
    /// only then does it register its waker and sleep. It yields only while
    /// that pays (the consumer made room for half the ring meanwhile);
    /// otherwise its waits register at once, and after 4,096 of those one
    /// tries yielding again. An executor sees those few extra polls (and
    /// re-polls of the future's `select!` siblings) before the wait goes
    /// quiet.
    ///
    /// ```
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
    /// # }
    /// use hotq_spsc::{PushAsyncError, RingBuffer};
    ///
    /// let (mut tx, rx) = RingBuffer::new(1);
    /// block_on(tx.push_async(1)).unwrap();
    /// drop(rx);
    /// assert_eq!(block_on(tx.push_async(2)), Err(PushAsyncError::Abandoned(2)));
    /// ```
    pub fn push_async(&mut self, value: T) -> PushFuture<'_, T> {
        PushFuture {
            producer: self,
            value: Some(value),
            registered: false,
        }
    }
}

impl<T> Consumer<T> {
    /// Removes the oldest item when there is one, as a future;
    /// [`PopAsyncError::Abandoned`] when the ring is empty and the producer
    /// is gone (items it pushed before are still returned first).
    ///
    /// The future completes on its first poll when an item is ready, is
    /// `Send` when `T` is, and is cancellation-safe: dropping it before it
    /// completes takes nothing out of the ring.
    ///
    /// While the ring stays empty the future may first yield: wake its own
    /// task and return `Pending`, up to 8 times in a row, so that the
    /// producer, if it runs on the same executor thread, can push; only
    /// then does it register its waker and sleep. It yields only while
    /// that pays (the producer filled half the ring meanwhile); otherwise
    /// its waits register at once, and after 4,096 of those one tries
    /// yielding again. An executor sees those few extra polls (and re-polls
    /// of the future's `select!` siblings) before the wait goes quiet.
    ///
    /// ```
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
    /// # }
    /// use hotq_spsc::{PopAsyncError, RingBuffer};
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(2);
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

    /// The `Stream` step: the next item, `None` once the ring is empty and
    /// the producer gone.
    fn poll_item(&mut self, cx: &mut Context<'_>, registered: &mut bool) -> Poll<Option<T>> {
        let ring = self.ring();
        let ready = poll_wait(
            &ring.waiters.items,
            cx,
            registered,
            self.head(),
            self.capacity(),
            || pop_check(self),
            // The count the check just loaded (`ready_items(0)` loads none).
            || self.ready_items(0),
        );
        match ready {
            Poll::Pending => Poll::Pending,
            // SAFETY: an item was seen ready, and only this consumer takes it.
            Poll::Ready(Ok(())) => Poll::Ready(Some(unsafe { self.take_front() })),
            Poll::Ready(Err(())) => Poll::Ready(None),
        }
    }
}

/// Whether an item is ready, or never will be.
fn pop_check<T>(consumer: &Consumer<T>) -> Check<()> {
    if consumer.ready_items(1) >= 1 {
        return Check::Ready(());
    }
    if !consumer.ring().is_abandoned() {
        return Check::Wait;
    }
    // Gone: everything it pushed is visible now (`is_abandoned`).
    match consumer.ready_items(1) {
        0 => Check::Abandoned,
        _ => Check::Ready(()),
    }
}

/// The future of [`Producer::push_async`].
///
/// Pending while the ring is full; woken when the consumer makes room
/// (or is dropped). Dropping it before it completes pushes nothing.
///
/// ```
/// use std::future::Future;
/// use std::pin::pin;
/// use std::task::{Context, Poll, Waker};
/// use hotq_spsc::{PushAsyncError, RingBuffer};
///
/// let mut cx = Context::from_waker(Waker::noop());
/// let (mut tx, mut rx) = RingBuffer::new(1);
/// tx.push(1).unwrap();
/// {
///     let mut push = pin!(tx.push_async(2));
///     assert!(push.as_mut().poll(&mut cx).is_pending()); // full
///     assert_eq!(rx.pop(), Ok(1)); // room: the waker would be woken now
///     assert_eq!(push.as_mut().poll(&mut cx), Poll::Ready(Ok(())));
/// }
/// drop(rx);
/// // Full and the consumer gone: the value comes back.
/// let mut push = pin!(tx.push_async(3));
/// assert_eq!(push.as_mut().poll(&mut cx), Poll::Ready(Err(PushAsyncError::Abandoned(3))));
/// ```
#[must_use = "futures do nothing unless polled"]
pub struct PushFuture<'a, T> {
    producer: &'a mut Producer<T>,
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

/// A producer half that an async push drives: [`Producer`], and the
/// stamped ring's `Producer<T, true>` (`stamped/future.rs`).
pub(crate) trait AsyncPush<T> {
    /// The try.
    fn try_push(&mut self, value: T) -> Result<(), PushError<T>>;
    /// The slot a producer waits for room in.
    fn room_slot(&self) -> &WaitSlot;
    /// The waiter's own index (`WaitSlot::register`).
    fn wait_index(&self) -> usize;
    /// The ring's capacity.
    fn ring_capacity(&self) -> usize;
    /// Free slots; a half that caches the consumer's position loads it
    /// only when the cache shows fewer than `wanted` (0: loads nothing).
    fn free(&self, wanted: usize) -> usize;
    /// Whether the consumer is gone (`Acquire`: what it freed is visible).
    fn consumer_gone(&self) -> bool;
}

impl<T> AsyncPush<T> for Producer<T> {
    #[inline(always)]
    fn try_push(&mut self, value: T) -> Result<(), PushError<T>> {
        self.push(value)
    }
    #[inline(always)]
    fn room_slot(&self) -> &WaitSlot {
        &self.ring().waiters.room
    }
    #[inline(always)]
    fn wait_index(&self) -> usize {
        self.tail()
    }
    #[inline(always)]
    fn ring_capacity(&self) -> usize {
        self.capacity()
    }
    #[inline(always)]
    fn free(&self, wanted: usize) -> usize {
        self.free_slots(wanted)
    }
    #[inline(always)]
    fn consumer_gone(&self) -> bool {
        self.ring().is_abandoned()
    }
}

/// One poll of an async push of `value` (taken out, and put back while
/// pending): the try; if full, [`poll_wait`] for room for one item; once
/// room is seen, the try again, which cannot fail.
#[inline]
pub(crate) fn poll_push<T, P: AsyncPush<T>>(
    producer: &mut P,
    value: &mut Option<T>,
    registered: &mut bool,
    cx: &mut Context<'_>,
) -> Poll<Result<(), PushAsyncError<T>>> {
    let item = value.take().expect("PushFuture polled after completion");
    let item = match producer.try_push(item) {
        Ok(()) => {
            // A wait's end, as in `poll_wait` (whose check a re-poll after a
            // yield skips when this push succeeds).
            let slot = producer.room_slot();
            if slot.yielded() {
                // The room the push just found (`free(0)` loads nothing
                // where the half caches), the slot it took included.
                let room = || producer.free(0) + 1;
                slot.after_wait(yield_next(producer.ring_capacity(), true, room));
            }
            return Poll::Ready(Ok(()));
        }
        Err(PushError::Full(item)) => item,
    };
    let half = &*producer;
    let ready = poll_wait(
        half.room_slot(),
        cx,
        registered,
        half.wait_index(),
        half.ring_capacity(),
        || {
            if half.free(1) >= 1 {
                return Check::Ready(());
            }
            if !half.consumer_gone() {
                return Check::Wait;
            }
            // Gone: every position it freed is visible now.
            match half.free(1) {
                0 => Check::Abandoned,
                _ => Check::Ready(()),
            }
        },
        || half.free(0),
    );
    match ready {
        Poll::Pending => {
            *value = Some(item);
            Poll::Pending
        }
        // The try reloads what it needs, no older than what the check saw.
        Poll::Ready(Ok(())) => match producer.try_push(item) {
            Ok(()) => Poll::Ready(Ok(())),
            Err(_) => unreachable!("room was seen, and only this producer takes it"),
        },
        Poll::Ready(Err(())) => Poll::Ready(Err(PushAsyncError::Abandoned(item))),
    }
}

impl<T> Drop for PushFuture<'_, T> {
    fn drop(&mut self) {
        retract(&self.producer.ring().waiters.room, &mut self.registered);
    }
}

/// The future of [`Consumer::pop_async`].
///
/// Pending while the ring is empty; woken when the producer pushes (or is
/// dropped). Dropping it before it completes takes nothing.
///
/// ```
/// use std::future::Future;
/// use std::pin::pin;
/// use std::task::{Context, Poll, Waker};
/// use hotq_spsc::{PopAsyncError, RingBuffer};
///
/// let mut cx = Context::from_waker(Waker::noop());
/// let (mut tx, mut rx) = RingBuffer::new(1);
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
    consumer: &'a mut Consumer<T>,
    /// Whether the items slot holds this future's waker.
    registered: bool,
}

impl<T> Future for PopFuture<'_, T> {
    type Output = Result<T, PopAsyncError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        this.consumer
            .poll_item(cx, &mut this.registered)
            .map(|item| item.ok_or(PopAsyncError::Abandoned))
    }
}

impl<T> Drop for PopFuture<'_, T> {
    fn drop(&mut self) {
        retract(&self.consumer.ring().waiters.items, &mut self.registered);
    }
}

impl<T> core::fmt::Debug for PushFuture<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PushFuture").finish_non_exhaustive()
    }
}

impl<T> core::fmt::Debug for PopFuture<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PopFuture").finish_non_exhaustive()
    }
}

/// `Consumer` as a stream of its items, ending when the ring is empty and
/// the producer is gone (feature `stream`).
///
/// ```
/// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     let mut f = std::pin::pin!(f);
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
/// # }
/// use futures_core::Stream;
/// use std::pin::Pin;
///
/// let (mut tx, mut rx) = hotq_spsc::RingBuffer::new(4);
/// tx.push_slice(&[1, 2]);
/// drop(tx);
/// let next = |rx: &mut hotq_spsc::Consumer<i32>| {
///     block_on(std::future::poll_fn(|cx| Pin::new(&mut *rx).poll_next(cx)))
/// };
/// assert_eq!(next(&mut rx), Some(1));
/// assert_eq!(next(&mut rx), Some(2));
/// assert_eq!(next(&mut rx), None);
/// ```
#[cfg(feature = "stream")]
impl<T> futures_core::Stream for Consumer<T> {
    type Item = T;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
        // A pending stream stays registered until the next push wakes it
        // (or the consumer is dropped with the ring), and its next poll
        // knows it did register: the wait's choice of yielding first or
        // registering counts it as a registered wait, not a yield.
        let this = self.get_mut();
        let mut registered = this.poll_registered.get();
        let next = this.poll_item(cx, &mut registered);
        this.poll_registered.set(registered);
        next
    }
}
