//! The reading half of a ring.

use core::fmt;
use core::mem::{ManuallyDrop, MaybeUninit};
use core::ptr;

use crossbeam_utils::CachePadded;

use crate::copy::copy_run;
use crate::ring::Cursor;
use crate::sync::{Arc, Ordering};
use crate::{ChunkError, PeekError, PopError, ReadChunk, RingBuffer};

/// How far ahead of the item it pops the consumer prefetches, in bytes.
/// The producer's core wrote the items, so each line the consumer reads
/// comes from that core; in the report's single-item throughput the ring
/// runs nearly full and the consumer, the slower side, waited on every
/// line. `report --suite spsc`, capacity 1024, 2026-12-05, two runs each:
/// 280–289 M items/s without (1.12–1.15 × the best peer), 302–348 with
/// (1.31–1.39). The distance is hotq-disruptor's, measured there
/// (`disruptor/src/processor.rs`). Only `pop` prefetches: the same check in
/// `take_front`, shared with the chunk iterator and the waiting layer,
/// gave 205–208 (the loop compiled worse).
const PREFETCH_BYTES: usize = 2048;

/// How far the prefetched line must stay behind the newest published
/// item, in bytes: the consumer prefetches only when `PREFETCH_BYTES +
/// PREFETCH_CLEARANCE_BYTES` of items are ready. A prefetch that lands
/// near the producer's line draws the line next to it too (Intel's L2
/// pairs lines, and its streamer runs up to 20 lines ahead of a sequential
/// reader), and then the producer's next stores wait to take that line
/// back. With one line of clearance (the check until 2026-12-07) hotq-spsc
/// read 142–268 M items/s in passes minutes apart, below rtrb (177–212)
/// in some, and 50–67 with the prefetch 1 KiB ahead; with 1 KiB of
/// clearance 273–305 in the same passes, at each of the four code
/// placements (`benches/src/workloads/placement.rs`; capacity 1024,
/// single items, quiet 2-core Xeon VM). Rings of less than 3 KiB never
/// prefetch.
const PREFETCH_CLEARANCE_BYTES: usize = 1024;

/// The reading half of a [`RingBuffer`].
///
/// `Send` when `T: Send`, never `Sync`: exactly one thread consumes at a time.
///
/// ```
/// use hotq_spsc::RingBuffer;
///
/// let (mut tx, mut rx) = RingBuffer::new(8);
/// tx.push_slice(&[1, 2, 3]);
/// assert_eq!(rx.slots(), 3);
/// assert_eq!(rx.pop(), Ok(1));
/// ```
pub struct Consumer<T> {
    /// Released only by `drop`, in one out-of-line call with the ring by
    /// value (`RingBuffer::consumer_gone` says why).
    ring: ManuallyDrop<Arc<RingBuffer<T>>>,
    /// `own` is the head; `peer` a cached copy of the producer's tail.
    cursor: CachePadded<Cursor>,
    /// Whether the items slot may hold this consumer's waker from a
    /// `Stream` poll or a [`poll_items`](Self::poll_items) that returned
    /// `Pending`: their `registered` flag, kept between polls as
    /// `PopFuture` keeps its. A stale `true` (the slot was woken, or taken
    /// over by a later future) costs at most a retract that finds nothing
    /// to withdraw. A `Cell`: `poll_items` takes `&self`, so that a select
    /// can wait on a consumer its caller still reads from.
    pub(crate) poll_registered: core::cell::Cell<bool>,
}

// SAFETY: the consumer moves `T` values out of slots the producer has handed
// over through the Release/Acquire pair on `tail`; `peek` lends `&T` only to
// the thread that owns the consumer. `T: Send` is all that moving it needs.
unsafe impl<T: Send> Send for Consumer<T> {}

// As for `Producer`: a panic in a consumer call (a `T::drop` in a chunk's
// commit) leaves the ring consistent, so catching it is safe.
impl<T: core::panic::UnwindSafe> core::panic::UnwindSafe for Consumer<T> {}
impl<T: core::panic::RefUnwindSafe> core::panic::RefUnwindSafe for Consumer<T> {}

