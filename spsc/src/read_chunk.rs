//! A run of ready items the consumer reads in place before releasing.

use core::iter::FusedIterator;
use core::mem::needs_drop;
use core::{ptr, slice};

use crate::Consumer;
use crate::sync::Claim;

/// `n` ready items, from [`Consumer::read_chunk`].
///
/// Read (or modify) them in place through [`as_slices`](Self::as_slices)
/// and [`as_mut_slices`](Self::as_mut_slices); [`commit`](Self::commit)
/// drops and releases them, or iterate the chunk to move them out one by
/// one. Dropping or forgetting the chunk leaves every item in the ring.
///
/// ```
/// let (mut tx, mut rx) = hotq_spsc::RingBuffer::new(4);
/// tx.push_slice(&[1, 2, 3]);
/// let moved: Vec<i32> = rx.read_chunk(2).unwrap().into_iter().collect();
/// assert_eq!(moved, [1, 2]);
/// assert_eq!(rx.pop(), Ok(3));
/// ```
#[must_use = "a chunk takes nothing until it is committed"]
pub struct ReadChunk<'a, T> {
    consumer: &'a mut Consumer<T>,
    /// Items from the consumer's head on that belong to the chunk.
    len: usize,
    /// Loom's record of our access to the chunk's slots; dropped before
    /// any of them is released.
    claim: Option<Claim>,
}

impl<'a, T> ReadChunk<'a, T> {
    /// The caller has seen `n` items ready.
    pub(crate) fn new(consumer: &'a mut Consumer<T>, n: usize) -> Self {
        let claim = consumer.ring().claim(consumer.head(), n);
        ReadChunk {
            consumer,
            len: n,
            claim: Some(claim),
        }
    }

    fn runs(&self) -> [(*mut T, usize); 2] {
        self.consumer.ring().runs(self.consumer.head(), self.len)
    }

    /// The chunk's items, oldest first, as two slices (the second is empty
    /// unless the chunk wraps around the end of the storage).
    ///
    /// ```
    /// let (mut tx, mut rx) = hotq_spsc::RingBuffer::new(4);
    /// tx.push_slice(&[1, 2]);
    /// let chunk = rx.read_chunk(2).unwrap();
    /// assert_eq!(chunk.as_slices(), (&[1, 2][..], &[][..]));
    /// ```
    pub fn as_slices(&self) -> (&[T], &[T]) {
        let [(a, a_len), (b, b_len)] = self.runs();
        // SAFETY: the runs hold the chunk's `len` published items; the
        // producer does not touch them until they are released, which needs
        // this chunk by value.
        unsafe {
            (
                slice::from_raw_parts(a, a_len),
                slice::from_raw_parts(b, b_len),
            )
        }
    }

    /// The chunk's items, oldest first, as two mutable slices.
    ///
    /// ```
    /// let (mut tx, mut rx) = hotq_spsc::RingBuffer::new(4);
    /// tx.push_slice(&[1, 2]);
    /// let mut chunk = rx.read_chunk(1).unwrap();
    /// chunk.as_mut_slices().0[0] = 10;
    /// drop(chunk); // not committed: the item stays, modified
    /// assert_eq!(rx.pop(), Ok(10));
    /// ```
    pub fn as_mut_slices(&mut self) -> (&mut [T], &mut [T]) {
        let [(a, a_len), (b, b_len)] = self.runs();
        // SAFETY: as in `as_slices`, and the `&mut self` borrow makes the
        // access exclusive on the consumer's side too.
        unsafe {
            (
                slice::from_raw_parts_mut(a, a_len),
                slice::from_raw_parts_mut(b, b_len),
            )
        }
    }

