//! What the producers and the processors of one disruptor share, and its
//! life cycle: the last producer handle to go closes the stream (every
//! consumer stops once past its last event), then a shutdown drains and
//! joins; a drop joins only what cannot wait on the caller's pollers.

use std::time::{Duration, Instant};

use crate::control::Control;
use crate::error::ShutdownError;
use crate::gate::Gate;
use crate::ring_buffer::RingBuffer;
use crate::sequence::{AtomicSequence, INITIAL, Sequence};
use crate::sequencer::AvailabilityFlags;
use crate::sync::{AtomicUsize, Backoff, JoinHandle, Mutex, Ordering};

pub(crate) struct Shared<E> {
    pub(crate) ring: RingBuffer<E>,
    /// Single producer: the highest published sequence. Multi producer: the
    /// highest claimed one (published or not: see `availability`).
    pub(crate) cursor: AtomicSequence,
    /// `Some` iff the disruptor has several producers.
    pub(crate) availability: Option<AvailabilityFlags>,
    /// The leaves of the consumers' graph: the producers never claim a
    /// slot before every live consumer has finished with it (every
    /// consumer is a leaf or ahead of one: see [`Gate`]).
    pub(crate) gating: Gate,
    pub(crate) control: Control,
    /// Live producer handles. The one that takes it to 0 shuts down.
    producers: AtomicUsize,
    /// The processors' threads, taken by the shutdown, each with whether
    /// it is after an event poller (a drop does not wait for those).
    threads: Mutex<Vec<(JoinHandle<()>, bool)>>,
}

/// The longest the shutdown's drain stays parked before it re-checks the
/// leaves by itself: the bound on its latency when no signal comes (a
/// poller that handled the last event and is not polled again). Every
/// other way a drain ends signals, so this only bounds a corner case; the
/// old 100 µs poll woke the drain some 100 times in a 20 ms drain
/// (`examples/shutdown_latency.rs`).
const DRAIN_BACKSTOP: Duration = Duration::from_millis(10);

/// How the last producer handle goes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Release {
    /// `shutdown`/`shutdown_timeout`: drain every consumer, pollers
    /// included (for at most the timeout), halt, join.
    Shutdown(Option<std::time::Duration>),
    /// A drop: join the processors that depend on no poller (they finish
    /// on their own: the stream is closed); the others and the pollers
    /// finish when the caller polls (or drops its pollers). Never waits on
    /// a poller, so dropping the producer and then polling on the same
    /// thread works.
    Drop,
}

impl<E> Shared<E> {
    pub(crate) fn new(
        ring: RingBuffer<E>,
        multi_producer: bool,
        gating: Gate,
        control: Control,
    ) -> Self {
        let size = ring.size();
        Shared {
            ring,
            cursor: AtomicSequence::new(INITIAL),
            availability: multi_producer.then(|| AvailabilityFlags::new(size)),
            gating,
            control,
            producers: AtomicUsize::new(1),
            threads: Mutex::new(Vec::new()),
        }
    }

    #[inline]
    pub(crate) fn size(&self) -> Sequence {
        self.ring.size() as Sequence
    }

    /// The slowest live consumer's sequence (of the last stage that has
    /// one), at most `at_most` (`at_most` itself when every consumer is a
    /// dropped poller), each sequence loaded with `order` (the caller's:
    /// `Acquire` before reusing a slot).
    #[inline]
    pub(crate) fn min_gating(&self, at_most: Sequence, order: Ordering) -> Sequence {
        self.gating
            .slowest(order)
            .map_or(at_most, |slowest| slowest.min(at_most))
    }

    /// Publishes the claimed sequences `lo..=hi` and wakes parked waiters.
    /// `SINGLE`: the caller is the [`SingleProducer`](crate::SingleProducer),
    /// so there are no availability flags and the cursor is stored without
    /// looking (the test of `availability` was three of the 35 instructions
    /// of a unicast publish).
    #[inline]
    pub(crate) fn publish<const SINGLE: bool>(&self, lo: Sequence, hi: Sequence) {
        debug_assert!(!SINGLE || self.availability.is_none());
        match (SINGLE, &self.availability) {
            // Release: pairs with the Acquire load of the cursor in
            // `SequenceBarrier::available`; the producer's writes to the
            // events up to `hi` happen before a consumer reads them.
            (true, _) | (false, None) => self.cursor.store(hi, Ordering::Release),
            (false, Some(flags)) => flags.publish(lo, hi),
        }
        self.control.progress();
    }

    pub(crate) fn add_thread(&self, handle: JoinHandle<()>, after_a_poller: bool) {
        self.lock_threads().push((handle, after_a_poller));
    }

    fn lock_threads(&self) -> crate::sync::MutexGuard<'_, Vec<(JoinHandle<()>, bool)>> {
        self.threads.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new producer handle (a `MultiProducer` clone).
    pub(crate) fn add_producer(&self) {
        // Relaxed: the caller holds a handle, so the count is not 0 and
        // cannot reach 0 meanwhile (as `Arc::clone`).
        self.producers.fetch_add(1, Ordering::Relaxed);
    }

