//! The shared state of a stamped ring: its lines, `head`, and the final
//! positions the halves leave when they go.
//!
//! # Layout
//!
//! The storage is `lines` lines of [`RingBuffer::LINE_BYTES`] bytes each,
//! aligned to 64 bytes (or to `T`'s alignment, if larger). A line holds,
//! in order, its stamp (an `AtomicUsize`) and [`RingBuffer::PER_LINE`]
//! items: as many as fit beside the stamp in 64 bytes (7 `u64`s, 56
//! `u8`s), or one for an item of 57 bytes or more (its line is then as
//! long as the item and the stamp need); of zero-sized items, any number.
//! Items go into the lines in order, the first line after the last. Every
//! one of these sizes is a constant of `T`; only the number of lines is
//! chosen at run time: the most items the ring holds (its capacity and
//! the slack `head`'s lag adds, [`slack`]) divided by the items per line,
//! rounded up, and one more (`starting_at` says why).

use alloc::alloc::{Layout, alloc, dealloc};
use core::fmt;
use core::marker::PhantomData;
use core::mem::{align_of, size_of};
use core::ptr::{self, NonNull};

use crossbeam_utils::CachePadded;

use super::place::Place;
use super::{Consumer, Producer};
use crate::CapacityError;
use crate::sync::{Arc, AtomicBool, AtomicUsize, Claim, Ordering, SlotAccess};
use crate::wait::{Waiters, barrier};

/// A bounded single-producer single-consumer ring for single items, each
/// line of which carries its own publication stamp (see the
/// [module](super) docs for when to pick it).
///
/// Never held directly: [`RingBuffer::new`] gives its two halves, which
/// share it and may move to different threads. It is freed, with every
/// item still inside dropped exactly once, when both halves are gone.
///
/// ```
/// use hotq_spsc::stamped::RingBuffer;
///
/// let (mut tx, mut rx) = RingBuffer::new(2);
/// tx.push('a').unwrap();
/// tx.push('b').unwrap(); // two fit, whatever the layout
/// assert_eq!(rx.pop(), Ok('a'));
/// assert_eq!(tx.capacity(), 2);
/// ```
pub struct RingBuffer<T> {
    /// Free-running index of the first item of the line the consumer
    /// reads: the consumer has read every item below it, and is at most
    /// `head_every` lines' items − 1 past it. Written only by the
    /// consumer, with `Release`, when it enters a line whose offset from
    /// `storage` `head_mask` clears (every line where `head_every` is 1;
    /// at every pop where items are zero-sized). Once a line or less, not
    /// once an item: a producer that polls a full ring takes this line
    /// from the consumer's core at each load, and the consumer must take
    /// it back for its next store (module docs, "Capacity").
    pub(super) head: CachePadded<AtomicUsize>,
    /// The first line. Each line starts with its stamp, an `AtomicUsize`
    /// initialised to the starting index: the index + 1 of the last item
    /// published in that line, written only by the producer, with
    /// `Release`, after the item.
    storage: NonNull<u8>,
    /// One past the last line.
    end: NonNull<u8>,
    /// Where the consumer stores `head`: on entering a line whose byte
    /// offset from `storage` has no bit of this mask set. 0 (every line)
    /// where [`head_every`] is 1; else `head_every * LINE_BYTES - 1`, with
    /// `LINE_BYTES` a power of two, so that every `head_every`-th line
    /// (and the first, after the wrap) clears it.
    head_mask: usize,
    /// How many lines the storage has, at least one.
    lines: usize,
    /// The fewest items the ring takes before a push fails.
    capacity: usize,
    /// The most items the ring holds at once: `capacity` + [`slack`],
    /// what `head`'s lag behind the consumer may add; the lines hold a
    /// line more.
    pub(super) reach: usize,
    /// Set by the first half to go, with `Release`, so that the other,
    /// having loaded it with `Acquire`, sees every item published before.
    abandoned: AtomicBool,
    /// The producer's index when it went (for the ring's drop).
    tail_at_drop: AtomicUsize,
    /// The consumer's index, line number and place in it when it went.
    head_at_drop: AtomicUsize,
    head_line_at_drop: AtomicUsize,
    head_slot_at_drop: AtomicUsize,
    /// Loom's record of each item's accesses (nothing outside loom).
    access: SlotAccess,
    /// Where each half waits for the other in the blocking calls
    /// (`stamped/blocking.rs`); untouched by the try path but for one load
    /// after each publish: of `items`' state after each stamp, of `room`'s
    /// after each store of `head` (once a line or less). Each slot on cache lines
    /// of its own, apart from the fields above.
    pub(super) waiters: Waiters,
    /// The ring owns `T`s (for the drop check).
    _items: PhantomData<T>,
}

