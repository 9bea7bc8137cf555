//! The queue: Dmitry Vyukov's bounded MPMC array with per-slot stamps.
//!
//! # Positions, laps and stamps
//!
//! A *position* is a `usize` that packs `{lap, index}`: the low bits hold
//! the slot index (`0..capacity`), the high bits count laps in steps of
//! `one_lap`, the smallest power of two above `capacity`. Stepping a
//! position moves to the next index, or from the last index to index 0 of
//! the next lap; laps wrap around at `usize::MAX + 1` (`wrapping_add`), and
//! every comparison below is an equality, so the wrap is harmless: two
//! positions are confused only after 2^64 / `one_lap` laps, which is more
//! items than any machine moves.
//!
//! `tail` is the next position a producer claims, `head` the next one a
//! consumer claims; each on its own cache line. Every slot has a *stamp*
//! that says what the slot is waiting for:
//!
//! | stamp of slot `i` | meaning |
//! |---|---|
//! | `{lap, i}` (= the position) | empty, ready for the producer of position `{lap, i}` |
//! | `{lap, i} + 1` | holds the item of position `{lap, i}`, ready for its consumer |
//!
//! A producer at position `p` claims the slot by a CAS of `tail` from `p`
//! to the next position, only when the slot's stamp is `p`; it writes the
//! value and publishes it by storing the stamp `p + 1`. A consumer at `p`
//! claims by a CAS of `head` only when the stamp is `p + 1`, reads the
//! value, and frees the slot for the next lap by storing `p + one_lap`.
//! Because `index + 1 <= capacity < one_lap`, a full slot's stamp never
//! carries into the lap bits: slot `i` holds a value exactly when its stamp's
//! low bits are `i + 1`, whatever `head` and `tail` say ([`Drop`] relies on
//! this).

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;
use core::mem::{MaybeUninit, size_of};
use core::ops::ControlFlow::{self, Break, Continue};

use crossbeam_utils::CachePadded;

use crate::CapacityError;
use crate::sync::{AtomicUsize, Backoff, Ordering, Seam, UnsafeCell, fence, seam};

/// A bounded multi-producer multi-consumer FIFO queue.
///
/// All methods take `&self`: share it (in an `Arc`, or by reference in
/// scoped threads) among any number of producers and consumers.
///
/// ```
/// use std::sync::Arc;
/// use hotq_mpmc::Queue;
///
/// // (Fewer under miri, which interprets every instruction.)
/// const EACH: u64 = if cfg!(miri) { 100 } else { 1000 };
/// let q = Arc::new(Queue::new(64));
/// let producers: Vec<_> = (0..4u64)
///     .map(|p| {
///         let q = Arc::clone(&q);
///         std::thread::spawn(move || {
///             for i in 0..EACH {
///                 let mut item = p * EACH + i;
///                 while let Err(back) = q.push(item) {
///                     item = back;
///                     std::thread::yield_now(); // full: let a consumer run
///                 }
///             }
///         })
///     })
///     .collect();
/// let mut sum = 0;
/// let mut received = 0;
/// while received < 4 * EACH {
///     match q.pop() {
///         Some(v) => {
///             sum += v;
///             received += 1;
///         }
///         None => std::thread::yield_now(),
///     }
/// }
/// for p in producers {
///     p.join().unwrap();
/// }
/// assert_eq!(sum, (0..4 * EACH).sum());
/// ```
pub struct Queue<T> {
    /// The next position a consumer claims. Moved only by a consumer's
    /// CAS, or by `force_push` evicting the oldest item.
    head: CachePadded<AtomicUsize>,
    /// The next position a producer claims. Moved only by a producer's CAS,
    /// or by the `force_push` that owns the slot it points at.
    tail: CachePadded<AtomicUsize>,
    /// `capacity` slots; see the module docs for what a stamp says.
    slots: Box<[Slot<T>]>,
    /// What the caller asked for: the most items the queue holds at once.
    capacity: usize,
    /// The smallest power of two above `capacity`: a position's low bits
    /// (`one_lap - 1`) are the index, the rest the lap.
    one_lap: usize,
}

/// One slot: a value and the stamp that says whose turn it is.
struct Slot<T> {
    stamp: AtomicUsize,
    value: UnsafeCell<MaybeUninit<T>>,
}

