//! The errors of building, publishing, polling and shutting down.

use core::fmt;
use std::time::Duration;

use crate::sequence::Sequence;

/// Why [`Builder::build_single_producer`](crate::Builder::build_single_producer)
/// or [`build_multi_producer`](crate::Builder::build_multi_producer) refused.
///
/// ```
/// use hotq_disruptor::{BuildError, Disruptor};
///
/// let err = Disruptor::builder(1000, || 0u64)
///     .handle_events_with(|_e: &u64, _seq, _eob| {})
///     .build_single_producer()
///     .unwrap_err();
/// assert_eq!(err, BuildError::SizeNotPowerOfTwo { size: 1000 });
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildError {
    /// The ring size is 0, not a power of two, or above 2^62.
    SizeNotPowerOfTwo {
        /// The size asked for.
        size: usize,
    },
    /// No handler and no event poller: nothing would ever consume.
    NoConsumers,
    /// [`then`](crate::Builder::then) was called on a stage without a consumer
    /// (twice in a row, first, or last).
    EmptyStage {
        /// The index of the empty stage, from 0.
        stage: usize,
    },
    /// A mutable handler ([`handle_events_mut_with`](crate::Builder::handle_events_mut_with))
    /// shares its stage with another consumer; it must be alone, or the
    /// others would read the event while it writes.
    MutableHandlerShared {
        /// The index of the stage, from 0.
        stage: usize,
    },
    /// A mutable handler and another consumer are unordered in the graph
    /// (neither is after the other, directly or not), so the other could
    /// read an event while the mutable handler writes it.
    MutableHandlerUnordered {
        /// The mutable handler's name.
        handler: String,
        /// The consumer unordered with it.
        other: String,
    },
    /// The consumers are after each other in a cycle, so none of them could
    /// ever start. The names follow the cycle, each after the next, and the
    /// first comes again at the end.
    Cycle {
        /// The cycle, as `[a, b, .., a]`: `a` after `b`, and so on.
        handlers: Vec<String>,
    },
    /// [`after`](crate::Builder::after) named a consumer that the builder
    /// does not have.
    UnknownHandler {
        /// The name asked for.
        name: String,
    },
    /// Two consumers have the same name, so [`after`](crate::Builder::after)
    /// could not tell them apart.
    DuplicateName {
        /// The name given twice.
        name: String,
    },
    /// The operating system refused to start a processor's thread.
    Spawn {
        /// The handler's thread name.
        handler: String,
        /// What the OS said.
        kind: std::io::ErrorKind,
    },
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::SizeNotPowerOfTwo { size } => {
                write!(f, "ring size {size} is not a power of two in 1..=2^62")
            }
            BuildError::NoConsumers => f.write_str("the disruptor has no handler and no poller"),
            BuildError::EmptyStage { stage } => write!(f, "stage {stage} has no consumer"),
            BuildError::MutableHandlerShared { stage } => {
                write!(
                    f,
                    "stage {stage} has a mutable handler and another consumer"
                )
            }
            BuildError::MutableHandlerUnordered { handler, other } => write!(
                f,
                "mutable handler {handler} and consumer {other} are unordered (neither is after the other)"
            ),
            BuildError::Cycle { handlers } => {
                write!(
                    f,
                    "the consumers are after each other in a cycle: {}",
                    handlers.join(" after ")
                )
            }
            BuildError::UnknownHandler { name } => write!(f, "no consumer is named {name:?}"),
            BuildError::DuplicateName { name } => {
                write!(f, "two consumers are named {name:?}")
            }
            BuildError::Spawn { handler, kind } => {
                write!(f, "could not start the thread of handler {handler}: {kind}")
            }
        }
    }
}

impl std::error::Error for BuildError {}

/// Why a publish did not happen. Nothing was written: the factory's or the
/// previous lap's event is untouched and no sequence was used.
///
/// ```
/// use hotq_disruptor::{Disruptor, PublishError};
///
/// let mut producer = Disruptor::builder(4, || 0u64)
///     .handle_events_with(|_e: &u64, _seq, _eob| {})
///     .build_single_producer()
///     .unwrap();
/// assert_eq!(
///     producer.batch_publish(5, |_events| {}),
///     Err(PublishError::BatchSize { requested: 5, size: 4 })
/// );
/// producer.halt();
/// assert_eq!(producer.publish(|e| *e = 1), Err(PublishError::Halted));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PublishError {
    /// The ring is full: the slowest leaf consumer is a whole ring behind
    /// (`try_publish`/`try_batch_publish` only; `publish` waits instead).
    Full,
    /// The disruptor was halted ([`halt`](crate::SingleProducer::halt), a
    /// handler's panic under the default policy, or a shutdown): nothing will
    /// consume any more.
    Halted,
    /// `publish_timeout`/`batch_publish_timeout`: the ring stayed full for
    /// the whole timeout. Nothing was claimed: the next publish gets the
    /// next sequence.
    Timeout,
    /// A batch of `requested` events cannot be claimed: it must be in
    /// `1..=size` (a larger batch could never fit, so it is refused instead
    /// of waiting forever).
    BatchSize {
        /// The batch size asked for.
        requested: usize,
        /// The ring size.
        size: usize,
    },
}

impl fmt::Display for PublishError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PublishError::Full => f.write_str("the ring is full"),
            PublishError::Halted => f.write_str("the disruptor is halted"),
            PublishError::Timeout => f.write_str("the ring stayed full until the timeout"),
            PublishError::BatchSize { requested, size } => {
                write!(
                    f,
                    "a batch of {requested} events does not fit a ring of {size} (must be 1..={size})"
                )
            }
        }
    }
}

