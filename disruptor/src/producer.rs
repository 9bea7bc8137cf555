//! The producer handles: [`SingleProducer`] and [`MultiProducer`].

use std::time::Duration;

use crate::batch::BatchIterMut;
use crate::error::{PublishError, ShutdownError};
use crate::sequence::Sequence;
use crate::sequencer::{MultiProducerSequencer, SingleProducerSequencer};
use crate::shared::Shared;
use crate::sync::Arc;

/// Publishes `lo..=hi` when dropped: after the producer's closure returns,
/// and also if it unwinds, so a consumer never waits on a claimed slot that
/// nobody will publish (it sees the event as far as the closure got).
struct PublishOnDrop<'a, E> {
    shared: &'a Shared<E>,
    lo: Sequence,
    hi: Sequence,
}

impl<E> Drop for PublishOnDrop<'_, E> {
    #[inline(always)]
    fn drop(&mut self) {
        self.shared.publish(self.lo, self.hi);
    }
}

/// Runs `f` on the claimed event `seq` and publishes it.
#[inline]
fn write_one<E>(shared: &Shared<E>, seq: Sequence, f: impl FnOnce(&mut E)) -> Sequence {
    let publish = PublishOnDrop {
        shared,
        lo: seq,
        hi: seq,
    };
    // SAFETY: `seq` is claimed by this producer and not yet published:
    // every leaf has finished with its slot's previous event, and no
    // consumer reads it before `publish` drops.
    unsafe { shared.ring.write(seq, f) };
    drop(publish);
    seq
}

