//! Why a queue cannot be built.

use core::fmt;

/// Why a queue of the requested capacity cannot be built.
///
/// ```
/// use hotq_mpmc::{CapacityError, Queue};
///
/// assert_eq!(Queue::<u64>::try_new(0).unwrap_err(), CapacityError::Zero);
/// assert_eq!(Queue::<u64>::try_new(usize::MAX).unwrap_err(), CapacityError::TooLarge);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CapacityError {
    /// A capacity of 0: a [`Queue`](crate::Queue) that can never hold an
    /// item is always a bug. (A channel of capacity 0 is a rendezvous
    /// channel, never this error: see [`bounded`](crate::bounded).)
    Zero,
    /// The slots would exceed `isize::MAX` bytes or cannot be allocated, or
    /// the capacity leaves no room for lap counting in a `usize` position.
    TooLarge,
}

impl fmt::Display for CapacityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CapacityError::Zero => f.write_str("queue capacity must be at least 1"),
            CapacityError::TooLarge => {
                f.write_str("queue capacity too large: its slots cannot be allocated or indexed")
            }
        }
    }
}

impl core::error::Error for CapacityError {}
