//! Batch claims: [`Queue::pop_many`] takes up to `limit` items with one
//! CAS of `head`, and [`Queue::push_many`] appends up to all of a `Vec`'s
//! items with one CAS of `tail` (see the module docs of `queue.rs` for
//! positions, stamps and closing).
//!
//! # The claim
//!
//! A consumer at `head` loads the stamps of up to `limit` consecutive
//! slots from `head` (stepping across the lap boundary as `pop` does),
//! stopping at the first one that holds no item for its position; the
//! ready ones, `head..end`, it claims with one CAS of `head` from `head` to
//! `end`, then reads each and frees each slot with its own Release stamp
//! store, as `pop` does for one. A producer does the mirror: free slots
//! `tail..end`, one CAS of `tail`, then writes and publishes each.
//!
//! # Linearizability, and where a batch stops short
//!
//! A batch pop is one atomic removal of a prefix of the queue, at its CAS:
//! the CAS succeeding from `head` means no other consumer (nor a
//! `force_push`'s eviction) moved `head` since it was loaded, and every
//! slot it claims held the published item of its position, so the items
//! taken are the oldest `count` of the queue at that instant. It returns
//! at least one item unless the queue was empty at some instant of the
//! call (that decision is `pop`'s, after the same `fence(SeqCst)`), and at
//! most `limit`; but it may return fewer than were there: it stops at the
//! first slot whose item is not published yet (its producer is between
//! claim and publish, perhaps in the middle of a batch push) or whose
//! last-lap item is not freed yet, and takes the ready ones before it
//! rather than wait. Taking exactly `min(limit, len)` cannot be had with
//! one CAS: `len` depends on `tail`, which producers move meanwhile, so a
//! batch that decided "nothing claimed past the ready ones" from a load of
//! `tail` can be overtaken by a push that completes (and a later push that
//! then finds the queue full) before its CAS (the linearizability checker
//! found such a history when the first version of this file tried). The
//! checker's model for a batch pop is therefore "a prefix of 1 to
//! `min(limit, len)` items, or none only when empty" (`PopUpTo` in
//! `hotq-testkit`'s `fifo.rs`), as tokio's `recv_many` promises.
//!
//! A partially published batch push: a batch pop takes its published
//! items up to the first unpublished one, and a later pop (batch or not)
//! takes the rest in order, as the batch push publishes them; a single
//! `pop` waits at the unpublished one, as for any push.
//!
//! A batch push is, mirror-wise, one atomic append of a prefix of the
//! items at its CAS: every slot it claims was free for its position (its
//! last-lap item taken and freed), so there was room for all of them; it
//! appends at least one unless the queue was full at some instant of the
//! call (`push`'s decision, after its `fence(SeqCst)`), and stops at the
//! first slot not free yet (last lap's item still there, or claimed by a
//! consumer that has not freed it yet). Its items become visible one by
//! one, as each is published.
//!
//! `close` moves `tail` by `CLOSE_JUMP`: a batch push that loaded `tail`
//! before it fails its CAS and finds the jumped `tail` (nothing free
//! there: the close is reported as full, and `is_closed` tells them
//! apart); one whose CAS came first has claimed all of its items before
//! the close point, and consumers drain them. `force_push` moves `head`
//! only by a CAS from the position a lap behind `tail`, and a batch pop's
//! CAS from the same `head` excludes it; it claims `tail` only after
//! finding last lap's item there, a slot a batch push's scan stops at.
//!
//! # No user code between claim and publish
//!
//! Items come from and go to a `Vec` whose room is reserved before the
//! claim (pop) or whose items are in hand (push): nothing between a claim
//! and the last stamp store can panic or block, as for `push` and `pop`
//! (what the queue's `UnwindSafe` relies on).
//!
//! The orderings are `push`'s and `pop`'s, for their reasons; each is
//! argued again at its site.

use alloc::vec::Vec;
use core::mem::{MaybeUninit, size_of};
use core::ptr;

