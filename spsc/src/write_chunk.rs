//! A run of free slots, pre-filled with `T::default()`, written in place.

use core::slice;

use crate::WriteChunkUninit;
use crate::ring::drop_runs;

/// `n` free slots, each holding `T::default()`, from
/// [`Producer::write_chunk`](crate::Producer::write_chunk).
///
/// Overwrite them through [`as_mut_slices`](Self::as_mut_slices) and
/// publish with [`commit`](Self::commit); whatever is not committed is
/// dropped with the chunk (or leaked if it is forgotten, never exposed).
///
/// ```
/// let (mut tx, mut rx) = hotq_spsc::RingBuffer::<String>::new(4);
/// let mut chunk = tx.write_chunk(2).unwrap();
/// let (a, b) = chunk.as_mut_slices();
/// for (slot, s) in a.iter_mut().chain(b).zip(["x", "y"]) {
///     slot.push_str(s);
/// }
/// chunk.commit_all();
/// assert_eq!(rx.pop().as_deref(), Ok("x"));
/// ```
#[must_use = "a chunk publishes nothing until it is committed"]
pub struct WriteChunk<'a, T> {
    /// Every remaining slot of `chunk` holds an initialised `T`.
    chunk: WriteChunkUninit<'a, T>,
}

impl<'a, T: Default> WriteChunk<'a, T> {
    pub(crate) fn new(mut chunk: WriteChunkUninit<'a, T>) -> Self {
        /// Drops the defaults written so far if `T::default()` panics.
        struct DropWritten<'c, 'a, T> {
            chunk: &'c mut WriteChunkUninit<'a, T>,
            written: usize,
        }
        impl<T> Drop for DropWritten<'_, '_, T> {
            fn drop(&mut self) {
                let ring = self.chunk.producer().ring();
                // SAFETY: exactly the first `written` slots were initialised.
                unsafe { drop_runs(ring.runs(self.chunk.producer().tail(), self.written)) };
            }
        }

        let mut guard = DropWritten {
            chunk: &mut chunk,
            written: 0,
        };
        let (a, b) = guard.chunk.as_mut_slices();
        for slot in a.iter_mut().chain(b) {
            slot.write(T::default());
            guard.written += 1;
        }
        core::mem::forget(guard);
        WriteChunk { chunk }
    }
}

/// Fills every slot with `T::default()`, as
/// [`Producer::write_chunk`](crate::Producer::write_chunk) does (rtrb's
/// conversion).
///
/// ```
/// use hotq_spsc::{RingBuffer, WriteChunk};
///
/// let (mut tx, mut rx) = RingBuffer::<u8>::new(2);
/// let mut chunk = WriteChunk::from(tx.write_chunk_uninit(2).unwrap());
/// chunk.as_mut_slices().0[0] = 7;
/// chunk.commit_all();
/// assert_eq!(rx.pop(), Ok(7));
/// assert_eq!(rx.pop(), Ok(0)); // the default
/// ```
impl<'a, T: Default> From<WriteChunkUninit<'a, T>> for WriteChunk<'a, T> {
    fn from(chunk: WriteChunkUninit<'a, T>) -> Self {
        WriteChunk::new(chunk)
    }
}

impl<T> WriteChunk<'_, T> {
    /// The chunk's slots, as two slices in ring order (the second is empty
    /// unless the chunk wraps around the end of the storage).
    ///
    /// ```
    /// let (mut tx, _rx) = hotq_spsc::RingBuffer::<u8>::new(4);
    /// let mut chunk = tx.write_chunk(3).unwrap();
    /// let (a, b) = chunk.as_mut_slices();
    /// assert!(a.iter().chain(b.iter()).all(|&v| v == 0));
    /// ```
    pub fn as_mut_slices(&mut self) -> (&mut [T], &mut [T]) {
        let (a, b) = self.chunk.as_mut_slices();
        // SAFETY: every remaining slot of the chunk is initialised (the
        // invariant of `chunk`), and `MaybeUninit<T>` has `T`'s layout.
        unsafe {
            (
                slice::from_raw_parts_mut(a.as_mut_ptr().cast(), a.len()),
                slice::from_raw_parts_mut(b.as_mut_ptr().cast(), b.len()),
            )
        }
    }

    /// Publishes the first `k` slots and drops the rest.
    ///
    /// # Panics
    ///
    /// If `k` exceeds the chunk's length.
    ///
    /// ```
    /// let (mut tx, mut rx) = hotq_spsc::RingBuffer::<u8>::new(4);
    /// let mut chunk = tx.write_chunk(3).unwrap();
    /// chunk.as_mut_slices().0[0] = 9;
    /// chunk.commit(1);
    /// assert_eq!(rx.pop(), Ok(9));
    /// assert!(rx.pop().is_err());
    /// ```
    ///
    /// ```should_panic
    /// let (mut tx, _rx) = hotq_spsc::RingBuffer::<u8>::new(4);
    /// tx.write_chunk(1).unwrap().commit(2); // panics: the chunk has 1 slot
    /// ```
    pub fn commit(mut self, k: usize) {
        // The extras are dropped by `Drop`, after the publish: a panicking
        // destructor cannot undo a commit.
        self.chunk.publish(k);
    }

    /// Publishes every slot of the chunk.
    ///
    /// ```
    /// let (mut tx, rx) = hotq_spsc::RingBuffer::<u8>::new(4);
    /// tx.write_chunk(3).unwrap().commit_all();
    /// assert_eq!(rx.slots(), 3);
    /// ```
    pub fn commit_all(self) {
        let len = self.len();
        self.commit(len);
    }

    /// The number of slots in the chunk.
    ///
    /// ```
    /// let (mut tx, _rx) = hotq_spsc::RingBuffer::<u8>::new(4);
    /// assert_eq!(tx.write_chunk(2).unwrap().len(), 2);
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.chunk.len()
    }

    /// Whether the chunk has no slots (it was asked for 0).
    ///
    /// ```
    /// let (mut tx, _rx) = hotq_spsc::RingBuffer::<u8>::new(4);
    /// assert!(tx.write_chunk(0).unwrap().is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.chunk.is_empty()
    }
}

impl<T> Drop for WriteChunk<'_, T> {
    fn drop(&mut self) {
        // Claim anew just the unpublished slots that we drop.
        self.chunk.release_claim();
        let producer = self.chunk.producer();
        let (tail, len) = (producer.tail(), self.chunk.len());
        let _claim = producer.ring().claim(tail, len);
        // SAFETY: the chunk's remaining slots are initialised, unpublished,
        // and dropped only here.
        unsafe { drop_runs(producer.ring().runs(tail, len)) };
    }
}

impl<T> core::fmt::Debug for WriteChunk<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("WriteChunk")
            .field("len", &self.len())
            .finish()
    }
}
