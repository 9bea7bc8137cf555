//! A run of free slots the producer writes in place before publishing.

use core::mem::MaybeUninit;
use core::{ptr, slice};

use crate::Producer;
use crate::sync::Claim;

/// `n` free slots, uninitialised, from [`Producer::write_chunk_uninit`].
///
/// Write through [`as_mut_slices`](Self::as_mut_slices) and publish with
/// [`commit`](Self::commit) (unsafe: you vouch for the writes), or let
/// [`fill_from_iter`](Self::fill_from_iter) write and commit safely.
/// Dropping or forgetting the chunk publishes nothing (values written into
/// it and not committed are leaked, never dropped or exposed).
///
/// ```
/// use std::mem::MaybeUninit;
/// use hotq_spsc::RingBuffer;
///
/// let (mut tx, mut rx) = RingBuffer::new(4);
/// let mut chunk = tx.write_chunk_uninit(2).unwrap();
/// let (first, second) = chunk.as_mut_slices();
/// for (slot, v) in first.iter_mut().chain(second).zip([10, 20]) {
///     *slot = MaybeUninit::new(v);
/// }
/// // SAFETY: both slots were written just above.
/// unsafe { chunk.commit_all() };
/// assert_eq!(rx.pop(), Ok(10));
/// assert_eq!(rx.pop(), Ok(20));
/// ```
#[must_use = "a chunk publishes nothing until it is filled or committed"]
pub struct WriteChunkUninit<'a, T> {
    producer: &'a mut Producer<T>,
    /// Slots reserved from the producer's tail on; shrinks as parts are
    /// published, so it always counts from the current tail.
    len: usize,
    /// Loom's record of our access to the reserved slots; dropped before
    /// any of them is published.
    claim: Option<Claim>,
}

impl<'a, T> WriteChunkUninit<'a, T> {
    /// The caller has seen `n` free slots.
    pub(crate) fn new(producer: &'a mut Producer<T>, n: usize) -> Self {
        let claim = producer.ring().claim(producer.tail(), n);
        WriteChunkUninit {
            producer,
            len: n,
            claim: Some(claim),
        }
    }

    /// The reserved slots, as two slices in ring order (the second is empty
    /// unless the chunk wraps around the end of the storage).
    ///
    /// ```
    /// let (mut tx, _rx) = hotq_spsc::RingBuffer::<u8>::new(4);
    /// let mut chunk = tx.write_chunk_uninit(3).unwrap();
    /// let (a, b) = chunk.as_mut_slices();
    /// assert_eq!(a.len() + b.len(), 3);
    /// ```
    pub fn as_mut_slices(&mut self) -> (&mut [MaybeUninit<T>], &mut [MaybeUninit<T>]) {
        let [(a, a_len), (b, b_len)] = self.producer.ring().runs(self.producer.tail(), self.len);
        // SAFETY: the runs are the `len` free slots reserved for this chunk,
        // disjoint, and nobody else touches them until they are published;
        // `MaybeUninit<T>` has `T`'s layout and needs no initialisation.
        // The borrow of `self` keeps the chunk from publishing meanwhile.
        unsafe {
            (
                slice::from_raw_parts_mut(a.cast(), a_len),
                slice::from_raw_parts_mut(b.cast(), b_len),
            )
        }
    }

    /// Publishes the first `k` slots (in the order of
    /// [`as_mut_slices`](Self::as_mut_slices)).
    ///
    /// # Safety
    ///
    /// The first `k` slots have been initialised.
    ///
    /// # Panics
    ///
    /// If `k` exceeds the chunk's length.
    ///
    /// ```
    /// use std::mem::MaybeUninit;
    ///
    /// let (mut tx, mut rx) = hotq_spsc::RingBuffer::new(4);
    /// let mut chunk = tx.write_chunk_uninit(3).unwrap();
    /// chunk.as_mut_slices().0[0] = MaybeUninit::new('x');
    /// // SAFETY: the first slot was written just above.
    /// unsafe { chunk.commit(1) };
    /// assert_eq!(rx.pop(), Ok('x'));
    /// assert!(rx.pop().is_err());
    /// ```
    ///
    /// ```should_panic
    /// use std::mem::MaybeUninit;
    ///
    /// let (mut tx, _rx) = hotq_spsc::RingBuffer::new(4);
    /// let mut chunk = tx.write_chunk_uninit(1).unwrap();
    /// chunk.as_mut_slices().0[0] = MaybeUninit::new(1u8);
    /// // SAFETY: the chunk's one slot was written just above; a `k` beyond
    /// // the chunk is caught (a panic) before anything is published.
    /// unsafe { chunk.commit(2) }; // panics: the chunk has 1 slot
    /// ```
    pub unsafe fn commit(mut self, k: usize) {
        self.publish(k);
    }

    /// Publishes every slot of the chunk.
    ///
    /// # Safety
    ///
    /// Every slot has been initialised.
    ///
    /// ```
    /// use std::mem::MaybeUninit;
    ///
    /// let (mut tx, mut rx) = hotq_spsc::RingBuffer::new(1);
    /// let mut chunk = tx.write_chunk_uninit(1).unwrap();
    /// chunk.as_mut_slices().0[0] = MaybeUninit::new(7);
    /// // SAFETY: the chunk's only slot was written just above.
    /// unsafe { chunk.commit_all() };
    /// assert_eq!(rx.pop(), Ok(7));
    /// ```
    pub unsafe fn commit_all(mut self) {
        self.publish(self.len);
    }