use super::{Queue, RESERVED, Slot, TOMBSTONE, is_closed_gap, moved_past};
use crate::sync::{Backoff, Ordering, Position, fence, prefetch_read};

/// How far ahead of the slot it loads a batch pop's scan prefetches, in
/// bytes: sixteen lines. The scan loads one stamp per slot, and each line
/// was last written on a producer's core; without the prefetch those loads
/// missed one line at a time, and the scan's stamp load took 77 % of a
/// batch consumer's samples (`perf record`, blocking `send_many` +
/// `recv_many` of 256, capacity 1024, 1P1C). Measured against no prefetch,
/// the whole run at once and this distance: docs/goals-missed.md, "A batch
/// pop's lines, on their way ahead of its scan".
const SCAN_PREFETCH_BYTES: usize = 1024;

/// The stride of the scan's prefetches: a line of x86-64.
const LINE_BYTES: usize = 64;

/// How many slots of `T` take `bytes`, at least one.
const fn slots_in<T>(bytes: usize) -> usize {
    let slots = bytes / size_of::<Slot<T>>(); // at least the stamp's bytes
    if slots == 0 { 1 } else { slots }
}

/// The slots a batch push claimed and then refused
/// ([`Queue::push_front_of_unless`]): `count` of them from `first`,
/// claimed (their stamps say "being written") and nothing written.
#[must_use = "claimed slots must be given back (`Queue::hold_each`)"]
#[cfg_attr(not(feature = "std"), allow(dead_code))] // never refused without channels
pub(crate) struct ClaimedRun {
    first: Position,
    count: usize,
}

/// What a batch's scan found.
enum Scan {
    /// `count` (at least one) slots from the start, ending before
    /// position `end`.
    Claim { count: usize, end: Position },
    /// Nothing to claim: the queue is empty (pop) or full or closed (push).
    Nothing,
    /// Nothing to claim yet: a peer is mid-operation on the first slot, or
    /// the copy of `head`/`tail` is stale. Reload it and look again.
    Retry,
}