// SAFETY: values are moved in by one producer and out by one consumer, the
// stamp's Release/Acquire pairs ordering the two; no `&T` is ever handed to
// another thread, so sending `T` is all that sharing the queue needs.
unsafe impl<T: Send> Send for Queue<T> {}
// SAFETY: as for `Send`: `&Queue<T>` only moves `T`s between threads.
unsafe impl<T: Send> Sync for Queue<T> {}

impl<T> Queue<T> {
    /// Creates a queue holding at most `capacity` items.
    ///
    /// # Panics
    ///
    /// On a capacity that [`try_new`](Self::try_new) rejects, with the
    /// [`CapacityError`]'s message.
    ///
    /// ```
    /// let q = hotq_mpmc::Queue::<String>::new(100);
    /// assert_eq!(q.capacity(), 100);
    /// ```
    ///
    /// ```should_panic
    /// let _ = hotq_mpmc::Queue::<u8>::new(0); // panics: capacity must be at least 1
    /// ```
    pub fn new(capacity: usize) -> Self {
        match Self::try_new(capacity) {
            Ok(q) => q,
            Err(e) => panic!("{e}"),
        }
    }

    /// Creates a queue holding at most `capacity` items, or says why it
    /// cannot: [`CapacityError::Zero`] for 0, [`CapacityError::TooLarge`]
    /// when the slots cannot be allocated or indexed.
    ///
    /// ```
    /// use hotq_mpmc::{CapacityError, Queue};
    ///
    /// let q = Queue::<u32>::try_new(3)?;
    /// assert_eq!(q.capacity(), 3);
    /// assert_eq!(Queue::<u32>::try_new(0).unwrap_err(), CapacityError::Zero);
    /// assert_eq!(Queue::<u32>::try_new(1 << 62).unwrap_err(), CapacityError::TooLarge);
    /// # Ok::<(), CapacityError>(())
    /// ```
    pub fn try_new(capacity: usize) -> Result<Self, CapacityError> {
        Self::with_initial_position(capacity, 0)
    }

    /// As [`try_new`](Self::try_new), with `head` and `tail` starting at the
    /// lap of `position` (rounded down to its index 0) instead of 0: lets
    /// tests cross the `usize` wrap of positions. Not part of the stable API.
    #[doc(hidden)]
    pub fn with_initial_position(capacity: usize, position: usize) -> Result<Self, CapacityError> {
        if capacity == 0 {
            return Err(CapacityError::Zero);
        }
        let one_lap = capacity
            .checked_add(1)
            .and_then(usize::checked_next_power_of_two)
            .ok_or(CapacityError::TooLarge)?;
        let bytes = capacity
            .checked_mul(size_of::<Slot<T>>())
            .ok_or(CapacityError::TooLarge)?;
        if bytes > isize::MAX as usize {
            return Err(CapacityError::TooLarge);
        }
        let start = position & !(one_lap - 1);
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(capacity)
            .map_err(|_| CapacityError::TooLarge)?;
        // Slot `i` starts empty, waiting for the producer of position
        // `{start lap, i}`.
        slots.extend((0..capacity).map(|i| Slot {
            stamp: AtomicUsize::new(start | i),
            value: UnsafeCell::new(MaybeUninit::uninit()),
        }));
        Ok(Queue {
            head: CachePadded::new(AtomicUsize::new(start)),
            tail: CachePadded::new(AtomicUsize::new(start)),
            slots: slots.into_boxed_slice(),
            capacity,
            one_lap,
        })
    }

    /// Appends `value`, or gives it back as `Err(value)` when the queue is
    /// full. Linearizable: `Err` means the queue held `capacity` items at
    /// some instant of the call.
    ///
    /// ```
    /// let q = hotq_mpmc::Queue::new(1);
    /// assert_eq!(q.push(1), Ok(()));
    /// assert_eq!(q.push(2), Err(2));
    /// ```
    pub fn push(&self, value: T) -> Result<(), T> {
        let pushed = self.push_or_else(value, |value, tail, _, _, _| {
            // The slot at `tail` is taken: the queue is full if `head` is a
            // whole lap behind (even if the producer of that slot has not
            // published yet: its push is ordered before ours by its claim),
            // else a consumer is about to free the slot, or `tail` is stale.
            let head = self.head.load(Ordering::Relaxed);
            if head.wrapping_add(self.one_lap) == tail {
                Break(value)
            } else {
                Continue(value)
            }
        });
        match pushed {
            Continue(()) => Ok(()),
            Break(value) => Err(value),
        }
    }

