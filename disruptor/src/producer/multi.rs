//! [`MultiProducer`]: a handle of a disruptor with several producer
//! threads, one clone each.

use std::time::Duration;

use super::{Handle, check_batch, write_batch, write_one};
use crate::batch::BatchIterMut;
use crate::error::{PublishError, ShutdownError};
use crate::sequence::Sequence;
use crate::sequencer::MultiProducerSequencer;
use crate::sequencer::Wait;
use crate::shared::Shared;
use crate::sync::Arc;

/// A producer handle of a disruptor with several producer threads:
/// `Clone + Send`, one clone per thread. Built by
/// [`Builder::build_multi_producer`](crate::Builder::build_multi_producer).
///
/// The clones share the disruptor. [`halt`](Self::halt) from any clone
/// halts it for all. A [`shutdown`](Self::shutdown) (or drop) of a clone
/// while others live only lets that clone go (it reports a panic recorded
/// so far). The last clone's `shutdown` drains every published event,
/// halts and joins, as [`SingleProducer::shutdown`](crate::SingleProducer::shutdown)
/// does, and returns the result; the last clone's drop closes the stream
/// as [`SingleProducer`](crate::SingleProducer)'s does: the handlers still
/// see every published event, but it never waits on a poller and reports
/// no panic.
///
/// ```
/// use hotq_disruptor::Disruptor;
/// use std::sync::{Arc, atomic::{AtomicU64, Ordering}};
///
/// let sum = Arc::new(AtomicU64::new(0));
/// let s = sum.clone();
/// let producer = Disruptor::builder(2, || 0u64) // any power of two, even 1
///     .handle_events_with(move |e: &u64, _seq, _eob| { s.fetch_add(*e, Ordering::Relaxed); })
///     .build_multi_producer()?;
/// let threads: Vec<_> = (0..4)
///     .map(|_| {
///         let mut p = producer.clone();
///         std::thread::spawn(move || {
///             for v in 1..=100 {
///                 p.publish(|e| *e = v).unwrap();
///             }
///         })
///     })
///     .collect();
/// for t in threads {
///     t.join().unwrap();
/// }
/// producer.shutdown()?; // the last handle: drains and joins
/// assert_eq!(sum.load(Ordering::Relaxed), 4 * 5050);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct MultiProducer<E> {
    handle: Handle<E>,
    sequencer: MultiProducerSequencer,
}

impl<E> MultiProducer<E> {
    pub(crate) fn new(shared: Arc<Shared<E>>) -> Self {
        MultiProducer {
            sequencer: MultiProducerSequencer::new(shared.ring.size()),
            handle: Handle::new(shared),
        }
    }

