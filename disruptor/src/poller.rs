//! A pull-based consumer that the caller drives on its own thread.

use crate::barrier::SequenceBarrier;
use crate::error::PollError;
use crate::sequence::{AtomicSequence, Sequence};
use crate::shared::Shared;
use crate::sync::{Arc, OnceLock, Ordering};

/// A consumer without a thread: each [`poll`](Self::poll) hands every
/// available event to a closure, on the caller's thread. It is a consumer
/// of its stage like a handler: it gates the producers (and the stages
/// after it) until it has polled an event. Made by
/// [`Builder::event_poller`](crate::Builder::event_poller).
///
/// Dropping it releases its gate (its sequence jumps to `Sequence::MAX`),
/// so a forgotten poller does not stall the producers.
///
/// When the last producer handle goes, the poller hands out what is left
/// and then returns `Err(PollError::Halted)`. Dropping the producer never
/// waits for a poller, so the producer's thread can drop it and then poll
/// to the end itself. [`shutdown`](crate::SingleProducer::shutdown) does
/// wait until every poller has polled every published event (poll on
/// another thread, drop the poller, or bound it with `shutdown_timeout`).
///
/// ```
/// use hotq_disruptor::{Disruptor, PollError};
///
/// let mut builder = Disruptor::builder(8, || 0u64);
/// let mut poller = builder.event_poller();
/// let mut producer = builder.build_single_producer()?;
/// for v in 0..3 {
///     producer.publish(|e| *e = v * 10)?;
/// }
/// let mut seen = Vec::new();
/// assert_eq!(poller.poll(|e, seq, end_of_batch| seen.push((*e, seq, end_of_batch))), Ok(3));
/// assert_eq!(seen, [(0, 0, false), (10, 1, false), (20, 2, true)]);
/// assert_eq!(poller.poll(|_, _, _| {}), Ok(0)); // nothing new
/// producer.halt();
/// assert_eq!(poller.poll(|_, _, _| {}), Err(PollError::Halted));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct EventPoller<E> {
    /// Set by the build; empty before (a poll then finds nothing).
    link: Arc<OnceLock<PollerLink<E>>>,
    /// The last event this poller handled (invariant as a processor's).
    sequence: Arc<AtomicSequence>,
}

/// A poller's disruptor and its barrier, known once the build has checked
/// the graph.
pub(crate) struct PollerLink<E> {
    shared: Arc<Shared<E>>,
    barrier: SequenceBarrier,
}

impl<E> PollerLink<E> {
    pub(crate) fn new(shared: Arc<Shared<E>>, barrier: SequenceBarrier) -> Self {
        PollerLink { shared, barrier }
    }
}

impl<E> EventPoller<E> {
    pub(crate) fn new(link: Arc<OnceLock<PollerLink<E>>>, sequence: Arc<AtomicSequence>) -> Self {
        EventPoller { link, sequence }
    }

