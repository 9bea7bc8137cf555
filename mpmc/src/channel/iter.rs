//! Iterating over what a receiver receives.

use core::fmt;

use super::Receiver;

/// The blocking iterator of [`Receiver::iter`]: each `next` is a
/// [`recv`](Receiver::recv); it ends when the channel is empty and every
/// sender is gone.
///
/// ```
/// let (tx, rx) = hotq_mpmc::bounded(2);
/// tx.send(1).unwrap();
/// drop(tx);
/// let mut it = rx.iter();
/// assert_eq!(it.next(), Some(1));
/// assert_eq!(it.next(), None);
/// ```
pub struct Iter<'a, T> {
    pub(super) receiver: &'a Receiver<T>,
}

/// The non-blocking iterator of [`Receiver::try_iter`]: each `next` is a
/// [`try_recv`](Receiver::try_recv); it ends at the first empty (or
/// disconnected) channel.
///
/// ```
/// let (tx, rx) = hotq_mpmc::bounded(2);
/// tx.send(1).unwrap();
/// let mut it = rx.try_iter();
/// assert_eq!(it.next(), Some(1));
/// assert_eq!(it.next(), None);
/// ```
pub struct TryIter<'a, T> {
    pub(super) receiver: &'a Receiver<T>,
}

/// The owning blocking iterator of `Receiver`'s `IntoIterator`: as
/// [`Iter`], holding the receiver.
///
/// ```
/// let (tx, rx) = hotq_mpmc::bounded(2);
/// std::thread::spawn(move || tx.send("x").unwrap());
/// assert_eq!(rx.into_iter().collect::<Vec<_>>(), ["x"]);
/// ```
pub struct IntoIter<T> {
    receiver: Receiver<T>,
}

impl<T> Iterator for Iter<'_, T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        self.receiver.recv().ok()
    }
}

impl<T> Iterator for TryIter<'_, T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        self.receiver.try_recv().ok()
    }
}

impl<T> Iterator for IntoIter<T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        self.receiver.recv().ok()
    }
}

impl<'a, T> IntoIterator for &'a Receiver<T> {
    type Item = T;
    type IntoIter = Iter<'a, T>;

    /// As [`Receiver::iter`].
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded(2);
    /// tx.send(1).unwrap();
    /// drop(tx);
    /// for item in &rx {
    ///     assert_eq!(item, 1);
    /// }
    /// ```
    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<T> IntoIterator for Receiver<T> {
    type Item = T;
    type IntoIter = IntoIter<T>;

    /// A blocking iterator that owns the receiver.
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded(2);
    /// tx.send(1).unwrap();
    /// drop(tx);
    /// assert_eq!(rx.into_iter().collect::<Vec<_>>(), [1]);
    /// ```
    fn into_iter(self) -> IntoIter<T> {
        IntoIter { receiver: self }
    }
}

impl<T> fmt::Debug for Iter<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Iter").finish_non_exhaustive()
    }
}

impl<T> fmt::Debug for TryIter<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TryIter").finish_non_exhaustive()
    }
}

impl<T> fmt::Debug for IntoIter<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IntoIter").finish_non_exhaustive()
    }
}
