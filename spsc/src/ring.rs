//! The shared state of one ring and its construction.
//!
//! # Layout
//!
//! `head` and `tail` are free-running `usize` counters: they only ever grow
//! (wrapping at `usize::MAX + 1`) and are masked only when a slot is
//! addressed. `tail - head` (wrapping) is the number of items in the ring, so
//! empty is `tail == head`, full is `tail - head == capacity`, and no slot is
//! wasted to tell the two apart. The slot storage is the capacity rounded up
//! to a power of two, so masking stays correct across the counters' wrap
//! (`usize::MAX + 1` is a multiple of every power of two); the extra slots of
//! a non-power-of-two capacity are simply never all in use at once.
//!
//! A ring of capacity 0 (which rtrb allows, and so does this crate) has no
//! storage at all, and needs no branch of its own: the producer's limit is
//! `head + 0`, its own tail, so every push finds no free slot, and the
//! consumer's is the tail, which never moves, so every pop finds no item.
//! No slot is ever addressed (the mask, 0, is never applied to a slot that
//! exists), and zero-length chunks and slices point at the empty storage
//! with length 0.
//!
//! This holds for a `usize` of any width, 32-bit targets included: each
//! counter has a single writer and is never compared against a value read
//! on an earlier lap by a CAS (there is none), and a stale copy the other
//! side holds is behind the true value by at most the storage length (the
//! true `tail - head` never exceeds `capacity`), which is at most
//! 2^(bits - 1), so the wrapping difference is never ambiguous. No
//! operation waits for a counter to come back to a value, so the wrap
//! after 2^32 items on a 32-bit target is as harmless as after 2^64.
//!
//! The consumer alone writes `head`, the producer alone writes `tail`; each
//! lives on its own cache line so that one side's store does not evict the
//! line the other side is spinning on.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::cell::Cell;
use core::fmt;
use core::mem::{MaybeUninit, size_of};
use core::ptr;

use crossbeam_utils::CachePadded;

use crate::sync::{Arc, AtomicBool, AtomicUsize, Claim, Ordering, SlotAccess, UnsafeCell};
use crate::wait::{Waiters, barrier};
use crate::{CapacityError, Consumer, Producer};

/// A bounded single-producer single-consumer ring buffer.
///
/// It is never held directly: [`RingBuffer::new`] gives its two halves, a
/// [`Producer`] and a [`Consumer`], which share it and may move to different
/// threads, and each half lends it out through `buffer()` (as rtrb's do),
/// for its [`capacity`](Self::capacity) and to tell whether two halves
/// share a ring (`==` is identity). The ring is freed, with every item
/// still inside dropped exactly once, when both halves are gone.
///
/// ```
/// use hotq_spsc::RingBuffer;
///
/// let (mut tx, mut rx) = RingBuffer::new(2);
/// let t = std::thread::spawn(move || {
///     for i in 0..10 {
///         while tx.push(i).is_err() {
///             std::thread::yield_now();
///         }
///     }
/// });
/// let mut got = Vec::new();
/// while got.len() < 10 {
///     match rx.pop() {
///         Ok(v) => got.push(v),
///         Err(_) => std::thread::yield_now(),
///     }
/// }
/// t.join().unwrap();
/// assert_eq!(got, (0..10).collect::<Vec<_>>());
/// ```
pub struct RingBuffer<T> {
    /// Free-running index of the next item to read. Written only by the
    /// consumer, with `Release`, after it has finished with the slots below.
    pub(crate) head: CachePadded<AtomicUsize>,
    /// Free-running index of the next slot to write. Written only by the
    /// producer, with `Release`, after it has written the slots below.
    pub(crate) tail: CachePadded<AtomicUsize>,
    /// Set by whichever half is dropped first (and again by the second).
    abandoned: AtomicBool,
    /// What the caller asked for: the most items the ring holds at once.
    capacity: usize,
    /// `slots.len() - 1`; `slots.len()` is a power of two (0 and 0 for
    /// a ring of capacity 0, whose `slots` is empty).
    mask: usize,
    /// Slot `i & mask` holds item `i` while `head <= i < tail`; the others
    /// are uninitialised.
    slots: Box<[UnsafeCell<MaybeUninit<T>>]>,
    /// Loom's view of slot accesses (zero-sized outside loom).
    access: SlotAccess,
    /// Where each half waits for the other (`wait/`); untouched by the try
    /// path but for one load after each publish. On cache lines of its own
    /// (each slot is padded, see `Waiters`): a waiter writes its state
    /// word, and the fields above are read by every push and pop.
    pub(crate) waiters: Waiters,
}