    /// A producer handle goes. The last one closes the stream at the
    /// cursor, then drains and joins as `how` says. Any other handle just
    /// leaves, reporting a panic already recorded.
    pub(crate) fn release_producer(&self, how: Release) -> Result<(), ShutdownError> {
        // AcqRel: the Release half publishes this handle's last publish to
        // the last handle; the Acquire half (for the last) pairs with every
        // earlier handle's Release decrement, so every publish of every
        // handle happens before the drain reads the cursor.
        if self.producers.fetch_sub(1, Ordering::AcqRel) != 1 {
            return self.report();
        }
        // No producer is left, and each published what it claimed (a
        // publish that unwinds still publishes): the cursor is final.
        // Relaxed: the drain only compares sequences and touches no event.
        // With one producer this thread made the last store itself; with
        // several, every other handle's claims come before its Release
        // decrement above, which this thread's Acquire half synchronises
        // with, so coherence alone makes this load see the final cursor.
        let target = self.cursor.load(Ordering::Relaxed);
        // From here each consumer stops by itself once past `target`.
        self.control.close(target);
        let timeout = match how {
            Release::Shutdown(timeout) => timeout,
            Release::Drop => {
                let threads = core::mem::take(&mut *self.lock_threads());
                // Those after a poller are detached: they finish when the
                // caller's pollers do (or are dropped).
                self.join(threads.into_iter().filter(|(_, after)| !after));
                return self.report();
            }
        };
        if let Err(e) = self.drain(target, timeout) {
            self.control.halt();
            // Detached: a handler stuck in `on_event` cannot be stopped,
            // and waiting for it would break the timeout.
            self.lock_threads().clear();
            return Err(e);
        }
        self.control.halt();
        let threads = core::mem::take(&mut *self.lock_threads());
        self.join(threads.into_iter());
        self.report()
    }

    /// Joins `threads`.
    fn join(&self, threads: impl Iterator<Item = (JoinHandle<()>, bool)>) {
        for (thread, _) in threads {
            // A processor catches its handler's panics; a join error would
            // be a panic of the processor itself: report it too.
            if let Err(payload) = thread.join() {
                self.control.record_panic(crate::error::HandlerPanic::new(
                    "processor",
                    None,
                    &*payload,
                ));
            }
        }
    }

    /// Waits until every leaf has passed `target` or the disruptor halts:
    /// a few snoozes (a drain of a consumer that keeps pace is short), then
    /// parked on the notifier. What wakes it: each processor's thread as it
    /// stops (past `target`, after its last sequence store), a poller's
    /// poll that finds the stream finished or its drop, and the halt; each
    /// signals after the store that may make the drain ready, which is the
    /// store→load order of [`Notifier`](crate::wait::Notifier)'s protocol.
    /// A poller that handled the last event wakes the drain at its next
    /// poll, so each park also ends after [`DRAIN_BACKSTOP`] (or at the
    /// deadline), and the loop re-checks.
    fn drain(&self, target: Sequence, timeout: Option<Duration>) -> Result<(), ShutdownError> {
        let deadline = timeout.map(|d| (d, Instant::now() + d));
        let backoff = Backoff::new();
        // Relaxed: the loop only compares sequences and touches no event.
        // What a shutdown promises, that an `EventPoller`'s handling of
        // every event happens before it returns (the processors' threads
        // are joined, which orders theirs anyway), comes from the `halt()`
        // that `release_producer` always runs next: its `fence(SeqCst)` in
        // `Notifier::signal` is an acquire fence after these loads, so it
        // synchronises with each leaf's Release store that they read
        // (`BatchEventProcessor::run`, `EventPoller::poll`). The loom model
        // `poller_releases_each_slot_and_the_drain_waits_for_it` fails
        // without that fence.
        let drained = || {
            self.control.is_halted() || self.min_gating(Sequence::MAX, Ordering::Relaxed) >= target
        };
        while !drained() {
            let mut nap = DRAIN_BACKSTOP;
            if let Some((d, deadline)) = deadline {
                let now = Instant::now();
                if now >= deadline {
                    return Err(ShutdownError::Timeout(d));
                }
                nap = nap.min(deadline - now);
            }
            if backoff.is_completed() {
                self.control.notifier.park(drained, Some(nap));
            } else {
                backoff.snooze();
            }
        }
        Ok(())
    }

    fn report(&self) -> Result<(), ShutdownError> {
        match self.control.recorded_panic() {
            Some(p) => Err(ShutdownError::Panicked(p)),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
use crate::sync::Arc;

#[cfg(test)]
impl Shared<u64> {
    /// A disruptor's shared state without processors: the tests move the
    /// leaves' sequences (`gating`) by hand.
    pub(crate) fn for_test(
        size: usize,
        multi_producer: bool,
        leaves: usize,
    ) -> (Self, Vec<Arc<AtomicSequence>>) {
        let gating: Vec<_> = (0..leaves)
            .map(|_| Arc::new(AtomicSequence::new(INITIAL)))
            .collect();
        let ring = RingBuffer::new(size, &mut || 0u64);
        let shared = Shared::new(
            ring,
            multi_producer,
            Gate::new(
                gating
                    .iter()
                    .map(|sequence| crate::gate::Dependency {
                        sequence: Arc::clone(sequence),
                        behind: None,
                    })
                    .collect(),
            ),
            Control::new(true),
        );
        (shared, gating)
    }
}
