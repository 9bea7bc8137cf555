//! The count waits as plain poll calls on the halves themselves, for a
//! waiting layer that is not a future: a select that waits on a ring and
//! on channels at once (hotq-mpmc's `Select::recv_spsc`, with its
//! `spsc` feature), or a reactor of your own. They take `&self`: the
//! caller may hold the half shared while it waits, and pop or push once
//! the wait says so (only this half can use what the wait found, so it is
//! still there). The registration lives in the half between polls, as a
//! pending `Stream` poll's does.

use core::task::{Context, Poll};

use super::WaitError;
use super::count_future::{poll_items, poll_slots};
use super::future::retract;
use crate::{Consumer, Producer};

impl<T> Producer<T> {
    /// One poll of [`wait_slots_async(n)`](Self::wait_slots_async):
    /// `Ready` with the free slots (at least `n`), or with the
    /// wait's error; else `Pending`, with `cx`'s waker left in the ring to
    /// be woken when the consumer frees a slot or leaves. The waker stays
    /// there until that wake-up, a later poll,
    /// [`clear_waker`](Self::clear_waker), or the ring's end; a stale one
    /// is woken once, for nothing.
    ///
    /// ```
    /// use std::task::{Context, Poll, Waker};
    /// use hotq_spsc::{RingBuffer, WaitError};
    ///
    /// let mut cx = Context::from_waker(Waker::noop());
    /// let (mut tx, mut rx) = RingBuffer::new(1);
    /// assert_eq!(tx.poll_slots(1, &mut cx), Poll::Ready(Ok(1)));
    /// tx.push(7).unwrap();
    /// assert!(tx.poll_slots(1, &mut cx).is_pending()); // full: registered
    /// assert_eq!(rx.pop(), Ok(7)); // this would wake the waker
    /// assert_eq!(tx.poll_slots(1, &mut cx), Poll::Ready(Ok(1)));
    /// let too_many = WaitError::ExceedsCapacity { requested: 2, capacity: 1 };
    /// assert_eq!(tx.poll_slots(2, &mut cx), Poll::Ready(Err(too_many)));
    /// ```
    pub fn poll_slots(&self, n: usize, cx: &mut Context<'_>) -> Poll<Result<usize, WaitError>> {
        let mut registered = self.poll_registered.get();
        let poll = poll_slots(self, n, cx, &mut registered);
        self.poll_registered.set(registered);
        poll
    }

    /// Withdraws the waker a pending [`poll_slots`](Self::poll_slots) left
    /// in the ring, if it is still there: the consumer's next pops then
    /// wake nothing.
    ///
    /// ```
    /// use std::task::{Context, Waker};
    ///
    /// let (mut tx, _rx) = hotq_spsc::RingBuffer::new(1);
    /// tx.push(1).unwrap();
    /// assert!(tx.poll_slots(1, &mut Context::from_waker(Waker::noop())).is_pending());
    /// tx.clear_waker(); // done waiting: nothing left to wake
    /// tx.clear_waker(); // nothing to withdraw: no effect
    /// ```
    pub fn clear_waker(&self) {
        let mut registered = self.poll_registered.get();
        retract(&self.ring().waiters.room, &mut registered);
        self.poll_registered.set(registered);
    }
}

impl<T> Consumer<T> {
    /// One poll of [`wait_items_async(n)`](Self::wait_items_async):
    /// `Ready` with the ready items (at least `n`), or with the wait's
    /// error; else `Pending`, with `cx`'s waker left in the ring to be
    /// woken when the producer pushes or leaves (as
    /// [`Producer::poll_slots`]; [`clear_waker`](Self::clear_waker)
    /// withdraws it).
    ///
    /// ```
    /// use std::task::{Context, Poll, Waker};
    /// use hotq_spsc::{RingBuffer, WaitError};
    ///
    /// let mut cx = Context::from_waker(Waker::noop());
    /// let (mut tx, mut rx) = RingBuffer::new(2);
    /// assert!(rx.poll_items(1, &mut cx).is_pending()); // empty: registered
    /// tx.push('a').unwrap(); // this would wake the waker
    /// assert_eq!(rx.poll_items(1, &mut cx), Poll::Ready(Ok(1)));
    /// assert_eq!(rx.pop(), Ok('a'));
    /// drop(tx);
    /// assert_eq!(rx.poll_items(1, &mut cx), Poll::Ready(Err(WaitError::Abandoned)));
    /// ```
    pub fn poll_items(&self, n: usize, cx: &mut Context<'_>) -> Poll<Result<usize, WaitError>> {
        let mut registered = self.poll_registered.get();
        let poll = poll_items(self, n, cx, &mut registered);
        self.poll_registered.set(registered);
        poll
    }

    /// Withdraws the waker a pending [`poll_items`](Self::poll_items) (or
    /// a pending `Stream` poll) left in the ring, if it is still there.
    ///
    /// ```
    /// use std::task::{Context, Waker};
    ///
    /// let (_tx, rx) = hotq_spsc::RingBuffer::<u8>::new(1);
    /// assert!(rx.poll_items(1, &mut Context::from_waker(Waker::noop())).is_pending());
    /// rx.clear_waker(); // done waiting: the producer's pushes wake nothing
    /// ```
    pub fn clear_waker(&self) {
        let mut registered = self.poll_registered.get();
        retract(&self.ring().waiters.items, &mut registered);
        self.poll_registered.set(registered);
    }
}
