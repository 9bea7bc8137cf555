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
//! A batch pop is one atomic removal of a prefix: it returns
//! `min(limit, len)` items, the oldest ones. When the scan reaches
//! `limit` (or the capacity) that is plain: the CAS succeeding from `head`
//! means no other consumer moved `head` since it was loaded, so the items
//! claimed were the oldest `limit` published ones at the CAS.
//!
//! The care is in the scan stopping early, at a slot `end` with no item
//! for it. Then, after a `fence(SeqCst)` (as in `pop`'s "empty" check), it
//! loads `tail`. If `tail == end` and the slot is empty for this lap,
//! nothing was claimed past the ready items: at that load the queue held
//! exactly `head..end`, and the batch is linearized there (no consumer
//! moved `head` in between: the CAS checks it). Anything else means a
//! producer claimed `end` (or beyond) and has not published it: its item
//! counts as in the queue once a later push completes, and a batch that
//! stopped before it could then return fewer items than the queue held
//! for the whole call (a single push or a whole batch push can complete
//! behind the stalled one, or the stalled item can be the middle of one
//! batch push whose first items were ready). So the batch waits for that
//! slot, as `pop` waits for a producer between claim and publish, and
//! then scans on from it. It also waits when the slot still holds last
//! lap's item that a consumer has claimed but not freed: that may be a
//! `force_push` that has evicted the oldest item and is about to put its
//! own there, a push the batch must not miss (the case `pop` documents
//! for a capacity-1 queue). A scan that starts with nothing ready is
//! `pop`'s decision exactly: empty only if the slot is empty for this lap
//! and `tail` is at `head` (or, closed, `CLOSE_JUMP` past it).
//!
//! A batch push is one atomic append of a prefix of the items: as many as
//! there is room for (`min(items, capacity - len)`), each visible to
//! consumers as soon as it is published, item by item (a consumer that
//! reaches an unpublished one waits for it, as for any push). Its scan
//! stops early at a slot that still holds last lap's item; then, after a
//! `fence(SeqCst)` (as in `push`'s "full" check), it loads `head`: if no
//! consumer has claimed that item (`head` is exactly a lap behind the
//! slot's position), the queue is full from there on and the batch claims
//! the free slots before it; else a pop is between its claim and its free
//! (perhaps one slot of a batch pop), the room counts as there, and the
//! push waits for it. A scan that starts with nothing free is `push`'s
//! decision exactly: full when `head` is a lap behind, closed when `tail`
//! has the close jump.
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
use core::mem::MaybeUninit;
use core::ptr;

use super::{CLOSE_JUMP, Queue, is_closed_gap, moved_past};
use crate::sync::{Backoff, Ordering, Position, fence};

/// What a batch's scan found: how many slots it can claim and the position
/// after them, or that its copy of `head`/`tail` is stale.
enum Scan {
    /// `count` slots from the start, ending before position `end`.
    Claim { count: usize, end: Position },
    /// Nothing to claim: the queue is empty (pop) or full or closed (push).
    Nothing,
    /// A peer is mid-operation on slot `end` (or the copy of `head`/`tail`
    /// is stale): wait, then look again from `end` with `count` found so
    /// far (0 and a reloaded start when stale).
    Wait { count: usize, end: Position },
}

