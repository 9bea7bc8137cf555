//! The queue: Dmitry Vyukov's bounded MPMC array with per-slot stamps.
//!
//! # Positions, laps and stamps
//!
//! A *position* is a `Position` (a `u64` wherever the target has 64-bit
//! atomics, else a `usize`) that packs `{lap, index}`: the low bits hold
//! the slot index (`0..capacity`), the high bits count laps in steps of
//! `one_lap`, the smallest power of two above `capacity + 2` (room for the
//! stamps of a held slot, below). Stepping a
//! position moves to the next index, or from the last index to index 0 of
//! the next lap; laps wrap around at `Position::MAX + 1` (`wrapping_add`),
//! and every comparison below is an equality, so the wrap itself is
//! harmless. What the wrap can do is an ABA: a thread that read a position
//! and stalls before its CAS for a whole range of positions (2^bits /
//! `one_lap` laps, at least 2^(bits - 1) items) would find the position
//! equal to what it read, in a later lap, and claim a slot it must not
//! (crossbeam shipped this with 32-bit positions). With 64 bits that is
//! 2^63 items, more than any machine moves; with a 32-bit `usize` and no
//! 64-bit atomics it is about 2^31 items, the bound the crate docs state.
//! `paused_producer.rs` recreates the stall (it failed on i686 with
//! 32-bit positions: the stalled push returned `Ok` into a full queue).
//!
//! `tail` is the next position a producer claims, `head` the next one a
//! consumer claims; each on its own cache line. Every slot has a *stamp*
//! that says what the slot is waiting for:
//!
//! | stamp of slot `i` | meaning |
//! |---|---|
//! | `{lap, i}` (= the position) | empty, ready for the producer of position `{lap, i}` |
//! | `{lap, i} + 1` | holds the item of position `{lap, i}`, ready for its consumer |
//! | `{lap, i} + 2` | held: reserved for a value to come (a channel's permit; `queue/reserve.rs`) |
//! | `{lap, i} + 3` | a tombstone: a held slot given up, to be skipped by the next consumer |
//!
//! A producer at position `p` claims the slot by a CAS of `tail` from `p`
//! to the next position, only when the slot's stamp is `p`; it writes the
//! value and publishes it by storing the stamp `p + 1`. A consumer at `p`
//! claims by a CAS of `head` only when the stamp is `p + 1`, reads the
//! value, and frees the slot for the next lap by storing `p + one_lap`.
//! Because `index + 3 <= capacity + 2 < one_lap`, no stamp of a slot
//! carries into the lap bits: slot `i` holds a value exactly when its
//! stamp's low bits are `i + 1`, whatever `head` and `tail` say ([`Drop`]
//! relies on this). Only the channels hold slots (crate-private calls);
//! a consumer meets the last two stamps only in its slow branch, which
//! reads a held slot at `head` as "empty for now" and skips a tombstone.
//!
//! # Closing
//!
//! A channel's `Receiver::close` closes its queue for producers
//! ([`Queue::close`], crate-private): one CAS moves `tail` from `T` to `T +
//! CLOSE_JUMP`, a quarter of the range of positions, a whole number of laps
//! (so the index stays). No stamp is ever near the jumped `tail`, so every
//! later claim fails: a producer's CAS from `T` fails, and a producer that
//! loads the jumped `tail` finds the slot not free for it, falls into its
//! slow branch (`moved_past` says "behind", not "past") and there sees the
//! gap to `head`: a lap is "full", a quarter of the range is "closed".
//! Consumers go on taking the items claimed before `T`, and report empty
//! at `head == T` when `tail` is `T + CLOSE_JUMP`, exactly. Only that slow
//! branch and `pop`'s "empty" check look at it: the fast paths are
//! unchanged. The one other writer of `tail`, a `force_push` that has
//! evicted the oldest item and owns position `T`, moves the jump past its
//! position instead of undoing it. A gap is taken for "closed" from half
//! the jump on, so the bound on a stalled operation above becomes an eighth
//! of the range (2^61 positions with 64-bit positions, 2^29 with 32-bit
//! ones).

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;
use core::mem::{MaybeUninit, size_of};
use core::ops::ControlFlow::{self, Break, Continue};

use crossbeam_utils::CachePadded;

use crate::CapacityError;
use crate::sync::{
    AtomicBool, AtomicPosition, Backoff, Ordering, Position, Seam, UnsafeCell, fence,
    prefetch_read, seam,
};

// A push in two steps, for a channel's permits and a select's send arm
// (channels only: without `std`, unused).
#[cfg_attr(not(feature = "std"), allow(dead_code))]
mod claim;
// Held slots and tombstones: a channel's permits (channels only; without
// `std` no slot is ever held, but `pop`'s slow branch still names the
// check).
#[cfg_attr(not(feature = "std"), allow(dead_code))]
mod reserve;

/// A reserved slot's stamp, as an offset from its position
/// (`queue/reserve.rs`).
const RESERVED: Position = 2;
/// A tombstone's stamp, as an offset from its position.
const TOMBSTONE: Position = 3;

/// Why [`Queue::push_unless`] gave its value back.
#[cfg(feature = "std")]
pub(crate) enum Refused<T> {
    /// The queue is full (or closed): no slot was claimed.
    Full(T),
    /// `refuse()` said no after the claim: the slot at this position is
    /// claimed, as `Queue::claim` leaves it, for the caller to hold and
    /// release (consumers that reach it meanwhile wait, as for a push
    /// between claim and publish).
    Claimed(T, Position),
}

