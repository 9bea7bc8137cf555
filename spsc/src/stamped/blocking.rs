//! The stamped ring's blocking calls (`std`): `push_timeout` /
//! `push_deadline` and `pop_timeout` / `pop_deadline`, which park the
//! calling thread until the other half wakes it or the deadline passes.
//!
//! They run [`crate::RingBuffer`]'s waiting machinery (`wait/`: the spin,
//! the park, the wait slots and their barrier) on what this ring publishes:
//!
//! - The consumer waits for items in `waiters.items`. Its condition is the
//!   stamp of the line its next item goes into; the producer, after its
//!   `Release` store of that stamp in `Producer::push`, loads the slot's
//!   state (`WaitSlot::wake_if_waiting`).
//! - The producer waits for room in `waiters.room`. Its condition is
//!   `head`; the consumer, after its `Release` store of `head` in
//!   `Consumer::publish_head` (when it leaves a line, or every `k`-th line
//!   of a large ring), loads the slot's state. That is enough: a push
//!   fails only while the ring holds its reach past `head`, which is `k`
//!   lines' items − 1 more than the capacity, so every item up to the
//!   consumer's next store of `head` is published, and the consumer gets
//!   there, and stores `head`, without waiting for the producer (module
//!   docs, "Capacity").
//! - Each half's drop stores `abandoned`, then loads the other's slot's
//!   state.
//!
//! The store→load order the protocol relies on, in both directions: the
//! working side stores its stamp or `head` (or `abandoned`), then loads the
//! slot's state after `barrier::light`; the waiter stores `WAITING`, then
//! loads the stamp or `head` (and `abandoned`) after `barrier::heavy`. One
//! of the two loads sees the other's store (`wait/barrier.rs` says why),
//! so a waiter never sleeps through the publish that would have satisfied
//! it. The checks reuse the try path's loads (`Consumer::is_empty`,
//! `Producer::slots`), with their orderings.

use std::time::{Duration, Instant};

use super::future::pop_check;
use super::{Consumer, Producer};
use crate::wait::Check;
use crate::wait::blocking::{Deadline, Phase, Stop, block_until};
use crate::{PopError, PopTimeoutError, PushError, PushTimeoutError};

impl<T> Producer<T, true> {
    /// Appends `value`, waiting up to `timeout` for room; gives the value
    /// back on [`PushTimeoutError::Timeout`], or on
    /// [`PushTimeoutError::Abandoned`] when the ring is full and the
    /// consumer is gone (no room can ever come). A zero timeout is a
    /// [`push`](Self::push). As [`crate::Producer::push_timeout`]: a brief
    /// spin, then the thread parks; it never returns `Timeout` early.
    ///
    /// ```
    /// use std::time::Duration;
    /// use hotq_spsc::PushTimeoutError;
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// let (mut tx, _rx) = RingBuffer::<u64>::with_waits(0); // always full
    /// assert_eq!(tx.push_timeout(1, Duration::from_millis(5)), Err(PushTimeoutError::Timeout(1)));
    ///
    /// let (mut tx, mut rx) = RingBuffer::with_waits(2);
    /// let reader = std::thread::spawn(move || {
    ///     (0..100).map(|_| rx.pop_timeout(Duration::from_secs(10)).unwrap()).sum::<u64>()
    /// });
    /// for i in 0..100 {
    ///     tx.push_timeout(i, Duration::from_secs(10)).unwrap(); // waits while full
    /// }
    /// assert_eq!(reader.join().unwrap(), (0..100).sum());
    /// // Full with the consumer gone: waiting could never succeed.
    /// while tx.push(0).is_ok() {}
    /// assert_eq!(tx.push_timeout(7, Duration::from_secs(10)), Err(PushTimeoutError::Abandoned(7)));
    /// ```
    #[inline]
    pub fn push_timeout(&mut self, value: T, timeout: Duration) -> Result<(), PushTimeoutError<T>> {
        match self.push(value) {
            Ok(()) => Ok(()),
            Err(PushError::Full(value)) => self.push_waiting_for(value, timeout),
        }
    }

    /// As [`push_timeout`](Self::push_timeout), with a deadline: a
    /// deadline already past never waits.
    ///
    /// ```
    /// use std::time::Instant;
    /// use hotq_spsc::PushTimeoutError;
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// let (mut tx, _rx) = RingBuffer::<[u8; 64]>::with_waits(1); // one item to a line: exactly 1
    /// let past = Instant::now();
    /// assert_eq!(tx.push_deadline([1; 64], past), Ok(()));
    /// assert_eq!(tx.push_deadline([2; 64], past), Err(PushTimeoutError::Timeout([2; 64])));
    /// ```
    pub fn push_deadline(
        &mut self,
        value: T,
        deadline: Instant,
    ) -> Result<(), PushTimeoutError<T>> {
        match self.push(value) {
            Ok(()) => Ok(()),
            Err(PushError::Full(value)) => self.push_waiting_until(value, deadline),
        }
    }

    // The try inlined into the caller's loop, the wait out of line, given
    // the timeout or deadline in registers (as `crate::Producer`'s, whose
    // comment says why).

    #[inline(never)]
    fn push_waiting_for(&mut self, value: T, timeout: Duration) -> Result<(), PushTimeoutError<T>> {
        self.push_waiting(value, Deadline::After(timeout))
    }

    #[inline(never)]
    fn push_waiting_until(
        &mut self,
        value: T,
        deadline: Instant,
    ) -> Result<(), PushTimeoutError<T>> {
        self.push_waiting(value, Deadline::At(deadline))
    }

