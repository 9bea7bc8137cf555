//! Draining a queue that is owned outright.

use core::fmt;

use crate::Queue;

impl<T> IntoIterator for Queue<T> {
    type Item = T;
    type IntoIter = IntoIter<T>;

    /// Drains what is left, in FIFO order.
    ///
    /// ```
    /// let q = hotq_mpmc::Queue::new(4);
    /// q.push(1).unwrap();
    /// q.push(2).unwrap();
    /// assert_eq!(q.into_iter().collect::<Vec<_>>(), [1, 2]);
    /// ```
    fn into_iter(self) -> IntoIter<T> {
        IntoIter { queue: self }
    }
}

/// The items left in a [`Queue`], oldest first; see its `IntoIterator`.
/// Items not iterated are dropped with the iterator.
///
/// ```
/// let q = hotq_mpmc::Queue::new(4);
/// q.push("x").unwrap();
/// let mut items = q.into_iter();
/// assert_eq!(items.len(), 1);
/// assert_eq!(items.next(), Some("x"));
/// assert_eq!(items.next(), None);
/// ```
#[must_use = "iterators are lazy: dropping it drops the items left"]
pub struct IntoIter<T> {
    queue: Queue<T>,
}

impl<T> Iterator for IntoIter<T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        self.queue.pop()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // We own the queue: the length cannot change behind our back.
        let len = self.queue.len();
        (len, Some(len))
    }
}

impl<T> ExactSizeIterator for IntoIter<T> {}

impl<T> core::iter::FusedIterator for IntoIter<T> {}

impl<T> fmt::Debug for IntoIter<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IntoIter")
            .field("remaining", &self.queue.len())
            .finish()
    }
}