// Batch claims: `pop_many` and `push_many`, one CAS per batch.
mod batch;
#[cfg(feature = "std")]
pub(crate) use batch::FrontDrain;

/// How far ahead of the slot it pops a consumer prefetches, in bytes:
/// hotq-disruptor's distance (`disruptor/src/processor.rs`, measured there).
/// `report --suite mpmc`, 2026-12-05, two runs each, hotq-mpmc ÷
/// `ArrayQueue`: 1P1C 1.02 and 1.06 without, 1.25 and 1.74 with; 2P2C 1.04
/// and 1.11 without, 1.26 and 1.34 with. In the full default runs since,
/// 1.02–1.12 (docs/goals-missed.md, "The goals still missed").
const PREFETCH_BYTES: usize = 2048;

/// The largest ring, in bytes of slots, whose consumers prefetch. Beyond
/// it the prefetch cost more than it gave: with one producer and one
/// consumer in the report's regime loop (`--suite mpmc-regimes`), the
/// contender binary driven by hand, three interleaved passes of 2M `u64`s
/// each (2026-12-06 07:10 UTC, the quiet VM), M items/s with ÷ without:
/// where the producer's work is the bottleneck (16 steps of producer work,
/// 1 of consumer work) 15.6–20.4 ÷ 27.3–28.3 at 16,384 slots (256 KiB)
/// and 65,536 (1 MiB), level at 1,024 and 4,096 (16 and 64 KiB); where
/// the consumer keeps up or falls behind, 54–68 ÷ 45–54 at 1,024, and
/// level or worse beyond 64 KiB (docs/mpmc-regime-grid.md, "The MPMC regime
/// grid").
const PREFETCH_RING_BYTES: usize = 64 * 1024;

/// How far [`Queue::close`] moves `tail` (see the module docs, "Closing"): a
/// quarter of the range of positions, a multiple of every `one_lap` (a
/// slot takes at least the stamp's bytes, so `one_lap` is at most a
/// sixteenth of the range), and within `moved_past`'s "behind" for any
/// stamp of the slot at the closed `tail`.
const CLOSE_JUMP: Position = Position::MAX / 4 + 1;

/// Whether `tail - head` says the queue is closed: at least half the jump
/// and below one and a half (a gap of an open queue is within one lap, or
/// "negative" when the `tail` read is stale, near the top of the range).
#[inline]
fn is_closed_gap(gap: Position) -> bool {
    gap.wrapping_sub(CLOSE_JUMP / 2) < CLOSE_JUMP
}

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
    head: CachePadded<AtomicPosition>,
    /// The next position a producer claims. Moved only by a producer's CAS,
    /// or by the `force_push` that owns the slot it points at.
    tail: CachePadded<AtomicPosition>,
    /// `capacity` slots; see the module docs for what a stamp says.
    slots: Box<[Slot<T>]>,
    /// What the caller asked for: the most items the queue holds at once.
    capacity: usize,
    /// The smallest power of two above `capacity + 2`: a position's low
    /// bits (`one_lap - 1`) are the index, the rest the lap.
    one_lap: Position,
    /// Whether a slot has ever been held (`queue/reserve.rs`): until then
    /// `len` is what `head` and `tail` say; after, it also looks at the
    /// stamps between them, leaving out the held slots and tombstones.
    /// Set once, by the first `reserve`, and only read after that, so it
    /// shares the line of the fields every operation reads: a permit costs
    /// no shared write besides the claim (a counter of held slots cost a
    /// permit two read-modify-writes, and halved the throughput of four
    /// senders reserving on 2 cores: `benches/probes/flow_probe.rs`).
    ever_held: AtomicBool,
}

/// One slot: a value and the stamp that says whose turn it is.
///
/// Packed, as in crossbeam's `ArrayQueue`: a slot is its stamp beside its
/// value and nothing more (16 bytes for a `u64`, four slots to a line,
/// 16 KiB for 1024). A consumer that keeps pace with its producer then
/// shares the line of the slot it frees with the producer filling the next
/// one, and the two stores take that line from each other's cache; but
/// the alternative, a pair of lines per slot, cost more than that in
/// back-to-back report runs (2026-12-03, `--suite mpmc` and `--suite
/// channels`, padded/packed/padded/packed): it moves eight times the
/// memory, so that a consumer that has fallen behind fetches a line per
/// item instead of one per four, and a 65,536-slot ring (8 MiB padded)
/// no longer fits the cache. The async channels lost the most: their
/// tasks fall behind and catch up in bursts.
struct Slot<T> {
    stamp: AtomicPosition,
    value: UnsafeCell<MaybeUninit<T>>,
}

// SAFETY: values are moved in by one producer and out by one consumer, the
// stamp's Release/Acquire pairs ordering the two; no `&T` is ever handed to
// another thread, so sending `T` is all that sharing the queue needs.
unsafe impl<T: Send> Send for Queue<T> {}
// SAFETY: as for `Send`: `&Queue<T>` only moves `T`s between threads.
unsafe impl<T: Send> Sync for Queue<T> {}