    #[inline(always)]
    fn push_waiting(&mut self, value: T, deadline: Deadline) -> Result<(), PushTimeoutError<T>> {
        match self.block_for_room(deadline) {
            // `push` reloads `head`, no older than the one `slots` saw.
            Ok(()) => match self.push(value) {
                Ok(()) => Ok(()),
                Err(_) => unreachable!("room was seen, and only this producer takes it"),
            },
            Err(Stop::Timeout) => Err(PushTimeoutError::Timeout(value)),
            Err(Stop::Abandoned) => Err(PushTimeoutError::Abandoned(value)),
        }
    }

    /// Waits until a slot is free, the consumer is gone with none free, or
    /// `deadline` passes.
    fn block_for_room(&self, deadline: Deadline) -> Result<(), Stop> {
        // While it spins, the producer waits for half the ring to be free
        // (a hint, as `crate::Producer`'s wait says why: a full ring's
        // consumer is the bottleneck, and retrying at each freed slot puts
        // the producer on the consumer's lines). The parking phase asks
        // for one slot, before it parks.
        let ahead = (self.ring.reach / 2).max(1);
        block_until(&self.ring.waiters.room, self.at.index, deadline, |phase| {
            let wanted = if phase == Phase::Spin { ahead } else { 1 };
            if self.slots() >= wanted {
                return Check::Ready(());
            }
            if !self.is_abandoned() {
                return Check::Wait;
            }
            // Gone: every `head` it stored is visible now (`is_abandoned`).
            if self.slots() >= 1 {
                Check::Ready(())
            } else {
                Check::Abandoned
            }
        })
    }
}

impl<T> Consumer<T, true> {
    /// Removes the oldest item, waiting up to `timeout` for one;
    /// [`PopTimeoutError::Timeout`] when none came, or
    /// [`PopTimeoutError::Abandoned`] when the ring is empty and the
    /// producer is gone (items it pushed before are still returned first).
    /// A zero timeout is a [`pop`](Self::pop). As
    /// [`crate::Consumer::pop_timeout`]: a brief spin, then the thread
    /// parks; it never returns `Timeout` early.
    ///
    /// ```
    /// use std::time::Duration;
    /// use hotq_spsc::PopTimeoutError;
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// let (mut tx, mut rx) = RingBuffer::with_waits(4);
    /// assert_eq!(rx.pop_timeout(Duration::from_millis(5)), Err(PopTimeoutError::Timeout));
    /// let writer = std::thread::spawn(move || {
    ///     for i in 0..3 {
    ///         tx.push_timeout(i, Duration::from_secs(10)).unwrap();
    ///     }
    /// });
    /// for i in 0..3 {
    ///     assert_eq!(rx.pop_timeout(Duration::from_secs(10)), Ok(i));
    /// }
    /// writer.join().unwrap(); // the producer is gone now
    /// assert_eq!(rx.pop_timeout(Duration::from_secs(10)), Err(PopTimeoutError::Abandoned));
    /// ```
    #[inline]
    pub fn pop_timeout(&mut self, timeout: Duration) -> Result<T, PopTimeoutError> {
        match self.pop() {
            Ok(value) => Ok(value),
            Err(PopError::Empty) => self.pop_waiting_for(timeout),
        }
    }

    /// As [`pop_timeout`](Self::pop_timeout), with a deadline: a deadline
    /// already past never waits.
    ///
    /// ```
    /// use std::time::Instant;
    /// use hotq_spsc::PopTimeoutError;
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// let (mut tx, mut rx) = RingBuffer::with_waits(2);
    /// tx.push('a').unwrap();
    /// let past = Instant::now();
    /// assert_eq!(rx.pop_deadline(past), Ok('a'));
    /// assert_eq!(rx.pop_deadline(past), Err(PopTimeoutError::Timeout));
    /// ```
    pub fn pop_deadline(&mut self, deadline: Instant) -> Result<T, PopTimeoutError> {
        match self.pop() {
            Ok(value) => Ok(value),
            Err(PopError::Empty) => self.pop_waiting_until(deadline),
        }
    }

    #[inline(never)]
    fn pop_waiting_for(&mut self, timeout: Duration) -> Result<T, PopTimeoutError> {
        self.pop_waiting(Deadline::After(timeout))
    }

    #[inline(never)]
    fn pop_waiting_until(&mut self, deadline: Instant) -> Result<T, PopTimeoutError> {
        self.pop_waiting(Deadline::At(deadline))
    }

    #[inline(always)]
    fn pop_waiting(&mut self, deadline: Deadline) -> Result<T, PopTimeoutError> {
        match self.block_for_items(deadline) {
            // The stamp that covered the item stays put until the consumer
            // leaves its line, so `pop` sees it again.
            Ok(()) => match self.pop() {
                Ok(value) => Ok(value),
                Err(_) => unreachable!("an item was seen, and only this consumer takes it"),
            },
            Err(Stop::Timeout) => Err(PopTimeoutError::Timeout),
            Err(Stop::Abandoned) => Err(PopTimeoutError::Abandoned),
        }
    }

    /// Waits until an item is published, the producer is gone with none
    /// left, or `deadline` passes.
    fn block_for_items(&self, deadline: Deadline) -> Result<(), Stop> {
        block_until(&self.ring.waiters.items, self.at.index, deadline, |_| {
            pop_check(self)
        })
    }
}
