//! Spin, then yield, then park.

use super::{WaitStrategy, sealed};

/// Spins `spin_tries` steps, yields `yield_tries` times, then parks like
/// [`Blocking`](super::Blocking): the latency of a spin for a busy stream,
/// no CPU for an idle one.
///
/// ```
/// use hotq_disruptor::{Disruptor, wait::PhasedBackoff};
///
/// let mut producer = Disruptor::builder(64, || 0u64)
///     .wait_strategy(PhasedBackoff::new(1_000, 100))
///     .handle_events_with(|_e: &u64, _seq, _eob| {})
///     .build_single_producer()?;
/// producer.publish(|e| *e = 1)?;
/// producer.shutdown()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhasedBackoff {
    /// Busy-wait steps before yielding.
    spin_tries: u32,
    /// Yields before parking.
    yield_tries: u32,
}

impl PhasedBackoff {
    /// Spins `spin_tries` steps, yields `yield_tries` times, then parks.
    #[must_use]
    pub const fn new(spin_tries: u32, yield_tries: u32) -> Self {
        PhasedBackoff {
            spin_tries,
            yield_tries,
        }
    }
}

impl Default for PhasedBackoff {
    /// 10,000 spins (some microseconds) and 100 yields.
    fn default() -> Self {
        PhasedBackoff::new(10_000, 100)
    }
}

impl sealed::Sealed for PhasedBackoff {
    fn waiter(&self) -> sealed::Waiter {
        sealed::Waiter::PhasedBackoff {
            spin_tries: self.spin_tries,
            yield_tries: self.yield_tries,
        }
    }
}

impl WaitStrategy for PhasedBackoff {}
