//! [`SingleProducer`]: the handle of a disruptor with one producer thread.

use std::time::Duration;

use super::{Handle, check_batch, write_batch, write_one};
use crate::batch::BatchIterMut;
use crate::error::{PublishError, ShutdownError};
use crate::sequence::Sequence;
use crate::sequencer::SingleProducerSequencer;
use crate::sequencer::Wait;
use crate::shared::Shared;
use crate::sync::Arc;

/// The producer of a disruptor with one producer thread: `Send`, not
/// `Clone`. Built by [`Builder::build_single_producer`](crate::Builder::build_single_producer).
///
/// ```
/// use hotq_disruptor::Disruptor;
/// use std::sync::mpsc;
///
/// let (tx, rx) = mpsc::channel();
/// let mut producer = Disruptor::builder(8, || 0u64)
///     .handle_events_with(move |e: &u64, _seq, _eob| tx.send(*e).unwrap())
///     .build_single_producer()?;
/// // Moved to the thread that publishes.
/// let publisher = std::thread::spawn(move || {
///     for v in 0..5 {
///         producer.publish(|e| *e = v).unwrap();
///     }
///     producer.shutdown().unwrap();
/// });
/// publisher.join().unwrap();
/// assert_eq!(rx.iter().collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Dropping it closes the stream and ignores the result; it never panics
/// and never waits on an [`EventPoller`](crate::EventPoller): every
/// handler that is after no poller handles every published event and its
/// thread is joined, while a poller (and any handler after one) gets what
/// is left when it is polled, then `Err(PollError::Halted)`. So the thread
/// that holds a poller can drop the producer and then poll to the end.
/// [`shutdown`](Self::shutdown) waits for the pollers too.
pub struct SingleProducer<E> {
    handle: Handle<E>,
    sequencer: SingleProducerSequencer,
}

impl<E> SingleProducer<E> {
    pub(crate) fn new(shared: Arc<Shared<E>>) -> Self {
        SingleProducer {
            sequencer: SingleProducerSequencer::new(shared.ring.size()),
            handle: Handle::new(shared),
        }
    }

