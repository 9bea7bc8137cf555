//! The producer handles, [`SingleProducer`] and [`MultiProducer`], and the
//! [`Producer`] trait for code that works with either.

mod handle;
mod multi;
mod publish;
mod single;

pub use multi::MultiProducer;
pub use single::SingleProducer;

use std::time::Duration;

use handle::Handle;
use publish::{check_batch, write_batch, write_one};

use crate::batch::BatchIterMut;
use crate::error::{PublishError, ShutdownError};
use crate::sequence::Sequence;

/// What both producer handles do: code generic over `P: Producer<E>` runs
/// with one producer or several. Each method is the handle's own (see
/// [`SingleProducer`] for what it does and returns); the handles have them
/// inherent too, so calling them needs no import.
///
/// ```
/// use hotq_disruptor::{Disruptor, Producer, PublishError};
///
/// // Publishes 1..=n, then shuts down; returns the last sequence.
/// fn publish_up_to<P: Producer<u64>>(mut p: P, n: u64) -> Result<i64, PublishError> {
///     let mut last = -1;
///     for v in 1..=n {
///         last = p.publish(|e| *e = v)?;
///     }
///     p.shutdown().expect("no handler panicked");
///     Ok(last)
/// }
///
/// let single = Disruptor::builder(4, || 0u64)
///     .handle_events_with(|_e: &u64, _seq, _eob| {})
///     .build_single_producer()?;
/// assert_eq!(publish_up_to(single, 10), Ok(9));
/// let multi = Disruptor::builder(4, || 0u64)
///     .handle_events_with(|_e: &u64, _seq, _eob| {})
///     .build_multi_producer()?;
/// assert_eq!(publish_up_to(multi, 10), Ok(9));
///
/// let mut halted = Disruptor::builder(4, || 0u64)
///     .handle_events_with(|_e: &u64, _seq, _eob| {})
///     .build_multi_producer()?;
/// Producer::halt(&halted);
/// assert_eq!(Producer::try_publish(&mut halted, |e| *e = 1), Err(PublishError::Halted));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Producer<E> {
    /// As [`SingleProducer::publish`] (or [`MultiProducer::publish`]).
    ///
    /// # Errors
    /// [`PublishError::Halted`].
    ///
    /// ```
    /// # use hotq_disruptor::{Disruptor, Producer, PublishError};
    /// # let p = Disruptor::builder(4, || 0u64).handle_events_with(|_e: &u64, _s, _b| {}).build_single_producer()?;
    /// fn first<P: Producer<u64>>(p: &mut P) -> Result<i64, PublishError> {
    ///     p.publish(|e| *e = 1)
    /// }
    /// let mut p = p;
    /// assert_eq!(first(&mut p), Ok(0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn publish<F: FnOnce(&mut E)>(&mut self, f: F) -> Result<Sequence, PublishError>;

    /// As [`SingleProducer::try_publish`].
    ///
    /// # Errors
    /// [`PublishError::Full`], [`PublishError::Halted`].
    ///
    /// ```
    /// # use hotq_disruptor::{Disruptor, Producer, PublishError};
    /// # let p = Disruptor::builder(4, || 0u64).handle_events_with(|_e: &u64, _s, _b| {}).build_single_producer()?;
    /// fn try_one<P: Producer<u64>>(p: &mut P) -> Result<i64, PublishError> {
    ///     p.try_publish(|e| *e = 1)
    /// }
    /// let mut p = p;
    /// assert_eq!(try_one(&mut p), Ok(0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn try_publish<F: FnOnce(&mut E)>(&mut self, f: F) -> Result<Sequence, PublishError>;

    /// As [`SingleProducer::batch_publish`].
    ///
    /// # Errors
    /// [`PublishError::BatchSize`], [`PublishError::Halted`].
    ///
    /// ```
    /// # use hotq_disruptor::{Disruptor, Producer, PublishError};
    /// # let p = Disruptor::builder(4, || 0u64).handle_events_with(|_e: &u64, _s, _b| {}).build_single_producer()?;
    /// fn pair<P: Producer<u64>>(p: &mut P) -> Result<i64, PublishError> {
    ///     p.batch_publish(2, |events| events.for_each(|e| *e = 1))
    /// }
    /// let mut p = p;
    /// assert_eq!(pair(&mut p), Ok(1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn batch_publish<F: FnOnce(BatchIterMut<'_, E>)>(
        &mut self,
        n: usize,
        f: F,
    ) -> Result<Sequence, PublishError>;

    /// As [`SingleProducer::try_batch_publish`].
    ///
    /// # Errors
    /// [`PublishError::BatchSize`], [`PublishError::Full`],
    /// [`PublishError::Halted`].
    ///
    /// ```
    /// # use hotq_disruptor::{Disruptor, Producer, PublishError};
    /// # let p = Disruptor::builder(4, || 0u64).handle_events_with(|_e: &u64, _s, _b| {}).build_single_producer()?;
    /// fn try_pair<P: Producer<u64>>(p: &mut P) -> Result<i64, PublishError> {
    ///     p.try_batch_publish(2, |events| events.for_each(|e| *e = 1))
    /// }
    /// let mut p = p;
    /// assert_eq!(try_pair(&mut p), Ok(1));
    /// assert_eq!(p.try_batch_publish(5, |_| {}), Err(PublishError::BatchSize { requested: 5, size: 4 }));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn try_batch_publish<F: FnOnce(BatchIterMut<'_, E>)>(
        &mut self,
        n: usize,
        f: F,
    ) -> Result<Sequence, PublishError>;

    /// As [`SingleProducer::publish_timeout`].
    ///
    /// # Errors
    /// [`PublishError::Timeout`], [`PublishError::Halted`].
    ///
    /// ```
    /// # use hotq_disruptor::{Disruptor, Producer, PublishError};
    /// # let p = Disruptor::builder(4, || 0u64).handle_events_with(|_e: &u64, _s, _b| {}).build_single_producer()?;
    /// fn timed<P: Producer<u64>>(p: &mut P) -> Result<i64, PublishError> {
    ///     p.publish_timeout(std::time::Duration::from_secs(1), |e| *e = 1)
    /// }
    /// let mut p = p;
    /// assert_eq!(timed(&mut p), Ok(0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn publish_timeout<F: FnOnce(&mut E)>(
        &mut self,
        timeout: Duration,
        f: F,
    ) -> Result<Sequence, PublishError>;

    /// As [`SingleProducer::batch_publish_timeout`].
    ///
    /// # Errors
    /// [`PublishError::Timeout`], [`PublishError::BatchSize`],
    /// [`PublishError::Halted`].
    ///
    /// ```
    /// # use hotq_disruptor::{Disruptor, Producer, PublishError};
    /// # let p = Disruptor::builder(4, || 0u64).handle_events_with(|_e: &u64, _s, _b| {}).build_single_producer()?;
    /// fn timed_batch<P: Producer<u64>>(p: &mut P) -> Result<i64, PublishError> {
    ///     p.batch_publish_timeout(2, std::time::Duration::from_secs(1), |events| events.for_each(|e| *e = 1))
    /// }
    /// let mut p = p;
    /// assert_eq!(timed_batch(&mut p), Ok(1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn batch_publish_timeout<F: FnOnce(BatchIterMut<'_, E>)>(
        &mut self,
        n: usize,
        timeout: Duration,
        f: F,
    ) -> Result<Sequence, PublishError>;

    /// As [`SingleProducer::remaining_capacity`].
    ///
    /// ```
    /// # use hotq_disruptor::{Disruptor, Producer, PublishError};
    /// # let p = Disruptor::builder(4, || 0u64).handle_events_with(|_e: &u64, _s, _b| {}).build_single_producer()?;
    /// fn room<P: Producer<u64>>(p: &P) -> usize {
    ///     p.remaining_capacity()
    /// }
    /// assert_eq!(room(&p), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn remaining_capacity(&self) -> usize;

    /// As [`SingleProducer::halt`].
    ///
    /// ```
    /// # use hotq_disruptor::{Disruptor, Producer, PublishError};
    /// # let p = Disruptor::builder(4, || 0u64).handle_events_with(|_e: &u64, _s, _b| {}).build_single_producer()?;
    /// fn stop<P: Producer<u64>>(p: &P) {
    ///     p.halt()
    /// }
    /// let mut p = p;
    /// stop(&p);
    /// assert_eq!(p.publish(|e| *e = 1), Err(PublishError::Halted));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn halt(&self);

    /// As [`SingleProducer::is_halted`].
    ///
    /// ```
    /// # use hotq_disruptor::{Disruptor, Producer, PublishError};
    /// # let p = Disruptor::builder(4, || 0u64).handle_events_with(|_e: &u64, _s, _b| {}).build_single_producer()?;
    /// fn halted<P: Producer<u64>>(p: &P) -> bool {
    ///     p.is_halted()
    /// }
    /// assert!(!halted(&p));
    /// p.halt();
    /// assert!(halted(&p));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn is_halted(&self) -> bool;

    /// As [`SingleProducer::shutdown`] (for a [`MultiProducer`]: the last
    /// handle drains and joins, any other just goes).
    ///
    /// # Errors
    /// [`ShutdownError::Panicked`].
    ///
    /// ```
    /// # use hotq_disruptor::{Disruptor, Producer, PublishError};
    /// # let p = Disruptor::builder(4, || 0u64).handle_events_with(|_e: &u64, _s, _b| {}).build_single_producer()?;
    /// fn finish<P: Producer<u64>>(p: P) {
    ///     p.shutdown().expect("no handler panicked");
    /// }
    /// finish(p);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn shutdown(self) -> Result<(), ShutdownError>
    where
        Self: Sized;

    /// As [`SingleProducer::shutdown_timeout`].
    ///
    /// # Errors
    /// [`ShutdownError::Timeout`], [`ShutdownError::Panicked`].
    ///
    /// ```
    /// # use hotq_disruptor::{Disruptor, Producer, PublishError};
    /// # let p = Disruptor::builder(4, || 0u64).handle_events_with(|_e: &u64, _s, _b| {}).build_single_producer()?;
    /// fn finish_soon<P: Producer<u64>>(p: P) {
    ///     p.shutdown_timeout(std::time::Duration::from_secs(60)).expect("drained in time");
    /// }
    /// finish_soon(p);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn shutdown_timeout(self, timeout: Duration) -> Result<(), ShutdownError>
    where
        Self: Sized;
}