impl<T> Consumer<T> {
    pub(crate) fn new(ring: Arc<RingBuffer<T>>, cursor: CachePadded<Cursor>) -> Self {
        Consumer {
            ring: ManuallyDrop::new(ring),
            cursor,
            poll_registered: core::cell::Cell::new(false),
        }
    }

    /// Removes and returns the oldest item, or [`PopError::Empty`].
    ///
    /// ```
    /// use hotq_spsc::{PopError, RingBuffer};
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(2);
    /// tx.push('a').unwrap();
    /// assert_eq!(rx.pop(), Ok('a'));
    /// assert_eq!(rx.pop(), Err(PopError::Empty));
    /// ```
    #[inline]
    pub fn pop(&mut self) -> Result<T, PopError> {
        let ready = self.ready_items(1);
        if ready == 0 {
            return Err(PopError::Empty);
        }
        self.prefetch_ahead(ready);
        // SAFETY: `ready_items` saw an item at the head.
        Ok(unsafe { self.take_front() })
    }

    /// A reference to the oldest item without removing it, or
    /// [`PeekError::Empty`].
    ///
    /// ```
    /// use hotq_spsc::{PeekError, RingBuffer};
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(2);
    /// assert_eq!(rx.peek(), Err(PeekError::Empty));
    /// tx.push(5).unwrap();
    /// assert_eq!(rx.peek(), Ok(&5));
    /// assert_eq!(rx.pop(), Ok(5));
    /// ```
    pub fn peek(&self) -> Result<&T, PeekError> {
        if self.ready_items(1) == 0 {
            return Err(PeekError::Empty);
        }
        let head = self.cursor.own;
        let _claim = self.ring.claim(head, 1);
        // SAFETY: the slot at `head` holds an item the producer published
        // (`ready_items`); it stays there, untouched by the producer, until
        // this consumer pops it, which needs `&mut self` and so ends the
        // borrow returned here.
        Ok(unsafe { &*self.ring.slot(head) })
    }

    /// Copies out as many items as are ready and fit in `out`, oldest
    /// first (a short run item by item, a long one with `memcpy`); returns
    /// how many (0 when empty).
    /// "Ready" is what the producer had pushed when it looked: a count
    /// below `out.len()` says the ring was empty after those items at that
    /// moment, not that it still is.
    ///
    /// ```
    /// use hotq_spsc::RingBuffer;
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(4);
    /// tx.push_slice(&[1, 2, 3]);
    /// let mut out = [0; 2];
    /// assert_eq!(rx.pop_slice(&mut out), 2);
    /// assert_eq!(out, [1, 2]);
    /// assert_eq!(rx.pop_slice(&mut out), 1);
    /// assert_eq!(rx.pop_slice(&mut out), 0);
    /// ```
    #[must_use = "the count says how many items were taken; the rest of `out` is untouched"]
    pub fn pop_slice(&mut self, out: &mut [T]) -> usize
    where
        T: Copy,
    {
        // SAFETY: `out` is the caller's own buffer, valid for `out.len()`
        // writes and disjoint from the ring (it is borrowed `&mut`).
        unsafe { self.pop_up_to(out.as_mut_ptr(), out.len()) }
    }