impl<T> Queue<T> {
    /// Moves up to `limit` items from the front of the queue to the end of
    /// `buf`, oldest first, and returns how many; the whole batch costs one
    /// claim (CAS) on `head`, not one per item. Linearizable as one atomic
    /// removal of the oldest items: 0 only when the queue was empty at some
    /// instant of the call (or `limit` is 0); otherwise at least one and
    /// at most `limit`. With no producer mid-push it takes `min(limit,
    /// len)`; it stops short of that at the first item whose producer has
    /// claimed its slot and not yet written it (a single [`pop`](Self::pop)
    /// would wait there), taking the items before it, so a call never
    /// waits behind a stalled producer once it has something to return.
    /// Call again for the rest. (See `queue/batch.rs` for why exactly
    /// `min(limit, len)` cannot be had with one claim.)
    ///
    /// `buf` grows before the claim, so nothing can fail (or allocate)
    /// while slots are held.
    ///
    /// Polling it: a batch takes all there is at one claim, so a consumer
    /// that calls it again at once catches up with its producers, and on
    /// a nearly empty queue each try reads the slot a producer is writing
    /// and `tail`, which slows every push. Two threads, capacity 1024, one
    /// spin hint between tries: 8–17 M items/s against `pop`'s 34–74; 128
    /// hints between tries: 58–62 (docs/goals-missed.md, "A batch receive
    /// that keeps pace"). Wait between empty or short tries, as the
    /// channel's `recv_many` does (it waits for a whole batch).
    ///
    /// ```
    /// let q = hotq_mpmc::Queue::new(8);
    /// let mut buf = Vec::new();
    /// assert_eq!(q.pop_many(&mut buf, 4), 0); // empty: nothing taken
    /// (1..=5).for_each(|i| q.push(i).unwrap());
    /// assert_eq!(q.pop_many(&mut buf, 3), 3);
    /// assert_eq!(q.pop_many(&mut buf, 0), 0);
    /// assert_eq!(q.pop_many(&mut buf, 10), 2); // fewer than asked: all there was
    /// assert_eq!(buf, [1, 2, 3, 4, 5]);
    /// assert!(q.is_empty());
    /// ```
    pub fn pop_many(&self, buf: &mut Vec<T>, limit: usize) -> usize {
        let most = limit.min(self.capacity);
        if most == 0 {
            return 0;
        }
        let backoff = Backoff::new();
        let mut head = self.head.load(Ordering::Relaxed);
        loop {
            let (count, end) = match self.scan_ready(head, most) {
                Scan::Claim { count, end } => (count, end),
                Scan::Nothing => return 0,
                Scan::Retry => {
                    backoff.snooze();
                    head = self.head.load(Ordering::Relaxed);
                    continue;
                }
            };
            // Room before the claim: `push` below then never reallocates.
            buf.reserve(count);
            // SeqCst: a consumer's claim, in the one total order with the
            // producers' fences and the waiters' flag loads, for the reason
            // given at the claim in `pop` (a pop ordered before a push by
            // the caller's own SeqCst flag must not leave that push "full").
            match self
                .head
                .compare_exchange_weak(head, end, Ordering::SeqCst, Ordering::Relaxed)
            {
                Ok(_) => {
                    let mut position = head;
                    for _ in 0..count {
                        let slot = self.slot(position);
                        // SAFETY: the scan saw the stamp of the item of
                        // `position` (its Acquire load made the value
                        // visible), and the CAS made `head..end` ours;
                        // reading moves the item out, and the stamp store
                        // below marks the slot empty.
                        let value = slot.value.with_mut(|p| unsafe { p.read().assume_init() });
                        buf.push(value);
                        // Release pairs with the Acquire stamp load of the
                        // next lap's producer (`push_or_else`, `claim`, or a
                        // batch push's scan): our read happens before its
                        // write into this slot.
                        slot.stamp
                            .store(position.wrapping_add(self.one_lap), Ordering::Release);
                        position = self.step(position);
                    }
                    return count;
                }
                Err(current) => {
                    head = current;
                    backoff.spin();
                }
            }
        }
    }

    /// Slots a batch pop's scan prefetches ahead of the one it loads.
    const SCAN_AHEAD: usize = slots_in::<T>(SCAN_PREFETCH_BYTES);
    /// Slots to a line: the step between two of the scan's prefetches.
    const SLOTS_PER_LINE: usize = slots_in::<T>(LINE_BYTES);

