//! What a consumer does with each event.

use crate::sequence::Sequence;

/// A consumer that reads events. Its processor runs it on a thread of its
/// own, named after [`name`](Self::name).
///
/// Closures `FnMut(&E, Sequence, bool)` are handlers too, through
/// [`Builder::handle_events_with`](crate::Builder::handle_events_with);
/// types implementing this trait go through
/// [`Builder::handle_events_with_handler`](crate::Builder::handle_events_with_handler).
///
/// ```
/// use hotq_disruptor::{Disruptor, EventHandler, Sequence};
/// use std::sync::{Arc, atomic::{AtomicU64, Ordering}};
///
/// struct Sum { total: u64, out: Arc<AtomicU64> }
///
/// impl EventHandler<u64> for Sum {
///     fn on_event(&mut self, event: &u64, _seq: Sequence, end_of_batch: bool) {
///         self.total += event;
///         if end_of_batch {
///             self.out.store(self.total, Ordering::Release);
///         }
///     }
///     fn name(&self) -> String { "summer".into() }
/// }
///
/// let out = Arc::new(AtomicU64::new(0));
/// let mut producer = Disruptor::builder(16, || 0u64)
///     .handle_events_with_handler(Sum { total: 0, out: out.clone() })
///     .build_single_producer()?;
/// for v in 1..=10 {
///     producer.publish(|e| *e = v)?;
/// }
/// producer.shutdown()?; // drains: every event was handled
/// assert_eq!(out.load(Ordering::Acquire), 55);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait EventHandler<E>: Send + 'static {
    /// Handles the event of `sequence`. `end_of_batch` is true for the last
    /// event that was available when the batch started: a good moment to
    /// flush.
    fn on_event(&mut self, event: &E, sequence: Sequence, end_of_batch: bool);

    /// Called before each batch with the number of events in it (at least 1).
    fn on_batch_start(&mut self, batch_size: usize) {
        let _ = batch_size;
    }

    /// Called once on the processor's thread before the first event.
    fn on_start(&mut self) {}

    /// Called once on the processor's thread after the last event (after a
    /// drain, or when halted).
    fn on_shutdown(&mut self) {}

    /// Called when the [`TimeoutBlocking`](crate::wait::TimeoutBlocking)
    /// strategy's timeout passed with no new event; `sequence` is the last
    /// event handled (`-1` if none yet). Other strategies never call it.
    fn on_timeout(&mut self, sequence: Sequence) {
        let _ = sequence;
    }

    /// The name of the processor's thread. The default is empty, which
    /// names the thread `disruptor-<stage>.<index>` (stages and handlers counted from 0; short enough for Linux's 15-byte thread names).
    fn name(&self) -> String {
        String::new()
    }
}

/// A consumer that may change events, for a pipeline stage that enriches
/// the event for the stages after it. It must be alone in its stage.
///
/// Closures `FnMut(&mut E, Sequence, bool)` go through
/// [`Builder::handle_events_mut_with`](crate::Builder::handle_events_mut_with),
/// types implementing this trait through
/// [`Builder::handle_events_mut_with_handler`](crate::Builder::handle_events_mut_with_handler).
///
/// ```
/// use hotq_disruptor::{Disruptor, EventHandlerMut, Sequence};
///
/// struct Double;
/// impl EventHandlerMut<u64> for Double {
///     fn on_event(&mut self, event: &mut u64, _seq: Sequence, _eob: bool) {
///         *event *= 2;
///     }
/// }
///
/// let mut producer = Disruptor::builder(8, || 0u64)
///     .handle_events_mut_with_handler(Double)
///     .then()
///     .handle_events_with(|e: &u64, seq, _eob| assert_eq!(*e, 2 * seq as u64))
///     .build_single_producer()?;
/// for v in 0..20 {
///     producer.publish(|e| *e = v)?;
/// }
/// producer.shutdown()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait EventHandlerMut<E>: Send + 'static {
    /// Handles (and may change) the event of `sequence`.
    fn on_event(&mut self, event: &mut E, sequence: Sequence, end_of_batch: bool);

    /// As [`EventHandler::on_batch_start`].
    fn on_batch_start(&mut self, batch_size: usize) {
        let _ = batch_size;
    }

    /// As [`EventHandler::on_start`].
    fn on_start(&mut self) {}

    /// As [`EventHandler::on_shutdown`].
    fn on_shutdown(&mut self) {}

    /// As [`EventHandler::on_timeout`].
    fn on_timeout(&mut self, sequence: Sequence) {
        let _ = sequence;
    }

    /// As [`EventHandler::name`].
    fn name(&self) -> String {
        String::new()
    }
}

/// A closure as a read-only handler.
pub(crate) struct FnHandler<F>(pub(crate) F);

impl<E, F> EventHandler<E> for FnHandler<F>
where
    F: FnMut(&E, Sequence, bool) + Send + 'static,
{
    #[inline]
    fn on_event(&mut self, event: &E, sequence: Sequence, end_of_batch: bool) {
        (self.0)(event, sequence, end_of_batch)
    }
}

/// A closure as a mutable handler.
pub(crate) struct FnHandlerMut<F>(pub(crate) F);

impl<E, F> EventHandlerMut<E> for FnHandlerMut<F>
where
    F: FnMut(&mut E, Sequence, bool) + Send + 'static,
{
    #[inline]
    fn on_event(&mut self, event: &mut E, sequence: Sequence, end_of_batch: bool) {
        (self.0)(event, sequence, end_of_batch)
    }
}
