//! The events of one claimed batch, for the producer to fill.

use core::marker::PhantomData;

use crate::ring_buffer::RingBuffer;
use crate::sequence::Sequence;

/// The events of a claimed batch, in sequence order, each once, as `&mut E`:
/// see [`SingleProducer::batch_publish`](crate::SingleProducer::batch_publish).
///
/// ```
/// use hotq_disruptor::Disruptor;
///
/// let mut producer = Disruptor::builder(8, || 0u64)
///     .handle_events_with(|e: &u64, seq, _eob| assert_eq!(*e, 100 + seq as u64))
///     .build_single_producer()?;
/// producer.batch_publish(4, |events| {
///     assert_eq!(events.len(), 4);
///     for (e, v) in events.zip(100..) {
///         *e = v;
///     }
/// })?;
/// producer.shutdown()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Invariant: `next..=last` are claimed by this producer and unpublished,
/// so nobody else touches their slots until the batch is published (when
/// the closure returns, or unwinds).
pub struct BatchIterMut<'a, E> {
    ring: &'a RingBuffer<E>,
    next: Sequence,
    last: Sequence,
    _events: PhantomData<&'a mut E>,
}

impl<E> core::fmt::Debug for BatchIterMut<'_, E> {
    /// The sequences still to come (the events need not be `Debug`).
    ///
    /// ```
    /// use hotq_disruptor::Disruptor;
    ///
    /// let mut producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .build_single_producer()?;
    /// producer.batch_publish(2, |events| {
    ///     assert_eq!(format!("{events:?}"), "BatchIterMut { next: 0, last: 1 }");
    /// })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("BatchIterMut")
            .field("next", &self.next)
            .field("last", &self.last)
            .finish()
    }
}

impl<'a, E> BatchIterMut<'a, E> {
    /// # Safety
    /// The caller has claimed `first..=last` and publishes it only after the
    /// iterator (and every reference it gave) is gone.
    pub(crate) unsafe fn new(ring: &'a RingBuffer<E>, first: Sequence, last: Sequence) -> Self {
        BatchIterMut {
            ring,
            next: first,
            last,
            _events: PhantomData,
        }
    }

    /// The sequence of the next event the iterator will yield (one past the
    /// batch once it is exhausted).
    ///
    /// ```
    /// use hotq_disruptor::Disruptor;
    ///
    /// let mut producer = Disruptor::builder(8, || 0i64)
    ///     .handle_events_with(|e: &i64, seq, _eob| assert_eq!(*e, seq))
    ///     .build_single_producer()?;
    /// producer.publish(|e| *e = 0)?;
    /// producer.batch_publish(3, |mut events| {
    ///     assert_eq!((events.len(), events.next_sequence()), (3, 1));
    ///     loop {
    ///         let seq = events.next_sequence();
    ///         let Some(e) = events.next() else { break };
    ///         *e = seq; // sequences 1, 2, 3
    ///     }
    /// })?;
    /// producer.shutdown()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn next_sequence(&self) -> Sequence {
        self.next
    }
}

impl<'a, E> Iterator for BatchIterMut<'a, E> {
    type Item = &'a mut E;

    #[inline]
    fn next(&mut self) -> Option<&'a mut E> {
        if self.next > self.last {
            return None;
        }
        let s = self.next;
        self.next += 1;
        // SAFETY: `s` is claimed and unpublished (type invariant), and the
        // iterator yields each sequence once, so this `&mut` is the only
        // reference to the event; it lives no longer than `'a`, which ends
        // before the batch is published.
        Some(unsafe { &mut *self.ring.get_mut_ptr(s) })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.last - self.next + 1).max(0) as usize;
        (n, Some(n))
    }
}

impl<E> ExactSizeIterator for BatchIterMut<'_, E> {}
impl<E> core::iter::FusedIterator for BatchIterMut<'_, E> {}
