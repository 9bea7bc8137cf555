//! How a consumer waits for the next event: spin, yield, sleep, or park.
//!
//! Every strategy watches the halt flag, so a halt (or a shutdown after its
//! drain) ends every wait. Set one with
//! [`Builder::wait_strategy`](crate::Builder::wait_strategy); it applies to
//! the handlers added after it, so each handler can have its own. The
//! default is [`Blocking`], as in LMAX's DSL: a program with more handlers
//! than idle cores still runs, and an idle one costs no CPU. Choose
//! [`BusySpin`] (or [`BusySpinWithoutHint`]) for the lowest latency when
//! each handler has a core to itself; the benchmark report's busy
//! `hotq-disruptor` rows use `BusySpinWithoutHint`, and its
//! `(sleep 10 µs)` rows `Sleeping::new(10 µs).with_tries(0, 0)`.
//!
//! | strategy | while idle | wake-up latency |
//! |---|---|---|
//! | [`BusySpin`] | one core at 100% (with the spin-loop hint) | lowest |
//! | [`BusySpinWithoutHint`] | one core at 100%, no hint (no `pause` on x86) | lowest, more power |
//! | [`Yielding`] | spins, then `yield_now` (a core at 100% unless others run) | low |
//! | [`Sleeping`] | spins, yields (100 of each by default; none suits more threads than cores), then sleeps in naps of a chosen length | about a nap |
//! | [`Blocking`] (the default) | parked on a condition variable: no CPU | a futex wake |
//! | [`TimeoutBlocking`] | as `Blocking`; the handler's `on_timeout` runs after each quiet spell of the timeout | a futex wake |
//! | [`PhasedBackoff`] | spins, yields, then parks like `Blocking` | low, then a futex wake |
//!
//! Whatever the strategy, a consumer that finds a fast stream's events
//! already waiting after each short batch pauses (busy, up to 1 µs) before
//! it looks again, so that the producer runs ahead and the next batch is
//! long; an event that finds the consumer waiting is seen at once.

mod blocking;
mod busy_spin;
mod pacing;
mod phased_backoff;
mod sleeping;
mod timeout_blocking;
mod yielding;

pub use blocking::Blocking;
pub use busy_spin::{BusySpin, BusySpinWithoutHint};
pub use phased_backoff::PhasedBackoff;
pub use sleeping::Sleeping;
pub use timeout_blocking::TimeoutBlocking;
pub use yielding::Yielding;

pub(crate) use blocking::Notifier;
pub(crate) use pacing::Pacing;

use std::time::{Duration, Instant};

use crate::control::Control;
use crate::sequence::Sequence;
use crate::sync::Backoff;

/// A wait strategy: one of [`BusySpin`], [`BusySpinWithoutHint`],
/// [`Yielding`], [`Sleeping`], [`Blocking`], [`TimeoutBlocking`] and
/// [`PhasedBackoff`]. The trait is sealed: the waits are
/// part of the crate's correctness (each must watch the halt flag, and the
/// parking ones take part in the wake-up protocol).
///
/// Code can take any strategy by this trait:
///
/// ```
/// use hotq_disruptor::{Disruptor, wait::{Blocking, BusySpin, Sleeping, WaitStrategy}};
///
/// fn sum_with<W: WaitStrategy>(strategy: W) -> Result<(), Box<dyn std::error::Error>> {
///     let mut producer = Disruptor::builder(8, || 0u64)
///         .wait_strategy(strategy)
///         .handle_events_with(|_e: &u64, _seq, _eob| {})
///         .build_single_producer()?;
///     producer.publish(|e| *e = 1)?;
///     producer.shutdown()?;
///     Ok(())
/// }
/// sum_with(BusySpin)?;
/// sum_with(Sleeping::default())?;
/// sum_with(Blocking)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait WaitStrategy: sealed::Sealed + Send + Sync + 'static {}