// SAFETY: the ring moves `T`s from the producer's thread to the consumer's
// (`T: Send`), and no `&T` is shared between threads through it; the
// stamps and `head` order every access to an item (module docs), so the
// two halves may use it from two threads at once.
unsafe impl<T: Send> Send for RingBuffer<T> {}
// SAFETY: as for `Send`.
unsafe impl<T: Send> Sync for RingBuffer<T> {}

impl<T> RingBuffer<T> {
    /// Bytes from a line's start to its first item: the stamp, rounded up
    /// to `T`'s alignment.
    const ITEMS_AT: usize = size_of::<AtomicUsize>().next_multiple_of(align_of::<T>());

    /// Items per line: as many as fit beside the stamp in 64 bytes, at
    /// least one. Zero-sized items take no room: a quarter of the index
    /// space fits in one line, so no capacity needs more than four.
    pub(super) const PER_LINE: usize = match size_of::<T>() {
        0 => 1 << (usize::BITS - 2),
        size if size + Self::ITEMS_AT > 64 => 1,
        size => (64 - Self::ITEMS_AT) / size,
    };

    /// Whether the consumer stores `head` only when it leaves a line: for
    /// every `T` but a zero-sized one, whose lines hold a quarter of the
    /// index space each (its `head` goes up at every pop instead).
    pub(super) const LAZY_HEAD: bool = size_of::<T>() != 0;

    /// Whether `head` may be stored less than once a line ([`head_every`]
    /// above 1): where it is stored lazily at all, and a line is a power of
    /// two bytes long, so that one mask (`head_mask`) finds every `k`-th
    /// line.
    const HEAD_MAY_SKIP_LINES: bool = Self::LAZY_HEAD && Self::LINE_BYTES.is_power_of_two();

    /// A line's alignment: a cache line, or `T`'s if larger.
    const ALIGN: usize = if align_of::<T>() > 64 {
        align_of::<T>()
    } else {
        64
    };

    /// A line's length: the stamp and the items, rounded up to the line's
    /// alignment, so that every line starts on a cache line.
    pub(super) const LINE_BYTES: usize =
        (Self::ITEMS_AT + Self::PER_LINE * size_of::<T>()).next_multiple_of(Self::ALIGN);

    /// Creates a ring that takes at least `capacity` items before a push
    /// fails (up to a line's items − 1 more, or under 1/64 of the capacity
    /// more in a large ring: module docs, "Capacity"), and
    /// returns its two halves.
    ///
    /// # Panics
    ///
    /// On a capacity that [`try_new`](Self::try_new) rejects, with the
    /// [`CapacityError`]'s message.
    ///
    /// ```
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// let (tx, rx) = RingBuffer::<u64>::new(1000);
    /// assert_eq!(tx.capacity(), 1000);
    /// assert!(rx.is_empty());
    /// ```
    ///
    /// ```should_panic
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// let _ = RingBuffer::<u64>::new(usize::MAX); // panics: too large
    /// ```
    #[allow(clippy::new_ret_no_self)]
    #[must_use = "dropping both halves frees the ring at once"]
    pub fn new(capacity: usize) -> (Producer<T>, Consumer<T>) {
        match Self::try_new(capacity) {
            Ok(halves) => halves,
            Err(e) => panic!("{e}"),
        }
    }

