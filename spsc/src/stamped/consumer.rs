//! The reading half of a stamped ring.

use core::fmt;
use core::mem::ManuallyDrop;

use super::RingBuffer;
use super::place::{Place, covers};
use crate::sync::{Arc, Ordering};
use crate::{PeekError, PopError};

// No prefetch: `pop` prefetched the line 32 ahead when it entered a line
// until 2026-12-07. Over the 96 cells of the regime grid at capacities 1024
// and 65536 (contender binaries, five interleaved passes, two orders) that
// prefetch made the ring faster by more than 5 % in fewer cells than it
// made it slower, and cost 20 % where the consumer's own work is the
// bottleneck in a ring larger than the caches' share of it: the cells where
// the ring trailed rtrb (docs/spsc-regime-grid.md, "The stamped ring's prefetch
// goes"). Where the consumer keeps pace it was worth up to 1.3 ×, in cells
// the ring leads by 2-6 × without it.

/// The reading half of a [`stamped::RingBuffer`](RingBuffer).
///
/// `WAITS` says whether the ring was made for blocking calls
/// ([`RingBuffer::with_waits`]): only then does the consumer check
/// whether a producer waits when it stores `head` (module docs,
/// "Waiting").
///
/// `Send` when `T: Send`, never `Sync`: one thread consumes at a time.
pub struct Consumer<T, const WAITS: bool = false> {
    /// Released only by `drop`, in one out-of-line call with the ring by
    /// value (`crate::RingBuffer::producer_gone` says why).
    pub(super) ring: ManuallyDrop<Arc<RingBuffer<T>>>,
    /// Where the next item comes from.
    pub(super) at: Place,
    /// The current line's stamp as last loaded: the items below it are
    /// published. Equal to `at.index` when the stamp must be loaded again
    /// (also on entering a line, whose stamp has not been loaded).
    ready: usize,
}

// SAFETY: the consumer moves `T`s out of slots the producer published
// through the stamp's Release/Acquire pair, and lends `&T` only to its own
// thread (`peek` borrows the consumer); `T: Send` is all that moving it to
// another thread needs.
unsafe impl<T: Send, const WAITS: bool> Send for Consumer<T, WAITS> {}

impl<T, const WAITS: bool> Consumer<T, WAITS> {
    pub(super) fn new(ring: Arc<RingBuffer<T>>, at: Place) -> Self {
        let ready = at.index;
        Consumer {
            ring: ManuallyDrop::new(ring),
            at,
            ready,
        }
    }

    /// Whether item `at.index` is published: trusts `ready`, and reloads
    /// the line's stamp only when `ready` does not cover it.
    #[inline(always)]
    fn published(&mut self) -> bool {
        if self.at.index != self.ready {
            return true;
        }
        // Acquire pairs with the producer's Release store of this stamp in
        // `Producer::push`: its write of every item below the stamp happens
        // before our read of it.
        let stamp = self.ring.stamp(self.at.line).load(Ordering::Acquire);
        if !covers(stamp, self.at.index) {
            return false;
        }
        self.ready = stamp;
        true
    }

    /// Takes the oldest item, or says [`PopError::Empty`].
    ///
    /// ```
    /// use hotq_spsc::PopError;
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(2);
    /// assert_eq!(rx.pop(), Err(PopError::Empty));
    /// tx.push("hi").unwrap();
    /// assert_eq!(rx.pop(), Ok("hi"));
    /// ```
    #[inline]
    pub fn pop(&mut self) -> Result<T, PopError> {
        if !self.published() {
            return Err(PopError::Empty);
        }
        let slot = self.at.slot::<T>();
        let claim = self.ring.claim(self.at.line, slot);
        // SAFETY: the stamp covers item `at.index` (`published`), so its
        // slot holds an initialised `T`, which the producer does not touch
        // again until `head` passes it; it is moved out here, once.
        let value = unsafe { RingBuffer::<T>::item(self.at.line, slot).read() };
        claim.end();
        if self.at.step(&self.ring) {
            // A new line: its stamp is not loaded yet.
            self.ready = self.at.index;
            if self.ring.stores_head_at(self.at.line) {
                self.publish_head();
            }
        } else if !RingBuffer::<T>::LAZY_HEAD {
            self.publish_head();
        }
        Ok(value)
    }

