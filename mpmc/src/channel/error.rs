//! Why a send or a receive did not happen. The same types, variants and
//! messages' meaning as `crossbeam_channel`'s, so `match`es move over.

use core::fmt;

/// [`Sender::send`](crate::Sender::send) and
/// [`send_async`](crate::Sender::send_async) failed: every receiver is gone.
/// The value comes back.
///
/// ```
/// let (tx, rx) = hotq_mpmc::bounded(1);
/// drop(rx);
/// let err = tx.send("lost?").unwrap_err();
/// assert_eq!(err.into_inner(), "lost?"); // no: it comes back
/// assert_eq!(err.to_string(), "sending on a disconnected channel");
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct SendError<T>(pub T);

/// [`Sender::try_send`](crate::Sender::try_send) failed; the value comes
/// back.
///
/// ```
/// use hotq_mpmc::TrySendError;
///
/// let (tx, rx) = hotq_mpmc::bounded(1);
/// tx.try_send(1).unwrap();
/// assert_eq!(tx.try_send(2), Err(TrySendError::Full(2)));
/// drop(rx);
/// assert_eq!(tx.try_send(3), Err(TrySendError::Disconnected(3)));
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum TrySendError<T> {
    /// The channel is full (and some receiver is still there).
    Full(T),
    /// Every receiver is gone.
    Disconnected(T),
}

/// [`Sender::send_timeout`](crate::Sender::send_timeout) or
/// [`send_deadline`](crate::Sender::send_deadline) failed; the value
/// comes back.
///
/// ```
/// use std::time::Duration;
/// use hotq_mpmc::SendTimeoutError;
///
/// let (tx, _rx) = hotq_mpmc::bounded(1);
/// tx.send(1).unwrap();
/// let err = tx.send_timeout(2, Duration::from_millis(1)).unwrap_err();
/// assert_eq!(err, SendTimeoutError::Timeout(2));
/// assert!(err.is_timeout());
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum SendTimeoutError<T> {
    /// The channel stayed full until the deadline.
    Timeout(T),
    /// Every receiver is gone.
    Disconnected(T),
}

/// [`Receiver::recv`](crate::Receiver::recv) and
/// [`recv_async`](crate::Receiver::recv_async) failed: the channel is empty
/// and every sender is gone.
///
/// ```
/// let (tx, rx) = hotq_mpmc::bounded::<u8>(1);
/// drop(tx);
/// assert_eq!(rx.recv(), Err(hotq_mpmc::RecvError));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RecvError;

/// [`Receiver::try_recv`](crate::Receiver::try_recv) failed.
///
/// ```
/// use hotq_mpmc::TryRecvError;
///
/// let (tx, rx) = hotq_mpmc::bounded(1);
/// assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
/// tx.send(5).unwrap();
/// drop(tx);
/// assert_eq!(rx.try_recv(), Ok(5)); // what was sent is still received
/// assert_eq!(rx.try_recv(), Err(TryRecvError::Disconnected));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TryRecvError {
    /// The channel is empty (and some sender is still there).
    Empty,
    /// The channel is empty and every sender is gone.
    Disconnected,
}

/// [`Receiver::recv_timeout`](crate::Receiver::recv_timeout) or
/// [`recv_deadline`](crate::Receiver::recv_deadline) failed.
///
/// ```
/// use std::time::{Duration, Instant};
/// use hotq_mpmc::RecvTimeoutError;
///
/// let (tx, rx) = hotq_mpmc::bounded::<u8>(1);
/// // A deadline in the past never blocks.
/// assert_eq!(rx.recv_deadline(Instant::now()), Err(RecvTimeoutError::Timeout));
/// drop(tx);
/// assert_eq!(rx.recv_timeout(Duration::from_secs(60)), Err(RecvTimeoutError::Disconnected));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecvTimeoutError {
    /// The channel stayed empty until the deadline.
    Timeout,
    /// The channel is empty and every sender is gone.
    Disconnected,
}

impl<T> SendError<T> {
    /// The value that was not sent.
    ///
    /// ```
    /// assert_eq!(hotq_mpmc::SendError(7).into_inner(), 7);
    /// ```
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> TrySendError<T> {
    /// The value that was not sent.
    ///
    /// ```
    /// assert_eq!(hotq_mpmc::TrySendError::Full(7).into_inner(), 7);
    /// ```
    pub fn into_inner(self) -> T {
        match self {
            TrySendError::Full(v) | TrySendError::Disconnected(v) => v,
        }
    }

    /// Whether the channel was full.
    ///
    /// ```
    /// assert!(hotq_mpmc::TrySendError::Full(()).is_full());
    /// ```
    pub fn is_full(&self) -> bool {
        matches!(self, TrySendError::Full(_))
    }

    /// Whether every receiver was gone.
    ///
    /// ```
    /// assert!(hotq_mpmc::TrySendError::Disconnected(()).is_disconnected());
    /// ```
    pub fn is_disconnected(&self) -> bool {
        matches!(self, TrySendError::Disconnected(_))
    }
}

impl<T> SendTimeoutError<T> {
    /// The value that was not sent.
    ///
    /// ```
    /// assert_eq!(hotq_mpmc::SendTimeoutError::Timeout(7).into_inner(), 7);
    /// ```
    pub fn into_inner(self) -> T {
        match self {
            SendTimeoutError::Timeout(v) | SendTimeoutError::Disconnected(v) => v,
        }
    }