    /// Hands every event available now to `f` (the event, its sequence,
    /// and whether it is the last of this batch), then releases them to the
    /// producers and the next stage. Never waits.
    ///
    /// If `f` panics, the events before the one it panicked on count as
    /// handled; that one and the rest are handed out again by the next poll.
    ///
    /// # Errors
    /// [`PollError::Halted`] once the disruptor is halted, or once the last
    /// producer handle has gone and this poller has handled every event
    /// published (also if the builder was dropped without building).
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, PollError};
    ///
    /// let mut builder = Disruptor::builder(4, || 0u64);
    /// let mut poller = builder.event_poller();
    /// let producer = builder.build_single_producer()?;
    /// assert_eq!(poller.poll(|_, _, _| {}), Ok(0));
    /// drop(producer); // shuts down: nothing was published, nothing to drain
    /// assert_eq!(poller.poll(|_, _, _| {}), Err(PollError::Halted));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// An event cannot outlive the call (its slot is released when `poll`
    /// returns; the disruptor-rs poller let its batch outlive its guard):
    ///
    /// ```compile_fail
    /// # use hotq_disruptor::Disruptor;
    /// let mut builder = Disruptor::builder(4, || 0u64);
    /// let mut poller = builder.event_poller();
    /// let _producer = builder.build_single_producer().unwrap();
    /// let mut kept = None;
    /// poller.poll(|e, _, _| kept = Some(e)).unwrap();
    /// ```
    pub fn poll<F: FnMut(&E, Sequence, bool)>(&mut self, f: F) -> Result<usize, PollError> {
        self.poll_at_most(usize::MAX, f)
    }

    /// As [`poll`](Self::poll), but hands out at most `max` events (the
    /// oldest available); the rest wait for the next call. `end_of_batch`
    /// is true on the last event of this call. `max == 0` hands out none.
    ///
    /// # Errors
    /// As [`poll`](Self::poll).
    ///
    /// ```
    /// use hotq_disruptor::Disruptor;
    ///
    /// let mut builder = Disruptor::builder(8, || 0u64);
    /// let mut poller = builder.event_poller();
    /// let mut producer = builder.build_single_producer()?;
    /// producer.batch_publish(5, |events| events.zip(0..).for_each(|(e, v)| *e = v))?;
    /// let mut seen = Vec::new();
    /// assert_eq!(poller.poll_at_most(2, |e, _seq, eob| seen.push((*e, eob))), Ok(2));
    /// assert_eq!(seen, [(0, false), (1, true)]);
    /// assert_eq!(poller.poll_at_most(10, |_, _, _| {}), Ok(3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn poll_at_most<F: FnMut(&E, Sequence, bool)>(
        &mut self,
        max: usize,
        mut f: F,
    ) -> Result<usize, PollError> {
        let Some(link) = self.link.get() else {
            // Not built yet; or never will be: the builder went (dropped,
            // or its build failed) and this is the last hold on the link.
            if Arc::strong_count(&self.link) == 1 {
                return Err(PollError::Halted);
            }
            return Ok(0);
        };
        let shared = &*link.shared;
        if shared.control.is_halted() {
            return Err(PollError::Halted);
        }
        // Relaxed: the poller (`&mut self`) is its sequence's only writer,
        // so it reads its own last store (a move to another thread
        // synchronises by itself).
        let next = self.sequence.load(Ordering::Relaxed) + 1;
        let available = link.barrier.available(shared, next);
        if available < next {
            // The last producer went and this poller has handled its last
            // event: nothing more will come.
            if shared.control.is_finished(next) {
                // The drain may be parked waiting for this poller's last
                // release (made by an earlier call).
                shared.control.stopped();
                return Err(PollError::Halted);
            }
            return Ok(0);
        }
        if max == 0 {
            return Ok(0);
        }
        /// Moves the poller's sequence past what was handled, also if `f`
        /// unwinds.
        struct Release<'a, E> {
            shared: &'a Shared<E>,
            sequence: &'a AtomicSequence,
            handled: Sequence,
        }
        impl<E> Drop for Release<'_, E> {
            fn drop(&mut self) {
                // Release: pairs with the Acquire loads of this sequence by
                // the next stage's barrier, the producers' gating and the
                // drain: `f`'s reads of the events happen before a later
                // stage touches them or a producer overwrites them.
                self.sequence.store(self.handled, Ordering::Release);
                self.shared.control.progress();
            }
        }
        // The last event of this call: at most `max` from `next`.
        let available = match Sequence::try_from(max) {
            Ok(max) if max <= available - next => next + max - 1,
            _ => available,
        };
        let mut release = Release {
            shared,
            sequence: &self.sequence,
            handled: next - 1,
        };
        // Half-open: see `AvailabilityFlags::publish`.
        for s in next..available + 1 {
            // SAFETY: `s` is available to this poller (its barrier said so)
            // and the producers cannot reclaim its slot before the poller's
            // sequence passes it; other consumers of the stage only read it.
            unsafe { shared.ring.read(s, |e| f(e, s, s == available)) };
            release.handled = s;
        }
        drop(release);
        Ok((available - next + 1) as usize)
    }
}

impl<E> EventPoller<E> {
    /// How many events a [`poll`](Self::poll) would hand out now, without
    /// handing any out: 0 before the build, when halted, and when the
    /// poller is ahead of every event (and of whatever it is after).
    ///
    /// ```
    /// use hotq_disruptor::Disruptor;
    ///
    /// let mut builder = Disruptor::builder(8, || 0u64);
    /// let mut poller = builder.event_poller();
    /// assert_eq!(poller.available(), 0); // not built yet
    /// let mut producer = builder.build_single_producer()?;
    /// producer.publish(|e| *e = 1)?;
    /// producer.publish(|e| *e = 2)?;
    /// assert_eq!(poller.available(), 2);
    /// assert_eq!(poller.available(), 2); // nothing was consumed
    /// assert_eq!(poller.poll(|_, _, _| {}), Ok(2));
    /// assert_eq!(poller.available(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn available(&self) -> usize {
        let Some(link) = self.link.get() else {
            return 0;
        };
        if link.shared.control.is_halted() {
            return 0;
        }
        // Relaxed: as in `poll`, this poller's own last store.
        let next = self.sequence.load(Ordering::Relaxed) + 1;
        (link.barrier.available(&link.shared, next) - next + 1).max(0) as usize
    }
}

impl<E> Drop for EventPoller<E> {
    fn drop(&mut self) {
        // Release, not Relaxed although it only says "stop gating": a
        // producer that reads MAX must also be ordered after this poller's
        // reads of the last events it handled (a later Relaxed store would
        // not carry the release guard's Release: a release sequence holds
        // only read-modify-writes), or its overwrite races them.
        self.sequence.store(Sequence::MAX, Ordering::Release);
        if let Some(link) = self.link.get() {
            // `stopped`, not `progress`: the drain parks whatever the wait
            // strategies are, and no longer waits for this poller.
            link.shared.control.stopped();
        }
    }
}

impl<E> core::fmt::Debug for EventPoller<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("EventPoller")
            // Relaxed: a value to print, ordering nothing.
            .field("sequence", &self.sequence.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}
