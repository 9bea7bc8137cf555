//! Spin, yield, then sleep in short naps.

use super::{WaitStrategy, sealed};

/// Spins 100 steps, yields 100 times, then sleeps 10 µs at a time (the OS
/// rounds it up: some 50 µs on Linux). Little CPU while idle, latency of a
/// nap after a quiet spell.
///
/// ```
/// use hotq_disruptor::{Disruptor, wait::Sleeping};
///
/// let mut producer = Disruptor::builder(64, || 0u64)
///     .wait_strategy(Sleeping)
///     .handle_events_with(|_e: &u64, _seq, _eob| {})
///     .build_single_producer()?;
/// producer.publish(|e| *e = 1)?;
/// producer.shutdown()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sleeping;

impl sealed::Sealed for Sleeping {
    fn waiter(&self) -> sealed::Waiter {
        sealed::Waiter::Sleeping
    }
}

impl WaitStrategy for Sleeping {}