/// Implements [`Producer`] for a handle by calling its inherent methods
/// (which take precedence over the trait's in method calls).
macro_rules! forward_producer {
    ($handle:ident) => {
        impl<E> Producer<E> for $handle<E> {
            #[inline]
            fn publish<F: FnOnce(&mut E)>(&mut self, f: F) -> Result<Sequence, PublishError> {
                $handle::publish(self, f)
            }
            #[inline]
            fn try_publish<F: FnOnce(&mut E)>(&mut self, f: F) -> Result<Sequence, PublishError> {
                $handle::try_publish(self, f)
            }
            #[inline]
            fn batch_publish<F: FnOnce(BatchIterMut<'_, E>)>(
                &mut self,
                n: usize,
                f: F,
            ) -> Result<Sequence, PublishError> {
                $handle::batch_publish(self, n, f)
            }
            #[inline]
            fn try_batch_publish<F: FnOnce(BatchIterMut<'_, E>)>(
                &mut self,
                n: usize,
                f: F,
            ) -> Result<Sequence, PublishError> {
                $handle::try_batch_publish(self, n, f)
            }
            #[inline]
            fn publish_timeout<F: FnOnce(&mut E)>(
                &mut self,
                timeout: Duration,
                f: F,
            ) -> Result<Sequence, PublishError> {
                $handle::publish_timeout(self, timeout, f)
            }
            #[inline]
            fn batch_publish_timeout<F: FnOnce(BatchIterMut<'_, E>)>(
                &mut self,
                n: usize,
                timeout: Duration,
                f: F,
            ) -> Result<Sequence, PublishError> {
                $handle::batch_publish_timeout(self, n, timeout, f)
            }
            fn remaining_capacity(&self) -> usize {
                $handle::remaining_capacity(self)
            }
            fn halt(&self) {
                $handle::halt(self)
            }
            fn is_halted(&self) -> bool {
                $handle::is_halted(self)
            }
            fn shutdown(self) -> Result<(), ShutdownError> {
                $handle::shutdown(self)
            }
            fn shutdown_timeout(self, timeout: Duration) -> Result<(), ShutdownError> {
                $handle::shutdown_timeout(self, timeout)
            }
        }
    };
}