    /// Copies out as many items as are ready and fit, as
    /// [`pop_slice`](Self::pop_slice), and returns `out` split there: the
    /// items popped, and the rest of `out`, untouched (rtrb's signature).
    ///
    /// ```
    /// use hotq_spsc::RingBuffer;
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(4);
    /// tx.push_slice(&[1, 2, 3]);
    /// let mut out = [0; 5];
    /// let (popped, rest) = rx.pop_partial_slice(&mut out);
    /// assert_eq!(popped, [1, 2, 3]);
    /// assert_eq!(rest, [0, 0]);
    /// // Empty: nothing popped, all of `out` comes back.
    /// let (popped, rest) = rx.pop_partial_slice(&mut out);
    /// assert_eq!((popped.len(), rest.len()), (0, 5));
    /// ```
    #[must_use = "the first slice holds the items that were popped"]
    pub fn pop_partial_slice<'a>(&mut self, out: &'a mut [T]) -> (&'a mut [T], &'a mut [T])
    where
        T: Copy,
    {
        let n = self.pop_slice(out);
        out.split_at_mut(n)
    }

    /// As [`pop_partial_slice`](Self::pop_partial_slice), into a buffer
    /// that need not be initialised: returns the part written (now
    /// initialised, as `&mut [T]`) and the rest, still uninitialised.
    ///
    /// ```
    /// use std::mem::MaybeUninit;
    /// use hotq_spsc::RingBuffer;
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(4);
    /// tx.push_slice(&[1, 2, 3]);
    /// let mut buffer = Vec::with_capacity(5);
    /// let (popped, rest) = rx.pop_partial_slice_uninit(buffer.spare_capacity_mut());
    /// assert_eq!(popped, [1, 2, 3]);
    /// assert_eq!(rest.len(), 2);
    /// // SAFETY: the first three elements were written by the pop.
    /// unsafe { buffer.set_len(3) };
    /// assert_eq!(buffer, [1, 2, 3]);
    /// // Empty: nothing popped.
    /// let mut more = [MaybeUninit::<i32>::uninit(); 2];
    /// assert!(rx.pop_partial_slice_uninit(&mut more).0.is_empty());
    /// ```
    #[must_use = "the first slice holds the items that were popped"]
    pub fn pop_partial_slice_uninit<'a>(
        &mut self,
        out: &'a mut [MaybeUninit<T>],
    ) -> (&'a mut [T], &'a mut [MaybeUninit<T>])
    where
        T: Copy,
    {
        // SAFETY: `out` is the caller's own buffer, valid for `out.len()`
        // writes of `T` (`MaybeUninit<T>` has `T`'s layout) and disjoint
        // from the ring.
        let n = unsafe { self.pop_up_to(out.as_mut_ptr().cast(), out.len()) };
        let (popped, rest) = out.split_at_mut(n);
        // SAFETY: `pop_up_to` initialised the first `n` elements.
        (unsafe { assume_init_mut(popped) }, rest)
    }

    /// Fills all of `out`, or copies nothing: [`ChunkError::TooFewSlots`]
    /// with the number of items ready when fewer than `out.len()` are
    /// (as rtrb's `pop_entire_slice`).
    ///
    /// ```
    /// use hotq_spsc::{ChunkError, RingBuffer};
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(4);
    /// tx.push_slice(&[1, 2, 3]);
    /// let mut out = [0; 2];
    /// assert_eq!(rx.pop_entire_slice(&mut out), Ok(()));
    /// assert_eq!(out, [1, 2]);
    /// // One item ready: two are refused, and `out` is untouched.
    /// assert_eq!(rx.pop_entire_slice(&mut out), Err(ChunkError::TooFewSlots(1)));
    /// assert_eq!(out, [1, 2]);
    /// ```
    pub fn pop_entire_slice(&mut self, out: &mut [T]) -> Result<(), ChunkError>
    where
        T: Copy,
    {
        // SAFETY: as in `pop_slice`.
        unsafe { self.pop_exactly(out.as_mut_ptr(), out.len()) }
    }

    /// As [`pop_entire_slice`](Self::pop_entire_slice), into a buffer that
    /// need not be initialised; returns it, initialised.
    ///
    /// ```
    /// use std::mem::MaybeUninit;
    /// use hotq_spsc::{ChunkError, RingBuffer};
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(4);
    /// tx.push_slice(&[1, 2, 3]);
    /// let mut out = [MaybeUninit::<i32>::uninit(); 2];
    /// assert_eq!(rx.pop_entire_slice_uninit(&mut out), Ok(&mut [1, 2][..]));
    /// // One item ready: two are refused.
    /// assert_eq!(rx.pop_entire_slice_uninit(&mut out), Err(ChunkError::TooFewSlots(1)));
    /// ```
    pub fn pop_entire_slice_uninit<'a>(
        &mut self,
        out: &'a mut [MaybeUninit<T>],
    ) -> Result<&'a mut [T], ChunkError>
    where
        T: Copy,
    {
        // SAFETY: as in `pop_partial_slice_uninit`.
        unsafe { self.pop_exactly(out.as_mut_ptr().cast(), out.len())? };
        // SAFETY: `pop_exactly` initialised all of `out`.
        Ok(unsafe { assume_init_mut(out) })
    }

    /// Copies out as many items as are ready, up to `len`, to `out`;
    /// returns how many.
    ///
    /// # Safety
    ///
    /// `out` is valid for `len` writes of `T` and disjoint from the ring.
    #[inline]
    unsafe fn pop_up_to(&mut self, out: *mut T, len: usize) -> usize
    where
        T: Copy,
    {
        let n = self.ready_items(len).min(len);
        if n == 0 {
            return 0;
        }
        // SAFETY: `ready_items` saw `n` items; the caller vouches for `out`.
        unsafe { self.copy_out(out, n) };
        n
    }

    /// Copies out exactly `len` items to `out`, or none.
    ///
    /// # Safety
    ///
    /// As for [`pop_up_to`](Self::pop_up_to).
    unsafe fn pop_exactly(&mut self, out: *mut T, len: usize) -> Result<(), ChunkError>
    where
        T: Copy,
    {
        let ready = self.ready_items(len);
        if ready < len {
            return Err(ChunkError::TooFewSlots(ready));
        }
        if len > 0 {
            // SAFETY: `ready_items` saw `len` items; the caller vouches
            // for `out`.
            unsafe { self.copy_out(out, len) };
        }
        Ok(())
    }

    /// Copies the next `n` items to `out`, in at most two runs
    /// ([`copy_run`]), and frees their slots.
    ///
    /// # Safety
    ///
    /// At least `n` items are ready (`ready_items` saw them), and `out` is
    /// valid for `n` writes of `T` and disjoint from the ring.
    #[inline]
    unsafe fn copy_out(&mut self, out: *mut T, n: usize)
    where
        T: Copy,
    {
        let head = self.cursor.own;
        let claim = self.ring.claim(head, n);
        let [(a, a_len), (b, b_len)] = self.ring.runs(head, n);
        // SAFETY: the `n` slots from `head` on hold published items (the
        // caller saw them ready) that only this consumer reads; `out` is
        // valid for `a_len + b_len == n` writes and disjoint from the
        // ring (the caller's promise). `T: Copy`, so copying out and then
        // freeing the slots drops nothing.
        unsafe {
            copy_run(a, out, a_len);
            copy_run(b, out.add(a_len), b_len);
        }
        claim.end();
        self.advance(n);
    }

    /// A chunk of exactly `n` items to read (or modify) in place, or
    /// [`ChunkError::TooFewSlots`] with the number of items ready.
    ///
    /// Items leave the ring only when the chunk is committed or iterated;
    /// dropping (or forgetting) it leaves them where they are.
    ///
    /// ```
    /// use hotq_spsc::{ChunkError, RingBuffer};
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(4);
    /// tx.push_slice(&[1, 2, 3]);
    /// let chunk = rx.read_chunk(2).unwrap();
    /// let (first, second) = chunk.as_slices();
    /// assert_eq!([first, second].concat(), [1, 2]);
    /// chunk.commit_all();
    /// // One item left: a chunk of two is refused, and says how many are ready.
    /// assert_eq!(rx.read_chunk(2).unwrap_err(), ChunkError::TooFewSlots(1));
    /// assert_eq!(rx.pop(), Ok(3));
    /// ```
    pub fn read_chunk(&mut self, n: usize) -> Result<ReadChunk<'_, T>, ChunkError> {
        let ready = self.ready_items(n);
        if ready < n {
            return Err(ChunkError::TooFewSlots(ready));
        }
        Ok(ReadChunk::new(self, n))
    }

    /// The number of items ready now. The producer may add more at any
    /// moment, never fewer: popping up to this many items will succeed.
    ///
    /// ```
    /// use hotq_spsc::RingBuffer;
    ///
    /// let (mut tx, rx) = RingBuffer::new(2);
    /// assert_eq!(rx.slots(), 0);
    /// tx.push(()).unwrap();
    /// assert_eq!(rx.slots(), 1);
    /// ```
    #[must_use]
    pub fn slots(&self) -> usize {
        self.ready_items(usize::MAX)
    }

    /// The items ready as this consumer last saw them, without loading the
    /// producer's index: never more than are ready (the producer only adds
    /// more), and refreshed by any call that loads it ([`slots`](Self::slots),
    /// or a pop that finds its copy says empty). Cheaper than `slots`, and
    /// as rtrb's `cached_slots`.
    ///
    /// ```
    /// use hotq_spsc::RingBuffer;
    ///
    /// let (mut tx, rx) = RingBuffer::new(2);
    /// assert_eq!(rx.cached_slots(), 0);
    /// tx.push(1).unwrap();
    /// assert_eq!(rx.cached_slots(), 0); // stale: the push is not seen yet
    /// assert_eq!(rx.slots(), 1); // loads the producer's index
    /// assert_eq!(rx.cached_slots(), 1);
    /// ```
    #[must_use]
    pub fn cached_slots(&self) -> usize {
        self.cursor.peer.get().wrapping_sub(self.cursor.own)
    }

    /// Whether the ring is empty now (the producer may add at any moment).
    ///
    /// ```
    /// use hotq_spsc::RingBuffer;
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(1);
    /// assert!(rx.is_empty());
    /// tx.push(1).unwrap();
    /// assert!(!rx.is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.ready_items(1) == 0
    }

    /// The most items the ring holds at once: exactly what was asked for.
    ///
    /// ```
    /// let (_tx, rx) = hotq_spsc::RingBuffer::<u8>::new(5);
    /// assert_eq!(rx.capacity(), 5);
    /// ```
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.ring.capacity()
    }

    /// The ring this consumer reads from, for its
    /// [`capacity`](RingBuffer::capacity) and to compare it (`==` is
    /// identity) with a producer's (as rtrb's `buffer`).
    ///
    /// ```
    /// use hotq_spsc::RingBuffer;
    ///
    /// let (tx, rx) = RingBuffer::<u8>::new(3);
    /// assert_eq!(rx.buffer().capacity(), 3);
    /// assert_eq!(rx.buffer(), tx.buffer());
    /// let (other_tx, _) = RingBuffer::<u8>::new(3);
    /// assert_ne!(rx.buffer(), other_tx.buffer());
    /// ```
    #[must_use]
    pub fn buffer(&self) -> &RingBuffer<T> {
        &self.ring
    }

    /// Whether the [`Producer`](crate::Producer) has been dropped. Once this
    /// returns `true`, every item it pushed is visible: pop until empty and
    /// nothing is left behind.
    ///
    /// ```
    /// use hotq_spsc::RingBuffer;
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(2);
    /// tx.push(1).unwrap();
    /// assert!(!rx.is_abandoned());
    /// drop(tx);
    /// assert!(rx.is_abandoned());
    /// assert_eq!(rx.pop(), Ok(1));
    /// ```
    #[must_use]
    pub fn is_abandoned(&self) -> bool {
        self.ring.is_abandoned()
    }

    /// Items ready, trusting the cached tail when it already shows `wanted`
    /// of them, and reloading the producer's tail only when it does not.
    #[inline]
    pub(crate) fn ready_items(&self, wanted: usize) -> usize {
        let ready = self.cursor.peer.get().wrapping_sub(self.cursor.own);
        if ready >= wanted {
            return ready;
        }
        // Acquire pairs with the producer's Release store of tail in
        // `Producer::advance`: its slot writes happen before our reads.
        let tail = self.ring.tail.load(Ordering::Acquire);
        self.cursor.peer.set(tail);
        tail.wrapping_sub(self.cursor.own)
    }

    /// Moves the oldest item out and frees its slot.
    ///
    /// # Safety
    ///
    /// At least one item is ready (`ready_items(1) >= 1` was seen).
    #[inline]
    pub(crate) unsafe fn take_front(&mut self) -> T {
        let head = self.cursor.own;
        let claim = self.ring.claim(head, 1);
        // SAFETY: the caller saw the item at `head` published; reading it
        // out moves it, and `advance` then frees the slot so the ring never
        // considers it initialised again: it is dropped by the caller only.
        let value = unsafe { self.ring.slot(head).read() };
        claim.end();
        self.advance(1);
        value
    }

    /// With `ready` items published from the head on: prefetches the item
    /// [`PREFETCH_BYTES`] after the head if it lies at least
    /// [`PREFETCH_CLEARANCE_BYTES`] before the newest of them (a line near
    /// the one the producer is writing would be taken from it, with its
    /// neighbours).
    #[inline(always)]
    fn prefetch_ahead(&self, ready: usize) {
        let size = size_of::<T>().max(1);
        let ahead = (PREFETCH_BYTES / size).max(1);
        if ready > ahead + PREFETCH_CLEARANCE_BYTES / size {
            self.ring.prefetch(self.cursor.own.wrapping_add(ahead));
        }
    }

    /// The free-running index of the oldest item.
    pub(crate) fn head(&self) -> usize {
        self.cursor.own
    }

    pub(crate) fn ring(&self) -> &RingBuffer<T> {
        &self.ring
    }

    /// Frees the next `n` slots, whose items the caller has moved out or
    /// dropped.
    #[inline]
    pub(crate) fn advance(&mut self, n: usize) {
        let own = self.cursor.own.wrapping_add(n);
        // Release pairs with the producer's Acquire load of head in
        // `Producer::free_slots`: our reads (and drops) of these slots
        // happen before its next writes into them.
        self.ring.head.store(own, Ordering::Release);
        // Before the wake call, which may panic: the slots are freed.
        self.cursor.own = own;
        self.ring.waiters.room.wake_if_waiting();
    }
}