    /// A batch pop's scan of up to `most` slots from `head`: the ready
    /// prefix, or (none ready) `pop`'s decision.
    ///
    /// Once a line's worth of slots is ready, it prefetches the slots
    /// [`SCAN_PREFETCH_BYTES`] ahead of the one it loads, up to the `most`th:
    /// a batch that long is likely to go on. A scan that finds fewer
    /// prefetches nothing, since the line after its last ready slot is the
    /// one a producer is writing, which a prefetch would take from it
    /// (prefetching from the first ready slot on cost batches of 16 half
    /// their speed). Nor does the scan load `tail` to stop its prefetches
    /// at the producers' claims: that load takes `tail`'s line from the
    /// producers on every call, which cost single-item senders 5–8 % and a
    /// consumer polling a nearly empty queue a quarter, more than it gave.
    fn scan_ready(&self, head: Position, most: usize) -> Scan {
        let (mut count, mut end) = (0, head);
        while count < most {
            // Acquire pairs with the Release stamp store that published the
            // item (`push_or_else`, `Queue::fill`, `force_push`, or a batch
            // push): its write happens before our read after the claim.
            let stamp = self.slot(end).stamp.load(Ordering::Acquire);
            if stamp == end.wrapping_add(1) {
                count += 1;
                end = self.step(end);
                if count % Self::SLOTS_PER_LINE == 0 {
                    self.prefetch_scan(end, count, most);
                }
                continue;
            }
            if count > 0 {
                // The ready prefix (see the module docs).
                break;
            }
            let held = stamp.wrapping_sub(end);
            if held == RESERVED || held == TOMBSTONE {
                // A held slot (a channel's permit) or a tombstone at
                // `head`: `pop`'s decision (see there): no item for now,
                // unless it was filled or given up meanwhile. (A tombstone
                // is the channel's to skip, as after a `pop`.)
                if self.still_held(self.slot(end), stamp) {
                    return Scan::Nothing;
                }
                return Scan::Retry;
            }
            if !moved_past(stamp, end.wrapping_add(1)) {
                // SeqCst fence: `pop`'s, for its reasons (see there): pairs
                // with the producers' SeqCst claims (`push_or_else`, a batch
                // push) and with their "full" fences, so the `tail` load in
                // `drained_at` sees every claim before this fence in the
                // total order and "empty" is true at some instant of the
                // call; and it is the fence after a waiting receiver's flag
                // store (`channel/waiters.rs`).
                fence(Ordering::SeqCst);
                if stamp == end && self.drained_at(end) {
                    return Scan::Nothing;
                }
            }
            // Else another consumer took `head` since we loaded it, or a
            // producer is between claim and publish at `head`: look again.
            return Scan::Retry;
        }
        Scan::Claim { count, end }
    }

    /// A batch pop's scan has found `count` slots ready, a whole number of
    /// lines, and loads the slot at `end` next: after the first line, the
    /// lines up to [`SCAN_AHEAD`](Self::SCAN_AHEAD) slots on; after each
    /// further one, the line that far on; none past the `most`th slot.
    #[inline]
    fn prefetch_scan(&self, end: Position, count: usize, most: usize) {
        if count == Self::SLOTS_PER_LINE {
            let mut ahead = Self::SLOTS_PER_LINE;
            while ahead <= Self::SCAN_AHEAD && count + ahead < most {
                self.prefetch_slot(end, ahead);
                ahead += Self::SLOTS_PER_LINE;
            }
        } else if count + Self::SCAN_AHEAD < most {
            self.prefetch_slot(end, Self::SCAN_AHEAD);
        }
    }

    /// Prefetches the slot `ahead` positions past `position` (`ahead` below
    /// `capacity`), for a read.
    #[inline]
    fn prefetch_slot(&self, position: Position, ahead: usize) {
        let mut index = self.index(position) + ahead;
        if index >= self.capacity {
            index -= self.capacity;
        }
        // An address only: `index < capacity == slots.len()`.
        prefetch_read(self.slots.as_ptr().wrapping_add(index));
    }

    /// Moves items from the front of `items` to the back of the queue, in
    /// order, and returns how many; what did not go stays in `items` (in
    /// order, at its front). The whole batch costs one claim (CAS) on
    /// `tail`, not one per item. Linearizable as one atomic append of a
    /// prefix of `items`: 0 only when the queue was full at some instant of
    /// the call (or `items` is empty); otherwise at least one and at most
    /// the room there was. With no consumer mid-pop it moves as many as
    /// there is room for; it stops short of that at the first slot whose
    /// item a consumer has claimed and not yet finished taking. Consumers
    /// see the items one by one, as each is published (a `pop` that
    /// reaches one not yet published waits for it, as for a
    /// [`push`](Self::push)).
    ///
    /// ```
    /// let q = hotq_mpmc::Queue::new(4);
    /// let mut items = vec!['a', 'b', 'c'];
    /// assert_eq!(q.push_many(&mut items), 3);
    /// assert!(items.is_empty());
    /// let mut more = vec!['d', 'e', 'f'];
    /// assert_eq!(q.push_many(&mut more), 1); // room for one
    /// assert_eq!(more, ['e', 'f']);
    /// assert_eq!(q.push_many(&mut more), 0); // full: nothing moved
    /// assert_eq!(more, ['e', 'f']);
    /// let mut out = Vec::new();
    /// q.pop_many(&mut out, 4);
    /// assert_eq!(out, ['a', 'b', 'c', 'd']);
    /// ```
    pub fn push_many(&self, items: &mut Vec<T>) -> usize {
        self.push_front_of(&mut FrontDrain::new(items))
    }

