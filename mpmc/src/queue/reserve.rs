//! Held slots: a slot claimed for a value that comes later (a channel's
//! `Permit`, a select's send arm), and the tombstone a held slot becomes
//! when its holder gives it up unwritten.
//!
//! # Stamps
//!
//! Besides the module docs' two stamps of slot `i` (`{lap, i}`: empty for
//! its producer; `+ 1`: holds the item), a held slot has two more, which
//! is why `one_lap` is the smallest power of two above `capacity + 2`:
//!
//! | stamp | meaning |
//! |---|---|
//! | `{lap, i} + RESERVED` (2) | claimed by [`Queue::reserve`], its value not given yet |
//! | `{lap, i} + TOMBSTONE` (3) | given up by [`Queue::release`]: to be skipped |
//!
//! Neither low-bit pattern is `i + 1`, so `Drop` sees no value in either.
//!
//! # Who does what
//!
//! - [`reserve`](Queue::reserve): `claim` (the claim of `push`), then the
//!   `RESERVED` stamp. Until that store the slot reads as a push between
//!   claim and publish (consumers wait for a moment); after it, a consumer
//!   at `head` reads "empty for now" (`pop` returns `None`) instead of
//!   waiting for a holder that may keep the slot across an `.await`.
//! - [`fill`](Queue::fill): writes the value and publishes it, exactly as
//!   the rest of a push does.
//! - [`release`](Queue::release): stores the `TOMBSTONE` stamp, then, if
//!   `head` is at the slot, skips it itself (below), so that the capacity
//!   comes back at once when the slot is the oldest. Otherwise the
//!   consumers skip it when they get there (`pop` returns `None` at it,
//!   and the channel calls [`Queue::skip_tombstone_at_head`]), and so does
//!   a producer that finds it as the oldest slot of a full queue.
//! - A *skip*: a CAS of `head` from the tombstone's position to the next
//!   (the claim of a pop); whoever wins it, and only that thread, frees the
//!   slot for the next lap (stamp `position + one_lap`), as a pop does.
//!
//! The tombstone and the freed stamp after it are Relaxed: they hand no
//! value over. What must still be ordered is last lap's read of the slot
//! before the next lap's write into it, and `tail` orders it: the holder
//! acquired that read (its claim's Acquire stamp load) before its claim's
//! CAS of `tail`, and the next lap's producer claims by a CAS of `tail`
//! that reads from that CAS's release sequence (every write of `tail` is
//! a CAS, but for the one of a closed queue, after which no claim
//! succeeds). A pop-freed slot has no such link (its last reader took no
//! part in `tail`), which is why a pop's freeing store is a Release.
//!
//! # The store→load pair of a release
//!
//! A release stores the tombstone, runs a `fence(SeqCst)`, then loads
//! `head`; a consumer that read `RESERVED` at `head` runs a `fence(SeqCst)`
//! and loads the stamp again (in `pop`'s slow branch). In the total order
//! of the two fences, either the consumer's comes second and it sees the
//! tombstone (and skips it), or the release's comes second and its `head`
//! load sees the consumer's `head` (and it skips the slot itself). So a
//! tombstone is never left at `head` by both (a consumer that saw it as
//! reserved, parked, and a release that thought consumers would come).
//! The channel's wake-up of such parked consumers uses the same fences
//! (`channel/reserve.rs`).

use super::{Queue, RESERVED, Slot, TOMBSTONE};
use crate::sync::{Ordering, Position, fence};
use core::mem::MaybeUninit;

impl<T> Queue<T> {
    /// Claims the slot at `tail` and marks it reserved; `None` when the
    /// queue is full (or closed). The caller must [`fill`](Self::fill) or
    /// [`release`](Self::release) the position exactly once.
    pub(crate) fn reserve(&self) -> Option<Position> {
        let position = self.claim()?;
        self.hold(position);
        Some(position)
    }

    /// Marks the claimed slot of `position` reserved (`reserve`, and a
    /// push refused after its claim, `push_unless`).
    pub(crate) fn hold(&self, position: Position) {
        // Before the slot reads as reserved: from now on `len` looks at
        // the stamps. Loaded first so that, once set, the line this flag
        // shares with the fields every operation reads stays shared.
        if !self.ever_held.load(Ordering::Relaxed) {
            self.ever_held.store(true, Ordering::Relaxed);
        }
        // Relaxed: no data goes with it (the slot has no value yet). A
        // consumer that reads it only returns "empty for now", which the
        // previous stamp (`position`, claimed) would make it wait for
        // anyway; it is overwritten only by this thread's `fill` or
        // `release`, sequenced after it.
        self.slot(position)
            .stamp
            .store(position.wrapping_add(RESERVED), Ordering::Relaxed);
    }

    /// Writes `value` into the reserved slot of `position` and publishes it.
    ///
    /// # Safety
    ///
    /// `position` came from [`reserve`](Self::reserve) on this queue and
    /// was neither filled nor released yet.
    pub(crate) unsafe fn fill(&self, position: Position, value: T) {
        let slot = self.slot(position);
        // SAFETY: the caller's reservation made position `position` ours
        // and nothing has been written: no one else touches the value
        // until the stamp store below (consumers that see `RESERVED` do
        // not read it).
        slot.value
            .with_mut(|p| unsafe { p.write(MaybeUninit::new(value)) });
        // Release pairs with the Acquire stamp load in `pop`: the value is
        // written before it is read.
        slot.stamp
            .store(position.wrapping_add(1), Ordering::Release);
    }