    /// Appends `value`; when the queue is full, evicts the oldest item to
    /// make room and returns it. Never loses or duplicates an item: the
    /// evicted item is popped by nobody else.
    ///
    /// ```
    /// let q = hotq_mpmc::Queue::new(2);
    /// assert_eq!(q.force_push(1), None);
    /// assert_eq!(q.force_push(2), None);
    /// assert_eq!(q.force_push(3), Some(1));
    /// assert_eq!(q.pop(), Some(2));
    /// assert_eq!(q.pop(), Some(3));
    /// ```
    pub fn force_push(&self, value: T) -> Option<T> {
        let pushed = self.push_or_else(value, |value, tail, new_tail, slot, stamp| {
            if stamp.wrapping_add(self.one_lap) != tail.wrapping_add(1) {
                // No published item of last lap to evict (yet): wait.
                return Continue(value);
            }
            // The slot at `tail` holds the oldest item, at position
            // `tail - one_lap`, if `head` is still there. Claim it as a
            // consumer would; then this thread owns the slot outright.
            let head = tail.wrapping_sub(self.one_lap);
            let new_head = new_tail.wrapping_sub(self.one_lap);
            // SeqCst: this is a consumer's claim, in the total order for the
            // reason given at the claim in `pop`.
            if self
                .head
                .compare_exchange_weak(head, new_head, Ordering::SeqCst, Ordering::Relaxed)
                .is_err()
            {
                return Continue(value);
            }
            seam(Seam::Evicted);
            // No producer can move `tail` meanwhile: its CAS needs the
            // slot's stamp to equal `tail`, and it still says "last lap's
            // item". So a store is enough. SeqCst: this is the producer's
            // claim of position `tail`, and takes part in the total order
            // for the reason given at the claim in `push_or_else`.
            self.tail.store(new_tail, Ordering::SeqCst);
            // SAFETY: the stamp said the slot holds last lap's published
            // item (its Acquire load made the value visible), and claiming
            // `head` made it ours: no consumer reads it, no producer writes
            // it until the stamp below.
            let old = slot
                .value
                .with_mut(|p| unsafe { p.replace(MaybeUninit::new(value)).assume_init() });
            // Release pairs with the Acquire stamp load in `pop`: the new
            // value is written before its consumer reads it.
            slot.stamp.store(tail.wrapping_add(1), Ordering::Release);
            Break(old)
        });
        match pushed {
            Continue(()) => None,
            Break(old) => Some(old),
        }
    }

    /// Claims the slot at `tail`, writes `value` and publishes it. When the
    /// slot is not free for this lap, `when_blocked(value, tail, new_tail,
    /// slot, stamp)` decides: `Break` ends the push with its result,
    /// `Continue` hands the value back to retry (after backing off).
    #[inline]
    fn push_or_else<B>(
        &self,
        mut value: T,
        when_blocked: impl Fn(T, usize, usize, &Slot<T>, usize) -> ControlFlow<B, T>,
    ) -> ControlFlow<B> {
        let backoff = Backoff::new();
        let mut tail = self.tail.load(Ordering::Relaxed);
        loop {
            let slot = &self.slots[tail & (self.one_lap - 1)];
            let new_tail = self.step(tail);
            // Acquire pairs with the Release stamp store in `pop` (or
            // `force_push`) that freed the slot: the last lap's read of the
            // value happens before our write.
            let stamp = slot.stamp.load(Ordering::Acquire);
            if stamp == tail {
                // SeqCst: the claim must take part in the one total order
                // of SeqCst operations, with the `fence(SeqCst)` that `pop`
                // runs before it reads `tail` to decide "empty", and with
                // the caller's own SeqCst operations. The interleaving that
                // needs it: thread P pushes x, then loads a flag F
                // (SeqCst) and sees 0; thread C stores F = 1 (SeqCst), then
                // pops. F orders P's push before C's pop, so the pop must
                // not report empty. With the claim in the total order it
                // precedes C's fence, so C's `tail` load sees it and C
                // waits for x; with an AcqRel claim, C may read the old
                // `tail` and return `None`. (Two queues used crosswise are
                // already kept apart by the fences alone.) Loom models
                // SeqCst as AcqRel, so this is argued here, not checked
                // there. On x86 every CAS is a full barrier anyway.
                match self.tail.compare_exchange_weak(
                    tail,
                    new_tail,
                    Ordering::SeqCst,
                    Ordering::Relaxed,
                ) {
                    Ok(_) => {
                        seam(Seam::AfterClaim);
                        // SAFETY: the stamp said the slot is empty for this
                        // lap and the CAS made position `tail` ours: no one
                        // else touches the slot until we publish it below.
                        slot.value
                            .with_mut(|p| unsafe { p.write(MaybeUninit::new(value)) });
                        // Release pairs with the Acquire stamp load in
                        // `pop`: the value is written before it is read.
                        slot.stamp.store(tail.wrapping_add(1), Ordering::Release);
                        return Continue(());
                    }
                    Err(current) => {
                        tail = current;
                        backoff.spin();
                    }
                }
            } else {
                // The slot is not free for this lap: last lap's item is
                // still in it (published, or claimed by a consumer that has
                // not freed the slot), last lap's producer is between claim
                // and publish, or our `tail` is stale. SeqCst fence: pairs
                // with the consumers' SeqCst claims in `pop` (see there) and
                // with the fence in `pop`'s own check: this thread's `head`
                // load below sees every claim that precedes the fence in
                // the total order, so "full" is reported only if no pop
                // had claimed an item by then. Loom does model fences:
                // `crosswise_pushes_do_not_both_see_full` fails without it.
                fence(Ordering::SeqCst);
                value = when_blocked(value, tail, new_tail, slot, stamp)?;
                // Someone is mid-operation on this slot, and may be
                // preempted: let it run, then look again.
                backoff.snooze();
                tail = self.tail.load(Ordering::Relaxed);
            }
        }
    }