    /// [`push_many`](Self::push_many) from what `from` has left.
    pub(crate) fn push_front_of(&self, from: &mut FrontDrain<'_, T>) -> usize {
        match self.push_front_of_unless(from, || false) {
            Ok(count) => count,
            Err(_) => unreachable!("never refused"),
        }
    }

    /// [`push_front_of`](Self::push_front_of), but once the slots are
    /// claimed and before anything is taken from `from`, `refuse()` may
    /// still turn the batch down: then the claimed slots come back, for
    /// the caller to give back with [`hold_each`](Self::hold_each) (a
    /// channel's batch send asks its disconnection flag there, as
    /// `Queue::push_unless` does for one item).
    pub(crate) fn push_front_of_unless(
        &self,
        from: &mut FrontDrain<'_, T>,
        refuse: impl Fn() -> bool,
    ) -> Result<usize, ClaimedRun> {
        let most = from.remaining().min(self.capacity);
        if most == 0 {
            return Ok(0);
        }
        let Some((tail, count)) = self.claim_free(most) else {
            return Ok(0);
        };
        if refuse() {
            return Err(ClaimedRun { first: tail, count });
        }
        let mut position = tail;
        for _ in 0..count {
            // SAFETY: `count <= most <= from.remaining()`, one taken per
            // turn.
            let value = unsafe { from.take_unchecked() };
            let slot = self.slot(position);
            // SAFETY: the scan saw the slot empty for this lap and the CAS
            // made `tail..end` ours: no one else touches the slot until
            // the stamp store below publishes it.
            slot.value
                .with_mut(|p| unsafe { p.write(MaybeUninit::new(value)) });
            // Release pairs with the Acquire stamp load of the consumer
            // (`pop`, or a batch pop's scan): the value is written before
            // it is read.
            slot.stamp
                .store(position.wrapping_add(1), Ordering::Release);
            position = self.step(position);
        }
        Ok(count)
    }

    /// Gives back the slots of a refused batch: holds each, as
    /// `Queue::reserve` leaves a slot (so consumers that reach one read
    /// "empty for now" instead of waiting), then hands each position to
    /// `release`, oldest first (the channel's `Shared::release`, which
    /// leaves a tombstone and skips it when it is the oldest).
    #[cfg(feature = "std")]
    pub(crate) fn hold_each(&self, run: ClaimedRun, mut release: impl FnMut(Position)) {
        let mut position = run.first;
        for _ in 0..run.count {
            self.hold(position);
            position = self.step(position);
        }
        let mut position = run.first;
        for _ in 0..run.count {
            release(position);
            position = self.step(position);
        }
    }

    /// A batch push's claim of up to `most` free slots at `tail`: the
    /// first position and how many, or `None` when the queue is full or
    /// closed.
    fn claim_free(&self, most: usize) -> Option<(Position, usize)> {
        let backoff = Backoff::new();
        let mut tail = self.tail.load(Ordering::Relaxed);
        loop {
            let (count, end) = match self.scan_free(tail, most) {
                Scan::Claim { count, end } => (count, end),
                Scan::Nothing => return None,
                Scan::Retry => {
                    backoff.snooze();
                    tail = self.tail.load(Ordering::Relaxed);
                    continue;
                }
            };
            // SeqCst: a producer's claim, in the one total order with the
            // consumers' fences and the waiters' flag loads, for the reason
            // given at the claim in `push_or_else`.
            match self
                .tail
                .compare_exchange_weak(tail, end, Ordering::SeqCst, Ordering::Relaxed)
            {
                Ok(_) => return Some((tail, count)),
                Err(current) => {
                    tail = current;
                    backoff.spin();
                }
            }
        }
    }