/// One half's private position: its own index and a cached copy of the
/// other half's. On its own cache line, so that the two halves' positions
/// never share one, wherever the caller keeps the halves.
pub(crate) struct Cursor {
    /// This half's own index (tail for the producer, head for the consumer).
    /// This half is its only writer, so the copy here is always exact and
    /// the hot path never loads it from the shared atomic.
    pub(crate) own: usize,
    /// The bound `own` may advance to, from the other half's index as last
    /// loaded: the producer's is the consumer's head plus the capacity (so
    /// that free slots are one subtraction, like ready items), the
    /// consumer's is the producer's tail. It may be stale, but only
    /// behind: the other index only grows, so the space (or items) it
    /// implies is a lower bound that is always safe to use. It is refreshed
    /// only when it says there is not enough.
    pub(crate) peer: Cell<usize>,
}

impl<T> RingBuffer<T> {
    /// Creates a ring holding at most `capacity` items and returns its two
    /// halves.
    ///
    /// A capacity of 0 is allowed, as in rtrb: that ring is always full
    /// and always empty (every push fails, every pop finds nothing; a
    /// wait for `n >= 1` slots or items is refused at once).
    ///
    /// # Panics
    ///
    /// On a capacity that [`try_new`](Self::try_new) rejects, with the
    /// [`CapacityError`]'s message.
    ///
    /// ```
    /// use hotq_spsc::{PopError, RingBuffer};
    ///
    /// let (tx, rx) = RingBuffer::<u64>::new(1000);
    /// assert_eq!(tx.capacity(), 1000);
    /// assert_eq!(rx.capacity(), 1000);
    ///
    /// let (mut tx, mut rx) = RingBuffer::<u64>::new(0);
    /// assert!(tx.push(1).is_err());
    /// assert_eq!(rx.pop(), Err(PopError::Empty));
    /// ```
    ///
    /// ```should_panic
    /// # use hotq_spsc::RingBuffer;
    /// let _ = RingBuffer::<u64>::new(usize::MAX); // panics: capacity too large
    /// ```
    #[allow(clippy::new_ret_no_self)]
    #[must_use = "dropping both halves frees the ring at once"]
    pub fn new(capacity: usize) -> (Producer<T>, Consumer<T>) {
        match Self::try_new(capacity) {
            Ok(halves) => halves,
            Err(e) => panic!("{e}"),
        }
    }