    /// Whether the deadline passed.
    ///
    /// ```
    /// assert!(hotq_mpmc::SendTimeoutError::Timeout(()).is_timeout());
    /// ```
    pub fn is_timeout(&self) -> bool {
        matches!(self, SendTimeoutError::Timeout(_))
    }

    /// Whether every receiver was gone.
    ///
    /// ```
    /// assert!(hotq_mpmc::SendTimeoutError::Disconnected(()).is_disconnected());
    /// ```
    pub fn is_disconnected(&self) -> bool {
        matches!(self, SendTimeoutError::Disconnected(_))
    }
}

impl TryRecvError {
    /// Whether the channel was empty.
    ///
    /// ```
    /// assert!(hotq_mpmc::TryRecvError::Empty.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        matches!(self, TryRecvError::Empty)
    }

    /// Whether the channel was empty with every sender gone.
    ///
    /// ```
    /// assert!(hotq_mpmc::TryRecvError::Disconnected.is_disconnected());
    /// ```
    pub fn is_disconnected(&self) -> bool {
        matches!(self, TryRecvError::Disconnected)
    }
}

impl RecvTimeoutError {
    /// Whether the deadline passed.
    ///
    /// ```
    /// assert!(hotq_mpmc::RecvTimeoutError::Timeout.is_timeout());
    /// ```
    pub fn is_timeout(&self) -> bool {
        matches!(self, RecvTimeoutError::Timeout)
    }

    /// Whether the channel was empty with every sender gone.
    ///
    /// ```
    /// assert!(hotq_mpmc::RecvTimeoutError::Disconnected.is_disconnected());
    /// ```
    pub fn is_disconnected(&self) -> bool {
        matches!(self, RecvTimeoutError::Disconnected)
    }
}

// `Debug` without `T: Debug` (as crossbeam-channel's): an error can be
// `unwrap`ped whatever the message type is; the value shows as `..`.
impl<T> fmt::Debug for SendError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SendError(..)")
    }
}

impl<T> fmt::Debug for TrySendError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrySendError::Full(_) => f.write_str("Full(..)"),
            TrySendError::Disconnected(_) => f.write_str("Disconnected(..)"),
        }
    }
}

impl<T> fmt::Debug for SendTimeoutError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SendTimeoutError::Timeout(_) => f.write_str("Timeout(..)"),
            SendTimeoutError::Disconnected(_) => f.write_str("Disconnected(..)"),
        }
    }
}

impl<T> fmt::Display for SendError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("sending on a disconnected channel")
    }
}

impl<T> fmt::Display for TrySendError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrySendError::Full(_) => f.write_str("sending on a full channel"),
            TrySendError::Disconnected(_) => f.write_str("sending on a disconnected channel"),
        }
    }
}

impl<T> fmt::Display for SendTimeoutError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SendTimeoutError::Timeout(_) => f.write_str("timed out waiting on send operation"),
            SendTimeoutError::Disconnected(_) => f.write_str("sending on a disconnected channel"),
        }
    }
}

impl fmt::Display for RecvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("receiving on an empty and disconnected channel")
    }
}

impl fmt::Display for TryRecvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TryRecvError::Empty => f.write_str("receiving on an empty channel"),
            TryRecvError::Disconnected => {
                f.write_str("receiving on an empty and disconnected channel")
            }
        }
    }
}

impl fmt::Display for RecvTimeoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecvTimeoutError::Timeout => f.write_str("timed out waiting on receive operation"),
            RecvTimeoutError::Disconnected => {
                f.write_str("receiving on an empty and disconnected channel")
            }
        }
    }
}

impl<T> core::error::Error for SendError<T> {}
impl<T> core::error::Error for TrySendError<T> {}
impl<T> core::error::Error for SendTimeoutError<T> {}
impl core::error::Error for RecvError {}
impl core::error::Error for TryRecvError {}
impl core::error::Error for RecvTimeoutError {}

impl<T> From<SendError<T>> for TrySendError<T> {
    fn from(SendError(v): SendError<T>) -> Self {
        TrySendError::Disconnected(v)
    }
}

impl<T> From<SendError<T>> for SendTimeoutError<T> {
    fn from(SendError(v): SendError<T>) -> Self {
        SendTimeoutError::Disconnected(v)
    }
}

impl From<RecvError> for TryRecvError {
    fn from(_: RecvError) -> Self {
        TryRecvError::Disconnected
    }
}

impl From<RecvError> for RecvTimeoutError {
    fn from(_: RecvError) -> Self {
        RecvTimeoutError::Disconnected
    }
}
