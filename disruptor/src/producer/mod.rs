//! The producer handles, [`SingleProducer`] and [`MultiProducer`], and what
//! they share: the handle's hold on the disruptor (the last one to go shuts
//! it down) and the write-then-publish of claimed events.

mod multi;
mod single;

pub use multi::MultiProducer;
pub use single::SingleProducer;

use std::time::Duration;

use crate::batch::BatchIterMut;
use crate::error::{PublishError, ShutdownError};
use crate::sequence::Sequence;
use crate::shared::Shared;
use crate::sync::Arc;

/// One producer handle's hold on the disruptor. Dropping it lets go as
/// [`release`](Self::release) does (ignoring the result, never panicking);
/// the last hold to go drains, halts and joins.
struct Handle<E> {
    shared: Arc<Shared<E>>,
    /// True once [`release`](Self::release) ran, so `Drop` does nothing.
    released: bool,
}

impl<E> Handle<E> {
    /// A hold `Shared` has counted already (it counts the first one from
    /// its creation, [`add_producer`](Shared::add_producer) each clone).
    fn new(shared: Arc<Shared<E>>) -> Self {
        Handle {
            shared,
            released: false,
        }
    }

    /// Lets go: the last hold drains (for at most `timeout`), halts and
    /// joins; any other returns at once with a panic recorded so far.
    fn release(mut self, timeout: Option<Duration>) -> Result<(), ShutdownError> {
        self.released = true;
        self.shared.release_producer(timeout)
    }

    fn halt(&self) {
        self.shared.control.halt();
    }

    fn is_halted(&self) -> bool {
        self.shared.control.is_halted()
    }

    fn debug(&self, name: &str, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct(name)
            .field("size", &self.shared.ring.size())
            .field("halted", &self.is_halted())
            .finish_non_exhaustive()
    }
}

impl<E> Clone for Handle<E> {
    /// Another hold on the same disruptor, counted by `Shared`.
    fn clone(&self) -> Self {
        self.shared.add_producer();
        Handle::new(Arc::clone(&self.shared))
    }
}

impl<E> Drop for Handle<E> {
    fn drop(&mut self) {
        if !self.released {
            let _ = self.shared.release_producer(None);
        }
    }
}

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