    /// Moves items from `iter` into the chunk until either runs out, and
    /// publishes exactly the slots it wrote; returns how many. Safe: if the
    /// iterator panics, the items written so far are still published (and
    /// so dropped exactly once, by whoever pops them or by the ring).
    ///
    /// ```
    /// let (mut tx, mut rx) = hotq_spsc::RingBuffer::new(4);
    /// let chunk = tx.write_chunk_uninit(3).unwrap();
    /// assert_eq!(chunk.fill_from_iter(10..), 3); // stops at the chunk's end
    /// let chunk = tx.write_chunk_uninit(1).unwrap();
    /// assert_eq!(chunk.fill_from_iter(None), 0); // or at the iterator's
    /// assert_eq!(rx.slots(), 3);
    /// ```
    #[must_use = "the count says how many items were taken from the iterator and published"]
    pub fn fill_from_iter<I: IntoIterator<Item = T>>(self, iter: I) -> usize {
        /// Publishes what was written, on return or on unwind.
        struct PublishWritten<'c, 'a, T> {
            chunk: WriteChunkUninit<'a, T>,
            written: &'c mut usize,
        }
        impl<T> Drop for PublishWritten<'_, '_, T> {
            fn drop(&mut self) {
                self.chunk.publish(*self.written);
            }
        }

        let mut written = 0;
        let guard = PublishWritten {
            chunk: self,
            written: &mut written,
        };
        let (len, tail) = (guard.chunk.len, guard.chunk.producer.tail());
        let mut iter = iter.into_iter();
        while *guard.written < len {
            let Some(item) = iter.next() else { break };
            let index = tail.wrapping_add(*guard.written);
            // SAFETY: `written < len`, so the slot is one of the chunk's
            // reserved, uninitialised slots; it counts as written (and will
            // be published) only once the write is done.
            unsafe { guard.chunk.producer.ring().slot(index).write(item) };
            *guard.written += 1;
        }
        drop(guard);
        written
    }

    /// The number of slots in the chunk.
    ///
    /// ```
    /// let (mut tx, _rx) = hotq_spsc::RingBuffer::<u8>::new(4);
    /// assert_eq!(tx.write_chunk_uninit(3).unwrap().len(), 3);
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the chunk has no slots (it was asked for 0).
    ///
    /// ```
    /// let (mut tx, _rx) = hotq_spsc::RingBuffer::<u8>::new(4);
    /// assert!(tx.write_chunk_uninit(0).unwrap().is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(crate) fn producer(&self) -> &Producer<T> {
        self.producer
    }

    /// Publishes the first `k` remaining slots; the rest of the chunk then
    /// starts at the new tail.
    pub(crate) fn publish(&mut self, k: usize) {
        assert!(
            k <= self.len,
            "cannot commit {k} slots of a write chunk of {}",
            self.len
        );
        self.release_claim();
        self.producer.advance(k);
        self.len -= k;
    }

    /// Ends loom's record of our access (no-op outside loom); call before
    /// publishing, or before claiming the slots anew.
    pub(crate) fn release_claim(&mut self) {
        if let Some(claim) = self.claim.take() {
            claim.end();
        }
    }
}

/// Copies a slice of `Copy` items into uninitialised slots, such as those
/// of a [`WriteChunkUninit`] (rtrb's trait of the same name and shape,
/// implemented for `[T]`).
///
/// ```
/// use hotq_spsc::{CopyToUninit, RingBuffer};
///
/// let (mut tx, mut rx) = RingBuffer::new(4);
/// tx.push(0).unwrap();
/// let data = [1, 2, 3];
/// let mut chunk = tx.write_chunk_uninit(data.len()).unwrap();
/// let (first, second) = chunk.as_mut_slices();
/// let mid = first.len();
/// data[..mid].copy_to_uninit(first);
/// data[mid..].copy_to_uninit(second);
/// // SAFETY: every slot of the chunk was written just above.
/// unsafe { chunk.commit_all() };
/// assert_eq!(rx.pop_entire_slice(&mut [0; 4][..]), Ok(()));
/// ```
pub trait CopyToUninit<T: Copy> {
    /// Copies `self` into `dst` and returns `dst`, now initialised.
    ///
    /// # Panics
    ///
    /// If `dst` is not exactly as long as `self`.
    ///
    /// ```should_panic
    /// use std::mem::MaybeUninit;
    /// use hotq_spsc::CopyToUninit;
    ///
    /// let mut dst = [MaybeUninit::<u8>::uninit(); 2];
    /// [1u8, 2, 3].copy_to_uninit(&mut dst); // panics: 3 items, 2 slots
    /// ```
    fn copy_to_uninit<'a>(&self, dst: &'a mut [MaybeUninit<T>]) -> &'a mut [T];
}

impl<T: Copy> CopyToUninit<T> for [T] {
    fn copy_to_uninit<'a>(&self, dst: &'a mut [MaybeUninit<T>]) -> &'a mut [T] {
        assert_eq!(
            self.len(),
            dst.len(),
            "source slice length does not match destination slice length"
        );
        let out = dst.as_mut_ptr().cast::<T>();
        // SAFETY: the lengths are equal (checked above), `dst` is borrowed
        // `&mut` so it cannot overlap `self`, and `MaybeUninit<T>` has
        // `T`'s layout; after the copy every element of `dst` is an
        // initialised `T` (`T: Copy`: nothing to drop), and the returned
        // slice carries `dst`'s borrow.
        unsafe {
            ptr::copy_nonoverlapping(self.as_ptr(), out, self.len());
            slice::from_raw_parts_mut(out, self.len())
        }
    }
}

impl<T> core::fmt::Debug for WriteChunkUninit<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("WriteChunkUninit")
            .field("len", &self.len())
            .finish()
    }
}
