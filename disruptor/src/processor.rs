//! Batch event processors: the loop that runs a handler on its thread.

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::barrier::SequenceBarrier;
use crate::error::HandlerPanic;
use crate::handler::{EventHandler, EventHandlerMut};
use crate::panic_policy::PanicPolicy;
use crate::ring_buffer::RingBuffer;
use crate::sequence::{AtomicSequence, Sequence};
use crate::shared::Shared;
use crate::sync::{Arc, Ordering};
use crate::wait::{Pacing, Stop};

/// How far ahead of the event it hands out a processor prefetches, in
/// bytes. The producer's core wrote the events, so every line the consumer
/// reads comes from that core: without the prefetch the report's unicast
/// consumer waited on each (550–575 M events/s, `disruptor_lines
/// hotq-disruptor unicast`); 256 B ahead gave 600–630, 512 B 800–840,
/// 1–8 KiB 890–950.
const PREFETCH_BYTES: usize = 2048;

/// A handler as the processor drives it: read-only or mutable, with or
/// without a state of its own. Not `Send`: it is made on the processor's
/// thread (see [`start_processor`]), so a handler's state need not be.
pub(crate) trait Consume<E>: 'static {
    fn on_start(&mut self);
    fn on_shutdown(&mut self);
    fn on_batch_start(&mut self, batch_size: usize);
    fn on_timeout(&mut self, sequence: Sequence);
    /// # Safety
    /// `sequence` is available to this consumer (its barrier said so) and
    /// its sequence has not passed it; for a mutable consumer, it is alone
    /// in its stage.
    unsafe fn on_event(&mut self, ring: &RingBuffer<E>, sequence: Sequence, end_of_batch: bool);
}

/// A read-only handler.
pub(crate) struct Reader<H>(pub(crate) H);
/// A mutable handler, alone in its stage.
pub(crate) struct Writer<H>(pub(crate) H);

impl<E, H: EventHandler<E>> Consume<E> for Reader<H> {
    fn on_start(&mut self) {
        self.0.on_start()
    }
    fn on_timeout(&mut self, sequence: Sequence) {
        self.0.on_timeout(sequence)
    }
    fn on_shutdown(&mut self) {
        self.0.on_shutdown()
    }
    fn on_batch_start(&mut self, batch_size: usize) {
        self.0.on_batch_start(batch_size)
    }
    #[inline]
    unsafe fn on_event(&mut self, ring: &RingBuffer<E>, sequence: Sequence, end_of_batch: bool) {
        // SAFETY: the event is published and the producer cannot reclaim
        // its slot before this consumer's sequence passes it (it gates the
        // producer directly or through the stages after it); the stage
        // before (if any) is done with it; other consumers of this stage
        // only read it.
        unsafe { ring.read(sequence, |e| self.0.on_event(e, sequence, end_of_batch)) }
    }
}

impl<E, H: EventHandlerMut<E>> Consume<E> for Writer<H> {
    fn on_start(&mut self) {
        self.0.on_start()
    }
    fn on_timeout(&mut self, sequence: Sequence) {
        self.0.on_timeout(sequence)
    }
    fn on_shutdown(&mut self) {
        self.0.on_shutdown()
    }
    fn on_batch_start(&mut self, batch_size: usize) {
        self.0.on_batch_start(batch_size)
    }
    #[inline]
    unsafe fn on_event(&mut self, ring: &RingBuffer<E>, sequence: Sequence, end_of_batch: bool) {
        // SAFETY: as for `Reader`, and this consumer is alone in its stage
        // (the builder refuses otherwise): the stage before is done with the
        // event, the stage after waits for this consumer's sequence.
        unsafe { ring.write(sequence, |e| self.0.on_event(e, sequence, end_of_batch)) }
    }
}

/// A read-only closure with a state made on the processor's thread.
pub(crate) struct ReaderWithState<S, F> {
    pub(crate) state: S,
    pub(crate) handler: F,
}

/// A mutable closure with a state made on the processor's thread.
pub(crate) struct WriterWithState<S, F> {
    pub(crate) state: S,
    pub(crate) handler: F,
}