    /// Gives up the reserved slot of `position` unwritten: marks it a
    /// tombstone and skips it if it is the oldest. Returns whether this
    /// call did the skip (then the caller wakes a blocked producer: there
    /// is room). Ends with a `fence(SeqCst)` after the tombstone store
    /// (see the module docs), so a waiter-flag load right after it is
    /// ordered after the store.
    ///
    /// # Safety
    ///
    /// As for [`fill`](Self::fill).
    pub(crate) unsafe fn release(&self, position: Position) -> bool {
        let slot = self.slot(position);
        // Relaxed: a tombstone hands no data over. The one access it must
        // order, last lap's read of the value, before the next lap's write,
        // is ordered by `tail`: this thread acquired that read (its claim's
        // Acquire stamp load) before its claim's CAS on `tail` (SeqCst, so
        // a release), and the next lap's producer claims with a CAS on
        // `tail` (an acquire) that reads from a later link of that CAS's
        // release sequence (every write of `tail` is a CAS, but for a
        // closed queue's, after which nobody claims). See the module docs.
        slot.stamp
            .store(position.wrapping_add(TOMBSTONE), Ordering::Relaxed);
        // SeqCst fence: pairs with the fence of `pop`'s held-slot branch
        // (see the module docs): either that consumer's stamp load sees
        // the tombstone, or the `head` load below sees its position.
        fence(Ordering::SeqCst);
        self.head.load(Ordering::Relaxed) == position && self.skip(position)
    }

    /// Skips the tombstone at `position`, if `head` is still there: the
    /// claim of a pop, and the freeing of the slot for the next lap by the
    /// one thread whose claim succeeded. Returns whether that was this
    /// thread.
    pub(super) fn skip(&self, position: Position) -> bool {
        // SeqCst: a consumer's claim, in the total order with the
        // producers' "full" fences and the waiters' flag loads, for the
        // reason given at the claim in `pop`: a sender that then sees no
        // waiter flag must see the room.
        if self
            .head
            .compare_exchange(
                position,
                self.step(position),
                Ordering::SeqCst,
                Ordering::Relaxed,
            )
            .is_err()
        {
            return false;
        }
        // Relaxed: the next lap's producer needs only the value; its write
        // is ordered after last lap's read through `tail` (see `release`).
        self.slot(position)
            .stamp
            .store(position.wrapping_add(self.one_lap), Ordering::Relaxed);
        true
    }

    /// `pop`'s slow branch found `slot` (at `head`) held, with `stamp`:
    /// whether it still is after a `fence(SeqCst)` (then `pop` returns
    /// `None`). Inlined, not called: a call in `pop`'s loop made its fast
    /// path keep the backoff on the stack (2 instructions per pop,
    /// callgrind, `benches/probes/hot_path`).
    #[inline(always)]
    pub(super) fn still_held(&self, slot: &Slot<T>, stamp: Position) -> bool {
        // SeqCst fence: pairs with the fence of a tombstone's `release`
        // and with the one `Shared::fill` (a permit's send) runs between
        // its publishing store and its load of the receivers' waiter flag
        // (where that is a compiler fence, the receiver's registration
        // runs `membarrier` before this re-try: `channel/fill_barrier.rs`):
        // either the stamp load below sees their store, or their loads
        // after their fence see this thread's `head` and waiter flag (see
        // the module docs).
        fence(Ordering::SeqCst);
        // Relaxed: it only decides "still held"; when the slot was filled
        // meanwhile, `pop` loads the stamp again (Acquire) before it reads
        // the value.
        slot.stamp.load(Ordering::Relaxed) == stamp
    }

    /// After a `pop` that returned `None`: skips the tombstone at `head`,
    /// if there is one. `None`: there is none; `Some(won)`: there was,
    /// skipped by this thread (`won`, then the caller wakes a blocked
    /// producer: the slot is free) or by another; either way the caller
    /// pops again.
    pub(crate) fn skip_tombstone_at_head(&self) -> Option<bool> {
        let head = self.head.load(Ordering::Relaxed);
        // Relaxed: a tombstone hands no data over (see `release`). The
        // caller's `pop` ran its held-slot fence after it loaded this
        // `head`, so a tombstone it saw there is seen here.
        let stamp = self.slot(head).stamp.load(Ordering::Relaxed);
        (stamp == head.wrapping_add(TOMBSTONE)).then(|| self.skip(head))
    }

    /// A producer's full check found the slot at `tail` not free: if it is
    /// last lap's tombstone and `head` is there, skips it (the slot is then
    /// free for `tail`). Returns whether it was such a tombstone (skipped by
    /// this thread or another): the producer looks again.
    pub(super) fn skip_oldest_tombstone(&self, tail: Position, stamp: Position) -> bool {
        let oldest = tail.wrapping_sub(self.one_lap);
        if stamp != oldest.wrapping_add(TOMBSTONE) {
            return false;
        }
        self.skip(oldest);
        true
    }

    /// Whether the queue holds nothing, not even a held slot (as far as
    /// one look at `head` and `tail` tells): a consumer that found no item
    /// tells a drained closed queue from one whose next slot is held.
    pub(crate) fn is_drained(&self) -> bool {
        // Relaxed: the caller's failed pop ran a `fence(SeqCst)` before it
        // decided, which orders these loads after everything it saw.
        let gap = self
            .tail
            .load(Ordering::Relaxed)
            .wrapping_sub(self.head.load(Ordering::Relaxed));
        gap == 0 || gap == super::CLOSE_JUMP
    }
}