    /// Creates a ring that takes at least `capacity` items before a push
    /// fails, or says why it cannot: [`CapacityError::TooLarge`] when its
    /// lines would exceed `isize::MAX` bytes or cannot be allocated. A
    /// capacity of 0 gives a ring that is always full and always empty.
    ///
    /// ```
    /// use hotq_spsc::CapacityError;
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// let (tx, _rx) = RingBuffer::<u32>::try_new(3)?;
    /// assert_eq!(tx.capacity(), 3);
    /// let (tx, _rx) = RingBuffer::<u32>::try_new(0)?;
    /// assert!(tx.is_full());
    /// assert_eq!(RingBuffer::<u32>::try_new(usize::MAX / 4).unwrap_err(), CapacityError::TooLarge);
    /// # Ok::<(), CapacityError>(())
    /// ```
    #[allow(clippy::new_ret_no_self)]
    #[must_use = "dropping both halves frees the ring at once"]
    pub fn try_new(capacity: usize) -> Result<(Producer<T>, Consumer<T>), CapacityError> {
        Self::starting_at(capacity, 0)
    }

    /// As [`new`](Self::new), for blocking calls: its halves also have
    /// `push_timeout` / `push_deadline` and `pop_timeout` / `pop_deadline`
    /// (module docs, "Waiting"), and pay for them on the try path (a push
    /// checks whether a consumer waits; a pop that leaves a line checks
    /// whether a producer does). Everything else is as `new`'s.
    ///
    /// # Panics
    ///
    /// As [`new`](Self::new).
    ///
    /// ```
    /// use std::time::Duration;
    /// use hotq_spsc::PopTimeoutError;
    /// use hotq_spsc::stamped::{Consumer, Producer, RingBuffer};
    ///
    /// let (mut tx, mut rx): (Producer<u64, true>, Consumer<u64, true>) = RingBuffer::with_waits(8);
    /// tx.push_timeout(1, Duration::from_secs(1)).unwrap();
    /// assert_eq!(rx.pop_timeout(Duration::from_secs(1)), Ok(1));
    /// assert_eq!(rx.pop_timeout(Duration::from_millis(5)), Err(PopTimeoutError::Timeout));
    /// ```
    ///
    /// ```compile_fail
    /// use std::time::Duration;
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// let (mut tx, _rx) = RingBuffer::<u64>::new(8); // try calls only
    /// tx.push_timeout(1, Duration::from_secs(1)); // no such method here
    /// ```
    #[allow(clippy::new_ret_no_self)]
    #[must_use = "dropping both halves frees the ring at once"]
    pub fn with_waits(capacity: usize) -> (Producer<T, true>, Consumer<T, true>) {
        match Self::try_with_waits(capacity) {
            Ok(halves) => halves,
            Err(e) => panic!("{e}"),
        }
    }

    /// As [`try_new`](Self::try_new), for blocking calls (see
    /// [`with_waits`](Self::with_waits)).
    ///
    /// ```
    /// use hotq_spsc::CapacityError;
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// let (tx, _rx) = RingBuffer::<u32>::try_with_waits(3)?;
    /// assert_eq!(tx.capacity(), 3);
    /// assert_eq!(RingBuffer::<u32>::try_with_waits(usize::MAX / 4).unwrap_err(), CapacityError::TooLarge);
    /// # Ok::<(), CapacityError>(())
    /// ```
    #[allow(clippy::new_ret_no_self, clippy::type_complexity)]
    #[must_use = "dropping both halves frees the ring at once"]
    pub fn try_with_waits(
        capacity: usize,
    ) -> Result<(Producer<T, true>, Consumer<T, true>), CapacityError> {
        Self::starting_at(capacity, 0)
    }

    /// As [`try_new`](Self::try_new), with both free-running indices
    /// starting at `index`: lets tests cross the `usize` wrap. Not part of
    /// the stable API: only with the `test-hooks` feature.
    #[cfg(feature = "test-hooks")]
    #[doc(hidden)]
    #[allow(clippy::new_ret_no_self)]
    pub fn with_initial_index(
        capacity: usize,
        index: usize,
    ) -> Result<(Producer<T>, Consumer<T>), CapacityError> {
        Self::starting_at(capacity, index)
    }