/// Runs `f` on the claimed events `lo..=hi` and publishes them.
#[inline]
fn write_batch<E>(
    shared: &Shared<E>,
    lo: Sequence,
    hi: Sequence,
    f: impl FnOnce(BatchIterMut<'_, E>),
) -> Sequence {
    let publish = PublishOnDrop { shared, lo, hi };
    // SAFETY: `lo..=hi` is claimed by this producer and unpublished until
    // `publish` drops, after `f` (and every `&mut E` it got) is done.
    f(unsafe { BatchIterMut::new(&shared.ring, lo, hi) });
    drop(publish);
    hi
}

/// Checks a batch size: `1..=size`.
#[inline]
fn check_batch(n: usize, size: usize) -> Result<(), PublishError> {
    if n == 0 || n > size {
        return Err(PublishError::BatchSize { requested: n, size });
    }
    Ok(())
}

/// The producer of a disruptor with one producer thread: `Send`, not
/// `Clone`. Built by [`Builder::build_single_producer`](crate::Builder::build_single_producer).
///
/// Dropping it shuts the disruptor down as [`shutdown`](Self::shutdown)
/// does (drains, joins) and ignores the result; it never panics.
pub struct SingleProducer<E> {
    shared: Arc<Shared<E>>,
    sequencer: SingleProducerSequencer,
    /// True once the shutdown ran (by `shutdown*`), so `Drop` does nothing.
    released: bool,
}

impl<E> SingleProducer<E> {
    pub(crate) fn new(shared: Arc<Shared<E>>) -> Self {
        let sequencer = SingleProducerSequencer::new(shared.ring.size());
        SingleProducer {
            shared,
            sequencer,
            released: false,
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
        let seq = self.sequencer.claim(&self.shared, 1, true)?;
        Ok(write_one(&self.shared, seq, f))
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
        let seq = self.sequencer.claim(&self.shared, 1, false)?;
        Ok(write_one(&self.shared, seq, f))
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
        check_batch(n, self.shared.ring.size())?;
        let hi = self.sequencer.claim(&self.shared, n, true)?;
        Ok(write_batch(&self.shared, hi - n as Sequence + 1, hi, f))
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
        check_batch(n, self.shared.ring.size())?;
        let hi = self.sequencer.claim(&self.shared, n, false)?;
        Ok(write_batch(&self.shared, hi - n as Sequence + 1, hi, f))
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
    pub fn remaining_capacity(&self) -> usize {
        self.sequencer.remaining_capacity(&self.shared)
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
        self.shared.control.halt();
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
    pub fn is_halted(&self) -> bool {
        self.shared.control.is_halted()
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
    pub fn shutdown(mut self) -> Result<(), ShutdownError> {
        self.released = true;
        self.shared.release_producer(None)
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
    pub fn shutdown_timeout(mut self, timeout: Duration) -> Result<(), ShutdownError> {
        self.released = true;
        self.shared.release_producer(Some(timeout))
    }
}

impl<E> Drop for SingleProducer<E> {
    fn drop(&mut self) {
        if !self.released {
            let _ = self.shared.release_producer(None);
        }
    }
}

impl<E> core::fmt::Debug for SingleProducer<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SingleProducer")
            .field("size", &self.shared.ring.size())
            .field("halted", &self.is_halted())
            .finish_non_exhaustive()
    }
}

/// A producer handle of a disruptor with several producer threads:
/// `Clone + Send`, one clone per thread. Built by
/// [`Builder::build_multi_producer`](crate::Builder::build_multi_producer).
///
/// The clones share the disruptor. [`halt`](Self::halt) from any clone
/// halts it for all. A [`shutdown`](Self::shutdown) (or drop) of a clone
/// while others live only lets that clone go (it reports a panic recorded
/// so far); the last clone to go drains every published event, halts and
/// joins, as [`SingleProducer::shutdown`] does, and returns the result.
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
    shared: Arc<Shared<E>>,
    sequencer: MultiProducerSequencer,
    /// True once this handle was let go by `shutdown*`, so `Drop` does nothing.
    released: bool,
}

impl<E> MultiProducer<E> {
    pub(crate) fn new(shared: Arc<Shared<E>>) -> Self {
        let sequencer = MultiProducerSequencer::new(shared.ring.size());
        MultiProducer {
            shared,
            sequencer,
            released: false,
        }
    }

    /// As [`SingleProducer::publish`]: claims (racing the other clones),
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
        let (seq, _) = self.sequencer.claim(&self.shared, 1, true)?;
        Ok(write_one(&self.shared, seq, f))
    }

    /// As [`SingleProducer::try_publish`].
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
        let (seq, _) = self.sequencer.claim(&self.shared, 1, false)?;
        Ok(write_one(&self.shared, seq, f))
    }

    /// As [`SingleProducer::batch_publish`]: the `n` sequences are
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
        check_batch(n, self.shared.ring.size())?;
        let (lo, hi) = self.sequencer.claim(&self.shared, n, true)?;
        Ok(write_batch(&self.shared, lo, hi, f))
    }

    /// As [`SingleProducer::try_batch_publish`].
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
        check_batch(n, self.shared.ring.size())?;
        let (lo, hi) = self.sequencer.claim(&self.shared, n, false)?;
        Ok(write_batch(&self.shared, lo, hi, f))
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
    pub fn remaining_capacity(&self) -> usize {
        self.sequencer.remaining_capacity(&self.shared)
    }

    /// As [`SingleProducer::halt`]: halts the disruptor for every clone.
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
        self.shared.control.halt();
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
    pub fn is_halted(&self) -> bool {
        self.shared.control.is_halted()
    }

    /// Lets this handle go. The last handle drains, halts and joins as
    /// [`SingleProducer::shutdown`]; any other returns at once.
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
    pub fn shutdown(mut self) -> Result<(), ShutdownError> {
        self.released = true;
        self.shared.release_producer(None)
    }

    /// As [`shutdown`](Self::shutdown), the last handle giving up the drain
    /// after `timeout` (as [`SingleProducer::shutdown_timeout`]).
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
    pub fn shutdown_timeout(mut self, timeout: Duration) -> Result<(), ShutdownError> {
        self.released = true;
        self.shared.release_producer(Some(timeout))
    }
}

impl<E> Clone for MultiProducer<E> {
    /// Another handle on the same disruptor, with its own claim cache.
    fn clone(&self) -> Self {
        self.shared.add_producer();
        MultiProducer {
            shared: Arc::clone(&self.shared),
            sequencer: self.sequencer.clone(),
            released: false,
        }
    }
}

impl<E> Drop for MultiProducer<E> {
    fn drop(&mut self) {
        if !self.released {
            let _ = self.shared.release_producer(None);
        }
    }
}