impl<T> Queue<T> {
    /// Moves up to `limit` items from the front of the queue to the end of
    /// `buf`, oldest first, and returns how many: `min(limit, len)`, 0 when
    /// the queue is empty (or `limit` is 0). Linearizable as one atomic
    /// removal of the oldest items: a return below `limit` means the queue
    /// held exactly that many at some instant of the call. The whole batch
    /// costs one claim (CAS) on `head`, not one per item.
    ///
    /// Like [`pop`](Self::pop), it waits for a producer between its claim
    /// and its publish instead of stopping short of its item (see
    /// `queue/batch.rs`). `buf` grows by the number taken before the claim,
    /// so nothing can fail (or allocate) while slots are held.
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
        // Ready slots from `head` found so far, ending before `end`.
        let (mut count, mut end) = (0, head);
        loop {
            match self.scan_ready(head, count, end, most) {
                Scan::Claim {
                    count: n,
                    end: stop,
                } => {
                    (count, end) = (n, stop);
                }
                Scan::Nothing => return 0,
                Scan::Wait {
                    count: n,
                    end: stop,
                } => {
                    backoff.snooze();
                    if n == 0 {
                        // Stale, or nothing ready at `head`: from the top.
                        head = self.head.load(Ordering::Relaxed);
                        (count, end) = (0, head);
                    } else {
                        (count, end) = (n, stop);
                    }
                    continue;
                }
            }
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
                    (count, end) = (0, head);
                    backoff.spin();
                }
            }
        }
    }

    /// A batch pop's scan from `end` (after `count` ready slots from
    /// `head`), up to `most` in all; see the module docs for the decision
    /// when it stops early.
    fn scan_ready(&self, head: Position, mut count: usize, mut end: Position, most: usize) -> Scan {
        while count < most {
            // Acquire pairs with the Release stamp store that published the
            // item (`push_or_else`, `write_claimed`, `force_push`, or a batch
            // push): its write happens before our read after the claim.
            let stamp = self.slot(end).stamp.load(Ordering::Acquire);
            if stamp == end.wrapping_add(1) {
                count += 1;
                end = self.step(end);
                continue;
            }
            if moved_past(stamp, end.wrapping_add(1)) {
                // Another consumer took `end` since we loaded `head`.
                return Scan::Wait {
                    count: 0,
                    end: head,
                };
            }
            // SeqCst fence: pairs with the producers' SeqCst claims
            // (`push_or_else`, a batch push) and with their "full" fences,
            // as the fence in `pop` does: the `tail` load below sees every
            // claim before this fence in the total order, so "nothing
            // claimed past `end`" (and "empty", with nothing ready) is true
            // at some instant of the call; and it is the fence after a
            // waiting receiver's flag store (`channel/waiters.rs`).
            fence(Ordering::SeqCst);
            if count == 0 {
                // `pop`'s decision, for its reasons (see there).
                return if stamp == end && self.drained_at(end) {
                    Scan::Nothing
                } else {
                    Scan::Wait { count, end }
                };
            }
            // Relaxed: ordered after the claims by the fence above.
            let mut gap = self.tail.load(Ordering::Relaxed).wrapping_sub(end);
            if is_closed_gap(gap) {
                gap = gap.wrapping_sub(CLOSE_JUMP);
            }
            return if stamp == end && gap == 0 {
                Scan::Claim { count, end }
            } else {
                Scan::Wait { count, end }
            };
        }
        Scan::Claim { count, end }
    }

    /// Moves items from the front of `items` to the back of the queue, in
    /// order, as many as there is room for, and returns how many; what did
    /// not fit stays in `items` (in order, at its front). Returns 0 when
    /// the queue is full or `items` is empty. Linearizable as one atomic
    /// append: a return below `items.len()` means the queue had exactly
    /// that much room at some instant of the call. Consumers see the items
    /// one by one as each is published (one waiting for an item of the
    /// batch waits for it, as for a [`push`](Self::push)). The whole batch
    /// costs one claim (CAS) on `tail`, not one per item.
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
        let most = from.remaining().min(self.capacity);
        if most == 0 {
            return 0;
        }
        let Some((tail, count)) = self.claim_free(most) else {
            return 0;
        };
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
        count
    }

    /// A batch push's claim of up to `most` free slots at `tail`: the
    /// first position and how many, or `None` when the queue is full or
    /// closed.
    fn claim_free(&self, most: usize) -> Option<(Position, usize)> {
        let backoff = Backoff::new();
        let mut tail = self.tail.load(Ordering::Relaxed);
        let (mut count, mut end) = (0, tail);
        loop {
            match self.scan_free(tail, count, end, most) {
                Scan::Claim {
                    count: n,
                    end: stop,
                } => (count, end) = (n, stop),
                Scan::Nothing => return None,
                Scan::Wait {
                    count: n,
                    end: stop,
                } => {
                    backoff.snooze();
                    if n == 0 {
                        tail = self.tail.load(Ordering::Relaxed);
                        (count, end) = (0, tail);
                    } else {
                        (count, end) = (n, stop);
                    }
                    continue;
                }
            }
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
                    (count, end) = (0, tail);
                    backoff.spin();
                }
            }
        }
    }

    /// A batch push's scan from `end` (after `count` free slots from
    /// `tail`), up to `most` in all; see the module docs for the decision
    /// when it stops early.
    fn scan_free(&self, tail: Position, mut count: usize, mut end: Position, most: usize) -> Scan {
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
            if moved_past(stamp, end) {
                // Another producer took `end` since we loaded `tail`.
                return Scan::Wait {
                    count: 0,
                    end: tail,
                };
            }
            // SeqCst fence: pairs with the consumers' SeqCst claims (`pop`,
            // a batch pop) and with their "empty" fences, as the fence in
            // `push_or_else` does: the `head` load below sees every claim
            // before this fence in the total order, so "full from `end` on"
            // is true at some instant of the call; and it is the fence
            // after a waiting sender's flag store (`channel/waiters.rs`).
            fence(Ordering::SeqCst);
            // Relaxed: ordered after the claims by the fence above.
            let head = self.head.load(Ordering::Relaxed);
            let gap = end.wrapping_sub(head);
            if count == 0 {
                // `push`'s decision, for its reasons (see there).
                return if gap == self.one_lap || is_closed_gap(gap) {
                    Scan::Nothing
                } else {
                    Scan::Wait { count, end }
                };
            }
            return if gap == self.one_lap {
                Scan::Claim { count, end }
            } else {
                Scan::Wait { count, end }
            };
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
    use alloc::vec::Vec;

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

    /// A batch pop that finds a producer between claim and publish inside
    /// its window waits for it instead of stopping short (the item is in
    /// the queue once the push behind it completes).
    #[test]
    fn a_batch_pop_waits_for_an_unpublished_item_with_claims_behind_it() {
        let q = Queue::new(4);
        q.push(1).unwrap();
        // Claimed, not written: a producer stalled between claim and publish.
        let stalled = q.claim().unwrap();
        q.push(3).unwrap();
        std::thread::scope(|s| {
            let popper = s.spawn(|| {
                let mut buf = Vec::new();
                let n = q.pop_many(&mut buf, 4);
                (n, buf)
            });
            std::thread::sleep(std::time::Duration::from_millis(20));
            assert!(
                !popper.is_finished(),
                "the batch returned short of the stalled item"
            );
            // SAFETY: `stalled` came from `claim` and is written once.
            unsafe { q.write_claimed(stalled, 2) };
            assert_eq!(popper.join().unwrap(), (3, alloc::vec![1, 2, 3]));
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
