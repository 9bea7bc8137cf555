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

/// Spins without the CPU's spin-loop hint: each check follows the last at
/// once (on x86 no `pause`, whose delay is some 140 cycles on recent
/// Intel cores), for the last nanoseconds of latency at the cost of power
/// and of the sibling hyper-thread's share. Use it only with a core per
/// consumer to spare.
///
/// ```
/// use hotq_disruptor::{Disruptor, wait::BusySpinWithoutHint};
///
/// let mut producer = Disruptor::builder(64, || 0u64)
///     .wait_strategy(BusySpinWithoutHint)
///     .handle_events_with(|_e: &u64, _seq, _eob| {})
///     .build_single_producer()?;
/// producer.publish(|e| *e = 1)?;
/// producer.shutdown()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BusySpinWithoutHint;

impl sealed::Sealed for BusySpinWithoutHint {
    fn waiter(&self) -> sealed::Waiter {
        sealed::Waiter::BusySpinWithoutHint
    }
}

impl WaitStrategy for BusySpinWithoutHint {}