    /// Removes and returns the oldest item, or `None` when the queue is
    /// empty. Linearizable: `None` means the queue held no item at some
    /// instant of the call. A producer that has claimed the next slot but
    /// not yet written it is waited for, not skipped.
    ///
    /// ```
    /// let q = hotq_mpmc::Queue::new(4);
    /// assert_eq!(q.pop(), None::<u8>);
    /// q.push(7).unwrap();
    /// assert_eq!(q.pop(), Some(7));
    /// ```
    #[inline]
    pub fn pop(&self) -> Option<T> {
        let backoff = Backoff::new();
        let mut head = self.head.load(Ordering::Relaxed);
        loop {
            let slot = &self.slots[head & (self.one_lap - 1)];
            // Acquire pairs with the Release stamp store in `push_or_else`
            // (or `force_push`) that published the value: its write happens
            // before our read.
            let stamp = slot.stamp.load(Ordering::Acquire);
            if stamp == head.wrapping_add(1) {
                // SeqCst: the mirror of the producer's claim (see
                // `push_or_else`). Thread C pops from a full queue, then
                // loads a flag F (SeqCst) and sees 0; thread P stores F = 1
                // (SeqCst), then pushes. The pop precedes the push, so the
                // push must not report full: with the claim in the total
                // order, P's `head` load after its fence sees it.
                match self.head.compare_exchange_weak(
                    head,
                    self.step(head),
                    Ordering::SeqCst,
                    Ordering::Relaxed,
                ) {
                    Ok(_) => {
                        // SAFETY: the stamp said the slot holds the item of
                        // position `head` (its Acquire made the value
                        // visible), and the CAS made it ours; reading moves
                        // it out, and the stamp below marks the slot empty.
                        let value = slot.value.with_mut(|p| unsafe { p.read().assume_init() });
                        // Release pairs with the Acquire stamp load in
                        // `push_or_else`: our read happens before the next
                        // lap's write into this slot.
                        slot.stamp
                            .store(head.wrapping_add(self.one_lap), Ordering::Release);
                        return Some(value);
                    }
                    Err(current) => {
                        head = current;
                        backoff.spin();
                    }
                }
            } else {
                // The slot holds no item for this lap: it is empty, its
                // producer is between claim and publish, last lap's item is
                // still in it (its consumer, or a `force_push` evicting it,
                // is mid-operation), or our `head` is stale. SeqCst fence:
                // pairs with the producers' SeqCst claims in `push_or_else`
                // (see there for the interleaving) and with the fence in
                // its "full" check: the `tail` load below sees every claim
                // that precedes this fence in the total order. Loom does
                // model fences: `crosswise_pops_do_not_both_see_empty`
                // fails without it.
                fence(Ordering::SeqCst);
                // Empty only if the slot is empty for this lap too. With
                // `tail == head` but last lap's item still in the slot, the
                // queue may be a capacity-1 queue in the middle of a
                // `force_push`: its eviction has moved `head` onto `tail`,
                // but the new item is about to take the old one's place, so
                // the queue was never empty. Wait for the slot instead.
                if stamp == head && self.tail.load(Ordering::Relaxed) == head {
                    return None;
                }
                // Someone is mid-operation on this slot, and may be
                // preempted: let it run, then look again.
                seam(Seam::PopWaits);
                backoff.snooze();
                head = self.head.load(Ordering::Relaxed);
            }
        }
    }