impl<E> core::fmt::Debug for MultiProducer<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("MultiProducer")
            .field("size", &self.shared.ring.size())
            .field("halted", &self.is_halted())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use crate::{BatchIterMut, Disruptor, MultiProducer, PublishError, Sequence, SingleProducer};
    use std::panic::{AssertUnwindSafe, catch_unwind};
    use std::sync::mpsc;
    use std::time::Duration;

    fn assert_send<T: Send>() {}
    fn assert_clone<T: Clone>() {}

    #[test]
    fn producers_are_send_and_the_multi_producer_clones() {
        assert_send::<SingleProducer<u64>>();
        assert_send::<MultiProducer<u64>>();
        assert_clone::<MultiProducer<u64>>();
    }

    /// The two producers, for tests that run on both.
    trait Publish {
        fn one(&mut self, f: &mut dyn FnMut(&mut u64)) -> Result<Sequence, PublishError>;
        fn two(
            &mut self,
            f: &mut dyn FnMut(BatchIterMut<'_, u64>),
        ) -> Result<Sequence, PublishError>;
        fn stop(&self);
    }

    impl Publish for SingleProducer<u64> {
        fn one(&mut self, f: &mut dyn FnMut(&mut u64)) -> Result<Sequence, PublishError> {
            self.publish(f)
        }
        fn two(
            &mut self,
            f: &mut dyn FnMut(BatchIterMut<'_, u64>),
        ) -> Result<Sequence, PublishError> {
            self.batch_publish(2, f)
        }
        fn stop(&self) {
            self.halt()
        }
    }

    impl Publish for MultiProducer<u64> {
        fn one(&mut self, f: &mut dyn FnMut(&mut u64)) -> Result<Sequence, PublishError> {
            self.publish(f)
        }
        fn two(
            &mut self,
            f: &mut dyn FnMut(BatchIterMut<'_, u64>),
        ) -> Result<Sequence, PublishError> {
            self.batch_publish(2, f)
        }
        fn stop(&self) {
            self.halt()
        }
    }

    /// A publish closure that panics still publishes its claimed slots: the
    /// events after it reach the handler (no hole), for one event and for
    /// a batch, with one producer and several. The ring (8) holds all five
    /// events, so a hole wedges the consumer but never the producer, and
    /// the test fails at its deadline instead of hanging.
    fn no_hole_after_a_panicking_closure(
        producer: &mut dyn Publish,
        seen: mpsc::Receiver<(Sequence, u64)>,
    ) {
        let one = catch_unwind(AssertUnwindSafe(|| {
            producer.one(&mut |e| {
                *e = 10;
                panic!("publish closure")
            })
        }));
        assert!(one.is_err());
        producer.one(&mut |e| *e = 11).unwrap();
        let batch = catch_unwind(AssertUnwindSafe(|| {
            producer.two(&mut |mut events| {
                *events.next().unwrap() = 20;
                panic!("half a batch")
            })
        }));
        assert!(batch.is_err());
        producer.one(&mut |e| *e = 21).unwrap();
        let got: Vec<_> = (0..5)
            .map(|_| {
                seen.recv_timeout(Duration::from_secs(30))
                    .unwrap_or_else(|_| {
                        // Halted, the producer's drop does not wait on the hole.
                        producer.stop();
                        panic!("the consumer wedged on a hole")
                    })
            })
            .collect();
        // Sequence 3, the batch's second event, holds whatever it held.
        assert_eq!(
            [got[0], got[1], got[2], got[4]],
            [(0, 10), (1, 11), (2, 20), (4, 21)]
        );
        assert_eq!(got[3].0, 3);
    }

    #[test]
    fn a_panicking_publish_closure_leaves_no_hole() {
        let (tx, rx) = mpsc::channel();
        let mut single = Disruptor::builder(8, || 0u64)
            .handle_events_with(move |e: &u64, seq, _eob| tx.send((seq, *e)).unwrap())
            .build_single_producer()
            .unwrap();
        no_hole_after_a_panicking_closure(&mut single, rx);

        let (tx, rx) = mpsc::channel();
        let mut multi = Disruptor::builder(8, || 0u64)
            .handle_events_with(move |e: &u64, seq, _eob| tx.send((seq, *e)).unwrap())
            .build_multi_producer()
            .unwrap();
        no_hole_after_a_panicking_closure(&mut multi, rx);
    }
}