    /// Tells the producer that the items below `at.index` are read: on
    /// entering a line (every `head_every`-th line of a large ring), not at
    /// every pop (`RingBuffer::head` says why).
    #[inline(always)]
    fn publish_head(&self) {
        // Release pairs with the producer's Acquire load of `head` in
        // `Producer::push` and `slots`: our reads of the items below it
        // happen before their slots' next writes.
        self.ring.head.store(self.at.index, Ordering::Release);
        // A producer blocked in `push_timeout` waits on `head`: a load and
        // a branch when nobody waits, once a line or less (`stamped/blocking.rs`),
        // on rings made for waits only (as `Producer::push`).
        if WAITS {
            self.ring.waiters.room.wake_if_waiting();
        }
    }

    /// The oldest item, left in the ring, or [`PeekError::Empty`].
    ///
    /// ```
    /// use hotq_spsc::PeekError;
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(2);
    /// assert_eq!(rx.peek(), Err(PeekError::Empty));
    /// tx.push(7).unwrap();
    /// assert_eq!(rx.peek(), Ok(&7));
    /// assert_eq!(rx.pop(), Ok(7));
    /// ```
    pub fn peek(&mut self) -> Result<&T, PeekError> {
        if !self.published() {
            return Err(PeekError::Empty);
        }
        let slot = self.at.slot::<T>();
        let claim = self.ring.claim(self.at.line, slot);
        // SAFETY: as in `pop`; the item stays in the ring, and the producer
        // cannot overwrite it while `head` is below it, which it stays for
        // as long as this borrow of the consumer lasts.
        let item = unsafe { &*RingBuffer::<T>::item(self.at.line, slot) };
        claim.end();
        Ok(item)
    }

    /// Whether item `at.index + ahead` is published: a hint for the async
    /// pop's choice between yielding and registering (`stamped/future.rs`),
    /// so a `Relaxed` load that orders nothing (no item is read on its
    /// word). `ahead` is below the capacity; a line that still holds the
    /// last lap's items has a stamp below the index, which says no.
    pub(super) fn published_ahead(&self, ahead: usize) -> bool {
        let lines = (self.at.slot::<T>() + ahead) / RingBuffer::<T>::PER_LINE;
        let line = self.ring.line_after(self.at.line, lines);
        let stamp = self.ring.stamp(line).load(Ordering::Relaxed);
        covers(stamp, self.at.index.wrapping_add(ahead))
    }

    /// Whether a pop would fail now (loads the current line's stamp when
    /// the last one loaded does not show an item). When it says `false`,
    /// what the producer did before pushing the item is visible to this
    /// thread, as after a pop.
    ///
    /// ```
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(1);
    /// assert!(rx.is_empty());
    /// tx.push(1).unwrap();
    /// assert!(!rx.is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        if self.at.index != self.ready {
            return false;
        }
        // Acquire: as in `published`.
        let stamp = self.ring.stamp(self.at.line).load(Ordering::Acquire);
        !covers(stamp, self.at.index)
    }

    /// Whether the producer has been dropped. Once it has, the items it
    /// pushed are all visible: a pop that then fails means no item will
    /// ever come.
    ///
    /// ```
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(1);
    /// tx.push(1).unwrap();
    /// drop(tx);
    /// assert!(rx.is_abandoned());
    /// assert_eq!(rx.pop(), Ok(1));
    /// assert!(rx.pop().is_err()); // and none ever again
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
    /// let (_tx, rx) = RingBuffer::<u8>::new(5);
    /// assert_eq!(rx.capacity(), 5);
    /// ```
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.ring.capacity()
    }

    /// The ring this half reads from (equal to the producer's only if they
    /// share it).
    ///
    /// ```
    /// use hotq_spsc::stamped::RingBuffer;
    ///
    /// let (tx, rx) = RingBuffer::<u8>::new(1);
    /// assert_eq!(rx.buffer(), tx.buffer());
    /// ```
    #[must_use]
    pub fn buffer(&self) -> &RingBuffer<T> {
        &self.ring
    }
}

impl<T, const WAITS: bool> Drop for Consumer<T, WAITS> {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: `drop` runs once and nothing uses `self.ring` after this
        // take: the ring is released exactly once, here.
        let ring = unsafe { ManuallyDrop::take(&mut self.ring) };
        RingBuffer::consumer_gone(ring, self.at.index, self.at.line, self.at.slot::<T>());
    }
}

impl<T, const WAITS: bool> fmt::Debug for Consumer<T, WAITS> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("stamped::Consumer")
            .field("capacity", &self.capacity())
            .field("empty", &self.is_empty())
            .finish()
    }
}