    /// As [`with_initial_index`](Self::with_initial_index) (made for waits
    /// where `WAITS`), with the consumer storing `head` every `every` lines
    /// instead of as [`head_every`] chooses for the capacity: lets
    /// the loom models check a lag of more than a line in a ring small
    /// enough to explore. `every` must be a power of two, and 1 where the
    /// items are zero-sized or a line is not a power of two bytes long. Not
    /// part of the stable API: only with the `test-hooks` feature.
    #[cfg(feature = "test-hooks")]
    #[doc(hidden)]
    #[allow(clippy::type_complexity)]
    pub fn with_head_every<const WAITS: bool>(
        capacity: usize,
        index: usize,
        every: usize,
    ) -> Result<(Producer<T, WAITS>, Consumer<T, WAITS>), CapacityError> {
        assert!(
            every.is_power_of_two() && (every == 1 || Self::HEAD_MAY_SKIP_LINES),
            "`head` every {every} lines: not for this ring"
        );
        Self::laid_out(capacity, index, every)
    }

    #[allow(clippy::type_complexity)]
    fn starting_at<const WAITS: bool>(
        capacity: usize,
        index: usize,
    ) -> Result<(Producer<T, WAITS>, Consumer<T, WAITS>), CapacityError> {
        Self::laid_out(capacity, index, head_every::<T>(capacity))
    }

    /// As `starting_at`, with the consumer storing `head` every `every`
    /// lines (a power of two; 1 where `head_every` would say 1).
    #[allow(clippy::type_complexity)]
    fn laid_out<const WAITS: bool>(
        capacity: usize,
        index: usize,
        every: usize,
    ) -> Result<(Producer<T, WAITS>, Consumer<T, WAITS>), CapacityError> {
        // Wrapping comparisons of indices need the ring to hold fewer than
        // 2^(usize::BITS - 1) items, which the byte limit below gives for
        // every `T` but a zero-sized one.
        if capacity > isize::MAX as usize {
            return Err(CapacityError::TooLarge);
        }
        // One line more than the items need. The producer writes item `j`
        // only while `j < head + reach`, and `head` starts the consumer's
        // line, so `j` lies at most `ceil(reach / PER_LINE) - 1 = lines -
        // 2` lines past it: when the ring runs full the producer writes
        // two lines behind the line the consumer reads, never in it nor in
        // its 128-byte pair (which the adjacent line prefetcher fetches
        // with it). And the slot's last item, `j - lines * PER_LINE`, lies
        // below `head - PER_LINE`: read. A/B of the gap in the probe
        // `spsc_stamps` (three interleaved runs, 5 rounds each, quiet
        // 2-core VM, 2026-12-06): no work, capacity 1024, 336 M items/s
        // against 129 with the producer writing right behind the consumer;
        // level elsewhere.
        let reach = capacity + slack::<T>(capacity, every);
        let lines = reach.div_ceil(Self::PER_LINE) + 1;
        let layout = lines
            .checked_mul(Self::LINE_BYTES)
            .and_then(|bytes| Layout::from_size_align(bytes, Self::ALIGN).ok())
            .ok_or(CapacityError::TooLarge)?;
        // SAFETY: the layout's size is at least one line, never zero.
        let storage = NonNull::new(unsafe { alloc(layout) }).ok_or(CapacityError::TooLarge)?;
        for line in 0..lines {
            // SAFETY: line `line` is inside the allocation, and its start is
            // aligned for an `AtomicUsize` (to at least 64 bytes); nothing
            // else refers to it yet.
            unsafe {
                let stamp = storage
                    .as_ptr()
                    .add(line * Self::LINE_BYTES)
                    .cast::<AtomicUsize>();
                stamp.write(AtomicUsize::new(index));
            }
        }
        // SAFETY: `lines * LINE_BYTES` bytes are allocated: one past the end.
        let end = unsafe { storage.add(lines * Self::LINE_BYTES) };
        let ring = Arc::new(RingBuffer {
            head: CachePadded::new(AtomicUsize::new(index)),
            storage,
            end,
            head_mask: if every == 1 {
                0
            } else {
                every * Self::LINE_BYTES - 1
            },
            lines,
            capacity,
            reach,
            abandoned: AtomicBool::new(false),
            tail_at_drop: AtomicUsize::new(index),
            head_at_drop: AtomicUsize::new(index),
            head_line_at_drop: AtomicUsize::new(0),
            head_slot_at_drop: AtomicUsize::new(0),
            // A cell per slot (zero-sized items, which take no memory and
            // come a quarter of the index space to a line: none).
            access: SlotAccess::new(match size_of::<T>() {
                0 => 0,
                _ => (lines * Self::PER_LINE).next_power_of_two(),
            }),
            // Asked only now, once the capacity is known to be good, and
            // only for a ring made for waits: the first such ring of a
            // process registers it for `membarrier`. A try-only ring never
            // waits, so its slots are fenced and it makes no system call
            // (its halves' drops still wake, and find nobody).
            waiters: Waiters::new(WAITS && barrier::available()),
            _items: PhantomData,
        });
        let start = Place::start::<T>(index, storage);
        Ok((
            Producer::new(Arc::clone(&ring), start, index.wrapping_add(reach)),
            Consumer::new(ring, start),
        ))
    }