/// `slice.assume_init_mut()`, which is not stable yet.
///
/// # Safety
///
/// Every element of `slice` is initialised.
unsafe fn assume_init_mut<T>(slice: &mut [MaybeUninit<T>]) -> &mut [T] {
    // SAFETY: `MaybeUninit<T>` has `T`'s layout, and the caller vouches
    // that every element is initialised; the borrow is carried over.
    unsafe { &mut *(ptr::from_mut(slice) as *mut [T]) }
}

impl<T> Drop for Consumer<T> {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: `drop` runs once, and nothing uses `self.ring` after
        // this take: the ring is released exactly once, here.
        let ring = unsafe { ManuallyDrop::take(&mut self.ring) };
        RingBuffer::consumer_gone(ring);
    }
}

/// Identity, as in rtrb: a ring has one consumer, so two are equal only
/// when they are the same one.
///
/// ```
/// use hotq_spsc::RingBuffer;
///
/// let (_, a) = RingBuffer::<u8>::new(1);
/// let (_, b) = RingBuffer::<u8>::new(1);
/// assert_eq!(a, a);
/// assert_ne!(a, b);
/// ```
impl<T> PartialEq for Consumer<T> {
    fn eq(&self, other: &Self) -> bool {
        self.buffer() == other.buffer()
    }
}

impl<T> Eq for Consumer<T> {}

impl<T> fmt::Debug for Consumer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Consumer")
            .field("capacity", &self.capacity())
            .field("slots", &self.slots())
            .finish()
    }
}