impl<E, S: 'static, F: FnMut(&mut S, &E, Sequence, bool) + 'static> Consume<E>
    for ReaderWithState<S, F>
{
    fn on_start(&mut self) {}
    fn on_shutdown(&mut self) {}
    fn on_batch_start(&mut self, _batch_size: usize) {}
    fn on_timeout(&mut self, _sequence: Sequence) {}
    #[inline]
    unsafe fn on_event(&mut self, ring: &RingBuffer<E>, sequence: Sequence, end_of_batch: bool) {
        // SAFETY: as for `Reader`.
        unsafe {
            ring.read(sequence, |e| {
                (self.handler)(&mut self.state, e, sequence, end_of_batch)
            })
        }
    }
}

impl<E, S: 'static, F: FnMut(&mut S, &mut E, Sequence, bool) + 'static> Consume<E>
    for WriterWithState<S, F>
{
    fn on_start(&mut self) {}
    fn on_shutdown(&mut self) {}
    fn on_batch_start(&mut self, _batch_size: usize) {}
    fn on_timeout(&mut self, _sequence: Sequence) {}
    #[inline]
    unsafe fn on_event(&mut self, ring: &RingBuffer<E>, sequence: Sequence, end_of_batch: bool) {
        // SAFETY: as for `Writer`.
        unsafe {
            ring.write(sequence, |e| {
                (self.handler)(&mut self.state, e, sequence, end_of_batch)
            })
        }
    }
}

/// A processor thread's body: makes its consumer (and so the handler's
/// state) on this thread, runs it, and drops it here. A panic while making
/// it halts the disruptor whatever the policy (there is no handler to go
/// on with) and is reported by the shutdown.
pub(crate) fn start_processor<E, C: Consume<E>>(
    shared: Arc<Shared<E>>,
    sequence: Arc<AtomicSequence>,
    barrier: SequenceBarrier,
    make: impl FnOnce() -> C,
    name: String,
    policy: PanicPolicy,
) {
    match catch_unwind(AssertUnwindSafe(make)) {
        Ok(consumer) => BatchEventProcessor {
            pacing: Pacing::new(shared.size() as usize),
            shared,
            sequence,
            barrier,
            consumer,
            name,
            policy,
        }
        .run(),
        Err(payload) => {
            let panic = HandlerPanic::new(&name, None, &*payload);
            shared.control.record_panic(panic);
            shared.control.halt();
        }
    }
}

/// Runs one handler: waits on its barrier, hands it every available event
/// in one batch, then moves its sequence past the batch (and wakes whoever
/// parks on it).
///
/// Invariant: `sequence` is the last event the handler has finished with;
/// it starts at `INITIAL`, whenever the thread starts, so events published
/// before it ran are handled too.
pub(crate) struct BatchEventProcessor<E, C> {
    pub(crate) shared: Arc<Shared<E>>,
    pub(crate) sequence: Arc<AtomicSequence>,
    pub(crate) barrier: SequenceBarrier,
    pub(crate) consumer: C,
    pub(crate) name: String,
    pub(crate) policy: PanicPolicy,
    /// When to pause between batches (see [`Pacing`]).
    pub(crate) pacing: Pacing,
}