    /// A batch push's scan of up to `most` slots from `tail`: the free
    /// prefix, or (none free) `push`'s decision.
    fn scan_free(&self, tail: Position, most: usize) -> Scan {
        let (mut count, mut end) = (0, tail);
        while count < most {
            // Acquire pairs with the Release stamp store that freed the slot
            // (`pop`, `force_push`, or a batch pop): last lap's read of the
            // value happens before our write after the claim.
            let stamp = self.slot(end).stamp.load(Ordering::Acquire);
            if stamp == end {
                count += 1;
                end = self.step(end);
                continue;
            }
            if count > 0 {
                // The free prefix (see the module docs).
                break;
            }
            // The oldest slot a tombstone (a channel's dropped permit):
            // skip it and look again, as `push` does.
            if self.skip_oldest_tombstone(end, stamp) {
                return Scan::Retry;
            }
            if !moved_past(stamp, end) {
                // SeqCst fence: `push_or_else`'s, for its reasons (see
                // there): pairs with the consumers' SeqCst claims (`pop`, a
                // batch pop) and with their "empty" fences, so the `head`
                // load below sees every claim before this fence in the
                // total order and "full" is true at some instant of the
                // call; and it is the fence after a waiting sender's flag
                // store (`channel/waiters.rs`).
                fence(Ordering::SeqCst);
                // Relaxed: ordered after the claims by the fence above.
                let gap = tail.wrapping_sub(self.head.load(Ordering::Relaxed));
                // `push`'s decision: full, or closed (see the module docs
                // of `queue.rs`).
                if gap == self.one_lap || is_closed_gap(gap) {
                    return Scan::Nothing;
                }
            }
            // Else another producer took `tail` since we loaded it, or a
            // consumer is about to free the slot: look again.
            return Scan::Retry;
        }
        Scan::Claim { count, end }
    }
}

/// A `Vec` whose items are moved out from the front, a batch at a time,
/// without shifting the rest after each batch: the rest moves to the front
/// once, when this is dropped (a panic included), and the `Vec` then holds
/// exactly what was not taken. Meanwhile the `Vec`'s length is 0, so a
/// leaked `FrontDrain` leaks the items rather than dropping any twice.
pub(crate) struct FrontDrain<'a, T> {
    items: &'a mut Vec<T>,
    /// Items taken from the front so far.
    taken: usize,
    /// The `Vec`'s length when this started.
    len: usize,
}

impl<'a, T> FrontDrain<'a, T> {
    pub(crate) fn new(items: &'a mut Vec<T>) -> Self {
        let len = items.len();
        // SAFETY: 0 is within the capacity, and the items `0..len` stay
        // initialised in the buffer: this owns them until `drop`.
        unsafe { items.set_len(0) };
        FrontDrain {
            items,
            taken: 0,
            len,
        }
    }

    /// Items not taken yet.
    pub(crate) fn remaining(&self) -> usize {
        self.len - self.taken
    }

    /// Moves the next item out.
    ///
    /// # Safety
    ///
    /// `remaining() > 0`.
    pub(crate) unsafe fn take_unchecked(&mut self) -> T {
        debug_assert!(self.taken < self.len);
        // SAFETY: `taken < len` (the caller's promise): the item at `taken`
        // is initialised and not yet moved out; `taken` moves past it, so
        // it is read once.
        let value = unsafe { self.items.as_ptr().add(self.taken).read() };
        self.taken += 1;
        value
    }
}

