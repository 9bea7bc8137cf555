//! Why a [`Select`](crate::Select) call ended without an operation: the
//! same four types as `crossbeam_channel`'s.

use core::fmt;

/// [`Select::try_select`](crate::Select::try_select) found no operation
/// that could go ahead without blocking.
///
/// ```
/// let (_tx, rx) = hotq_mpmc::bounded::<u8>(1);
/// let mut sel = hotq_mpmc::Select::new();
/// sel.recv(&rx);
/// let err = sel.try_select().unwrap_err();
/// assert_eq!(err, hotq_mpmc::TrySelectError);
/// assert_eq!(err.to_string(), "no operation of the select could go ahead without blocking");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TrySelectError;

/// [`Select::select_timeout`](crate::Select::select_timeout) or
/// [`select_deadline`](crate::Select::select_deadline) reached its
/// deadline with no operation able to go ahead.
///
/// ```
/// use std::time::Duration;
///
/// let (_tx, rx) = hotq_mpmc::bounded::<u8>(1);
/// let mut sel = hotq_mpmc::Select::new();
/// sel.recv(&rx);
/// let err = sel.select_timeout(Duration::from_millis(1)).unwrap_err();
/// assert_eq!(err, hotq_mpmc::SelectTimeoutError);
/// assert_eq!(err.to_string(), "the select's deadline passed before an operation could go ahead");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SelectTimeoutError;

/// [`Select::try_ready`](crate::Select::try_ready) found no operation
/// ready.
///
/// ```
/// let (_tx, rx) = hotq_mpmc::bounded::<u8>(1);
/// let mut sel = hotq_mpmc::Select::new();
/// sel.recv(&rx);
/// let err = sel.try_ready().unwrap_err();
/// assert_eq!(err, hotq_mpmc::TryReadyError);
/// assert_eq!(err.to_string(), "no operation of the select was ready");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TryReadyError;

/// [`Select::ready_timeout`](crate::Select::ready_timeout) or
/// [`ready_deadline`](crate::Select::ready_deadline) reached its deadline
/// with no operation ready.
///
/// ```
/// use std::time::Duration;
///
/// let (_tx, rx) = hotq_mpmc::bounded::<u8>(1);
/// let mut sel = hotq_mpmc::Select::new();
/// sel.recv(&rx);
/// let err = sel.ready_timeout(Duration::from_millis(1)).unwrap_err();
/// assert_eq!(err, hotq_mpmc::ReadyTimeoutError);
/// assert_eq!(err.to_string(), "the select's deadline passed before an operation was ready");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReadyTimeoutError;

impl fmt::Display for TrySelectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no operation of the select could go ahead without blocking")
    }
}

impl fmt::Display for SelectTimeoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the select's deadline passed before an operation could go ahead")
    }
}

impl fmt::Display for TryReadyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no operation of the select was ready")
    }
}

impl fmt::Display for ReadyTimeoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the select's deadline passed before an operation was ready")
    }
}

impl core::error::Error for TrySelectError {}
impl core::error::Error for SelectTimeoutError {}
impl core::error::Error for TryReadyError {}
impl core::error::Error for ReadyTimeoutError {}
