//! The writing half of a stamped ring.

use core::fmt;
use core::mem::ManuallyDrop;

use super::RingBuffer;
use super::place::Place;
use crate::PushError;
use crate::sync::{Arc, Ordering};

/// The writing half of a [`stamped::RingBuffer`](RingBuffer).
///
/// `WAITS` says whether the ring was made for blocking calls
/// ([`RingBuffer::with_waits`]): only then does a push check whether a
/// consumer waits (module docs, "Waiting").
///
/// `Send` when `T: Send`, never `Sync`: one thread produces at a time.
pub struct Producer<T, const WAITS: bool = false> {
    /// Released only by `drop`, in one out-of-line call with the ring by
    /// value (`crate::RingBuffer::producer_gone` says why).
    pub(super) ring: ManuallyDrop<Arc<RingBuffer<T>>>,
    /// Where the next item goes.
    pub(super) at: Place,
    /// The index the producer may not reach: a cached copy of the
    /// consumer's `head`, plus the ring's reach. Reloaded only when `at`
    /// reaches it.
    limit: usize,
}

// SAFETY: the producer moves `T`s into slots that the consumer reads only
// after the stamp's Release/Acquire pair; `T: Send` is all that moving the
// producer to another thread needs. (`Place`'s line pointer points into
// the ring, which the `Arc` keeps alive on any thread.)
unsafe impl<T: Send, const WAITS: bool> Send for Producer<T, WAITS> {}

impl<T, const WAITS: bool> Producer<T, WAITS> {
    pub(super) fn new(ring: Arc<RingBuffer<T>>, at: Place, limit: usize) -> Self {
        Producer {
            ring: ManuallyDrop::new(ring),
            at,
            limit,
        }
    }

    /// Appends `value`, or gives it back in [`PushError::Full`] when the
    /// ring is full: never while it holds fewer than `capacity` items
    /// (counting every pop that happened before this call), and at the
    /// latest when it holds `capacity` + a line's items − 1, or under 1/64
    /// of the capacity more in a ring of more than 128 lines (module docs,
    /// "Capacity").
    ///
    /// ```
    /// use hotq_spsc::PushError;
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// // Items of 64 bytes, one to a line: the ring holds exactly 1.
    /// let (mut tx, mut rx) = RingBuffer::new(1);
    /// tx.push([10u64; 8]).unwrap();
    /// assert_eq!(tx.push([20; 8]), Err(PushError::Full([20; 8])));
    /// assert_eq!(rx.pop(), Ok([10; 8]));
    /// tx.push([20; 8]).unwrap();
    /// ```
    #[inline]
    pub fn push(&mut self, value: T) -> Result<(), PushError<T>> {
        if self.at.index == self.limit {
            // Acquire pairs with the consumer's Release store of `head` in
            // `Consumer::publish_head`: its reads of the items below `head`
            // happen before our writes into their slots.
            let head = self.ring.head.load(Ordering::Acquire);
            self.limit = head.wrapping_add(self.ring.reach);
            if self.at.index == self.limit {
                return Err(PushError::Full(value));
            }
        }
        let line = self.at.line;
        let slot = self.at.slot::<T>();
        let claim = self.ring.claim(line, slot);
        // SAFETY: `index < head + reach`, and the lines hold a line more
        // than `reach` items, so the item this slot held before lies below
        // `head`: the consumer has read it (or the slot never held
        // anything), and nobody else touches the slot until the stamp
        // below publishes it.
        unsafe { RingBuffer::<T>::item(line, slot).write(value) };
        claim.end();
        // Release pairs with the consumer's Acquire load of the stamp in
        // `Consumer::pop` and `peek`: our write of the item happens before
        // its read.
        self.ring
            .stamp(line)
            .store(self.at.index.wrapping_add(1), Ordering::Release);
        // A consumer blocked in `pop_timeout` waits on this stamp: a load
        // and a branch when nobody waits (`stamped/blocking.rs`), on rings
        // made for waits only (a constant: the try-only ring has no trace
        // of it; module docs, "Waiting", say what it costs).
        if WAITS {
            self.ring.waiters.items.wake_if_waiting();
        }
        self.at.step(&self.ring);
        Ok(())
    }

    /// How many items could be pushed now (reloads the consumer's `head`):
    /// at least `capacity` minus the items the ring holds, and up to a
    /// line's items − 1 more, or under 1/64 of the capacity more in a
    /// large ring (module docs, "Capacity"). What the consumer
    /// did before popping the items it freed is visible to this thread.
    ///
    /// ```
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// let (mut tx, _rx) = RingBuffer::new(3);
    /// tx.push(1u64).unwrap();
    /// assert!(tx.slots() >= 2);
    /// let (mut tx, _rx) = RingBuffer::new(3);
    /// tx.push([1u64; 8]).unwrap(); // one to a line: exact
    /// assert_eq!(tx.slots(), 2);
    /// ```
    #[must_use]
    pub fn slots(&self) -> usize {
        // Acquire: as in `push`.
        let head = self.ring.head.load(Ordering::Acquire);
        self.ring.reach - self.at.index.wrapping_sub(head)
    }

    /// Whether a push would fail now: [`slots`](Self::slots) is 0.
    ///
    /// ```
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// let (mut tx, _rx) = RingBuffer::new(1);
    /// assert!(!tx.is_full());
    /// while !tx.is_full() {
    ///     tx.push(1u64).unwrap(); // 1 item at least, 7 at most
    /// }
    /// assert!(tx.push(2).is_err());
    /// ```
    #[must_use]
    pub fn is_full(&self) -> bool {
        self.slots() == 0
    }

    /// Whether the consumer has been dropped (nothing pushed from now on
    /// will be read; it is dropped with the ring). Once it says `true`,
    /// what the consumer's thread did before the drop is visible here.
    ///
    /// ```
    /// use hotq_spsc::stamped::RingBuffer;
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

    /// The ring's capacity: the fewest items it takes before a push
    /// fails.
    ///
    /// ```
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// let (tx, _rx) = RingBuffer::<u8>::new(5);
    /// assert_eq!(tx.capacity(), 5);
    /// ```
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.ring.capacity()
    }

    /// The ring this half writes to (equal to the consumer's only if they
    /// share it).
    ///
    /// ```
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// let (tx, rx) = RingBuffer::<u8>::new(1);
    /// let (_, other) = RingBuffer::<u8>::new(1);
    /// assert_eq!(tx.buffer(), rx.buffer());
    /// assert_ne!(tx.buffer(), other.buffer());
    /// ```
    #[must_use]
    pub fn buffer(&self) -> &RingBuffer<T> {
        &self.ring
    }
}

impl<T, const WAITS: bool> Drop for Producer<T, WAITS> {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: `drop` runs once and nothing uses `self.ring` after this
        // take: the ring is released exactly once, here.
        let ring = unsafe { ManuallyDrop::take(&mut self.ring) };
        RingBuffer::producer_gone(ring, self.at.index);
    }
}

impl<T, const WAITS: bool> fmt::Debug for Producer<T, WAITS> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("stamped::Producer")
            .field("capacity", &self.capacity())
            .field("slots", &self.slots())
            .finish()
    }
}