    /// As [`SingleProducer::publish`](crate::SingleProducer::publish): claims (racing the other clones),
    /// writes, publishes; waits while the ring is full.
    ///
    /// # Errors
    /// [`PublishError::Halted`], also while waiting for room.
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, PublishError};
    ///
    /// let mut producer = Disruptor::builder(1, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .build_multi_producer()?;
    /// assert_eq!(producer.publish(|e| *e = 1), Ok(0));
    /// producer.halt();
    /// assert_eq!(producer.publish(|e| *e = 2), Err(PublishError::Halted));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn publish<F: FnOnce(&mut E)>(&mut self, f: F) -> Result<Sequence, PublishError> {
        let (seq, _) = self
            .sequencer
            .claim(&self.handle.shared, 1, Wait::Forever)?;
        Ok(write_one::<E, false>(&self.handle.shared, seq, f))
    }

    /// As [`SingleProducer::try_publish`](crate::SingleProducer::try_publish).
    ///
    /// # Errors
    /// [`PublishError::Full`], [`PublishError::Halted`].
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, PublishError};
    /// use std::sync::mpsc;
    ///
    /// let (gate_tx, gate) = mpsc::channel::<()>();
    /// let mut producer = Disruptor::builder(1, || 0u64)
    ///     .handle_events_with(move |_e: &u64, _seq, _eob| gate.recv().unwrap())
    ///     .build_multi_producer()?;
    /// assert_eq!(producer.try_publish(|e| *e = 1), Ok(0));
    /// assert_eq!(producer.try_publish(|e| *e = 2), Err(PublishError::Full));
    /// gate_tx.send(()).unwrap();
    /// producer.shutdown()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn try_publish<F: FnOnce(&mut E)>(&mut self, f: F) -> Result<Sequence, PublishError> {
        let (seq, _) = self.sequencer.claim(&self.handle.shared, 1, Wait::No)?;
        Ok(write_one::<E, false>(&self.handle.shared, seq, f))
    }

    /// As [`SingleProducer::batch_publish`](crate::SingleProducer::batch_publish): the `n` sequences are
    /// consecutive, whatever the other clones do.
    ///
    /// # Errors
    /// [`PublishError::BatchSize`] unless `1 <= n <= size`; [`PublishError::Halted`].
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, PublishError};
    ///
    /// let mut producer = Disruptor::builder(4, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .build_multi_producer()?;
    /// assert_eq!(producer.batch_publish(4, |events| events.for_each(|e| *e = 7)), Ok(3));
    /// assert_eq!(
    ///     producer.batch_publish(0, |_| {}),
    ///     Err(PublishError::BatchSize { requested: 0, size: 4 })
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn batch_publish<F: FnOnce(BatchIterMut<'_, E>)>(
        &mut self,
        n: usize,
        f: F,
    ) -> Result<Sequence, PublishError> {
        check_batch(n, self.handle.shared.ring.size())?;
        let (lo, hi) = self
            .sequencer
            .claim(&self.handle.shared, n, Wait::Forever)?;
        Ok(write_batch::<E, false>(&self.handle.shared, lo, hi, f))
    }

    /// As [`SingleProducer::try_batch_publish`](crate::SingleProducer::try_batch_publish).
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, PublishError};
    ///
    /// let mut producer = Disruptor::builder(4, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .build_multi_producer()?;
    /// assert_eq!(producer.try_batch_publish(2, |events| events.for_each(|e| *e = 7)), Ok(1));
    /// producer.halt();
    /// assert_eq!(producer.try_batch_publish(2, |_| {}), Err(PublishError::Halted));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn try_batch_publish<F: FnOnce(BatchIterMut<'_, E>)>(
        &mut self,
        n: usize,
        f: F,
    ) -> Result<Sequence, PublishError> {
        check_batch(n, self.handle.shared.ring.size())?;
        let (lo, hi) = self.sequencer.claim(&self.handle.shared, n, Wait::No)?;
        Ok(write_batch::<E, false>(&self.handle.shared, lo, hi, f))
    }

    /// As [`SingleProducer::publish_timeout`](crate::SingleProducer::publish_timeout):
    /// waits for room at most `timeout`, and on [`PublishError::Timeout`]
    /// has claimed nothing (no CAS was made, so no other clone waits on a
    /// hole).
    ///
    /// # Errors
    /// [`PublishError::Timeout`], [`PublishError::Halted`].
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, PublishError};
    /// use std::{sync::mpsc, time::Duration};
    ///
    /// let (go, stuck) = mpsc::channel::<()>();
    /// let mut producer = Disruptor::builder(1, || 0u64)
    ///     .handle_events_with(move |_e: &u64, seq, _eob| if seq == 0 { stuck.recv().unwrap() })
    ///     .build_multi_producer()?;
    /// let mut other = producer.clone();
    /// assert_eq!(producer.publish_timeout(Duration::from_millis(20), |e| *e = 1), Ok(0));
    /// assert_eq!(other.publish_timeout(Duration::from_millis(20), |e| *e = 2), Err(PublishError::Timeout));
    /// go.send(()).unwrap();
    /// assert_eq!(other.publish_timeout(Duration::from_secs(60), |e| *e = 2), Ok(1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn publish_timeout<F: FnOnce(&mut E)>(
        &mut self,
        timeout: Duration,
        f: F,
    ) -> Result<Sequence, PublishError> {
        let (seq, _) = self
            .sequencer
            .claim(&self.handle.shared, 1, Wait::Within(timeout))?;
        Ok(write_one::<E, false>(&self.handle.shared, seq, f))
    }

    /// As [`SingleProducer::batch_publish_timeout`](crate::SingleProducer::batch_publish_timeout).
    ///
    /// # Errors
    /// [`PublishError::Timeout`], [`PublishError::BatchSize`],
    /// [`PublishError::Halted`].
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, PublishError};
    /// use std::time::Duration;
    ///
    /// let mut producer = Disruptor::builder(4, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .build_multi_producer()?;
    /// assert_eq!(producer.batch_publish_timeout(4, Duration::from_secs(1), |_| {}), Ok(3));
    /// assert_eq!(
    ///     producer.batch_publish_timeout(5, Duration::from_secs(1), |_| {}),
    ///     Err(PublishError::BatchSize { requested: 5, size: 4 })
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn batch_publish_timeout<F: FnOnce(BatchIterMut<'_, E>)>(
        &mut self,
        n: usize,
        timeout: Duration,
        f: F,
    ) -> Result<Sequence, PublishError> {
        check_batch(n, self.handle.shared.ring.size())?;
        let (lo, hi) = self
            .sequencer
            .claim(&self.handle.shared, n, Wait::Within(timeout))?;
        Ok(write_batch::<E, false>(&self.handle.shared, lo, hi, f))
    }

    /// How many events could be published now without waiting (the other
    /// clones may take them first).
    ///
    /// ```
    /// use hotq_disruptor::Disruptor;
    ///
    /// let producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .build_multi_producer()?;
    /// assert_eq!(producer.remaining_capacity(), 8);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn remaining_capacity(&self) -> usize {
        self.sequencer.remaining_capacity(&self.handle.shared)
    }

    /// As [`SingleProducer::halt`](crate::SingleProducer::halt): halts the disruptor for every clone.
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, PublishError};
    ///
    /// let producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .build_multi_producer()?;
    /// let mut other = producer.clone();
    /// producer.halt();
    /// assert_eq!(other.publish(|e| *e = 1), Err(PublishError::Halted));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn halt(&self) {
        self.handle.halt();
    }

    /// True once halted.
    ///
    /// ```
    /// use hotq_disruptor::Disruptor;
    ///
    /// let producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .build_multi_producer()?;
    /// assert!(!producer.is_halted());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn is_halted(&self) -> bool {
        self.handle.is_halted()
    }

    /// Lets this handle go. The last handle drains, halts and joins as
    /// [`SingleProducer::shutdown`](crate::SingleProducer::shutdown); any other returns at once.
    ///
    /// # Errors
    /// [`ShutdownError::Panicked`] with the first handler panic recorded
    /// (so far, for a handle that is not the last).
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, ShutdownError};
    ///
    /// let mut producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| panic!("boom"))
    ///     .build_multi_producer()?;
    /// let other = producer.clone();
    /// let _ = producer.publish(|e| *e = 1);
    /// other.shutdown().ok(); // not the last: returns at once
    /// let Err(ShutdownError::Panicked(p)) = producer.shutdown() else { panic!() };
    /// assert_eq!(p.message(), "boom");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn shutdown(self) -> Result<(), ShutdownError> {
        self.handle.release(None)
    }

    /// As [`shutdown`](Self::shutdown), the last handle giving up the drain
    /// after `timeout` (as [`SingleProducer::shutdown_timeout`](crate::SingleProducer::shutdown_timeout)).
    ///
    /// # Errors
    /// [`ShutdownError::Timeout`], [`ShutdownError::Panicked`].
    ///
    /// ```
    /// use hotq_disruptor::Disruptor;
    /// use std::time::Duration;
    ///
    /// let producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .build_multi_producer()?;
    /// producer.shutdown_timeout(Duration::from_secs(5))?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn shutdown_timeout(self, timeout: Duration) -> Result<(), ShutdownError> {
        self.handle.release(Some(timeout))
    }
}

impl<E> Clone for MultiProducer<E> {
    /// Another handle on the same disruptor, with its own claim cache.
    fn clone(&self) -> Self {
        MultiProducer {
            handle: self.handle.clone(),
            sequencer: self.sequencer.clone(),
        }
    }
}

impl<E> core::fmt::Debug for MultiProducer<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.handle.debug("MultiProducer", f)
    }
}
