//! The errors of every fallible operation, one type per operation.

use core::fmt;

/// Why a ring of the requested capacity cannot be built: its storage would
/// be too large. (Any capacity from 0 up is otherwise fine: a ring of 0 is
/// always full and always empty, as rtrb's.)
///
/// ```
/// use hotq_spsc::{CapacityError, RingBuffer};
///
/// assert!(RingBuffer::<u64>::try_new(0).is_ok());
/// assert_eq!(RingBuffer::<u64>::try_new(usize::MAX).unwrap_err(), CapacityError::TooLarge);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CapacityError {
    /// The storage (the capacity rounded up to a power of two) would exceed
    /// `isize::MAX` bytes or cannot be allocated.
    TooLarge,
}

impl fmt::Display for CapacityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CapacityError::TooLarge => f.write_str(
                "ring buffer capacity too large: its storage cannot be allocated or indexed",
            ),
        }
    }
}

impl core::error::Error for CapacityError {}

/// [`Producer::push`](crate::Producer::push) found the ring full; the value
/// comes back.
///
/// ```
/// use hotq_spsc::{PushError, RingBuffer};
///
/// let (mut tx, _rx) = RingBuffer::new(1);
/// tx.push("a").unwrap();
/// let PushError::Full(back) = tx.push("b").unwrap_err();
/// assert_eq!(back, "b");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum PushError<T> {
    /// The ring holds `capacity` items; the value that did not fit.
    Full(T),
}

impl<T> PushError<T> {
    /// The value that was not pushed.
    ///
    /// ```
    /// # use hotq_spsc::RingBuffer;
    /// let (mut tx, _rx) = RingBuffer::new(1);
    /// tx.push(1).unwrap();
    /// assert_eq!(tx.push(2).unwrap_err().into_inner(), 2);
    /// ```
    pub fn into_inner(self) -> T {
        match self {
            PushError::Full(value) => value,
        }
    }
}

// Written by hand so that `T` need not be `Debug` (nor printed).
impl<T> fmt::Debug for PushError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Full(..)")
    }
}

impl<T> fmt::Display for PushError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ring buffer is full")
    }
}

impl<T> core::error::Error for PushError<T> {}

/// [`Consumer::pop`](crate::Consumer::pop) found the ring empty.
///
/// ```
/// use hotq_spsc::{PopError, RingBuffer};
///
/// let (_tx, mut rx) = RingBuffer::<u8>::new(1);
/// assert_eq!(rx.pop(), Err(PopError::Empty));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PopError {
    /// No item was ready.
    Empty,
}

impl fmt::Display for PopError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ring buffer is empty")
    }
}

impl core::error::Error for PopError {}

/// [`Consumer::peek`](crate::Consumer::peek) found the ring empty.
///
/// ```
/// use hotq_spsc::{PeekError, RingBuffer};
///
/// let (_tx, rx) = RingBuffer::<u8>::new(1);
/// assert_eq!(rx.peek(), Err(PeekError::Empty));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PeekError {
    /// No item was ready.
    Empty,
}

impl fmt::Display for PeekError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ring buffer is empty")
    }
}

impl core::error::Error for PeekError {}

/// A chunk of the requested size is not available now.
///
/// ```
/// use hotq_spsc::{ChunkError, RingBuffer};
///
/// let (mut tx, mut rx) = RingBuffer::<u8>::new(4);
/// tx.push(7).unwrap();
/// assert_eq!(tx.write_chunk_uninit(4).unwrap_err(), ChunkError::TooFewSlots(3));
/// assert_eq!(rx.read_chunk(2).unwrap_err(), ChunkError::TooFewSlots(1));
/// // More than the capacity can never succeed, and says so the same way.
/// assert_eq!(tx.write_chunk_uninit(5).unwrap_err(), ChunkError::TooFewSlots(3));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChunkError {
    /// Fewer slots than requested: the number available (free slots for a
    /// write chunk, readable items for a read chunk).
    TooFewSlots(usize),
}

impl fmt::Display for ChunkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChunkError::TooFewSlots(n) => write!(f, "only {n} slots available"),
        }
    }
}

impl core::error::Error for ChunkError {}