forward_producer!(SingleProducer);
forward_producer!(MultiProducer);

#[cfg(test)]
mod tests {
    use crate::{Disruptor, MultiProducer, Producer, Sequence, SingleProducer};
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

    /// Every method of the trait does what the handle's own does, for both
    /// handles (a macro writes the forwarding: a method forwarding to the
    /// wrong one fails here, or hangs, for a `try_` one calling the waiting
    /// one on the full ring). The handler waits for a go before events 0
    /// and 4, so the ring of 4 fills twice.
    fn every_trait_method_forwards<P: Producer<u64>>(
        build: impl FnOnce(mpsc::Receiver<()>) -> P,
        last: impl FnOnce(P) -> Result<(), crate::ShutdownError>,
    ) {
        let (go, gate) = mpsc::channel();
        let mut p = build(gate);
        assert_eq!(Producer::remaining_capacity(&p), 4);
        assert_eq!(Producer::publish(&mut p, |e| *e = 1), Ok(0));
        assert_eq!(Producer::try_publish(&mut p, |e| *e = 2), Ok(1));
        assert_eq!(
            Producer::try_batch_publish(&mut p, 5, |_| {}),
            Err(crate::PublishError::BatchSize {
                requested: 5,
                size: 4
            })
        );
        assert_eq!(Producer::try_batch_publish(&mut p, 2, |_| {}), Ok(3));
        assert_eq!(Producer::remaining_capacity(&p), 0);
        assert_eq!(
            Producer::try_publish(&mut p, |e| *e = 3),
            Err(crate::PublishError::Full)
        );
        assert_eq!(
            Producer::try_batch_publish(&mut p, 1, |_| {}),
            Err(crate::PublishError::Full)
        );
        assert_eq!(
            Producer::publish_timeout(&mut p, Duration::from_millis(1), |e| *e = 3),
            Err(crate::PublishError::Timeout)
        );
        assert_eq!(
            Producer::batch_publish_timeout(&mut p, 1, Duration::from_millis(1), |_| {}),
            Err(crate::PublishError::Timeout)
        );
        assert!(!Producer::is_halted(&p));
        // The ring is full, and the go comes from another thread: the
        // waiting calls must wait for the handler (one forwarding to its
        // `try_` twin returns `Full`, unless that thread wins a race of
        // nanoseconds against microseconds). Event 4's go keeps the handler
        // at 3 until the second wait, so the ring is full again by then.
        let first = go.clone();
        let release = std::thread::spawn(move || first.send(()).unwrap());
        assert_eq!(Producer::publish(&mut p, |e| *e = 4), Ok(4));
        release.join().unwrap();
        assert_eq!(Producer::batch_publish(&mut p, 3, |_| {}), Ok(7));
        let release = std::thread::spawn(move || go.send(()).unwrap());
        assert_eq!(Producer::batch_publish(&mut p, 2, |_| {}), Ok(9));
        release.join().unwrap();
        let long = Duration::from_secs(60);
        assert_eq!(Producer::publish_timeout(&mut p, long, |e| *e = 5), Ok(10));
        assert_eq!(
            Producer::batch_publish_timeout(&mut p, 2, long, |_| {}),
            Ok(12)
        );
        last(p).unwrap();
    }

