//! The writing half of a ring.

use core::fmt;
use core::mem::ManuallyDrop;

use crossbeam_utils::CachePadded;

use crate::copy::copy_run;
use crate::ring::Cursor;
use crate::sync::{Arc, Ordering};
use crate::{ChunkError, PushError, RingBuffer, WriteChunk, WriteChunkUninit};

/// The writing half of a [`RingBuffer`].
///
/// `Send` when `T: Send`, never `Sync`: exactly one thread produces at a time.
///
/// ```
/// use hotq_spsc::RingBuffer;
///
/// let (mut tx, mut rx) = RingBuffer::new(8);
/// tx.push(1).unwrap();
/// assert_eq!(tx.slots(), 7);
/// assert_eq!(rx.pop(), Ok(1));
/// ```
pub struct Producer<T> {
    /// Released only by `drop`, in one out-of-line call with the ring by
    /// value (`RingBuffer::producer_gone` says why).
    ring: ManuallyDrop<Arc<RingBuffer<T>>>,
    /// `own` is the tail; `peer` the limit it may advance to: a cached copy
    /// of the consumer's head, plus the capacity.
    cursor: CachePadded<Cursor>,
    /// Whether the room slot may hold this producer's waker from a
    /// [`poll_slots`](Self::poll_slots) that returned `Pending` (as the
    /// consumer's `poll_registered`).
    pub(crate) poll_registered: core::cell::Cell<bool>,
}

// SAFETY: the producer moves `T` values into slots that no other thread
// touches until the consumer takes them over through the Release/Acquire
// pair on `tail`; no `&T` is ever shared between threads, so `T: Send` is
// all that moving the producer to another thread needs.
unsafe impl<T: Send> Send for Producer<T> {}

// A panic inside a producer call (a user's iterator in `fill_from_iter`, a
// `T::drop`) leaves the ring consistent: what was published stays, what
// was not is dropped or leaked by the guards, never exposed half-written.
// So a caught panic cannot let anyone observe a broken invariant, which
// is what `UnwindSafe` promises (as for rtrb's and crossbeam's queues).
// The bounds on `T` are those a `Vec<T>` has: the ring's `UnsafeCell`s,
// which take the traits away automatically, are not what decides.
impl<T: core::panic::UnwindSafe> core::panic::UnwindSafe for Producer<T> {}
impl<T: core::panic::RefUnwindSafe> core::panic::RefUnwindSafe for Producer<T> {}

impl<T> Producer<T> {
    pub(crate) fn new(ring: Arc<RingBuffer<T>>, cursor: CachePadded<Cursor>) -> Self {
        Producer {
            ring: ManuallyDrop::new(ring),
            cursor,
            poll_registered: core::cell::Cell::new(false),
        }
    }

    /// Appends `value`, or gives it back in [`PushError::Full`] when the
    /// ring holds `capacity` items.
    ///
    /// ```
    /// use hotq_spsc::{PushError, RingBuffer};
    ///
    /// let (mut tx, _rx) = RingBuffer::new(1);
    /// assert_eq!(tx.push(10), Ok(()));
    /// assert_eq!(tx.push(11), Err(PushError::Full(11)));
    /// ```
    ///
    /// A push does not look for the consumer: once it is dropped, `push`
    /// still returns `Ok` until the ring is full (then `Full`), and nobody
    /// will read those items; they are dropped with the ring when the
    /// producer goes too. This keeps the push to its two loads and a store
    /// (rtrb's `push` behaves, and is documented, the same way). A producer
    /// that should stop when nobody listens asks
    /// [`is_abandoned`](Self::is_abandoned); the waiting pushes
    /// (`push_timeout`, [`push_async`](Self::push_async)) report
    /// `Abandoned` instead of waiting on a full ring that nobody drains.
    ///
    /// ```
    /// use hotq_spsc::RingBuffer;
    ///
    /// let (mut tx, rx) = RingBuffer::new(2);
    /// drop(rx);
    /// assert_eq!(tx.push(1), Ok(())); // accepted, never read
    /// assert!(tx.is_abandoned()); // how a producer finds out
    /// ```
    #[inline]
    pub fn push(&mut self, value: T) -> Result<(), PushError<T>> {
        if self.free_slots(1) == 0 {
            return Err(PushError::Full(value));
        }
        let tail = self.cursor.own;
        let claim = self.ring.claim(tail, 1);
        // SAFETY: `free_slots` saw a free slot, so the slot at `tail` is not
        // between head and tail: the consumer is done with it and it holds no
        // item; only this producer writes it until `advance` publishes it.
        unsafe { self.ring.slot(tail).write(value) };
        claim.end();
        self.advance(1);
        Ok(())
    }