    /// The fewest items the ring takes before a push fails (it may take
    /// up to a line's items − 1 more, or under 1/64 of the capacity more in
    /// a large ring: module docs, "Capacity").
    ///
    /// ```
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// let (tx, _rx) = RingBuffer::<u8>::new(100);
    /// assert_eq!(tx.buffer().capacity(), 100);
    /// ```
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The stamp of the line that starts at `line`.
    #[inline(always)]
    pub(super) fn stamp(&self, line: NonNull<u8>) -> &AtomicUsize {
        // SAFETY: `line` is the start of one of this ring's lines (a
        // `Place` only ever holds one), where `starting_at` placed an
        // initialised `AtomicUsize` that lives as long as the ring.
        unsafe { line.cast::<AtomicUsize>().as_ref() }
    }

    /// Where item `slot` of the line that starts at `line` lives.
    #[inline(always)]
    pub(super) fn item(line: NonNull<u8>, slot: usize) -> *mut T {
        // SAFETY (of the arithmetic): `slot < PER_LINE`, so the item lies
        // inside the line, which lies inside the allocation.
        line.as_ptr()
            .wrapping_add(Self::ITEMS_AT)
            .cast::<T>()
            .wrapping_add(slot)
    }

    /// The line after `line`, the first after the last.
    #[inline(always)]
    pub(super) fn next_line(&self, line: NonNull<u8>) -> NonNull<u8> {
        // SAFETY: `line` starts a line of the allocation, so one line on is
        // at most one past its end.
        let next = unsafe { line.add(Self::LINE_BYTES) };
        if next == self.end { self.storage } else { next }
    }

    /// The line `k` lines after `line`, wrapping (for the async pop's look
    /// ahead, `Consumer::published_ahead`).
    pub(super) fn line_after(&self, line: NonNull<u8>, k: usize) -> NonNull<u8> {
        let number = (self.line_number(line) + k % self.lines) % self.lines;
        // SAFETY: `number < lines`, so the line starts inside the
        // allocation (`lines` lines from `storage`).
        unsafe { self.storage.add(number * Self::LINE_BYTES) }
    }

    /// Loom's claim on item `slot` of `line` while it is read or written.
    #[inline(always)]
    pub(super) fn claim(&self, line: NonNull<u8>, slot: usize) -> Claim {
        if size_of::<T>() == 0 {
            // Nothing to read or write, and no cells (`starting_at`).
            return self.access.claim(0, 0);
        }
        let number = self.line_number(line) * Self::PER_LINE + slot;
        self.access.claim(number, 1)
    }