    /// The most items the queue holds at once: exactly what was asked for.
    ///
    /// ```
    /// assert_eq!(hotq_mpmc::Queue::<u8>::new(5).capacity(), 5);
    /// ```
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The number of items in the queue at one instant during the call
    /// (`head` and `tail` read as a consistent pair). Under concurrency it
    /// may be stale by the time it is returned; it is always within
    /// `0..=capacity`. Items claimed by a consumer but not yet returned do
    /// not count; items claimed by a producer but not yet written do.
    ///
    /// ```
    /// let q = hotq_mpmc::Queue::new(4);
    /// q.push('a').unwrap();
    /// q.push('b').unwrap();
    /// assert_eq!(q.len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        loop {
            // Acquire on `tail`: pairs with the producer's claim (SeqCst
            // CAS ⊇ Release), which came after the slot was freed, so the
            // `head` load below sees a head at most `capacity` behind.
            let tail = self.tail.load(Ordering::Acquire);
            // Acquire on `head`: pairs with the consumer's claim, which
            // came after its item's producer claimed, so the second `tail`
            // load sees a tail at or past `head`.
            let head = self.head.load(Ordering::Acquire);
            // `tail` unchanged around the `head` load: the pair coexisted.
            if self.tail.load(Ordering::Relaxed) == tail {
                return self.distance(head, tail);
            }
        }
    }

    /// Whether the queue is empty, at one instant during the call.
    ///
    /// ```
    /// let q = hotq_mpmc::Queue::new(4);
    /// assert!(q.is_empty());
    /// q.push(1).unwrap();
    /// assert!(!q.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the queue is full, at one instant during the call.
    ///
    /// ```
    /// let q = hotq_mpmc::Queue::new(1);
    /// assert!(!q.is_full());
    /// q.push(1).unwrap();
    /// assert!(q.is_full());
    /// ```
    pub fn is_full(&self) -> bool {
        self.len() == self.capacity
    }

    /// The position after `position`: the next index, or index 0 of the
    /// next lap.
    #[inline]
    fn step(&self, position: usize) -> usize {
        if (position & (self.one_lap - 1)) + 1 < self.capacity {
            position.wrapping_add(1)
        } else {
            (position & !(self.one_lap - 1)).wrapping_add(self.one_lap)
        }
    }

    /// Items between positions `head` and `tail`, `tail` at most one lap
    /// ahead.
    fn distance(&self, head: usize, tail: usize) -> usize {
        let (h, t) = (head & (self.one_lap - 1), tail & (self.one_lap - 1));
        if h < t {
            t - h
        } else if h > t {
            self.capacity - h + t
        } else if head == tail {
            0
        } else {
            self.capacity
        }
    }
}

impl<T> Drop for Queue<T> {
    fn drop(&mut self) {
        if !core::mem::needs_drop::<T>() {
            return;
        }
        let index_mask = self.one_lap - 1;
        for (i, slot) in self.slots.iter().enumerate() {
            // `&mut self`: every operation has finished, and whatever
            // synchronised the hand-over of the queue to this thread makes
            // the final stamps visible.
            if slot.stamp.load(Ordering::Relaxed) & index_mask == i + 1 {
                // SAFETY: the stamp says the slot holds a published item
                // (see the module docs); it is dropped here, once.
                slot.value
                    .with_mut(|p| unsafe { p.cast::<T>().drop_in_place() });
            }
        }
    }
}

impl<T> fmt::Debug for Queue<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Queue")
            .field("capacity", &self.capacity)
            .field("len", &self.len())
            .finish()
    }
}
