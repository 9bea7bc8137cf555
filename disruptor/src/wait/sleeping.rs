//! Spin, yield, then sleep in naps of a chosen length.

use std::time::Duration;

use super::{NAP, SPIN_TRIES, WaitStrategy, YIELD_TRIES, sealed};

/// Spins 100 steps, yields 100 times, then sleeps `nap` at a time
/// ([`Sleeping::new`]; the default is 10 µs, which the OS rounds up: some
/// 50 µs on Linux). Little CPU while idle, latency of a nap after a quiet
/// spell: choose the nap for the latency you can accept.
///
/// With more threads than cores, sleep at the first miss
/// ([`with_tries(0, 0)`](Sleeping::with_tries), what the `disruptor`
/// crate's `Sleep` does): a handler that spins and yields first keeps
/// taking the core back to consume a few events at a time, right behind
/// producers that write the same cache lines, where one that naps at once
/// finds a long run of events when it wakes. On 2 cores, three producers
/// and one handler (the report's sequencer 3P-1C, ring of 65,536) moved
/// 15 M events/s with the default tries and 50 with none; the 1P-3C
/// topologies lost about a tenth (`topology_switches`, 2026-12-04).
///
/// ```
/// use hotq_disruptor::{Disruptor, wait::Sleeping};
/// use std::time::Duration;
///
/// let mut producer = Disruptor::builder(64, || 0u64)
///     .wait_strategy(Sleeping::default())
///     .handle_events_with(|_e: &u64, _seq, _eob| {})
///     .wait_strategy(Sleeping::new(Duration::from_millis(1))) // a lazier one
///     .handle_events_with(|_e: &u64, _seq, _eob| {})
///     .build_single_producer()?;
/// producer.publish(|e| *e = 1)?;
/// producer.shutdown()?;
/// assert_eq!(Sleeping::default().nap(), Duration::from_micros(10));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sleeping {
    /// How long each sleep lasts (at least; the OS may round it up).
    nap: Duration,
    /// Busy-wait steps before yielding.
    spin_tries: u32,
    /// Yields before the first nap.
    yield_tries: u32,
}

impl Sleeping {
    /// Sleeps `nap` at a time once 100 spins and 100 yields found nothing.
    #[must_use]
    pub const fn new(nap: Duration) -> Self {
        Sleeping {
            nap,
            spin_tries: SPIN_TRIES,
            yield_tries: YIELD_TRIES,
        }
    }

    /// Spins `spin_tries` steps and yields `yield_tries` times before the
    /// first nap (LMAX's `SleepingWaitStrategy(retries, sleepTimeNs)` in
    /// two counts); `with_tries(0, 0)` naps at the first miss.
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, wait::Sleeping};
    /// use std::time::Duration;
    ///
    /// // More handler and producer threads than cores: nap at once.
    /// let mut producer = Disruptor::builder(64, || 0u64)
    ///     .wait_strategy(Sleeping::new(Duration::from_micros(10)).with_tries(0, 0))
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .build_multi_producer()?;
    /// producer.publish(|e| *e = 1)?;
    /// producer.shutdown()?;
    /// assert_eq!(Sleeping::default().with_tries(0, 0).tries(), (0, 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub const fn with_tries(self, spin_tries: u32, yield_tries: u32) -> Self {
        Sleeping {
            spin_tries,
            yield_tries,
            ..self
        }
    }

    /// The spins and the yields before the first nap.
    ///
    /// ```
    /// use hotq_disruptor::wait::Sleeping;
    ///
    /// assert_eq!(Sleeping::default().tries(), (100, 100));
    /// ```
    #[must_use]
    pub const fn tries(&self) -> (u32, u32) {
        (self.spin_tries, self.yield_tries)
    }

    /// The length of a nap.
    ///
    /// ```
    /// use hotq_disruptor::wait::Sleeping;
    /// use std::time::Duration;
    ///
    /// assert_eq!(Sleeping::new(Duration::from_micros(200)).nap(), Duration::from_micros(200));
    /// ```
    #[must_use]
    pub const fn nap(&self) -> Duration {
        self.nap
    }
}

impl Default for Sleeping {
    /// Naps of 10 µs.
    fn default() -> Self {
        Sleeping::new(NAP)
    }
}

impl sealed::Sealed for Sleeping {
    fn waiter(&self) -> sealed::Waiter {
        sealed::Waiter::Sleeping {
            nap: self.nap,
            spin_tries: self.spin_tries,
            yield_tries: self.yield_tries,
        }
    }
}

impl WaitStrategy for Sleeping {}