// No user code runs between a claim and its publish (nothing there can
// panic), and a panic elsewhere (in `T::drop` while the queue drops its
// items) leaves nothing half-done that a caller could observe, so a caught
// panic never exposes a broken invariant: what `UnwindSafe` promises, as
// for crossbeam's `ArrayQueue`. The bounds on `T` are a `Vec<T>`'s: the
// slots' `UnsafeCell`s, which take the traits away automatically, are not
// what decides.
impl<T: core::panic::UnwindSafe> core::panic::UnwindSafe for Queue<T> {}
impl<T: core::panic::RefUnwindSafe> core::panic::RefUnwindSafe for Queue<T> {}

impl<T> Queue<T> {
    /// Creates a queue holding at most `capacity` items.
    ///
    /// Each slot is the item beside an 8-byte stamp, packed as in
    /// crossbeam's `ArrayQueue`: 16 KiB for 1024 `u64`s.
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
    #[must_use]
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
    /// assert_eq!(Queue::<u32>::try_new(usize::MAX / 4).unwrap_err(), CapacityError::TooLarge);
    /// # Ok::<(), CapacityError>(())
    /// ```
    pub fn try_new(capacity: usize) -> Result<Self, CapacityError> {
        Self::starting_at(capacity, 0)
    }

    /// As [`try_new`](Self::try_new), with `head` and `tail` starting at the
    /// lap of `position` (rounded down to its index 0) instead of 0: lets
    /// tests cross the wrap of positions (at `u64::MAX` wherever the target
    /// has 64-bit atomics; elsewhere `position` is truncated to a `usize`).
    /// Not part of the stable API: only with the `test-hooks` feature.
    #[cfg(any(test, feature = "test-hooks"))]
    #[doc(hidden)]
    pub fn with_initial_position(capacity: usize, position: u64) -> Result<Self, CapacityError> {
        Self::starting_at(capacity, position)
    }

