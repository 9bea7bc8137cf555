//! The errors of the waiting operations, one type per kind of wait.

use core::fmt;

/// A timed push ([`Producer::push_timeout`](crate::Producer::push_timeout),
/// [`push_deadline`](crate::Producer::push_deadline)) did not push; the
/// value always comes back.
///
/// ```
/// use std::time::Duration;
/// use hotq_spsc::{PushTimeoutError, RingBuffer};
///
/// let (mut tx, rx) = RingBuffer::new(1);
/// tx.push("a").unwrap();
/// let err = tx.push_timeout("b", Duration::ZERO).unwrap_err();
/// assert_eq!(err, PushTimeoutError::Timeout("b"));
/// assert_eq!(err.to_string(), "timed out waiting for room in the ring buffer");
/// drop(rx);
/// let err = tx.push_timeout("c", Duration::from_secs(1)).unwrap_err();
/// assert_eq!(err.into_inner(), "c");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum PushTimeoutError<T> {
    /// The ring stayed full until the deadline.
    Timeout(T),
    /// The ring is full and the consumer is gone: room never comes.
    Abandoned(T),
}

impl<T> PushTimeoutError<T> {
    /// The value that was not pushed.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use hotq_spsc::RingBuffer;
    /// let (mut tx, _rx) = RingBuffer::new(1);
    /// tx.push(1).unwrap();
    /// assert_eq!(tx.push_timeout(2, Duration::ZERO).unwrap_err().into_inner(), 2);
    /// ```
    pub fn into_inner(self) -> T {
        match self {
            PushTimeoutError::Timeout(value) | PushTimeoutError::Abandoned(value) => value,
        }
    }
}

// Written by hand so that `T` need not be `Debug` (nor printed).
impl<T> fmt::Debug for PushTimeoutError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PushTimeoutError::Timeout(_) => f.write_str("Timeout(..)"),
            PushTimeoutError::Abandoned(_) => f.write_str("Abandoned(..)"),
        }
    }
}

impl<T> fmt::Display for PushTimeoutError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PushTimeoutError::Timeout(_) => {
                f.write_str("timed out waiting for room in the ring buffer")
            }
            PushTimeoutError::Abandoned(_) => {
                f.write_str("ring buffer is full and its consumer is gone")
            }
        }
    }
}

impl<T> core::error::Error for PushTimeoutError<T> {}

/// A timed pop ([`Consumer::pop_timeout`](crate::Consumer::pop_timeout),
/// [`pop_deadline`](crate::Consumer::pop_deadline)) found no item.
///
/// ```
/// use std::time::Duration;
/// use hotq_spsc::{PopTimeoutError, RingBuffer};
///
/// let (tx, mut rx) = RingBuffer::<u8>::new(1);
/// assert_eq!(rx.pop_timeout(Duration::ZERO), Err(PopTimeoutError::Timeout));
/// drop(tx);
/// let err = rx.pop_timeout(Duration::from_secs(1)).unwrap_err();
/// assert_eq!(err, PopTimeoutError::Abandoned);
/// assert_eq!(err.to_string(), "ring buffer is empty and its producer is gone");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PopTimeoutError {
    /// The ring stayed empty until the deadline.
    Timeout,
    /// The ring is empty and the producer is gone: no item ever comes.
    Abandoned,
}

impl fmt::Display for PopTimeoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PopTimeoutError::Timeout => {
                f.write_str("timed out waiting for an item in the ring buffer")
            }
            PopTimeoutError::Abandoned => {
                f.write_str("ring buffer is empty and its producer is gone")
            }
        }
    }
}

impl core::error::Error for PopTimeoutError {}

/// A wait for `n` slots ([`Producer::wait_slots`](crate::Producer::wait_slots))
/// or `n` items ([`Consumer::wait_items`](crate::Consumer::wait_items)) ended
/// without them.
///
/// ```
/// use std::time::Instant;
/// use hotq_spsc::{RingBuffer, WaitError};
///
/// let (_tx, mut rx) = RingBuffer::<u8>::new(4);
/// let err = rx.wait_items(8, Instant::now()).unwrap_err();
/// assert_eq!(err, WaitError::ExceedsCapacity { requested: 8, capacity: 4 });
/// assert_eq!(err.to_string(), "cannot wait for 8 slots of a ring buffer of capacity 4");
/// assert_eq!(rx.wait_items(1, Instant::now()), Err(WaitError::Timeout));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WaitError {
    /// Fewer than `n` until the deadline.
    Timeout,
    /// Fewer than `n`, and the other half is gone: never more.
    Abandoned,
    /// `n` is more than the ring's capacity: no wait could ever succeed.
    ExceedsCapacity {
        /// The `n` asked for.
        requested: usize,
        /// The ring's capacity.
        capacity: usize,
    },
}

impl fmt::Display for WaitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WaitError::Timeout => f.write_str("timed out waiting on the ring buffer"),
            WaitError::Abandoned => f.write_str("the other half of the ring buffer is gone"),
            WaitError::ExceedsCapacity {
                requested,
                capacity,
            } => write!(
                f,
                "cannot wait for {requested} slots of a ring buffer of capacity {capacity}"
            ),
        }
    }
}

impl core::error::Error for WaitError {}

/// [`Producer::push_async`](crate::Producer::push_async) could not push:
/// the ring is full and the consumer is gone. The value comes back.
///
/// ```
/// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     let mut f = std::pin::pin!(f);
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
/// # }
/// use hotq_spsc::{PushAsyncError, RingBuffer};
///
/// let (mut tx, rx) = RingBuffer::new(1);
/// tx.push(1).unwrap();
/// drop(rx);
/// let err = block_on(tx.push_async(2)).unwrap_err();
/// assert_eq!(err.to_string(), "ring buffer is full and its consumer is gone");
/// assert_eq!(err.into_inner(), 2);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum PushAsyncError<T> {
    /// The ring is full and the consumer is gone; the value not pushed.
    Abandoned(T),
}

impl<T> PushAsyncError<T> {
    /// The value that was not pushed.
    ///
    /// ```
    /// let err = hotq_spsc::PushAsyncError::Abandoned(5);
    /// assert_eq!(err.into_inner(), 5);
    /// ```
    pub fn into_inner(self) -> T {
        match self {
            PushAsyncError::Abandoned(value) => value,
        }
    }
}

// Written by hand so that `T` need not be `Debug` (nor printed).
impl<T> fmt::Debug for PushAsyncError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Abandoned(..)")
    }
}

impl<T> fmt::Display for PushAsyncError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ring buffer is full and its consumer is gone")
    }
}

impl<T> core::error::Error for PushAsyncError<T> {}

/// [`Consumer::pop_async`](crate::Consumer::pop_async) found the ring empty
/// and the producer gone.
///
/// ```
/// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     let mut f = std::pin::pin!(f);
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
/// # }
/// use hotq_spsc::{PopAsyncError, RingBuffer};
///
/// let (tx, mut rx) = RingBuffer::<u8>::new(1);
/// drop(tx);
/// let err = block_on(rx.pop_async()).unwrap_err();
/// assert_eq!(err, PopAsyncError::Abandoned);
/// assert_eq!(err.to_string(), "ring buffer is empty and its producer is gone");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PopAsyncError {
    /// The ring is empty and the producer is gone: no item ever comes.
    Abandoned,
}

impl fmt::Display for PopAsyncError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ring buffer is empty and its producer is gone")
    }
}

impl core::error::Error for PopAsyncError {}