    /// Drops the first `k` items, oldest first, and frees their slots.
    ///
    /// If an item's destructor panics, the items before it are dropped,
    /// it counts as dropped (its slot is freed; it is never dropped
    /// again), and the items after it stay in the ring, to be popped or
    /// dropped with it later; then the panic goes on. This is what rtrb
    /// does. No item is dropped twice, and no destructor runs during the
    /// unwind, so a second panicking item cannot abort the process.
    ///
    /// # Panics
    ///
    /// If `k` exceeds the chunk's length.
    ///
    /// ```
    /// let (mut tx, mut rx) = hotq_spsc::RingBuffer::new(4);
    /// tx.push_slice(&[1, 2, 3]);
    /// rx.read_chunk(3).unwrap().commit(2);
    /// assert_eq!(rx.pop(), Ok(3));
    /// ```
    ///
    /// ```should_panic
    /// let (mut tx, mut rx) = hotq_spsc::RingBuffer::new(4);
    /// tx.push_slice(&[1, 2]);
    /// rx.read_chunk(1).unwrap().commit(2); // panics: the chunk holds 1 item
    /// ```
    pub fn commit(self, k: usize) {
        /// Frees the slots of the items dropped so far, on return or on
        /// unwind.
        struct Release<'a, T> {
            chunk: ReadChunk<'a, T>,
            dropped: usize,
        }
        impl<T> Drop for Release<'_, T> {
            fn drop(&mut self) {
                if let Some(claim) = self.chunk.claim.take() {
                    claim.end();
                }
                self.chunk.consumer.advance(self.dropped);
            }
        }

        assert!(
            k <= self.len,
            "cannot commit {k} items of a read chunk of {}",
            self.len
        );
        let head = self.consumer.head();
        let mut release = Release {
            chunk: self,
            dropped: 0,
        };
        if needs_drop::<T>() {
            while release.dropped < k {
                let item = release
                    .chunk
                    .consumer
                    .ring()
                    .slot(head.wrapping_add(release.dropped));
                // Counted first: an item whose destructor panics is gone
                // too, and its slot is freed with the others.
                release.dropped += 1;
                // SAFETY: the item is one of the chunk's first `k`, which
                // are published and ours; it is dropped once, here, and
                // `release` frees its slot whether this returns or
                // unwinds, so the ring never sees it as an item again.
                unsafe { ptr::drop_in_place(item) };
            }
        } else {
            release.dropped = k;
        }
        drop(release);
    }

    /// Drops every item of the chunk and frees their slots.
    ///
    /// ```
    /// let (mut tx, mut rx) = hotq_spsc::RingBuffer::new(4);
    /// tx.push_slice(&[1, 2]);
    /// rx.read_chunk(2).unwrap().commit_all();
    /// assert!(rx.is_empty());
    /// ```
    pub fn commit_all(self) {
        let len = self.len;
        self.commit(len);
    }

    /// The number of items in the chunk.
    ///
    /// ```
    /// let (mut tx, mut rx) = hotq_spsc::RingBuffer::new(4);
    /// tx.push_slice(&[1, 2]);
    /// assert_eq!(rx.read_chunk(2).unwrap().len(), 2);
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the chunk has no items (it was asked for 0).
    ///
    /// ```
    /// let (_tx, mut rx) = hotq_spsc::RingBuffer::<u8>::new(4);
    /// assert!(rx.read_chunk(0).unwrap().is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<'a, T> IntoIterator for ReadChunk<'a, T> {
    type Item = T;
    type IntoIter = ReadChunkIntoIter<'a, T>;

    /// Moves the items out one by one, each freed as it is yielded;
    /// dropping the iterator early leaves the rest in the ring.
    fn into_iter(mut self) -> ReadChunkIntoIter<'a, T> {
        // Each item is claimed anew as it is taken.
        if let Some(claim) = self.claim.take() {
            claim.end();
        }
        ReadChunkIntoIter {
            consumer: self.consumer,
            len: self.len,
            remaining: self.len,
        }
    }
}

/// Moves a [`ReadChunk`]'s items out, oldest first.
///
/// Each item's slot is freed as the item is yielded, so forgetting the
/// iterator can neither drop an item twice nor lose one: what was not
/// yielded stays in the ring.
///
/// ```
/// let (mut tx, mut rx) = hotq_spsc::RingBuffer::new(4);
/// tx.push_slice(&[1, 2, 3]);
/// let mut items = rx.read_chunk(3).unwrap().into_iter();
/// assert_eq!(items.next(), Some(1));
/// std::mem::forget(items);
/// assert_eq!(rx.pop(), Ok(2));
/// ```
#[must_use = "iterators are lazy: items are taken only as it is advanced"]
pub struct ReadChunkIntoIter<'a, T> {
    consumer: &'a mut Consumer<T>,
    /// The chunk's length.
    len: usize,
    remaining: usize,
}

impl<T> ReadChunkIntoIter<'_, T> {
    /// How many items this iterator has moved out so far (as rtrb's
    /// `iterated`): at most the chunk's length, which it reaches once
    /// `next` has returned `None`.
    ///
    /// ```
    /// let (mut tx, mut rx) = hotq_spsc::RingBuffer::new(4);
    /// tx.push_slice(&[1, 2, 3]);
    /// let mut items = rx.read_chunk(3).unwrap().into_iter();
    /// assert_eq!(items.iterated(), 0);
    /// items.by_ref().take(2).for_each(drop);
    /// assert_eq!(items.iterated(), 2);
    /// items.by_ref().for_each(drop);
    /// assert_eq!(items.iterated(), 3);
    /// assert_eq!(items.next(), None); // no further: still 3
    /// assert_eq!(items.iterated(), 3);
    /// ```
    #[must_use]
    pub fn iterated(&self) -> usize {
        self.len - self.remaining
    }
}

impl<T> Iterator for ReadChunkIntoIter<'_, T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        // SAFETY: the chunk was created over ready items, and this iterator
        // is the only taker of them: `remaining` of them are still there.
        Some(unsafe { self.consumer.take_front() })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<T> ExactSizeIterator for ReadChunkIntoIter<'_, T> {}

impl<T> FusedIterator for ReadChunkIntoIter<'_, T> {}

impl<T> core::fmt::Debug for ReadChunk<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ReadChunk")
            .field("len", &self.len())
            .finish()
    }
}

impl<T> core::fmt::Debug for ReadChunkIntoIter<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ReadChunkIntoIter")
            .field("remaining", &self.remaining)
            .finish()
    }
}