impl std::error::Error for PublishError {}

/// Why [`EventPoller::poll`](crate::EventPoller::poll) returned no events.
///
/// ```
/// use hotq_disruptor::{Disruptor, PollError};
///
/// let mut builder = Disruptor::builder(4, || 0u64);
/// let mut poller = builder.event_poller();
/// let mut producer = builder.build_single_producer()?;
/// producer.publish(|e| *e = 1)?;
/// drop(producer); // the stream ends after event 0
/// assert_eq!(poller.poll(|_, _, _| {}), Ok(1));
/// assert_eq!(poller.poll(|_, _, _| {}), Err(PollError::Halted));
/// assert_eq!(PollError::Halted.to_string(), "the disruptor is halted");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PollError {
    /// The disruptor is halted or shut down: nothing more will come.
    Halted,
}

impl fmt::Display for PollError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PollError::Halted => f.write_str("the disruptor is halted"),
        }
    }
}

impl std::error::Error for PollError {}

/// A handler's panic, caught at its processor's boundary: what the
/// shutdown reports, and the [`source`](std::error::Error::source) of its
/// [`ShutdownError::Panicked`].
///
/// ```
/// use hotq_disruptor::{Disruptor, HandlerPanic};
/// use std::error::Error;
///
/// let mut producer = Disruptor::builder(4, || 0u64)
///     .named("pricer")
///     .handle_events_with(|_e: &u64, seq, _eob| assert!(seq < 2, "stale quote"))
///     .build_single_producer()?;
/// for v in 0..3 {
///     let _ = producer.publish(|e| *e = v);
/// }
/// let err = producer.shutdown().unwrap_err();
/// let panic: &HandlerPanic = err.source().unwrap().downcast_ref().unwrap();
/// assert_eq!(panic.to_string(), "handler pricer panicked at sequence 2: stale quote");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandlerPanic {
    /// The handler's (thread) name.
    pub(crate) handler: String,
    /// The event it was handling, `None` if it panicked in `on_start`,
    /// `on_batch_start` or `on_shutdown`.
    pub(crate) sequence: Option<Sequence>,
    /// The panic message (`&str` or `String` payloads; otherwise a placeholder).
    pub(crate) message: String,
}

impl HandlerPanic {
    pub(crate) fn new(
        handler: &str,
        sequence: Option<Sequence>,
        payload: &(dyn std::any::Any + Send),
    ) -> Self {
        let message = if let Some(s) = payload.downcast_ref::<&str>() {
            (*s).to_owned()
        } else if let Some(s) = payload.downcast_ref::<String>() {
            s.clone()
        } else {
            "<non-string panic payload>".to_owned()
        };
        HandlerPanic {
            handler: handler.to_owned(),
            sequence,
            message,
        }
    }

    /// The name of the handler (its thread's name).
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, ShutdownError};
    ///
    /// let mut producer = Disruptor::builder(4, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| panic!("no"))
    ///     .build_single_producer()?;
    /// let _ = producer.publish(|e| *e = 1);
    /// let Err(ShutdownError::Panicked(p)) = producer.shutdown() else { panic!() };
    /// assert_eq!((p.handler(), p.sequence(), p.message()), ("disruptor-0.0", Some(0), "no"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn handler(&self) -> &str {
        &self.handler
    }

    /// The sequence of the event it was handling, or `None` if it panicked
    /// outside `on_event` (see [`handler`](Self::handler) for an example).
    #[must_use]
    pub fn sequence(&self) -> Option<Sequence> {
        self.sequence
    }

    /// The panic message (see [`handler`](Self::handler) for an example).
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for HandlerPanic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.sequence {
            Some(s) => write!(
                f,
                "handler {} panicked at sequence {s}: {}",
                self.handler, self.message
            ),
            None => write!(f, "handler {} panicked: {}", self.handler, self.message),
        }
    }
}

impl std::error::Error for HandlerPanic {}

/// Why a shutdown did not end cleanly. The threads are gone either way,
/// except after [`Timeout`](ShutdownError::Timeout).
///
/// ```
/// use hotq_disruptor::{Disruptor, ShutdownError};
///
/// let mut producer = Disruptor::builder(8, || 0u64)
///     .handle_events_with(|e: &u64, _seq, _eob| assert!(*e != 3, "three"))
///     .build_single_producer()
///     .unwrap();
/// for v in 0..5 {
///     let _ = producer.publish(|e| *e = v); // Err(Halted) once the handler panicked
/// }
/// match producer.shutdown() {
///     Err(ShutdownError::Panicked(p)) => {
///         assert_eq!(p.sequence(), Some(3));
///         assert!(p.message().contains("three"));
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShutdownError {
    /// A handler panicked (the first panic recorded); under the default
    /// policy that halted the disruptor, so events after it were not drained.
    Panicked(HandlerPanic),
    /// `shutdown_timeout(d)`: the drain did not finish within `d`. The
    /// disruptor is halted and its threads are left to exit on their own
    /// (a handler stuck inside `on_event` cannot be stopped).
    Timeout(Duration),
}

impl fmt::Display for ShutdownError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShutdownError::Panicked(p) => p.fmt(f),
            ShutdownError::Timeout(d) => write!(f, "the drain did not finish within {d:?}"),
        }
    }
}

impl std::error::Error for ShutdownError {
    /// The handler's panic, for [`Panicked`](ShutdownError::Panicked).
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ShutdownError::Panicked(p) => Some(p),
            ShutdownError::Timeout(_) => None,
        }
    }
}