pub(crate) mod sealed {
    /// The strategies, as data: the barrier's wait loop dispatches on this
    /// enum (a predictable branch) instead of a trait object.
    #[derive(Clone, Copy, Debug)]
    pub enum Waiter {
        BusySpin,
        BusySpinWithoutHint,
        Yielding,
        Sleeping {
            nap: core::time::Duration,
            spin_tries: u32,
            yield_tries: u32,
        },
        Blocking,
        TimeoutBlocking {
            timeout: core::time::Duration,
        },
        PhasedBackoff {
            spin_tries: u32,
            yield_tries: u32,
        },
    }

    pub trait Sealed {
        fn waiter(&self) -> Waiter;
    }
}

pub(crate) use sealed::Waiter;

/// Busy-wait steps before [`Yielding`] and [`Sleeping`] (by default) start
/// yielding.
const SPIN_TRIES: u32 = 100;
/// Yields before [`Sleeping`] starts sleeping (by default).
const YIELD_TRIES: u32 = 100;
/// How long [`Sleeping`] naps at a time by default (the OS rounds it up, to
/// some 50 µs on Linux).
const NAP: Duration = Duration::from_micros(10);

/// Why a wait ended without the sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// Halted, or closed before the sequence: the consumer is finished.
    Finished,
    /// [`TimeoutBlocking`]: nothing came within the timeout; the caller
    /// tells its handler and waits again.
    TimedOut,
}

impl Waiter {
    /// True if a waiter of this kind may park on the [`Notifier`].
    pub(crate) fn parks(self) -> bool {
        matches!(
            self,
            Waiter::Blocking | Waiter::TimeoutBlocking { .. } | Waiter::PhasedBackoff { .. }
        )
    }