    /// Whether the consumer stores `head` on entering `line` (see
    /// `head_mask`).
    #[inline(always)]
    pub(super) fn stores_head_at(&self, line: NonNull<u8>) -> bool {
        (line.as_ptr() as usize).wrapping_sub(self.storage.as_ptr() as usize) & self.head_mask == 0
    }

    fn line_number(&self, line: NonNull<u8>) -> usize {
        (line.as_ptr() as usize - self.storage.as_ptr() as usize) / Self::LINE_BYTES
    }

    /// Whether the other half is gone (`Acquire`: pairs with `abandon`'s
    /// `Release` store, so the items it published are visible now).
    pub(super) fn is_abandoned(&self) -> bool {
        self.abandoned.load(Ordering::Acquire)
    }

    /// Called out of line by the producer's drop, with the ring by value
    /// (as `crate::RingBuffer::producer_gone`, which says why).
    #[inline(never)]
    pub(super) fn producer_gone(ring: Arc<Self>, tail: usize) {
        // Relaxed: read only by the ring's drop, after `Arc`'s last release.
        ring.tail_at_drop.store(tail, Ordering::Relaxed);
        // Release: pairs with `is_abandoned`'s Acquire load.
        ring.abandoned.store(true, Ordering::Release);
        // A consumer blocked for items can never get more: wake it to see.
        ring.waiters.items.wake_if_waiting();
        drop(ring);
    }

    /// Called out of line by the consumer's drop, with the ring and the
    /// consumer's index, line and place by value. Scalars, not the
    /// `Place`: a struct of three words goes by address, and a consumer
    /// whose address reaches a call stays in memory in the caller's loop
    /// (its index, line and place stored and reloaded at every pop; seen
    /// in the benches' loops; `crate::RingBuffer::producer_gone` says what
    /// that costs).
    #[inline(never)]
    pub(super) fn consumer_gone(ring: Arc<Self>, index: usize, line: NonNull<u8>, slot: usize) {
        // Relaxed: read only by the ring's drop, after `Arc`'s last release.
        // The index, not `head`, which may lag it by part of a line.
        ring.head_at_drop.store(index, Ordering::Relaxed);
        ring.head_line_at_drop
            .store(ring.line_number(line), Ordering::Relaxed);
        ring.head_slot_at_drop.store(slot, Ordering::Relaxed);
        // Release: pairs with `is_abandoned`'s Acquire load.
        ring.abandoned.store(true, Ordering::Release);
        // A producer blocked for room can never get more: wake it to see.
        ring.waiters.room.wake_if_waiting();
        drop(ring);
    }
}

/// The most lines the consumer reads between two stores of `head`.
pub(super) const MAX_HEAD_EVERY: usize = 64;

/// How many lines the consumer reads between two stores of `head` in a
/// ring of `capacity` `T`s: one, or where the capacity fills more than 128
/// lines (and a line is a power of two bytes long), the largest power of
/// two up to 1/64 of them, at most [`MAX_HEAD_EVERY`]. So `head`'s lag,
/// which a full ring's producer must leave free, stays under 1/64 of the
/// capacity (module docs, "Capacity"), and a producer that fills a large
/// full ring writes that far behind the consumer instead of in the line
/// behind it. A/B in `docs/spsc-regime-grid.md`, "`head` once per 64 lines".
pub(super) const fn head_every<T>(capacity: usize) -> usize {
    if !RingBuffer::<T>::HEAD_MAY_SKIP_LINES {
        return 1;
    }
    let k = capacity / RingBuffer::<T>::PER_LINE / 64;
    if k <= 1 {
        1
    } else {
        let k = 1 << k.ilog2();
        if k > MAX_HEAD_EVERY {
            MAX_HEAD_EVERY
        } else {
            k
        }
    }
}

/// How many items past `capacity` a ring of `T`s may hold: `head` lags
/// the consumer by up to `every` lines' items − 1 (none where a line
/// holds one item and `every` is 1, or for zero-sized items, whose `head`
/// goes up at every pop). A ring of 0 stays always full.
pub(super) const fn slack<T>(capacity: usize, every: usize) -> usize {
    if capacity == 0 || !RingBuffer::<T>::LAZY_HEAD {
        0
    } else {
        every * RingBuffer::<T>::PER_LINE - 1
    }
}