    /// Creates a ring holding at most `capacity` items, or says why it
    /// cannot: [`CapacityError::TooLarge`] when the storage (the capacity
    /// rounded up to a power of two) cannot be indexed or allocated. For
    /// zero-sized `T` nothing is allocated and any capacity up to
    /// `2^(usize::BITS - 1)` works. A capacity of 0 gives a ring that
    /// allocates no slot and is always full and always empty.
    ///
    /// ```
    /// use hotq_spsc::{CapacityError, RingBuffer};
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
        Self::starting_at(capacity, 0, Barrier::Best)
    }

    /// As [`try_new`](Self::try_new), with both free-running indices
    /// starting at `index` instead of 0: lets tests cross the `usize` wrap
    /// without pushing 2^64 items. Not part of the stable API: only with
    /// the `test-hooks` feature.
    #[cfg(any(test, feature = "test-hooks"))]
    #[doc(hidden)]
    #[allow(clippy::new_ret_no_self)]
    pub fn with_initial_index(
        capacity: usize,
        index: usize,
    ) -> Result<(Producer<T>, Consumer<T>), CapacityError> {
        Self::starting_at(capacity, index, Barrier::Best)
    }

    /// As [`try_new`](Self::try_new), but the ring's wait slots are
    /// *fenced* even where the asymmetric barrier (`membarrier`) works:
    /// every push and pop runs a `fence(SeqCst)` before it checks for a
    /// waiter, as on a system without the system call. The alternative the
    /// asymmetric barrier was chosen over, kept buildable so that it can be
    /// measured against it (`hot_path hotq-spsc-fenced`,
    /// `spsc_fenced_ab`) and so that tests can run the fenced protocol
    /// where `membarrier` exists. Not part of the stable API: only with
    /// the `test-hooks` feature.
    #[cfg(any(test, feature = "test-hooks"))]
    #[doc(hidden)]
    #[allow(clippy::new_ret_no_self)]
    pub fn fenced(capacity: usize) -> Result<(Producer<T>, Consumer<T>), CapacityError> {
        Self::starting_at(capacity, 0, Barrier::Fenced)
    }

    /// The constructor: `try_new` starts at index 0 with the best barrier
    /// the system has, the test hooks anywhere or fenced.
    fn starting_at(
        capacity: usize,
        index: usize,
        kind: Barrier,
    ) -> Result<(Producer<T>, Consumer<T>), CapacityError> {
        // No slot for a ring of 0 (the module docs say why it needs none);
        // `checked_next_power_of_two` would give it one.
        let len = match capacity {
            0 => 0,
            _ => capacity
                .checked_next_power_of_two()
                .ok_or(CapacityError::TooLarge)?,
        };
        let bytes = len
            .checked_mul(size_of::<T>())
            .ok_or(CapacityError::TooLarge)?;
        if bytes > isize::MAX as usize {
            return Err(CapacityError::TooLarge);
        }
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(len)
            .map_err(|_| CapacityError::TooLarge)?;
        // SAFETY: the capacity was reserved just above, and a slot is an
        // `UnsafeCell<MaybeUninit<T>>`, which is valid uninitialised
        // (`UnsafeCell` is `repr(transparent)`); no slot is read before the
        // producer writes it.
        unsafe { slots.set_len(len) };
        let ring = Arc::new(RingBuffer {
            head: CachePadded::new(AtomicUsize::new(index)),
            tail: CachePadded::new(AtomicUsize::new(index)),
            abandoned: AtomicBool::new(false),
            capacity,
            mask: len.saturating_sub(1),
            slots: slots.into_boxed_slice(),
            access: SlotAccess::new(len),
            // Asked only now, once the capacity is known to be good: the
            // first ring of a process registers it for `membarrier`.
            waiters: Waiters::new(match kind {
                Barrier::Best => barrier::available(),
                Barrier::Fenced => false,
            }),
        });
        let producer = Producer::new(
            Arc::clone(&ring),
            Cursor::at(index, index.wrapping_add(capacity)),
        );
        let consumer = Consumer::new(ring, Cursor::at(index, index));
        Ok((producer, consumer))
    }

    /// The most items the ring holds at once: exactly what was asked for.
    ///
    /// ```
    /// use hotq_spsc::RingBuffer;
    ///
    /// let (tx, rx) = RingBuffer::<f32>::new(100);
    /// assert_eq!(tx.buffer().capacity(), 100);
    /// assert_eq!(rx.buffer().capacity(), 100);
    /// ```
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Pointer to the slot of free-running index `index`. For a ring of
    /// capacity 0 (no slots) it is the empty storage's dangling pointer,
    /// which only zero-length slices are ever made from.
    #[inline]
    pub(crate) fn slot(&self, index: usize) -> *mut T {
        // SAFETY: `index & mask < slots.len()`, so the offset stays inside
        // the allocation the slice pointer has provenance over; with no
        // slots the mask is 0 and so is the offset, which is in bounds of
        // any pointer.
        let cell = unsafe { self.slots.as_ptr().add(index & self.mask) };
        UnsafeCell::raw_get(cell).cast::<T>()
    }

    /// Brings the slot of free-running index `index` towards this core's
    /// cache: a hint, no access.
    #[inline(always)]
    pub(crate) fn prefetch(&self, index: usize) {
        crate::sync::prefetch_read(self.slot(index));
    }

    /// The `len` slots from free-running index `first` on, as at most two
    /// contiguous runs (the second one wraps to the start of the storage).
    /// `len` must not exceed the capacity.
    #[inline]
    pub(crate) fn runs(&self, first: usize, len: usize) -> [(*mut T, usize); 2] {
        let start = first & self.mask;
        let first_len = len.min(self.slots.len() - start);
        [
            (self.slot(first), first_len),
            (self.slot(0), len - first_len),
        ]
    }

    /// Claims slots for loom's access tracking (no-op outside loom).
    #[inline(always)]
    pub(crate) fn claim(&self, first: usize, len: usize) -> Claim {
        self.access.claim(first, len)
    }

    /// Records that one half is gone. `Release` pairs with the `Acquire`
    /// load in [`is_abandoned`](Self::is_abandoned): whoever sees the flag
    /// also sees every index the departed half published before leaving.
    pub(crate) fn abandon(&self) {
        self.abandoned.store(true, Ordering::Release);
    }

    /// The producer's drop: abandons the ring, wakes a consumer waiting
    /// for items, and releases the producer's reference.
    ///
    /// Each half's `Drop` is this one call, given the ring by value (the
    /// halves hold it in a `ManuallyDrop`), so that dropping a half never
    /// passes the half's own address to a function. A caller's loop of
    /// pushes or pops can then keep the half's cursor in registers: where
    /// a drop took `&mut` of the half out of line (as it did, in the
    /// landing pad of any call that may unwind before the loop), LLVM kept
    /// the cursor in memory, a store and a reload per item, and the
    /// report's SPSC single-item workload ran at 110-123 M items/s
    /// against 165-174 with the cursor in registers (7 rounds each, three
    /// alternations, Intel Xeon 2-core VM, 2026-12-04).
    #[inline(never)]
    pub(crate) fn producer_gone(ring: Arc<Self>) {
        ring.abandon();
        ring.waiters.items.wake_if_waiting();
    }

    /// The consumer's drop: as [`producer_gone`](Self::producer_gone),
    /// waking a producer waiting for room.
    #[inline(never)]
    pub(crate) fn consumer_gone(ring: Arc<Self>) {
        ring.abandon();
        ring.waiters.room.wake_if_waiting();
    }

    /// Whether a half has been dropped. `Acquire` pairs with the `Release`
    /// store in [`abandon`](Self::abandon).
    pub(crate) fn is_abandoned(&self) -> bool {
        self.abandoned.load(Ordering::Acquire)
    }
}

