//! Batch event processors: the loop that runs a handler on its thread.

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::barrier::SequenceBarrier;
use crate::error::HandlerPanic;
use crate::handler::{EventHandler, EventHandlerMut};
use crate::panic_policy::PanicPolicy;
use crate::ring_buffer::RingBuffer;
use crate::sequence::{AtomicSequence, Sequence};
use crate::shared::Shared;
use crate::sync::Arc;

/// A handler as the processor drives it: read-only or mutable.
pub(crate) trait Consume<E>: Send + 'static {
    fn on_start(&mut self);
    fn on_shutdown(&mut self);
    fn on_batch_start(&mut self, batch_size: usize);
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
        let mut next = self.sequence.get() + 1;
        loop {
            // Per batch: a halt stops the processor even when the ring is
            // full and events are always available.
            if shared.control.is_halted() {
                break;
            }
            let Ok(available) = self.barrier.wait_for(&shared, next) else {
                break;
            };
            if let Err(true) = self.batch(&shared.ring, next, available) {
                break;
            }
            self.sequence.set(available);
            shared.control.progress();
            next = available + 1;
        }
        self.finish();
    }

    /// Handles `next..=available` as one batch. A panic under `LogAndSkip`
    /// is logged and the batch goes on after the event that panicked.
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
        loop {
            let result = catch_unwind(AssertUnwindSafe(|| {
                if batch_start {
                    self.consumer
                        .on_batch_start((available - next + 1) as usize);
                }
                for s in from..=available {
                    current = Some(s);
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
        let panic = HandlerPanic::new(&self.name, sequence, payload);
        match self.policy {
            PanicPolicy::Halt => {
                self.shared.control.record_panic(panic);
                self.shared.control.halt();
                true
            }
            PanicPolicy::LogAndSkip => {
                eprintln!("hotq-disruptor: {panic} (skipped)");
                false
            }
        }
    }

    fn finish(&mut self) {
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| self.consumer.on_shutdown())) {
            // As any other panic: logged under LogAndSkip, else reported.
            let panic = HandlerPanic::new(&self.name, None, &*payload);
            if self.policy == PanicPolicy::LogAndSkip {
                eprintln!("hotq-disruptor: {panic} (in on_shutdown)");
            } else {
                self.shared.control.record_panic(panic);
            }
        }
    }
}