    /// The constructor: `try_new` starts at position 0, the test hook
    /// anywhere.
    fn starting_at(capacity: usize, position: u64) -> Result<Self, CapacityError> {
        if capacity == 0 {
            return Err(CapacityError::Zero);
        }
        // Above `capacity + 2`: the low bits hold `index + 3` for the
        // highest index (a tombstone, see the module docs) without a carry.
        let one_lap = capacity
            .checked_add(3)
            .and_then(usize::checked_next_power_of_two)
            .ok_or(CapacityError::TooLarge)? as Position;
        let bytes = capacity
            .checked_mul(size_of::<Slot<T>>())
            .ok_or(CapacityError::TooLarge)?;
        if bytes > isize::MAX as usize {
            return Err(CapacityError::TooLarge);
        }
        // (Truncated only where positions are `usize`s, as documented.)
        let start = position as Position & !(one_lap - 1);
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(capacity)
            .map_err(|_| CapacityError::TooLarge)?;
        // Slot `i` starts empty, waiting for the producer of position
        // `{start lap, i}`.
        slots.extend((0..capacity).map(|i| Slot {
            stamp: AtomicPosition::new(start | i as Position),
            value: UnsafeCell::new(MaybeUninit::uninit()),
        }));
        Ok(Queue {
            head: CachePadded::new(AtomicPosition::new(start)),
            tail: CachePadded::new(AtomicPosition::new(start)),
            slots: slots.into_boxed_slice(),
            capacity,
            one_lap,
            ever_held: AtomicBool::new(false),
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
        let pushed = self.push_or_else(
            value,
            |value, tail, _, _, stamp| self.full_or_retry(value, tail, stamp),
            |value, _| Continue(value),
        );
        match pushed {
            Continue(()) => Ok(()),
            Break(value) => Err(value),
        }
    }

    /// [`push`](Self::push), but once the slot is claimed and before the
    /// value is written, `refuse()` may still turn the push down: then its
    /// position comes back with the value, claimed as
    /// [`claim`](Self::claim) leaves it, for the caller to
    /// [`hold`](Self::hold) and release, off the hot path. A
    /// channel's send asks its disconnection flag there (`Sender::try_send`):
    /// a claim of room that the last receiver's drain made is ordered after
    /// the flag store.
    #[cfg(feature = "std")]
    #[inline]
    pub(crate) fn push_unless(
        &self,
        value: T,
        refuse: impl Fn() -> bool,
    ) -> Result<(), Refused<T>> {
        let pushed = self.push_or_else(
            value,
            |value, tail, _, _, stamp| match self.full_or_retry(value, tail, stamp) {
                Break(value) => Break(Refused::Full(value)),
                Continue(value) => Continue(value),
            },
            |value, position| {
                if refuse() {
                    Break(Refused::Claimed(value, position))
                } else {
                    Continue(value)
                }
            },
        );
        match pushed {
            Continue(()) => Ok(()),
            Break(refused) => Err(refused),
        }
    }

    /// `push`'s decision when the slot at `tail` is not free for this lap:
    /// `Break` (full, or closed), or `Continue` to look again.
    #[inline]
    fn full_or_retry(&self, value: T, tail: Position, stamp: Position) -> ControlFlow<T, T> {
        // The oldest slot a tombstone (a channel's dropped permit): skip
        // it and look again.
        #[cfg(feature = "std")]
        if self.skip_oldest_tombstone(tail, stamp) {
            return Continue(value);
        }
        #[cfg(not(feature = "std"))]
        let _ = stamp;
        // The slot at `tail` is taken: the queue is full if `head` is a
        // whole lap behind (even if the producer of that slot has not
        // published yet: its push is ordered before ours by its claim),
        // else a consumer is about to free the slot, or `tail` is stale.
        // A closed queue (see the module docs) is reported as full: the
        // channels tell the two apart.
        let head = self.head.load(Ordering::Relaxed);
        let gap = tail.wrapping_sub(head);
        if gap == self.one_lap || is_closed_gap(gap) {
            Break(value)
        } else {
            Continue(value)
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
        match self.force_push_or_closed(value) {
            Ok(evicted) => evicted,
            // Only a channel closes its queue, and it never hands it out.
            Err(_) => unreachable!("a `Queue` is never closed"),
        }
    }

    /// [`force_push`](Self::force_push), or `Err(value)` when the queue is
    /// closed (see the module docs).
    pub(crate) fn force_push_or_closed(&self, value: T) -> Result<Option<T>, T> {
        let pushed = self.push_or_else(
            value,
            |value, tail, new_tail, slot, stamp| {
                if stamp.wrapping_add(self.one_lap) != tail.wrapping_add(1) {
                    // The oldest slot a tombstone: skip it and look again. (A
                    // reserved one is waited for: a permit is no item to evict.)
                    #[cfg(feature = "std")]
                    if self.skip_oldest_tombstone(tail, stamp) {
                        return Continue(value);
                    }
                    // Relaxed: the jumped `tail` was loaded before the fence
                    // `push_or_else` ran, which orders this load after it.
                    if is_closed_gap(tail.wrapping_sub(self.head.load(Ordering::Relaxed))) {
                        return Break(Err(value));
                    }
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
                // item". A close can (see the module docs): then this push
                // still happens (it owns position `tail` since its eviction),
                // and the close point moves past it. SeqCst: this is the
                // producer's claim of position `tail`, and takes part in the
                // total order for the reason given at the claim in
                // `push_or_else`.
                if self
                    .tail
                    .compare_exchange(tail, new_tail, Ordering::SeqCst, Ordering::Relaxed)
                    .is_err()
                {
                    // Relaxed: only consumers read it, for "closed and
                    // drained" once they reach `new_tail`, and they get there
                    // only through the stamp store below (Release), which
                    // orders this store before their `tail` load.
                    self.tail
                        .store(new_tail.wrapping_add(CLOSE_JUMP), Ordering::Relaxed);
                }
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
                Break(Ok(old))
            },
            |value, _| Continue(value),
        );
        match pushed {
            Continue(()) => Ok(None),
            Break(Ok(old)) => Ok(Some(old)),
            Break(Err(value)) => Err(value),
        }
    }

    /// Closes the queue for producers (a channel's `Receiver::close`): from
    /// the CAS on, every push fails (`push` reports the queue full), and
    /// `pop` takes what was claimed before and then reports empty. See
    /// the module docs, "Closing". Closing twice changes nothing.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn close(&self) {
        let mut tail = self.tail.load(Ordering::Relaxed);
        loop {
            if is_closed_gap(tail.wrapping_sub(self.head.load(Ordering::Relaxed))) {
                return;
            }
            // Relaxed: the close is ordered against each claim by `tail`'s
            // modification order alone (a claim's CAS reads the latest
            // `tail`); the channel publishes it to the consumers with the
            // Release store of its `disconnected` flag (see
            // `channel/close.rs`).
            match self.tail.compare_exchange_weak(
                tail,
                tail.wrapping_add(CLOSE_JUMP),
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return,
                Err(now) => tail = now,
            }
        }
    }

    /// `pop`'s "empty" check, after its fence, for a slot empty for this
    /// lap at `head`: whether `tail` is at `head` too, or (a closed queue,
    /// see the module docs) exactly `CLOSE_JUMP` past it. Cold and apart:
    /// inlined, the check cost `try_recv` an instruction per item on its
    /// fast path (callgrind, `benches/probes/hot_path`).
    #[cold]
    fn drained_at(&self, head: Position) -> bool {
        let gap = self.tail.load(Ordering::Relaxed).wrapping_sub(head);
        gap == 0 || gap == CLOSE_JUMP
    }

    /// Whether [`close`](Self::close) has run (as far as this thread has
    /// seen its CAS).
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn is_closed(&self) -> bool {
        // Relaxed: a snapshot. Only a jumped `tail` makes a "closed" gap:
        // an open queue's two reads are within a lap of each other, give
        // or take what moves between them (see the bound in the module
        // docs).
        let tail = self.tail.load(Ordering::Relaxed);
        is_closed_gap(tail.wrapping_sub(self.head.load(Ordering::Relaxed)))
    }

    /// Claims the slot at `tail`, writes `value` and publishes it. When the
    /// slot is not free for this lap, `when_blocked(value, tail, new_tail,
    /// slot, stamp)` decides: `Break` ends the push with its result,
    /// `Continue` hands the value back to retry (after backing off). Once
    /// the slot is claimed, `when_claimed(value, tail)` may still end the
    /// push (`Break`) before the value is written; the slot is then the
    /// caller's to settle (`push_unless`).
    #[inline]
    fn push_or_else<B>(
        &self,
        mut value: T,
        when_blocked: impl Fn(T, Position, Position, &Slot<T>, Position) -> ControlFlow<B, T>,
        when_claimed: impl Fn(T, Position) -> ControlFlow<B, T>,
    ) -> ControlFlow<B> {
        let backoff = Backoff::new();
        let mut tail = self.tail.load(Ordering::Relaxed);
        loop {
            let slot = self.slot(tail);
            let new_tail = self.step(tail);
            // Acquire pairs with the Release stamp store in `pop` (or
            // `force_push`) that freed the slot: the last lap's read of the
            // value happens before our write.
            let stamp = slot.stamp.load(Ordering::Acquire);
            if stamp == tail {
                seam(Seam::BeforeClaim);
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
                        let value = when_claimed(value, tail)?;
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
                if !moved_past(stamp, tail) {
                    // The slot is not free for this lap: last lap's item
                    // is still in it (published, or claimed by a consumer
                    // that has not freed the slot), or last lap's producer
                    // is between claim and publish. SeqCst fence: pairs
                    // with the consumers' SeqCst claims in `pop` (see
                    // there) and with the fence in `pop`'s own check: this
                    // thread's `head` load below sees every claim that
                    // precedes the fence in the total order, so "full" is
                    // reported only if no pop had claimed an item by then.
                    // Loom does model fences:
                    // `crosswise_pushes_do_not_both_see_full` fails
                    // without it.
                    fence(Ordering::SeqCst);
                    value = when_blocked(value, tail, new_tail, slot, stamp)?;
                }
                // Else another producer has claimed position `tail` since
                // we loaded it (and published it; a consumer may even have
                // freed the slot since): our `tail` is stale, as after a
                // lost CAS, and there is nothing to decide, so neither the
                // fence nor a look at `head`, the line the consumers are
                // working on. Either way someone is mid-operation here, or
                // was, and may be preempted: let it run, then look again.
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
    #[must_use = "a popped item is gone from the queue: dropping it loses it"]
    #[inline]
    pub fn pop(&self) -> Option<T> {
        let backoff = Backoff::new();
        let mut head = self.head.load(Ordering::Relaxed);
        loop {
            let slot = self.slot(head);
            // (Stepped before the stamp load, as in `push_or_else`, so
            // that it reuses the slot's index instead of redoing it after
            // the Acquire.)
            let new_head = self.step(head);
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
                    new_head,
                    Ordering::SeqCst,
                    Ordering::Relaxed,
                ) {
                    Ok(_) => {
                        self.prefetch_ahead(head);
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
                // A held slot at `head` (a channel's permit,
                // `queue/reserve.rs`): no item for now. (A tombstone is
                // the channel's to skip: the skip frees a slot, which it
                // tells a blocked sender.)
                let held = stamp.wrapping_sub(head);
                if held == RESERVED || held == TOMBSTONE {
                    if self.still_held(slot, stamp) {
                        return None; // no item for now
                    }
                    // Filled or given up meanwhile: look again, below.
                    // (Through the one back edge of the slow branch: a
                    // second one cost the fast path 2 instructions of loop
                    // alignment and a jump, callgrind.)
                } else if !moved_past(stamp, head.wrapping_add(1)) {
                    // The slot holds no item for this lap: it is empty, its
                    // producer is between claim and publish, or last lap's
                    // item is still in it (its consumer, or a `force_push`
                    // evicting it, is mid-operation). SeqCst fence: pairs
                    // with the producers' SeqCst claims in `push_or_else`
                    // (see there for the interleaving) and with the fence
                    // in its "full" check: the `tail` load below sees
                    // every claim that precedes this fence in the total
                    // order. Loom does model fences:
                    // `crosswise_pops_do_not_both_see_empty` fails without
                    // it.
                    fence(Ordering::SeqCst);
                    // Empty only if the slot is empty for this lap too.
                    // With `tail == head` but last lap's item still in the
                    // slot, the queue may be a capacity-1 queue in the
                    // middle of a `force_push`: its eviction has moved
                    // `head` onto `tail`, but the new item is about to take
                    // the old one's place, so the queue was never empty.
                    // Wait for the slot instead.
                    if stamp == head && self.drained_at(head) {
                        return None;
                    }
                }
                // Else another consumer has taken position `head` since we
                // loaded it (the slot is empty for a later lap, or holds a
                // later lap's item): our `head` is stale, as after a lost
                // CAS, and there is nothing to decide: no fence, no look at
                // `tail`. Either way someone is mid-operation here, or was,
                // and may be preempted: let it run, then look again.
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
    #[must_use]
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
    #[must_use]
    pub fn len(&self) -> usize {
        let (head, tail) = self.ends();
        let n = self.distance(head, tail);
        // Held slots (a channel's permits) are no items. Relaxed: a hint
        // set before the first held slot's stamp store; a permit taken or
        // given back during the call may be counted or not (the result
        // stays within `0..=n`).
        if self.ever_held.load(Ordering::Relaxed) {
            n - self.held_among(head, n, usize::MAX)
        } else {
            n
        }
    }

    /// `len` counting held slots: what `head` and `tail` say.
    fn raw_len(&self) -> usize {
        let (head, tail) = self.ends();
        self.distance(head, tail)
    }

    /// How many of the `n` slots from `head` on are held or tombstones,
    /// looking no further than the first `stop_after` slots that are
    /// neither. O(n): only a channel that has used permits comes here.
    fn held_among(&self, head: Position, n: usize, stop_after: usize) -> usize {
        let (mut position, mut held, mut items) = (head, 0, 0);
        for _ in 0..n {
            // Relaxed: a count at one look, as `len` promises; no value is
            // read through it.
            let stamp = self.slot(position).stamp.load(Ordering::Relaxed);
            let d = stamp.wrapping_sub(position);
            if d == RESERVED || d == TOMBSTONE {
                held += 1;
            } else {
                items += 1;
                if items == stop_after {
                    break;
                }
            }
            position = self.step(position);
        }
        held
    }

    /// `head` and `tail` at one instant during the call, `tail` less the
    /// jump of a closed queue.
    fn ends(&self) -> (Position, Position) {
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
                // A closed queue's `tail` is jumped (see the module docs).
                let tail = if is_closed_gap(tail.wrapping_sub(head)) {
                    tail.wrapping_sub(CLOSE_JUMP)
                } else {
                    tail
                };
                return (head, tail);
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
    #[must_use]
    pub fn is_empty(&self) -> bool {
        let (head, tail) = self.ends();
        let n = self.distance(head, tail);
        // As in `len`, looking no further than the first item.
        n == 0 || (self.ever_held.load(Ordering::Relaxed) && self.held_among(head, n, 1) == n)
    }

    /// Whether the queue is full, at one instant during the call.
    ///
    /// ```
    /// let q = hotq_mpmc::Queue::new(1);
    /// assert!(!q.is_full());
    /// q.push(1).unwrap();
    /// assert!(q.is_full());
    /// ```
    #[must_use]
    pub fn is_full(&self) -> bool {
        // Held slots count: a full queue refuses a push.
        self.raw_len() == self.capacity
    }

    /// Whether the slot `ahead` positions past `tail` is free for its
    /// producer: a hint for a producer waiting on a full queue (the
    /// channel's spin phase, `Sender::send_waiting`), never a decision, as
    /// `tail` may move before the caller acts on it. `ahead` is below
    /// `capacity`.
    ///
    /// Why not [`len`](Self::len): a consumer keeping a full queue busy owns
    /// `head` and the slot it pops, and a producer polling them (as a failed
    /// push does: the slot at `tail` is the one at `head`, and the "full"
    /// check loads `head`) takes both lines from it on every poll. The slot
    /// `ahead` is one the consumer has finished with by the time its stamp
    /// says "free", so polling it costs the consumer nothing.
    pub(crate) fn has_room_ahead(&self, ahead: usize) -> bool {
        let (position, index) = self.ahead_of(self.tail.load(Ordering::Relaxed), ahead);
        // Relaxed: nothing is read on the strength of it (the push that
        // follows loads the stamp again, with Acquire).
        self.slots[index].stamp.load(Ordering::Relaxed) == position
    }

    /// Whether the item `ahead` positions past `head` is published: a
    /// hint for a batch consumer waiting on an empty queue (the channel's
    /// spin phase, `Receiver::recv_many`), never a decision, as `head` may
    /// move before the caller acts on it. `ahead` is below `capacity`.
    ///
    /// The mirror of [`has_room_ahead`](Self::has_room_ahead): a consumer
    /// that retries as soon as one item is there polls the slot the
    /// producers are writing and the `tail` they claim (an empty pop's
    /// check loads it), taking both lines from them on every poll; the
    /// slot `ahead` is one no producer has reached yet while its stamp
    /// says "not published", and one they have left once it says so.
    pub(crate) fn has_items_ahead(&self, ahead: usize) -> bool {
        let (position, index) = self.ahead_of(self.head.load(Ordering::Relaxed), ahead);
        // Relaxed: nothing is read on the strength of it (the pop that
        // follows loads the stamp again, with Acquire).
        self.slots[index].stamp.load(Ordering::Relaxed) == position.wrapping_add(1)
    }

    /// The position `ahead` places past `from`, and its slot's index.
    fn ahead_of(&self, from: Position, ahead: usize) -> (Position, usize) {
        debug_assert!(ahead < self.capacity);
        let index = self.index(from) + ahead;
        if index < self.capacity {
            (from.wrapping_add(ahead as Position), index)
        } else {
            let index = index - self.capacity;
            (self.next_lap(from).wrapping_add(index as Position), index)
        }
    }

    /// The position after `position`: the next index, or index 0 of the
    /// next lap.
    #[inline]
    fn step(&self, position: Position) -> Position {
        if self.index(position) + 1 < self.capacity {
            position.wrapping_add(1)
        } else {
            self.next_lap(position)
        }
    }

    /// Index 0 of the lap after `position`'s. Cold, since it is taken
    /// once a lap: the compiler then branches around it instead of
    /// computing both outcomes of `step` and selecting one (9 of 71
    /// instructions of an uncontended push + pop, callgrind).
    #[cold]
    fn next_lap(&self, position: Position) -> Position {
        (position & !(self.one_lap - 1)).wrapping_add(self.one_lap)
    }

    /// Test only: moves an idle queue `laps` laps on at once, as if
    /// `laps * capacity` pushes and pops had run (positions and stamps wrap
    /// as they would). A thread paused in an operation keeps the positions
    /// it has read, as it would across that many real operations.
    #[cfg(test)]
    pub(crate) fn skip_laps(&self, laps: Position) {
        let by = laps.wrapping_mul(self.one_lap);
        let positions = [&*self.head, &*self.tail].into_iter();
        for atomic in positions.chain(self.slots.iter().map(|slot| &slot.stamp)) {
            let moved = atomic.load(Ordering::Relaxed).wrapping_add(by);
            atomic.store(moved, Ordering::Relaxed);
        }
    }

    /// The slot index of `position`: its low bits, below `capacity`, so
    /// it fits a `usize` whatever the width of positions.
    #[inline]
    fn index(&self, position: Position) -> usize {
        (position & (self.one_lap - 1)) as usize
    }

    /// After a pop of `head`: prefetches the slot [`PREFETCH_BYTES`] on, which
    /// a producer's core most likely wrote a while ago when the queue runs
    /// full. A hint: it may also fetch a slot still empty (a queue holding
    /// fewer items), which costs the producer that writes it one line; in
    /// a ring of more than [`PREFETCH_RING_BYTES`] that cost more than the
    /// prefetch gave, and it is left out.
    #[inline(always)]
    fn prefetch_ahead(&self, head: Position) {
        let size = size_of::<Slot<T>>().max(1);
        let ahead = (PREFETCH_BYTES / size).max(1);
        if ahead < self.capacity && self.capacity <= PREFETCH_RING_BYTES / size {
            let mut index = self.index(head) + ahead;
            if index >= self.capacity {
                index -= self.capacity;
            }
            // An address only: `index < capacity == slots.len()`.
            prefetch_read(self.slots.as_ptr().wrapping_add(index));
        }
    }

    /// The slot of `position`, a position that `head` or `tail` held.
    ///
    /// Unchecked: the bounds check costs 2 of the 64 instructions an
    /// uncontended push + pop takes with it (callgrind,
    /// `benches/probes/hot_path`), and the index is below `capacity` by
    /// construction (debug builds check it).
    #[inline]
    fn slot(&self, position: Position) -> &Slot<T> {
        let index = self.index(position);
        debug_assert!(index < self.slots.len());
        // SAFETY: `index < capacity == slots.len()`. Every position `head`
        // and `tail` hold starts at index 0 (`starting_at` rounds the start
        // down to its lap) and moves only by `step`, which goes to index + 1
        // only while that is below `capacity`, else to index 0; `force_push`
        // derives `head`'s positions from `tail`'s by whole laps, which keeps
        // the index (as does the test-only `skip_laps`). Stamps are never
        // used as positions here.
        unsafe { self.slots.get_unchecked(index) }
    }

    /// Items between positions `head` and `tail`, `tail` at most one lap
    /// ahead.
    fn distance(&self, head: Position, tail: Position) -> usize {
        let (h, t) = (self.index(head), self.index(tail));
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

/// Whether a slot's `stamp` is past `position`, the stamp it has when
/// whoever loaded the position from `tail` (a producer: `position` is
/// `tail`, free for its lap) or `head` (a consumer: `head + 1`, this lap's
/// item) could use the slot: then another thread has taken that position
/// since, and the copy of `tail` or `head` is stale. Stamps and positions
/// are compared by their wrapping difference, which the crate's bound on a
/// stalled operation keeps below half the range; a stamp behind `position`
/// (the slot still on last lap) is not past it.
#[inline]
fn moved_past(stamp: Position, position: Position) -> bool {
    let ahead = stamp.wrapping_sub(position);
    ahead != 0 && ahead <= Position::MAX / 2
}

impl<T> Drop for Queue<T> {
    fn drop(&mut self) {
        if !core::mem::needs_drop::<T>() {
            return;
        }
        for (i, slot) in self.slots.iter().enumerate() {
            // `&mut self`: every operation has finished, and whatever
            // synchronised the hand-over of the queue to this thread makes
            // the final stamps visible.
            if self.index(slot.stamp.load(Ordering::Relaxed)) == i + 1 {
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

#[cfg(all(test, not(loom)))]
mod tests {
    use super::{Queue, Slot, moved_past};
    use crate::sync::{AtomicPosition, Position};
    use core::mem::size_of;

    #[test]
    fn a_slot_is_its_stamp_beside_its_value_as_queue_new_documents() {
        // No padding beyond what the stamp's alignment asks for.
        let stamp = size_of::<AtomicPosition>();
        assert_eq!(size_of::<Slot<u64>>(), stamp + 8);
        assert_eq!(size_of::<Slot<[u8; 120]>>(), stamp + 120);
        assert_eq!(size_of::<Slot<u8>>(), 2 * stamp);
        assert_eq!(size_of::<Slot<()>>(), stamp);
    }

    #[test]
    fn has_room_ahead_says_whether_the_slot_ahead_of_tail_is_free_across_laps() {
        let q = Queue::new(4);
        assert!((0..4).all(|ahead| q.has_room_ahead(ahead)), "empty");
        (0..4).for_each(|i| q.push(i).unwrap());
        assert!((0..4).all(|ahead| !q.has_room_ahead(ahead)), "full");
        assert_eq!(q.pop(), Some(0));
        // `tail` is at index 0 of lap 1, and only slot 0 is free for it.
        assert!(q.has_room_ahead(0));
        assert!(!q.has_room_ahead(1));
        // Drained and three more in: `tail` at index 3 of lap 1, items
        // 4, 5, 6 in slots 0..3. Ahead 0 is slot 3 (freed by the pop of
        // 3); ahead 1 and 2 cross into lap 2 at slots 0 and 1.
        (1..4).for_each(|i| assert_eq!(q.pop(), Some(i)));
        (4..7).for_each(|i| q.push(i).unwrap());
        assert_eq!(q.len(), 3);
        assert!(q.has_room_ahead(0));
        assert!(!q.has_room_ahead(1), "slot 0, lap 2: still holds 4");
        assert_eq!(q.pop(), Some(4));
        assert!(q.has_room_ahead(1), "slot 0, lap 2: freed by the pop of 4");
        assert!(!q.has_room_ahead(2), "slot 1, lap 2: still holds 5");
    }

    #[test]
    fn has_items_ahead_says_whether_the_item_ahead_of_head_is_published_across_laps() {
        let q = Queue::new(4);
        assert!((0..4).all(|ahead| !q.has_items_ahead(ahead)), "empty");
        (0..3).for_each(|i| q.push(i).unwrap());
        assert!((0..3).all(|ahead| q.has_items_ahead(ahead)));
        assert!(!q.has_items_ahead(3), "slot 3: nothing pushed there yet");
        q.push(3).unwrap();
        assert!((0..4).all(|ahead| q.has_items_ahead(ahead)), "full");
        // `head` at index 2 of lap 0: ahead 2 and 3 cross into lap 1 at
        // slots 0 and 1, whose items (0 and 1) are taken but not replaced.
        assert_eq!((q.pop(), q.pop()), (Some(0), Some(1)));
        assert!(q.has_items_ahead(0) && q.has_items_ahead(1));
        assert!(
            !q.has_items_ahead(2),
            "slot 0, lap 1: last lap's item taken"
        );
        q.push(4).unwrap();
        assert!(q.has_items_ahead(2), "slot 0, lap 1: holds 4");
        assert!(!q.has_items_ahead(3), "slot 1, lap 1: empty");
        // A claimed slot whose item is not written yet (a held permit)
        // is not an item.
        let held = q.reserve().expect("room for one");
        assert!(!q.has_items_ahead(3), "slot 1, lap 1: reserved, unwritten");
        // SAFETY: reserved just above, neither filled nor released.
        unsafe { q.fill(held, 5) };
        assert!(q.has_items_ahead(3), "slot 1, lap 1: holds 5");
    }

    #[test]
    fn moved_past_tells_a_stale_position_from_a_slot_still_on_last_lap() {
        // Capacity 3: one lap is 4 positions, index 0..3 of each.
        let lap: Position = 4;
        for start in [0, 1000 * lap, Position::MAX - lap + 1] {
            let tail = start.wrapping_add(2);
            // A producer at `tail`: the slot is free (not past), or holds
            // last lap's item or is still being written last lap (behind,
            // not past), or another producer took `tail` (past: this
            // lap's item, then freed for the next lap).
            assert!(!moved_past(tail, tail), "free");
            assert!(
                !moved_past(tail.wrapping_sub(lap) + 1, tail),
                "last lap's item"
            );
            assert!(
                !moved_past(tail.wrapping_sub(lap), tail),
                "last lap mid-write"
            );
            assert!(moved_past(tail.wrapping_add(1), tail), "this lap's item");
            assert!(
                moved_past(tail.wrapping_add(lap), tail),
                "freed for next lap"
            );
            // A consumer at `head` compares against `head + 1`: empty for
            // this lap or last lap's item is not past; taken by another
            // consumer (freed for the next lap, or its item already) is.
            let head = tail;
            let ready = head.wrapping_add(1);
            assert!(!moved_past(head, ready), "empty this lap");
            assert!(
                !moved_past(head.wrapping_sub(lap) + 1, ready),
                "last lap's item"
            );
            assert!(moved_past(head.wrapping_add(lap), ready), "taken, freed");
            assert!(
                moved_past(head.wrapping_add(lap) + 1, ready),
                "taken, next item in"
            );
        }
    }

    /// A close anywhere in the range of positions, the wrap included:
    /// pushes fail from then on, pops take what was in and then report
    /// empty, `len` counts the items left, and a second close changes
    /// nothing; a `force_push` gives its value back.
    #[test]
    fn a_closed_queue_refuses_pushes_and_drains_what_it_held() {
        for start in [0, 1 << 40, u64::MAX - 3, u64::MAX - 1] {
            for (capacity, held) in [(3, 0), (3, 2), (3, 3), (1, 1), (4, 1)] {
                let q = Queue::with_initial_position(capacity, start).unwrap();
                // Cross into the start position's lap, and maybe the wrap.
                for i in 0..(start % 4) as usize {
                    q.push(i).unwrap();
                    assert_eq!(q.pop(), Some(i));
                }
                (0..held).for_each(|i| q.push(10 + i).unwrap());
                assert!(!q.is_closed());
                q.close();
                assert!(q.is_closed());
                q.close();
                assert_eq!(q.len(), held, "start {start}, capacity {capacity}");
                assert_eq!(q.push(99), Err(99));
                assert_eq!(q.force_push_or_closed(98), Err(98));
                for i in 0..held {
                    assert_eq!(q.pop(), Some(10 + i));
                    assert_eq!(q.len(), held - i - 1);
                }
                assert_eq!(q.pop(), None);
                assert_eq!(q.push(97), Err(97));
                assert!(q.is_empty() && q.is_closed());
            }
        }
    }

    /// A claim (a channel's reserve) on a closed queue finds no slot,
    /// drained or not: the close moved `tail` past every stamp, and a
    /// claim that looked only for a full lap spun there forever (a
    /// reserve racing `Receiver::close`, or any on a rendezvous channel).
    #[test]
    fn a_claim_on_a_closed_queue_finds_no_slot_instead_of_spinning() {
        let limit = std::time::Duration::from_secs(60);
        hotq_testkit::within("a claim on a closed queue", limit, || {
            for held in [0, 1, 3] {
                let q = Queue::new(3);
                (0..held).for_each(|i| q.push(i).unwrap());
                q.close();
                assert_eq!(q.reserve(), None, "{held} held");
                (0..held).for_each(|i| assert_eq!(q.pop(), Some(i)));
                assert_eq!(q.reserve(), None, "drained");
            }
        });
    }
}
