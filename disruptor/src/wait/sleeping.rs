//! Spin, yield, then sleep in naps of a chosen length.

use std::time::Duration;

use super::{NAP, WaitStrategy, sealed};

/// Spins 100 steps, yields 100 times, then sleeps `nap` at a time
/// ([`Sleeping::new`]; the default is 10 µs, which the OS rounds up: some
/// 50 µs on Linux). Little CPU while idle, latency of a nap after a quiet
/// spell: choose the nap for the latency you can accept.
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
}

impl Sleeping {
    /// Sleeps `nap` at a time once spinning and yielding found nothing.
    #[must_use]
    pub const fn new(nap: Duration) -> Self {
        Sleeping { nap }
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
        sealed::Waiter::Sleeping { nap: self.nap }
    }
}

impl WaitStrategy for Sleeping {}
