//! Park like `Blocking`, but tell the handler when nothing came for a while.

use std::time::Duration;

use super::{WaitStrategy, sealed};

/// Parks as [`Blocking`](super::Blocking) does, for at most `timeout` at a
/// time: when no event came within it, the processor calls its handler's
/// [`on_timeout`](crate::EventHandler::on_timeout) (with the last sequence
/// it handled) and waits again. For a handler that flushes a buffer, sends
/// a heartbeat or expires a cache when the stream goes quiet (LMAX's
/// `TimeoutBlockingWaitStrategy` and `onTimeout`). An event poller never
/// waits, so the strategy only matters to handlers.
///
/// ```
/// use hotq_disruptor::{Disruptor, EventHandler, Sequence, wait::TimeoutBlocking};
/// use std::{sync::mpsc, time::Duration};
///
/// struct Batcher { pending: Vec<u64>, out: mpsc::Sender<Vec<u64>> }
/// impl EventHandler<u64> for Batcher {
///     fn on_event(&mut self, e: &u64, _seq: Sequence, _eob: bool) { self.pending.push(*e); }
///     fn on_timeout(&mut self, _last: Sequence) {
///         // Quiet for 10 ms: flush.
///         if !self.pending.is_empty() {
///             self.out.send(std::mem::take(&mut self.pending)).unwrap();
///         }
///     }
/// }
///
/// let (out, flushed) = mpsc::channel();
/// let mut producer = Disruptor::builder(64, || 0u64)
///     .wait_strategy(TimeoutBlocking::new(Duration::from_millis(10)))
///     .handle_events_with_handler(Batcher { pending: Vec::new(), out })
///     .build_single_producer()?;
/// producer.batch_publish(3, |events| events.zip(1..).for_each(|(e, v)| *e = v))?;
/// assert_eq!(flushed.recv_timeout(Duration::from_secs(60))?, [1, 2, 3]);
/// producer.shutdown()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeoutBlocking {
    /// How long a handler parks before it is told that nothing came.
    timeout: Duration,
}

impl TimeoutBlocking {
    /// Parks for at most `timeout` at a time.
    #[must_use]
    pub const fn new(timeout: Duration) -> Self {
        TimeoutBlocking { timeout }
    }

    /// The timeout.
    ///
    /// ```
    /// use hotq_disruptor::wait::TimeoutBlocking;
    /// use std::time::Duration;
    ///
    /// assert_eq!(TimeoutBlocking::new(Duration::from_millis(5)).timeout(), Duration::from_millis(5));
    /// ```
    #[must_use]
    pub const fn timeout(&self) -> Duration {
        self.timeout
    }
}

impl sealed::Sealed for TimeoutBlocking {
    fn waiter(&self) -> sealed::Waiter {
        sealed::Waiter::TimeoutBlocking {
            timeout: self.timeout,
        }
    }
}

impl WaitStrategy for TimeoutBlocking {}
