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
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, EventHandler, Sequence};
    /// use std::sync::mpsc;
    ///
    /// struct Flush { pending: Vec<u64>, out: mpsc::Sender<Vec<u64>> }
    /// impl EventHandler<u64> for Flush {
    ///     fn on_event(&mut self, e: &u64, _seq: Sequence, end_of_batch: bool) {
    ///         self.pending.push(*e);
    ///         if end_of_batch {
    ///             self.out.send(std::mem::take(&mut self.pending)).unwrap();
    ///         }
    ///     }
    /// }
    /// let (out, batches) = mpsc::channel();
    /// let mut producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with_handler(Flush { pending: Vec::new(), out })
    ///     .build_single_producer()?;
    /// producer.batch_publish(3, |events| events.zip(1..).for_each(|(e, v)| *e = v))?;
    /// producer.shutdown()?;
    /// assert_eq!(batches.iter().flatten().collect::<Vec<_>>(), [1, 2, 3]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn on_event(&mut self, event: &E, sequence: Sequence, end_of_batch: bool);

    /// Called before each batch with the number of events in it (at least 1).
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, EventHandler, Sequence};
    /// use std::sync::mpsc;
    ///
    /// struct Sizes(mpsc::Sender<usize>);
    /// impl EventHandler<u64> for Sizes {
    ///     fn on_event(&mut self, _e: &u64, _seq: Sequence, _eob: bool) {}
    ///     fn on_batch_start(&mut self, batch_size: usize) { self.0.send(batch_size).unwrap(); }
    /// }
    /// let (tx, sizes) = mpsc::channel();
    /// let mut producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with_handler(Sizes(tx))
    ///     .build_single_producer()?;
    /// producer.batch_publish(5, |_| {})?;
    /// producer.shutdown()?;
    /// assert_eq!(sizes.iter().sum::<usize>(), 5); // one batch of 5, or several
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn on_batch_start(&mut self, batch_size: usize) {
        let _ = batch_size;
    }

    /// Called once on the processor's thread before the first event.
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, EventHandler, Sequence};
    /// use std::sync::mpsc;
    ///
    /// struct Started(mpsc::Sender<String>);
    /// impl EventHandler<u64> for Started {
    ///     fn on_event(&mut self, _e: &u64, _seq: Sequence, _eob: bool) {}
    ///     fn on_start(&mut self) {
    ///         let name = std::thread::current().name().unwrap().to_owned();
    ///         self.0.send(name).unwrap();
    ///     }
    ///     fn name(&self) -> String { "starter".into() }
    /// }
    /// let (tx, rx) = mpsc::channel();
    /// let producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with_handler(Started(tx))
    ///     .build_single_producer()?;
    /// producer.shutdown()?;
    /// assert_eq!(rx.recv()?, "starter"); // on the processor's own thread
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn on_start(&mut self) {}

    /// Called once on the processor's thread after the last event (after a
    /// drain, or when halted).
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, EventHandler, Sequence};
    /// use std::sync::mpsc;
    ///
    /// struct Count { n: u64, out: mpsc::Sender<u64> }
    /// impl EventHandler<u64> for Count {
    ///     fn on_event(&mut self, _e: &u64, _seq: Sequence, _eob: bool) { self.n += 1; }
    ///     fn on_shutdown(&mut self) { self.out.send(self.n).unwrap(); }
    /// }
    /// let (out, total) = mpsc::channel();
    /// let mut producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with_handler(Count { n: 0, out })
    ///     .build_single_producer()?;
    /// for _ in 0..20 {
    ///     producer.publish(|e| *e = 1)?;
    /// }
    /// producer.shutdown()?;
    /// assert_eq!(total.recv()?, 20); // after the drain
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn on_shutdown(&mut self) {}

    /// Called when the [`TimeoutBlocking`](crate::wait::TimeoutBlocking)
    /// strategy's timeout passed with no new event; `sequence` is the last
    /// event handled (`-1` if none yet). Other strategies never call it.
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, EventHandler, Sequence, wait::TimeoutBlocking};
    /// use std::{sync::mpsc, time::Duration};
    ///
    /// struct Heartbeat(mpsc::Sender<Sequence>);
    /// impl EventHandler<u64> for Heartbeat {
    ///     fn on_event(&mut self, _e: &u64, _seq: Sequence, _eob: bool) {}
    ///     fn on_timeout(&mut self, last: Sequence) { let _ = self.0.send(last); }
    /// }
    /// let (tx, beats) = mpsc::channel();
    /// let producer = Disruptor::builder(8, || 0u64)
    ///     .wait_strategy(TimeoutBlocking::new(Duration::from_millis(5)))
    ///     .handle_events_with_handler(Heartbeat(tx))
    ///     .build_single_producer()?;
    /// assert_eq!(beats.recv_timeout(Duration::from_secs(60))?, -1); // quiet, nothing yet
    /// producer.shutdown()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn on_timeout(&mut self, sequence: Sequence) {
        let _ = sequence;
    }

    /// The name of the processor's thread. The default is empty, which
    /// names the thread `disruptor-<stage>.<index>` (stages and handlers counted from 0; short enough for Linux's 15-byte thread names).
    /// [`Builder::named`](crate::Builder::named) overrides it.
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, EventHandler, Sequence, ShutdownError};
    ///
    /// struct Parser;
    /// impl EventHandler<u64> for Parser {
    ///     fn on_event(&mut self, _e: &u64, _seq: Sequence, _eob: bool) { panic!("bad input") }
    ///     fn name(&self) -> String { "parser".into() }
    /// }
    /// let mut producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with_handler(Parser)
    ///     .build_single_producer()?;
    /// let _ = producer.publish(|e| *e = 1);
    /// let Err(ShutdownError::Panicked(p)) = producer.shutdown() else { panic!() };
    /// assert_eq!(p.handler(), "parser");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, EventHandlerMut, Sequence};
    ///
    /// struct Tag;
    /// impl EventHandlerMut<(u64, Sequence)> for Tag {
    ///     fn on_event(&mut self, e: &mut (u64, Sequence), seq: Sequence, _eob: bool) { e.1 = seq; }
    /// }
    /// let mut producer = Disruptor::builder(8, || (0u64, -1))
    ///     .handle_events_mut_with_handler(Tag)
    ///     .then()
    ///     .handle_events_with(|e: &(u64, Sequence), seq, _eob| assert_eq!(e.1, seq))
    ///     .build_single_producer()?;
    /// for v in 0..10 {
    ///     producer.publish(|e| e.0 = v)?;
    /// }
    /// producer.shutdown()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn on_event(&mut self, event: &mut E, sequence: Sequence, end_of_batch: bool);

    /// As [`EventHandler::on_batch_start`].
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, EventHandlerMut, Sequence};
    ///
    /// struct Numbered { batch: usize }
    /// impl EventHandlerMut<usize> for Numbered {
    ///     fn on_batch_start(&mut self, _size: usize) { self.batch += 1; }
    ///     fn on_event(&mut self, e: &mut usize, _seq: Sequence, _eob: bool) { *e = self.batch; }
    /// }
    /// let mut producer = Disruptor::builder(8, || 0usize)
    ///     .handle_events_mut_with_handler(Numbered { batch: 0 })
    ///     .build_single_producer()?;
    /// producer.batch_publish(4, |_| {})?;
    /// producer.shutdown()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn on_batch_start(&mut self, batch_size: usize) {
        let _ = batch_size;
    }

    /// As [`EventHandler::on_start`].
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, EventHandlerMut, Sequence};
    ///
    /// struct Scale { by: u64 }
    /// impl EventHandlerMut<u64> for Scale {
    ///     fn on_start(&mut self) { self.by = 3; } // e.g. read a setting on the thread
    ///     fn on_event(&mut self, e: &mut u64, _seq: Sequence, _eob: bool) { *e *= self.by; }
    /// }
    /// let mut producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_mut_with_handler(Scale { by: 0 })
    ///     .then()
    ///     .handle_events_with(|e: &u64, _seq, _eob| assert_eq!(*e, 21))
    ///     .build_single_producer()?;
    /// producer.publish(|e| *e = 7)?;
    /// producer.shutdown()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn on_start(&mut self) {}

    /// As [`EventHandler::on_shutdown`].
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, EventHandlerMut, Sequence};
    /// use std::sync::mpsc;
    ///
    /// struct Last(Sequence, mpsc::Sender<Sequence>);
    /// impl EventHandlerMut<u64> for Last {
    ///     fn on_event(&mut self, _e: &mut u64, seq: Sequence, _eob: bool) { self.0 = seq; }
    ///     fn on_shutdown(&mut self) { self.1.send(self.0).unwrap(); }
    /// }
    /// let (tx, rx) = mpsc::channel();
    /// let mut producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_mut_with_handler(Last(-1, tx))
    ///     .build_single_producer()?;
    /// producer.batch_publish(6, |_| {})?;
    /// producer.shutdown()?;
    /// assert_eq!(rx.recv()?, 5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn on_shutdown(&mut self) {}

    /// As [`EventHandler::on_timeout`].
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, EventHandlerMut, Sequence, wait::TimeoutBlocking};
    /// use std::{sync::mpsc, time::Duration};
    ///
    /// struct Idle(mpsc::Sender<Sequence>);
    /// impl EventHandlerMut<u64> for Idle {
    ///     fn on_event(&mut self, _e: &mut u64, _seq: Sequence, _eob: bool) {}
    ///     fn on_timeout(&mut self, last: Sequence) { let _ = self.0.send(last); }
    /// }
    /// let (tx, rx) = mpsc::channel();
    /// let mut producer = Disruptor::builder(8, || 0u64)
    ///     .wait_strategy(TimeoutBlocking::new(Duration::from_millis(5)))
    ///     .handle_events_mut_with_handler(Idle(tx))
    ///     .build_single_producer()?;
    /// producer.publish(|e| *e = 1)?;
    /// // Quiet after event 0: told so, with the last sequence handled.
    /// while rx.recv_timeout(Duration::from_secs(60))? != 0 {}
    /// producer.shutdown()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn on_timeout(&mut self, sequence: Sequence) {
        let _ = sequence;
    }

    /// As [`EventHandler::name`].
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, EventHandlerMut, Sequence, ShutdownError};
    ///
    /// struct Enricher;
    /// impl EventHandlerMut<u64> for Enricher {
    ///     fn on_event(&mut self, _e: &mut u64, _seq: Sequence, _eob: bool) { panic!("no rate") }
    ///     fn name(&self) -> String { "enricher".into() }
    /// }
    /// let mut producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_mut_with_handler(Enricher)
    ///     .build_single_producer()?;
    /// let _ = producer.publish(|e| *e = 1);
    /// let Err(ShutdownError::Panicked(p)) = producer.shutdown() else { panic!() };
    /// assert_eq!(p.handler(), "enricher");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