impl<T> Drop for FrontDrain<'_, T> {
    fn drop(&mut self) {
        let rest = self.remaining();
        let base = self.items.as_mut_ptr();
        // SAFETY: `taken..len` are the initialised items not moved out,
        // within the buffer; `copy` handles the overlap; afterwards the
        // first `rest` slots hold them and `set_len` gives them back.
        unsafe {
            ptr::copy(base.add(self.taken), base, rest);
            self.items.set_len(rest);
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::FrontDrain;
    use crate::Queue;
    use crate::sync::{Ordering, Position};
    use alloc::vec::Vec;
    use core::mem::MaybeUninit;

    /// The rest of a push that `Queue::claim` began: writes `value` and
    /// publishes it, as a producer stalled between claim and publish
    /// finally does (a raw claim, not a channel's reservation).
    ///
    /// # Safety
    ///
    /// `position` came from `claim` on `q` and is written once.
    unsafe fn publish_claimed<T>(q: &Queue<T>, position: Position, value: T) {
        let slot = q.slot(position);
        // SAFETY: the caller's claim made the slot ours, unpublished.
        slot.value
            .with_mut(|p| unsafe { p.write(MaybeUninit::new(value)) });
        // Release pairs with the consumers' Acquire stamp loads.
        slot.stamp
            .store(position.wrapping_add(1), Ordering::Release);
    }

    #[test]
    fn front_drain_leaves_exactly_what_was_not_taken() {
        let mut items: Vec<_> = (0..5).map(|i| alloc::format!("{i}")).collect();
        {
            let mut drain = FrontDrain::new(&mut items);
            // SAFETY: 5 remain.
            let first = unsafe { drain.take_unchecked() };
            assert_eq!(first, "0");
            assert_eq!(drain.remaining(), 4);
        }
        assert_eq!(items, ["1", "2", "3", "4"]);
    }

    /// A batch pop that finds a producer between claim and publish takes
    /// the published items before it and stops there; the rest come once
    /// published, in order.
    #[test]
    fn a_batch_pop_stops_at_an_unpublished_item_and_never_takes_it() {
        let q = Queue::new(4);
        q.push(1).unwrap();
        // Claimed, not written: a producer stalled between claim and publish.
        let stalled = q.claim().unwrap();
        q.push(3).unwrap();
        let mut buf = Vec::new();
        assert_eq!(q.pop_many(&mut buf, 4), 1);
        assert_eq!(buf, [1]);
        // SAFETY: `stalled` came from `claim` and is written once.
        unsafe { publish_claimed(&q, stalled, 2) };
        assert_eq!(q.pop_many(&mut buf, 4), 2);
        assert_eq!(buf, [1, 2, 3]);
    }

    /// A batch pop that finds nothing ready at `head` because a producer
    /// is between claim and publish there, with a later push complete,
    /// waits (as `pop` does): "empty" would be false for the whole call.
    #[test]
    fn a_batch_pop_waits_when_the_first_item_is_claimed_and_a_later_one_is_in() {
        let q = Queue::new(4);
        let stalled = q.claim().unwrap();
        q.push(2).unwrap();
        std::thread::scope(|s| {
            let popper = s.spawn(|| {
                let mut buf = Vec::new();
                (q.pop_many(&mut buf, 4), buf)
            });
            // Long enough for a batch that reports "empty" to have done so
            // (one scan and a fence); the join below bounds the rest.
            std::thread::sleep(std::time::Duration::from_millis(50));
            assert!(
                !popper.is_finished(),
                "returned while an item was in: {:?}",
                popper.join()
            );
            // SAFETY: `stalled` came from `claim` and is written once.
            unsafe { publish_claimed(&q, stalled, 1) };
            assert_eq!(popper.join().unwrap(), (2, alloc::vec![1, 2]));
        });
    }

    /// With nothing claimed past the ready items, a batch takes them.
    #[test]
    fn a_batch_pop_takes_the_ready_prefix_when_nothing_is_claimed_past_it() {
        let q = Queue::new(4);
        q.push(1).unwrap();
        q.push(2).unwrap();
        let mut buf = Vec::new();
        assert_eq!(q.pop_many(&mut buf, 4), 2);
        assert_eq!(buf, [1, 2]);
    }
}