    /// Claims the next event, lets `f` write it in place (the event still
    /// holds whatever it held a lap ago), publishes it, and returns its
    /// sequence. While the ring is full it waits (spins, yields, then naps)
    /// for the slowest consumer.
    ///
    /// If `f` panics the event is published anyway, as far as `f` got, so
    /// the consumers never wait on a hole; then the panic goes on.
    ///
    /// # Errors
    /// [`PublishError::Halted`] if the disruptor is halted, also while this
    /// call is waiting for room.
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, PublishError};
    ///
    /// let mut producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .build_single_producer()?;
    /// assert_eq!(producer.publish(|e| *e = 42), Ok(0));
    /// assert_eq!(producer.publish(|e| *e = 43), Ok(1));
    /// producer.halt();
    /// assert_eq!(producer.publish(|e| *e = 44), Err(PublishError::Halted));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn publish<F: FnOnce(&mut E)>(&mut self, f: F) -> Result<Sequence, PublishError> {
        let seq = self
            .sequencer
            .claim(&self.handle.shared, 1, Wait::Forever)?;
        Ok(write_one::<E, true>(&self.handle.shared, seq, f))
    }

    /// As [`publish`](Self::publish), but fails instead of waiting.
    ///
    /// # Errors
    /// [`PublishError::Full`] if the slowest consumer is a whole ring
    /// behind, [`PublishError::Halted`] if halted.
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, PublishError};
    /// use std::sync::mpsc;
    ///
    /// let (gate_tx, gate) = mpsc::channel::<()>();
    /// let mut producer = Disruptor::builder(2, || 0u64)
    ///     .handle_events_with(move |_e: &u64, _seq, _eob| gate.recv().unwrap())
    ///     .build_single_producer()?;
    /// assert_eq!(producer.try_publish(|e| *e = 1), Ok(0));
    /// assert_eq!(producer.try_publish(|e| *e = 2), Ok(1));
    /// // The handler holds on to event 0: two events in a ring of two.
    /// assert_eq!(producer.try_publish(|e| *e = 3), Err(PublishError::Full));
    /// gate_tx.send(()).unwrap();
    /// gate_tx.send(()).unwrap();
    /// producer.shutdown()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn try_publish<F: FnOnce(&mut E)>(&mut self, f: F) -> Result<Sequence, PublishError> {
        let seq = self.sequencer.claim(&self.handle.shared, 1, Wait::No)?;
        Ok(write_one::<E, true>(&self.handle.shared, seq, f))
    }

    /// Claims `n` consecutive events, lets `f` write them through the
    /// iterator, publishes them together, and returns the highest sequence
    /// (the lowest is that minus `n - 1`). Waits for room as
    /// [`publish`](Self::publish); an unwinding `f` still publishes all `n`.
    ///
    /// # Errors
    /// [`PublishError::BatchSize`] unless `1 <= n <= size` (a larger batch
    /// could never fit: refused, not waited for); [`PublishError::Halted`].
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, PublishError};
    ///
    /// let mut producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .build_single_producer()?;
    /// let last = producer.batch_publish(3, |events| {
    ///     for (i, e) in events.enumerate() {
    ///         *e = i as u64;
    ///     }
    /// })?;
    /// assert_eq!(last, 2);
    /// assert_eq!(
    ///     producer.batch_publish(9, |_| {}),
    ///     Err(PublishError::BatchSize { requested: 9, size: 8 })
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// The events cannot leave the closure: they are published when it
    /// returns.
    ///
    /// ```compile_fail
    /// # use hotq_disruptor::Disruptor;
    /// let mut p = Disruptor::builder(4, || 0u64)
    ///     .handle_events_with(|_: &u64, _, _| {})
    ///     .build_single_producer()
    ///     .unwrap();
    /// let mut kept = None;
    /// p.batch_publish(1, |mut events| kept = events.next()).unwrap();
    /// ```
    #[inline]
    pub fn batch_publish<F: FnOnce(BatchIterMut<'_, E>)>(
        &mut self,
        n: usize,
        f: F,
    ) -> Result<Sequence, PublishError> {
        check_batch(n, self.handle.shared.ring.size())?;
        let hi = self
            .sequencer
            .claim(&self.handle.shared, n, Wait::Forever)?;
        Ok(write_batch::<E, true>(
            &self.handle.shared,
            hi - n as Sequence + 1,
            hi,
            f,
        ))
    }

    /// As [`batch_publish`](Self::batch_publish), but fails with
    /// [`PublishError::Full`] instead of waiting for room for all `n`.
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, PublishError};
    ///
    /// let mut producer = Disruptor::builder(4, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .build_single_producer()?;
    /// assert_eq!(producer.try_batch_publish(4, |events| events.for_each(|e| *e = 1)), Ok(3));
    /// producer.halt();
    /// assert_eq!(producer.try_batch_publish(1, |_| {}), Err(PublishError::Halted));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn try_batch_publish<F: FnOnce(BatchIterMut<'_, E>)>(
        &mut self,
        n: usize,
        f: F,
    ) -> Result<Sequence, PublishError> {
        check_batch(n, self.handle.shared.ring.size())?;
        let hi = self.sequencer.claim(&self.handle.shared, n, Wait::No)?;
        Ok(write_batch::<E, true>(
            &self.handle.shared,
            hi - n as Sequence + 1,
            hi,
            f,
        ))
    }

    /// As [`publish`](Self::publish), but waits for room at most
    /// `timeout`: a handler that is stuck (not panicking) cannot wedge the
    /// producer for ever. The clock is read only if the ring is full.
    ///
    /// # Errors
    /// [`PublishError::Timeout`] if the ring stayed full for `timeout`:
    /// nothing was claimed, `f` did not run, and the next publish gets the
    /// next sequence (no hole). [`PublishError::Halted`].
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, PublishError};
    /// use std::{sync::mpsc, time::Duration};
    ///
    /// let (go, stuck) = mpsc::channel::<()>();
    /// let mut producer = Disruptor::builder(2, || 0u64)
    ///     .handle_events_with(move |_e: &u64, seq, _eob| if seq == 0 { stuck.recv().unwrap() })
    ///     .build_single_producer()?;
    /// let wait = Duration::from_millis(20);
    /// assert_eq!(producer.publish_timeout(wait, |e| *e = 1), Ok(0));
    /// assert_eq!(producer.publish_timeout(wait, |e| *e = 2), Ok(1));
    /// // The handler is stuck on event 0 and the ring of 2 is full:
    /// assert_eq!(producer.publish_timeout(wait, |e| *e = 3), Err(PublishError::Timeout));
    /// go.send(()).unwrap();
    /// assert_eq!(producer.publish_timeout(Duration::from_secs(60), |e| *e = 3), Ok(2));
    /// producer.shutdown()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn publish_timeout<F: FnOnce(&mut E)>(
        &mut self,
        timeout: Duration,
        f: F,
    ) -> Result<Sequence, PublishError> {
        let seq = self
            .sequencer
            .claim(&self.handle.shared, 1, Wait::Within(timeout))?;
        Ok(write_one::<E, true>(&self.handle.shared, seq, f))
    }

    /// As [`batch_publish`](Self::batch_publish), but waits for room for
    /// all `n` at most `timeout`.
    ///
    /// # Errors
    /// [`PublishError::Timeout`] (nothing claimed, as
    /// [`publish_timeout`](Self::publish_timeout)),
    /// [`PublishError::BatchSize`], [`PublishError::Halted`].
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, PublishError};
    /// use std::{sync::mpsc, time::Duration};
    ///
    /// let (go, stuck) = mpsc::channel::<()>();
    /// let mut producer = Disruptor::builder(4, || 0u64)
    ///     .handle_events_with(move |_e: &u64, seq, _eob| if seq == 0 { stuck.recv().unwrap() })
    ///     .build_single_producer()?;
    /// let wait = Duration::from_millis(20);
    /// assert_eq!(producer.batch_publish_timeout(3, wait, |events| events.for_each(|e| *e = 1)), Ok(2));
    /// // One slot left, two asked for, the handler stuck:
    /// assert_eq!(producer.batch_publish_timeout(2, wait, |_| {}), Err(PublishError::Timeout));
    /// assert_eq!(producer.batch_publish_timeout(1, wait, |_| {}), Ok(3));
    /// go.send(()).unwrap();
    /// producer.shutdown()?;
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
        let hi = self
            .sequencer
            .claim(&self.handle.shared, n, Wait::Within(timeout))?;
        Ok(write_batch::<E, true>(
            &self.handle.shared,
            hi - n as Sequence + 1,
            hi,
            f,
        ))
    }

    /// How many events could be published now without waiting.
    ///
    /// ```
    /// use hotq_disruptor::Disruptor;
    ///
    /// let mut producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .build_single_producer()?;
    /// assert_eq!(producer.remaining_capacity(), 8);
    /// producer.publish(|e| *e = 1)?;
    /// assert!(producer.remaining_capacity() >= 7);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn remaining_capacity(&self) -> usize {
        self.sequencer.remaining_capacity(&self.handle.shared)
    }

    /// Halts the disruptor now, without draining: every processor stops at
    /// its next batch (a parked one wakes), every waiting or future publish
    /// returns [`PublishError::Halted`]. A shutdown afterwards joins the
    /// threads and returns `Ok(())` unless a handler panicked.
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, PublishError};
    ///
    /// let mut producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .build_single_producer()?;
    /// producer.halt();
    /// assert!(producer.is_halted());
    /// assert_eq!(producer.try_publish(|e| *e = 1), Err(PublishError::Halted));
    /// producer.shutdown()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn halt(&self) {
        self.handle.halt();
    }

    /// True once halted: by [`halt`](Self::halt) or by a handler's panic.
    ///
    /// ```
    /// use hotq_disruptor::Disruptor;
    ///
    /// let producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .build_single_producer()?;
    /// assert!(!producer.is_halted());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn is_halted(&self) -> bool {
        self.handle.is_halted()
    }

    /// Drains every published event through every handler (including
    /// events published before the processors ran), halts, joins the
    /// processors' threads.
    ///
    /// # Errors
    /// [`ShutdownError::Panicked`] with the first handler panic (the
    /// default policy halted on it, so the drain stopped there).
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, ShutdownError};
    ///
    /// let mut producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with(|_e: &u64, seq, _eob| assert!(seq < 1, "boom"))
    ///     .build_single_producer()?;
    /// producer.publish(|e| *e = 1)?;
    /// let _ = producer.publish(|e| *e = 2); // the handler panics on it
    /// let Err(ShutdownError::Panicked(panic)) = producer.shutdown() else { panic!() };
    /// assert_eq!(panic.sequence(), Some(1));
    /// assert!(panic.message().contains("boom"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn shutdown(self) -> Result<(), ShutdownError> {
        self.handle.release(None)
    }

    /// As [`shutdown`](Self::shutdown), but gives up draining after `timeout`.
    ///
    /// # Errors
    /// [`ShutdownError::Timeout`] if the drain took longer: the disruptor
    /// is halted, and its threads exit on their own once their handler
    /// returns; [`ShutdownError::Panicked`] as `shutdown`.
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, ShutdownError};
    /// use std::time::Duration;
    ///
    /// let mut producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| std::thread::sleep(Duration::from_millis(200)))
    ///     .build_single_producer()?;
    /// producer.publish(|e| *e = 1)?;
    /// assert_eq!(
    ///     producer.shutdown_timeout(Duration::from_millis(10)),
    ///     Err(ShutdownError::Timeout(Duration::from_millis(10)))
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn shutdown_timeout(self, timeout: Duration) -> Result<(), ShutdownError> {
        self.handle.release(Some(timeout))
    }
}

impl<E> core::fmt::Debug for SingleProducer<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.handle.debug("SingleProducer", f)
    }
}