/// Which store→load barrier a new ring's wait slots use (`wait::barrier`).
#[derive(Clone, Copy)]
enum Barrier {
    /// The asymmetric one where the system has it, fenced otherwise.
    Best,
    /// Fenced, whatever the system has (the `fenced` test hook).
    #[cfg_attr(not(any(test, feature = "test-hooks")), allow(dead_code))]
    Fenced,
}

impl Cursor {
    fn at(own: usize, peer: usize) -> CachePadded<Cursor> {
        CachePadded::new(Cursor {
            own,
            peer: Cell::new(peer),
        })
    }
}

/// The ring's fixed shape; its contents are seen through its halves (whose
/// `Debug` shows how many slots are free or ready).
impl<T> fmt::Debug for RingBuffer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RingBuffer")
            .field("capacity", &self.capacity)
            .field("storage", &self.slots.len())
            .finish_non_exhaustive()
    }
}

/// Identity: two references are equal when they are the same ring, so the
/// halves of one ring have equal [`buffer`](Producer::buffer)s and those of
/// two rings never do (as in rtrb).
///
/// ```
/// use hotq_spsc::RingBuffer;
///
/// let (tx, rx) = RingBuffer::<u8>::new(4);
/// let (other_tx, _other_rx) = RingBuffer::<u8>::new(4);
/// assert_eq!(tx.buffer(), rx.buffer());
/// assert_ne!(tx.buffer(), other_tx.buffer()); // same capacity, another ring
/// ```
impl<T> PartialEq for RingBuffer<T> {
    fn eq(&self, other: &Self) -> bool {
        ptr::eq(self, other)
    }
}

impl<T> Eq for RingBuffer<T> {}

impl<T> Drop for RingBuffer<T> {
    fn drop(&mut self) {
        // Both halves are gone, and `Arc`'s last drop synchronises with both,
        // so `Relaxed` loads see their final indices.
        let head = self.head.load(Ordering::Relaxed);
        let tail = self.tail.load(Ordering::Relaxed);
        let len = tail.wrapping_sub(head);
        let _claim = self.claim(head, len);
        // SAFETY: the items `head..tail` are initialised and nothing else
        // can reach them any more; each is dropped here, once.
        unsafe { drop_runs(self.runs(head, len)) };
    }
}

/// Drops in place the items of (at most) two runs of slots, first to
/// last. If a destructor panics, the panic goes on to the caller and the
/// items after it are leaked: dropping them while it unwinds would abort
/// the process at the next destructor that panics (a slice's drop glue
/// does that), and a destructor's panic must never become an abort. So
/// each item is dropped at most once, as in rtrb and crossbeam-channel.
///
/// # Safety
///
/// Every slot of both runs holds an initialised item that the caller owns
/// and will consider gone after this call, whether it returns or unwinds.
pub(crate) unsafe fn drop_runs<T>(runs: [(*mut T, usize); 2]) {
    for (first, len) in runs {
        for i in 0..len {
            // SAFETY: the caller owns the run's `len` initialised items, and
            // `i < len`; each is dropped here once, and none after a panic.
            unsafe { ptr::drop_in_place(first.add(i)) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RingBuffer;
    use crate::wait::barrier;

    /// The `fenced` hook fences both wait slots whatever the system has,
    /// and `try_new` fences exactly where the asymmetric barrier is
    /// missing: an A/B of the two rings compares the two protocols.
    #[test]
    fn the_fenced_hook_fences_and_try_new_fences_only_without_membarrier() {
        let (tx, _rx) = RingBuffer::<u8>::fenced(4).unwrap();
        assert!(tx.ring().waiters.items.is_fenced());
        assert!(tx.ring().waiters.room.is_fenced());
        let (tx, _rx) = RingBuffer::<u8>::try_new(4).unwrap();
        let fenced = !barrier::available();
        assert_eq!(tx.ring().waiters.items.is_fenced(), fenced);
        assert_eq!(tx.ring().waiters.room.is_fenced(), fenced);
    }
}