impl<T> Drop for RingBuffer<T> {
    fn drop(&mut self) {
        // Both halves are gone and `Arc`'s last drop synchronises with
        // both, so `Relaxed` loads see what they stored.
        let head = self.head_at_drop.load(Ordering::Relaxed);
        let tail = self.tail_at_drop.load(Ordering::Relaxed);
        let line_number = self.head_line_at_drop.load(Ordering::Relaxed);
        // SAFETY: the consumer stored the number of one of the lines.
        let line = unsafe { self.storage.add(line_number * Self::LINE_BYTES) };
        let slot = self.head_slot_at_drop.load(Ordering::Relaxed);
        let mut at = Place::at::<T>(head, slot, line);
        // Drops the items `head..tail`, first to last. If a destructor
        // panics the panic goes on (the guard still frees the storage) and
        // the items after it leak: dropping them during the unwind would
        // abort at the next destructor that panics.
        let _free = FreeStorage(self);
        while at.index != tail {
            let slot = at.slot::<T>();
            let claim = self.claim(at.line, slot);
            // SAFETY: item `at.index` was published and not read, so its
            // slot holds an initialised `T` that nothing else can reach;
            // it is dropped here, once.
            unsafe { ptr::drop_in_place(Self::item(at.line, slot)) };
            claim.end();
            at.step(self);
        }
    }
}

/// Frees a ring's storage (its stamps, then its memory) when dropped,
/// also during an unwind from an item's destructor.
struct FreeStorage<'a, T>(&'a RingBuffer<T>);

impl<T> Drop for FreeStorage<'_, T> {
    fn drop(&mut self) {
        let ring = self.0;
        for line in 0..ring.lines {
            // SAFETY: each line holds an `AtomicUsize` placed by
            // `starting_at`; nothing uses it after the ring's drop.
            unsafe {
                let stamp = ring
                    .storage
                    .as_ptr()
                    .add(line * RingBuffer::<T>::LINE_BYTES);
                ptr::drop_in_place(stamp.cast::<AtomicUsize>());
            }
        }
        let bytes = ring.lines * RingBuffer::<T>::LINE_BYTES;
        // SAFETY: the storage was allocated in `starting_at` with this
        // layout (which was valid then, so it is now), and is freed once.
        unsafe {
            let layout = Layout::from_size_align_unchecked(bytes, RingBuffer::<T>::ALIGN);
            dealloc(ring.storage.as_ptr(), layout);
        }
    }
}

impl<T> PartialEq for RingBuffer<T> {
    /// Identity: two rings are equal only when they are the same ring.
    fn eq(&self, other: &Self) -> bool {
        ptr::eq(self, other)
    }
}

impl<T> Eq for RingBuffer<T> {}

impl<T> fmt::Debug for RingBuffer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("stamped::RingBuffer")
            .field("capacity", &self.capacity)
            .field("reach", &self.reach)
            .field("lines", &self.lines)
            .field("per_line", &Self::PER_LINE)
            .field("head_every", &(self.head_mask / Self::LINE_BYTES + 1))
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::RingBuffer;
    use crate::wait::barrier;

    /// A try-only ring's wait slots are fenced (it never registers the
    /// process for `membarrier`); a ring made for waits uses the
    /// asymmetric barrier wherever the system has it.
    #[test]
    fn only_a_ring_made_for_waits_asks_for_the_asymmetric_barrier() {
        let (tx, _rx) = RingBuffer::<u64>::new(4);
        assert!(tx.ring.waiters.items.is_fenced());
        assert!(tx.ring.waiters.room.is_fenced());
        let (tx, _rx) = RingBuffer::<u64>::with_waits(4);
        let fenced = !barrier::available();
        assert_eq!(tx.ring.waiters.items.is_fenced(), fenced);
        assert_eq!(tx.ring.waiters.room.is_fenced(), fenced);
    }
}
