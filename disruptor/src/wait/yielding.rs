//! Spin a little, then yield the core on every step.

use super::{WaitStrategy, sealed};

/// Spins 100 steps, then calls `yield_now` on every step: low latency, and
/// other threads get the core when they need it (a core still shows 100%
/// while idle).
///
/// ```
/// use hotq_disruptor::{Disruptor, wait::Yielding};
///
/// let mut producer = Disruptor::builder(64, || 0u64)
///     .wait_strategy(Yielding)
///     .handle_events_with(|_e: &u64, _seq, _eob| {})
///     .build_single_producer()?;
/// producer.publish(|e| *e = 1)?;
/// producer.shutdown()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Yielding;

impl sealed::Sealed for Yielding {
    fn waiter(&self) -> sealed::Waiter {
        sealed::Waiter::Yielding
    }
}

impl WaitStrategy for Yielding {}