impl<E, C: Consume<E>> BatchEventProcessor<E, C> {
    /// The processor's thread body: until halted (or the shutdown's halt
    /// after its drain).
    pub(crate) fn run(mut self) {
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| self.consumer.on_start())) {
            if self.fail(None, &*payload) {
                return self.finish();
            }
        }
        let shared = Arc::clone(&self.shared);
        // Relaxed: this processor is its sequence's only writer (its
        // initial value came with the thread's spawn), so it reads its own.
        let mut next = self.sequence.load(Ordering::Relaxed) + 1;
        loop {
            // Per batch: a halt stops the processor even when the ring is
            // full and events are always available.
            if shared.control.is_halted() {
                break;
            }
            // The first look, apart from the wait: events already there
            // mean the producer streams, which decides the pacing below.
            let waiting = self.barrier.available(&shared, next);
            let found = if waiting >= next {
                Ok(waiting)
            } else {
                self.barrier.wait_for(&shared, next)
            };
            let available = match found {
                Ok(available) => available,
                Err(Stop::Finished) => break,
                Err(Stop::TimedOut) => {
                    let last = next - 1;
                    let told = catch_unwind(AssertUnwindSafe(|| self.consumer.on_timeout(last)));
                    if let Err(payload) = told {
                        if self.fail(None, &*payload) {
                            break;
                        }
                    }
                    continue;
                }
            };
            if let Err(true) = self.batch(&shared.ring, next, available) {
                break;
            }
            // Release: pairs with the Acquire loads of this sequence by the
            // next stage's barrier (`SequenceBarrier::available`), the
            // producers' gating (`Shared::min_gating`) and the drain: the
            // handler's reads of and writes to the batch happen before the
            // next stage reads it or a producer overwrites it.
            self.sequence.store(available, Ordering::Release);
            shared.control.progress();
            self.pacing
                .after_batch((available - next + 1) as usize, waiting >= next);
            next = available + 1;
        }
        self.finish();
    }

    /// Handles `next..=available` as one batch. A panic under `LogAndSkip`
    /// is left to the panic hook's report and the batch goes on after the
    /// event that panicked.
    /// `Err(true)`: stop (the panic halted the disruptor).
    fn batch(
        &mut self,
        ring: &RingBuffer<E>,
        next: Sequence,
        available: Sequence,
    ) -> Result<(), bool> {
        let mut from = next;
        let mut batch_start = true;
        let mut current: Option<Sequence> = None;
        let ahead = (PREFETCH_BYTES / size_of::<E>().max(1)).max(1) as Sequence;
        loop {
            let result = catch_unwind(AssertUnwindSafe(|| {
                if batch_start {
                    self.consumer
                        .on_batch_start((available - next + 1) as usize);
                }
                // Half-open: see `AvailabilityFlags::publish`.
                for s in from..available + 1 {
                    current = Some(s);
                    // Published events only: a line the producer is still
                    // writing would be taken from it.
                    if s + ahead <= available {
                        ring.prefetch(s + ahead);
                    }
                    // SAFETY: the barrier said `s <= available` is available
                    // and this processor's sequence is still below `next`.
                    unsafe { self.consumer.on_event(ring, s, s == available) };
                }
            }));
            match result {
                Ok(()) => return Ok(()),
                Err(payload) => {
                    if self.fail(current, &*payload) {
                        return Err(true);
                    }
                    batch_start = false;
                    match current {
                        Some(s) if s >= available => return Err(false),
                        Some(s) => from = s + 1,
                        None => {}
                    }
                    current = None;
                }
            }
        }
    }

    /// Reports a panic per the policy; true if it halted the disruptor.
    fn fail(&self, sequence: Option<Sequence>, payload: &(dyn std::any::Any + Send)) -> bool {
        match self.policy {
            PanicPolicy::Halt => {
                let panic = HandlerPanic::new(&self.name, sequence, payload);
                self.shared.control.record_panic(panic);
                self.shared.control.halt();
                true
            }
            // Nothing to print: the panic hook has already reported it
            // (std's prints the thread, named after the handler, the
            // message and the place), before the unwind reached us. A
            // line of our own made every skipped panic appear twice.
            PanicPolicy::LogAndSkip => false,
        }
    }

    fn finish(&mut self) {
        // After the last sequence store: wakes the drain (its leaves passed).
        self.shared.control.stopped();
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| self.consumer.on_shutdown())) {
            // As any other panic: under LogAndSkip the panic hook's report
            // is the only one (see `fail`), else the shutdown returns it.
            if self.policy != PanicPolicy::LogAndSkip {
                let panic = HandlerPanic::new(&self.name, None, &*payload);
                self.shared.control.record_panic(panic);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Disruptor, EventHandler, PanicPolicy, Sequence, ShutdownError};
    use std::sync::mpsc;

    /// Records every call the processor makes, in order.
    #[derive(Debug, PartialEq, Eq)]
    enum Call {
        Start,
        Batch(usize),
        Event(u64, Sequence, bool),
        Shutdown,
    }

    struct Recorder {
        calls: mpsc::Sender<Call>,
        panic_on: Option<u64>,
    }

    impl EventHandler<u64> for Recorder {
        fn on_event(&mut self, e: &u64, seq: Sequence, eob: bool) {
            self.calls.send(Call::Event(*e, seq, eob)).unwrap();
            if self.panic_on == Some(*e) {
                panic!("event {e}");
            }
        }
        fn on_batch_start(&mut self, n: usize) {
            self.calls.send(Call::Batch(n)).unwrap();
        }
        fn on_start(&mut self) {
            self.calls.send(Call::Start).unwrap();
        }
        fn on_shutdown(&mut self) {
            self.calls.send(Call::Shutdown).unwrap();
        }
    }

    /// Checks the call log: start first, shutdown last, and batches that
    /// announce their size and end with exactly one `end_of_batch`.
    fn check_batches(calls: &[Call], events: u64) {
        assert_eq!(calls.first(), Some(&Call::Start));
        assert_eq!(calls.last(), Some(&Call::Shutdown));
        let mut expected_seq = 0;
        let mut i = 1;
        while i < calls.len() - 1 {
            let Call::Batch(n) = calls[i] else {
                panic!("expected a batch start at {i}: {:?}", calls[i]);
            };
            assert!(n >= 1);
            for k in 0..n {
                let Call::Event(e, seq, eob) = calls[i + 1 + k] else {
                    panic!("expected an event at {}: {:?}", i + 1 + k, calls[i + 1 + k]);
                };
                assert_eq!((e, seq), (seq as u64 * 3, expected_seq));
                assert_eq!(eob, k == n - 1, "end_of_batch at {k} of {n}");
                expected_seq += 1;
            }
            i += 1 + n;
        }
        assert_eq!(expected_seq as u64, events);
    }

    #[test]
    fn batches_announce_their_size_and_end_with_end_of_batch() {
        // Under miri 40 events through rings of up to 16: still two laps of
        // each (500 through the ring of 64 took about 100 s there).
        let (events, sizes) = if cfg!(miri) {
            (40, [1, 4, 16])
        } else {
            (500, [1, 4, 64])
        };
        for size in sizes {
            let (tx, rx) = mpsc::channel();
            let mut producer = Disruptor::builder(size, || 0u64)
                .handle_events_with_handler(Recorder {
                    calls: tx,
                    panic_on: None,
                })
                .build_single_producer()
                .unwrap();
            // Published before the processor's thread has necessarily run:
            // still handled (events are never lost to a late start).
            for v in 0..events {
                if v % 10 == 0 {
                    producer
                        .batch_publish(size.min(3), |events| {
                            for (i, e) in events.enumerate() {
                                *e = (v + i as u64) * 3;
                            }
                        })
                        .unwrap();
                } else if v % 10 >= size.min(3) as u64 {
                    producer.publish(|e| *e = v * 3).unwrap();
                }
            }
            producer.shutdown().unwrap();
            let calls: Vec<Call> = rx.try_iter().collect();
            check_batches(&calls, events);
        }
    }

    #[test]
    fn log_and_skip_goes_on_after_the_panicking_event() {
        let (tx, rx) = mpsc::channel();
        let mut producer = Disruptor::builder(16, || 0u64)
            .on_panic(PanicPolicy::LogAndSkip)
            .handle_events_with_handler(Recorder {
                calls: tx,
                panic_on: Some(6),
            })
            .build_single_producer()
            .unwrap();
        // One publish of ten: the single producer makes them visible at
        // once, so the panic (at sequence 2) falls inside one batch.
        producer
            .batch_publish(10, |events| {
                for (v, e) in events.enumerate() {
                    *e = v as u64 * 3;
                }
            })
            .unwrap();
        assert_eq!(producer.shutdown(), Ok(()));
        let calls: Vec<Call> = rx.try_iter().collect();
        // Every event was handed over once, the one at sequence 2 panicked.
        let events: Vec<Sequence> = calls
            .iter()
            .filter_map(|c| match c {
                Call::Event(_, s, _) => Some(*s),
                _ => None,
            })
            .collect();
        assert_eq!(events, (0..10).collect::<Vec<_>>());
        assert_eq!(calls.last(), Some(&Call::Shutdown));
    }

    #[test]
    fn a_panic_under_halt_is_reported_with_its_sequence() {
        let (tx, rx) = mpsc::channel();
        let mut producer = Disruptor::builder(4, || 0u64)
            .handle_events_with_handler(Recorder {
                calls: tx,
                panic_on: Some(6),
            })
            .build_single_producer()
            .unwrap();
        for v in 0..10u64 {
            if producer.publish(|e| *e = v * 3).is_err() {
                break;
            }
        }
        let Err(ShutdownError::Panicked(p)) = producer.shutdown() else {
            panic!("the panic was not reported");
        };
        assert_eq!(
            (p.sequence(), p.message(), p.handler()),
            (Some(2), "event 6", "disruptor-0.0")
        );
        // Nothing after the panicking event was handed over.
        let calls: Vec<Call> = rx.try_iter().collect();
        assert!(
            !calls
                .iter()
                .any(|c| matches!(c, Call::Event(_, s, _) if *s > 2)),
            "{calls:?}"
        );
        assert_eq!(calls.last(), Some(&Call::Shutdown));
    }
}