    /// Copies as many items of `items` as fit, in order (up to 16 items
    /// of up to 128 bytes in all item by item, more with at most two
    /// `memcpy`s); returns how many it copied (0 when the ring is full).
    /// "Fit" is the free space when it looked: the consumer may free more
    /// meanwhile, so a shorter count than `items.len()` says the ring was
    /// full at that moment, not that it still is.
    ///
    /// ```
    /// use hotq_spsc::RingBuffer;
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(3);
    /// assert_eq!(tx.push_slice(&[1, 2, 3, 4]), 3);
    /// assert_eq!(tx.push_slice(&[4]), 0);
    /// let mut out = [0; 4];
    /// assert_eq!(rx.pop_slice(&mut out), 3);
    /// assert_eq!(out, [1, 2, 3, 0]);
    /// ```
    #[must_use = "the count says how many items were pushed; the rest were not"]
    pub fn push_slice(&mut self, items: &[T]) -> usize
    where
        T: Copy,
    {
        let n = self.free_slots(items.len()).min(items.len());
        if n == 0 {
            return 0;
        }
        // SAFETY: `free_slots` saw at least `n` free slots.
        unsafe { self.copy_in(&items[..n]) };
        n
    }

    /// Copies as many items of `items` as fit, as
    /// [`push_slice`](Self::push_slice), and returns `items` split there:
    /// what was pushed, and the rest (empty when all fit). rtrb's
    /// signature; the pushed part is empty when the ring is full.
    ///
    /// ```
    /// use hotq_spsc::RingBuffer;
    ///
    /// let (mut tx, _rx) = RingBuffer::new(4);
    /// let (pushed, rest) = tx.push_partial_slice(&[1, 2, 3, 4, 5, 6]);
    /// assert_eq!((pushed, rest), (&[1, 2, 3, 4][..], &[5, 6][..]));
    /// // Full: nothing pushed, everything comes back.
    /// let (pushed, rest) = tx.push_partial_slice(rest);
    /// assert_eq!((pushed, rest), (&[][..], &[5, 6][..]));
    /// ```
    #[must_use = "the second slice holds the items that were not pushed"]
    pub fn push_partial_slice<'a>(&mut self, items: &'a [T]) -> (&'a [T], &'a [T])
    where
        T: Copy,
    {
        let n = self.push_slice(items);
        items.split_at(n)
    }

    /// Copies all of `items`, or nothing: [`ChunkError::TooFewSlots`] with
    /// the number of free slots when fewer than `items.len()` are free
    /// (as rtrb's `push_entire_slice`).
    ///
    /// ```
    /// use hotq_spsc::{ChunkError, RingBuffer};
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(3);
    /// assert_eq!(tx.push_entire_slice(&[1, 2]), Ok(()));
    /// // One slot free: three items are refused whole.
    /// assert_eq!(tx.push_entire_slice(&[3, 4, 5]), Err(ChunkError::TooFewSlots(1)));
    /// assert_eq!(rx.slots(), 2);
    /// ```
    pub fn push_entire_slice(&mut self, items: &[T]) -> Result<(), ChunkError>
    where
        T: Copy,
    {
        let free = self.free_slots(items.len());
        if free < items.len() {
            return Err(ChunkError::TooFewSlots(free));
        }
        if !items.is_empty() {
            // SAFETY: `free_slots` saw at least `items.len()` free slots.
            unsafe { self.copy_in(items) };
        }
        Ok(())
    }

    /// Copies `items` into the next `items.len()` slots, in at most two
    /// runs ([`copy_run`]), and publishes them.
    ///
    /// # Safety
    ///
    /// At least `items.len()` slots are free (`free_slots` saw them).
    #[inline]
    unsafe fn copy_in(&mut self, items: &[T])
    where
        T: Copy,
    {
        let (tail, n) = (self.cursor.own, items.len());
        let claim = self.ring.claim(tail, n);
        let [(a, a_len), (b, b_len)] = self.ring.runs(tail, n);
        // SAFETY: the `n` slots from `tail` on are free (the caller's
        // promise) and ours until published; the runs are disjoint from
        // `items` (which the caller borrows) and `a_len + b_len == n`.
        unsafe {
            copy_run(items.as_ptr(), a, a_len);
            copy_run(items.as_ptr().add(a_len), b, b_len);
        }
        claim.end();
        self.advance(n);
    }

    /// A chunk of exactly `n` uninitialised slots to write in place, or
    /// [`ChunkError::TooFewSlots`] with the number of free slots.
    ///
    /// Nothing is visible to the consumer until the chunk is committed;
    /// dropping it (or forgetting it) commits nothing.
    ///
    /// ```
    /// use hotq_spsc::{ChunkError, RingBuffer};
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(4);
    /// let chunk = tx.write_chunk_uninit(3).unwrap();
    /// assert_eq!(chunk.fill_from_iter([1, 2, 3]), 3);
    /// assert_eq!(rx.slots(), 3);
    /// // One slot free: a chunk of two is refused, and says how many there are.
    /// assert_eq!(tx.write_chunk_uninit(2).unwrap_err(), ChunkError::TooFewSlots(1));
    /// ```
    pub fn write_chunk_uninit(&mut self, n: usize) -> Result<WriteChunkUninit<'_, T>, ChunkError> {
        let free = self.free_slots(n);
        if free < n {
            return Err(ChunkError::TooFewSlots(free));
        }
        Ok(WriteChunkUninit::new(self, n))
    }

    /// A chunk of exactly `n` slots, each set to `T::default()`, to
    /// overwrite in place; or [`ChunkError::TooFewSlots`] with the number
    /// of free slots. Uncommitted slots are dropped with the chunk.
    ///
    /// ```
    /// use hotq_spsc::{ChunkError, RingBuffer};
    ///
    /// let (mut tx, mut rx) = RingBuffer::<u32>::new(4);
    /// let mut chunk = tx.write_chunk(2).unwrap();
    /// let (first, second) = chunk.as_mut_slices();
    /// assert_eq!(first.len() + second.len(), 2);
    /// first[0] = 42;
    /// chunk.commit(1);
    /// assert_eq!(rx.pop(), Ok(42));
    /// assert!(rx.pop().is_err());
    /// tx.push_slice(&[1, 2]);
    /// // Two slots free: a chunk of three is refused, and says how many there are.
    /// assert_eq!(tx.write_chunk(3).unwrap_err(), ChunkError::TooFewSlots(2));
    /// ```
    pub fn write_chunk(&mut self, n: usize) -> Result<WriteChunk<'_, T>, ChunkError>
    where
        T: Default,
    {
        self.write_chunk_uninit(n).map(WriteChunk::new)
    }

    /// The number of free slots now. The consumer may free more at any
    /// moment, never fewer: a push of up to this many items will succeed.
    ///
    /// ```
    /// use hotq_spsc::RingBuffer;
    ///
    /// let (mut tx, _rx) = RingBuffer::new(2);
    /// assert_eq!(tx.slots(), 2);
    /// tx.push(()).unwrap();
    /// assert_eq!(tx.slots(), 1);
    /// ```
    #[must_use]
    pub fn slots(&self) -> usize {
        self.free_slots(usize::MAX)
    }

    /// The free slots as this producer last saw them, without loading the
    /// consumer's index: never more than are free (the consumer only frees
    /// more), and refreshed by any call that loads it ([`slots`](Self::slots),
    /// or a push that finds its copy says full). Cheaper than `slots`, and
    /// as rtrb's `cached_slots`.
    ///
    /// ```
    /// use hotq_spsc::RingBuffer;
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(2);
    /// assert_eq!(tx.cached_slots(), 2);
    /// tx.push_slice(&[1, 2]);
    /// assert_eq!(tx.cached_slots(), 0);
    /// rx.pop().unwrap();
    /// assert_eq!(tx.cached_slots(), 0); // stale: the pop is not seen yet
    /// assert_eq!(tx.slots(), 1); // loads the consumer's index
    /// assert_eq!(tx.cached_slots(), 1);
    /// ```
    #[must_use]
    pub fn cached_slots(&self) -> usize {
        self.cursor.peer.get().wrapping_sub(self.cursor.own)
    }

    /// Whether the ring is full now (the consumer may make room at any moment).
    ///
    /// ```
    /// use hotq_spsc::RingBuffer;
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(1);
    /// assert!(!tx.is_full());
    /// tx.push(1).unwrap();
    /// assert!(tx.is_full());
    /// rx.pop().unwrap();
    /// assert!(!tx.is_full());
    /// ```
    #[must_use]
    pub fn is_full(&self) -> bool {
        self.free_slots(1) == 0
    }

    /// The most items the ring holds at once: exactly what was asked for.
    ///
    /// ```
    /// let (tx, _rx) = hotq_spsc::RingBuffer::<u8>::new(5);
    /// assert_eq!(tx.capacity(), 5);
    /// ```
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.ring.capacity()
    }

    /// The ring this producer writes to, for its
    /// [`capacity`](RingBuffer::capacity) and to compare it (`==` is
    /// identity) with a consumer's (as rtrb's `buffer`).
    ///
    /// ```
    /// use hotq_spsc::RingBuffer;
    ///
    /// let (tx, rx) = RingBuffer::<u8>::new(3);
    /// assert_eq!(tx.buffer().capacity(), 3);
    /// assert_eq!(tx.buffer(), rx.buffer());
    /// let (_, other_rx) = RingBuffer::<u8>::new(3);
    /// assert_ne!(tx.buffer(), other_rx.buffer());
    /// ```
    #[must_use]
    pub fn buffer(&self) -> &RingBuffer<T> {
        &self.ring
    }

    /// Whether the [`Consumer`](crate::Consumer) has been dropped: nothing
    /// pushed from now on will ever be read.
    ///
    /// ```
    /// use hotq_spsc::RingBuffer;
    ///
    /// let (tx, rx) = RingBuffer::<u8>::new(1);
    /// assert!(!tx.is_abandoned());
    /// drop(rx);
    /// assert!(tx.is_abandoned());
    /// ```
    #[must_use]
    pub fn is_abandoned(&self) -> bool {
        self.ring.is_abandoned()
    }

    /// Free slots, trusting the cached head when it already shows `wanted`
    /// of them, and reloading the consumer's head only when it does not.
    #[inline]
    pub(crate) fn free_slots(&self, wanted: usize) -> usize {
        let free = self.cursor.peer.get().wrapping_sub(self.cursor.own);
        if free >= wanted {
            return free;
        }
        // Acquire pairs with the consumer's Release store of head in
        // `Consumer::advance`: its reads of the slots it freed happen before
        // our writes into them.
        let head = self.ring.head.load(Ordering::Acquire);
        let limit = head.wrapping_add(self.ring.capacity());
        self.cursor.peer.set(limit);
        limit.wrapping_sub(self.cursor.own)
    }

    /// The free-running index of the next slot to write.
    pub(crate) fn tail(&self) -> usize {
        self.cursor.own
    }

    pub(crate) fn ring(&self) -> &RingBuffer<T> {
        &self.ring
    }

    /// Publishes the next `n` slots, which the caller has written.
    #[inline]
    pub(crate) fn advance(&mut self, n: usize) {
        let own = self.cursor.own.wrapping_add(n);
        // Release pairs with the consumer's Acquire load of tail in
        // `Consumer::ready_items`: our slot writes happen before its reads.
        self.ring.tail.store(own, Ordering::Release);
        // The private copy after the shared store, as `Consumer::advance`
        // does: stored first, it made the report's round trip 1.21x as long
        // on an Intel Xeon VM (543 against 448 ns median, 21 interleaved
        // rounds of `spsc_lines hotq-spsc round-trip`, 2026-12-04) with
        // the same 39 instructions per push + pop (callgrind `hot_path`).
        self.cursor.own = own;
        self.ring.waiters.items.wake_if_waiting();
    }
}

impl<T> Drop for Producer<T> {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: `drop` runs once, and nothing uses `self.ring` after
        // this take: the ring is released exactly once, here.
        let ring = unsafe { ManuallyDrop::take(&mut self.ring) };
        RingBuffer::producer_gone(ring);
    }
}

/// Identity, as in rtrb: a ring has one producer, so two are equal only
/// when they are the same one.
///
/// ```
/// use hotq_spsc::RingBuffer;
///
/// let (a, _) = RingBuffer::<u8>::new(1);
/// let (b, _) = RingBuffer::<u8>::new(1);
/// assert_eq!(a, a);
/// assert_ne!(a, b);
/// ```
impl<T> PartialEq for Producer<T> {
    fn eq(&self, other: &Self) -> bool {
        self.buffer() == other.buffer()
    }
}

impl<T> Eq for Producer<T> {}

impl<T> fmt::Debug for Producer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Producer")
            .field("capacity", &self.capacity())
            .field("slots", &self.slots())
            .finish()
    }
}
