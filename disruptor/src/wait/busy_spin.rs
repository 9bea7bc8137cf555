//! Spin on the sequence: the lowest latency, one core at 100% while idle.

use super::{WaitStrategy, sealed};

/// Spins (with the CPU's spin-loop hint) until the event arrives. Use it
/// only with a core per consumer to spare.
///
/// ```
/// use hotq_disruptor::{Disruptor, wait::BusySpin};
///
/// let mut producer = Disruptor::builder(64, || 0u64)
///     .wait_strategy(BusySpin)
///     .handle_events_with(|_e: &u64, _seq, _eob| {})
///     .build_single_producer()?;
/// producer.publish(|e| *e = 1)?;
/// producer.shutdown()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BusySpin;

impl sealed::Sealed for BusySpin {
    fn waiter(&self) -> sealed::Waiter {
        sealed::Waiter::BusySpin
    }
}

impl WaitStrategy for BusySpin {}