    #[test]
    fn the_trait_forwards_every_method_to_both_handles() {
        // A deadline: a `try_` method forwarding to its waiting twin would
        // wait on the full ring forever.
        hotq_testkit::within("the Producer trait", hotq_testkit::DEADLINE, || {
            let handler = |gate: mpsc::Receiver<()>| {
                move |_e: &u64, seq: Sequence, _eob: bool| {
                    if seq % 4 == 0 && seq < 8 {
                        gate.recv().unwrap();
                    }
                }
            };
            every_trait_method_forwards(
                |gate| {
                    Disruptor::builder(4, || 0u64)
                        .handle_events_with(handler(gate))
                        .build_single_producer()
                        .unwrap()
                },
                Producer::shutdown,
            );
            every_trait_method_forwards(
                |gate| {
                    Disruptor::builder(4, || 0u64)
                        .handle_events_with(handler(gate))
                        .build_multi_producer()
                        .unwrap()
                },
                |p| Producer::shutdown_timeout(p, Duration::from_secs(60)),
            );
            let halted = Disruptor::builder(4, || 0u64)
                .handle_events_with(|_e: &u64, _seq, _eob| {})
                .build_single_producer()
                .unwrap();
            Producer::halt(&halted);
            assert!(Producer::is_halted(&halted));
        });
    }

    /// A publish closure that panics still publishes its claimed slots: the
    /// events after it reach the handler (no hole), for one event and for
    /// a batch, with one producer and several. The ring (8) holds all five
    /// events, so a hole wedges the consumer but never the producer, and
    /// the test fails at its deadline instead of hanging.
    fn no_hole_after_a_panicking_closure(
        producer: &mut impl Producer<u64>,
        seen: mpsc::Receiver<(Sequence, u64)>,
    ) {
        let one = catch_unwind(AssertUnwindSafe(|| {
            producer.publish(|e| {
                *e = 10;
                panic!("publish closure")
            })
        }));
        assert!(one.is_err());
        producer.publish(|e| *e = 11).unwrap();
        let batch = catch_unwind(AssertUnwindSafe(|| {
            producer.batch_publish(2, |mut events| {
                *events.next().unwrap() = 20;
                panic!("half a batch")
            })
        }));
        assert!(batch.is_err());
        producer.publish(|e| *e = 21).unwrap();
        let got: Vec<_> = (0..5)
            .map(|_| {
                seen.recv_timeout(Duration::from_secs(30))
                    .unwrap_or_else(|_| {
                        // Halted, the producer's drop does not wait on the hole.
                        producer.halt();
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