    /// Waits until `available()` reaches `sequence`, and returns what it
    /// returned; [`Stop::Finished`] once the disruptor is halted, or closed
    /// before `sequence` ([`Control::is_finished`]); [`Stop::TimedOut`]
    /// after a [`TimeoutBlocking`] timeout.
    ///
    /// `available` is the barrier's view: the highest sequence that the
    /// waiter may consume (published, and passed by every dependency).
    #[inline]
    pub(crate) fn wait_for(
        self,
        sequence: Sequence,
        control: &Control,
        available: impl Fn() -> Sequence,
    ) -> Result<Sequence, Stop> {
        let backoff = Backoff::new();
        let mut tries: u32 = 0;
        // TimeoutBlocking: set at the first park.
        let mut deadline: Option<Instant> = None;
        loop {
            let a = available();
            if a >= sequence {
                return Ok(a);
            }
            if control.is_finished(sequence) {
                return Err(Stop::Finished);
            }
            match self {
                Waiter::BusySpin => backoff.spin(),
                Waiter::BusySpinWithoutHint => backoff.busy(),
                Waiter::Yielding => {
                    if tries < SPIN_TRIES {
                        backoff.spin();
                    } else {
                        backoff.yield_now();
                    }
                }
                Waiter::Sleeping {
                    nap,
                    spin_tries,
                    yield_tries,
                } => {
                    if tries < spin_tries {
                        backoff.spin();
                    } else if tries - spin_tries < yield_tries {
                        backoff.yield_now();
                    } else {
                        backoff.sleep(nap);
                    }
                }
                Waiter::Blocking => control.notifier.park(
                    || available() >= sequence || control.is_finished(sequence),
                    None,
                ),
                Waiter::TimeoutBlocking { timeout } => {
                    let now = Instant::now();
                    let until = *deadline.get_or_insert_with(|| {
                        now.checked_add(timeout)
                            .unwrap_or(now + Duration::from_secs(1 << 30))
                    });
                    if now >= until {
                        return Err(Stop::TimedOut);
                    }
                    control.notifier.park(
                        || available() >= sequence || control.is_finished(sequence),
                        Some(until - now),
                    );
                }
                Waiter::PhasedBackoff {
                    spin_tries,
                    yield_tries,
                } => {
                    if tries < spin_tries {
                        backoff.spin();
                    } else if tries - spin_tries < yield_tries {
                        backoff.yield_now();
                    } else {
                        control.notifier.park(
                            || available() >= sequence || control.is_finished(sequence),
                            None,
                        );
                    }
                }
            }
            tries = tries.saturating_add(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::AtomicSequence;
    use crate::sync::Ordering;
    use std::sync::Arc;
    use std::sync::mpsc;
    use std::time::Duration;

    const ALL: [Waiter; 8] = [
        Waiter::BusySpin,
        Waiter::BusySpinWithoutHint,
        Waiter::Yielding,
        Waiter::Sleeping {
            nap: NAP,
            spin_tries: SPIN_TRIES,
            yield_tries: YIELD_TRIES,
        },
        Waiter::Sleeping {
            nap: Duration::from_millis(2),
            spin_tries: 0,
            yield_tries: 0,
        },
        Waiter::Blocking,
        // Longer than the tests' waits: it must wake on progress, not time out.
        Waiter::TimeoutBlocking {
            timeout: Duration::from_secs(600),
        },
        Waiter::PhasedBackoff {
            spin_tries: 10,
            yield_tries: 10,
        },
    ];

    /// Runs `wait_for(5)` on a thread; returns what it returned, or panics
    /// if it did not return within a deadline.
    fn wait_on_thread(
        waiter: Waiter,
        control: Arc<Control>,
        value: Arc<AtomicSequence>,
        act: impl FnOnce(),
    ) -> Result<Sequence, Stop> {
        let (tx, rx) = mpsc::channel();
        let c = control.clone();
        std::thread::spawn(move || {
            // Acquire: pairs with the test's Release store below, as a
            // barrier's load pairs with a publish.
            tx.send(waiter.wait_for(5, &c, || value.load(Ordering::Acquire)))
                .unwrap();
        });
        // Let the waiter get as far as parking (not needed for correctness:
        // the protocol must work at any point; this only makes parking likely).
        std::thread::sleep(Duration::from_millis(20));
        act();
        rx.recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("{waiter:?} did not wake"))
    }

    #[test]
    fn every_strategy_wakes_on_progress() {
        for waiter in ALL {
            let control = Arc::new(Control::new(true));
            let value = Arc::new(AtomicSequence::new(-1));
            let (c, v) = (control.clone(), value.clone());
            let got = wait_on_thread(waiter, control, value, move || {
                // Release: pairs with the waiter's Acquire load above.
                v.store(7, Ordering::Release);
                c.progress();
            });
            assert_eq!(got, Ok(7), "{waiter:?}");
        }
    }

    #[test]
    fn every_strategy_wakes_on_halt() {
        for waiter in ALL {
            let control = Arc::new(Control::new(true));
            let value = Arc::new(AtomicSequence::new(-1));
            let c = control.clone();
            let got = wait_on_thread(waiter, control, value, move || c.halt());
            assert_eq!(got, Err(Stop::Finished), "{waiter:?}");
        }
    }

    #[test]
    fn timeout_blocking_times_out_then_waits_again() {
        let control = Control::new(true);
        let waiter = Waiter::TimeoutBlocking {
            timeout: Duration::from_millis(20),
        };
        let start = std::time::Instant::now();
        assert_eq!(waiter.wait_for(0, &control, || -1), Err(Stop::TimedOut));
        assert!(start.elapsed() >= Duration::from_millis(20));
        // A closed stream ends the wait as finished, not timed out.
        control.close(-1);
        assert_eq!(waiter.wait_for(0, &control, || -1), Err(Stop::Finished));
    }

    #[test]
    fn available_events_return_without_waiting() {
        for waiter in ALL {
            let control = Control::new(true);
            assert_eq!(waiter.wait_for(3, &control, || 9), Ok(9));
            // Halted, but the events are there: the barrier hands them out
            // (the processor checks the halt flag per batch).
            control.halt();
            assert_eq!(waiter.wait_for(3, &control, || 3), Ok(3));
        }
    }
}
