//! Park on a condition variable: no CPU while idle, and no lost wake-up.
//!
//! # The wake-up protocol
//!
//! A waiter W (a consumer with nothing to do) and a signaller P (the
//! producer after publishing, a consumer after advancing its sequence, or a
//! halt) share a flag `signal_needed` and the lock/condvar pair, as LMAX's
//! `LiteBlockingWaitStrategy`:
//!
//! ```text
//! W: lock; swap(signal_needed, true); fence(SeqCst); if !ready() { wait (unlocks) } unlock
//! P: store(progress, Release); fence(SeqCst);
//!    if signal_needed && swap(signal_needed, false) { lock; notify_all; unlock }
//! ```
//!
//! Without the two `SeqCst` fences this is the store-buffering shape: W's
//! `ready()` load could miss P's progress while P's load of the flag misses
//! W's store, W parks and nobody wakes it (the LMAX lost wake-up). With
//! them, the fences are ordered one way or the other in the single total
//! order of `SeqCst` operations:
//!
//! - P's fence first: W's `ready()` loads come after W's fence, hence after
//!   P's fence, so they see P's progress store (or a later one). W does not
//!   park.
//! - W's fence first: P's load sees W's `true` or a later value. If P's
//!   swap takes the `true`, P takes the lock; if it finds `false`, another
//!   signaller's swap took W's `true` after W stored it, and that one takes
//!   the lock. Either way the swapper's swap read W's store, made under the
//!   lock, so its own `lock` cannot come before W's critical section (the
//!   swap would then happen before the store it read): it comes after W
//!   released the lock by waiting, and its `notify_all` wakes W.
//!
//! So only the first signal after a waiter parks pays for the lock and the
//! system call; the others pay a fence and a load. A stale `true` costs one
//! needless notify. The flag's own accesses need no ordering of their own
//! (the fences and the lock give it), so they are Relaxed.

use super::{WaitStrategy, sealed};
use crate::sync::{AtomicBool, Condvar, Mutex, Ordering, fence};

/// Parks the consumer on a condition variable until the producer (or the
/// stage before) signals progress: zero CPU while idle. The producer then
/// pays a `SeqCst` fence per publish, and a lock and a wake-up system call
/// once per park.
///
/// ```
/// use hotq_disruptor::{Disruptor, wait::Blocking};
///
/// let mut producer = Disruptor::builder(64, || 0u64)
///     .wait_strategy(Blocking)
///     .handle_events_with(|_e: &u64, _seq, _eob| {})
///     .build_single_producer()?;
/// producer.publish(|e| *e = 1)?;
/// producer.shutdown()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Blocking;

impl sealed::Sealed for Blocking {
    fn waiter(&self) -> sealed::Waiter {
        sealed::Waiter::Blocking
    }
}

impl WaitStrategy for Blocking {}

/// Where parked waiters sleep; one per disruptor (see the module docs for
/// the protocol).
pub(crate) struct Notifier {
    /// True from a waiter's announcement until a signaller takes it to
    /// wake the waiters. Written by waiters only under `lock`.
    signal_needed: AtomicBool,
    lock: Mutex<()>,
    condvar: Condvar,
}

impl Notifier {
    pub(crate) fn new() -> Self {
        Notifier {
            signal_needed: AtomicBool::new(false),
            lock: Mutex::new(()),
            condvar: Condvar::new(),
        }
    }

    /// Wakes every parked waiter. Call it after the store that may make a
    /// waiter ready.
    #[inline]
    pub(crate) fn signal(&self) {
        // SeqCst: orders the caller's progress store before the load of
        // `signal_needed`, against the waiter's fence (module docs).
        fence(Ordering::SeqCst);
        if self.signal_needed.load(Ordering::Relaxed) {
            self.wake();
        }
    }

    /// The rare part of [`signal`](Self::signal): a waiter announced
    /// itself. Out of line, so that the publish path that inlines `signal`
    /// stays a fence, a load and a branch (the lock and condvar code
    /// inlined there kept the producer's drop guard out of line: a call
    /// and its stores per event).
    #[cold]
    #[inline(never)]
    fn wake(&self) {
        if self.signal_needed.swap(false, Ordering::Relaxed) {
            let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
            self.condvar.notify_all();
        }
    }

    /// Parks until signalled (or for at most `timeout`, if given), unless
    /// `ready()` already holds. May return without `ready()` holding (a
    /// signal for another waiter, a timeout): the caller re-checks in its
    /// loop. A timed-out waiter's stale announcement costs a signaller one
    /// needless notify.
    pub(crate) fn park(&self, ready: impl Fn() -> bool, timeout: Option<std::time::Duration>) {
        let guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        // A swap, not a store: the same ordering in the C++ model, but loom
        // (0.7.3) reports a lost wake-up with a Relaxed store before the
        // fence and none with an RMW (the tests helper's Blocking models;
        // the waiter count this replaced was an RMW too). Parking is the
        // slow path, so the RMW costs nothing that matters.
        self.signal_needed.swap(true, Ordering::Relaxed);
        // SeqCst: orders the announcement before `ready()`'s loads, against
        // the signaller's fence (module docs).
        fence(Ordering::SeqCst);
        let guard = match timeout {
            _ if ready() => guard,
            None => self.condvar.wait(guard).unwrap_or_else(|e| e.into_inner()),
            Some(timeout) => match self.condvar.wait_timeout(guard, timeout) {
                Ok((guard, _)) => guard,
                Err(e) => e.into_inner().0,
            },
        };
        drop(guard);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicI64;
    use std::sync::mpsc;
    use std::time::Duration;

    /// Two threads hand a counter back and forth, each parking until it is
    /// its turn: thread A waits for odd values, B for even ones. A lost
    /// wake-up leaves both parked for ever; the test then fails at its
    /// deadline instead of hanging. (Shown: checking `ready()` before
    /// announcing the waiter hangs it within a few hundred rounds.)
    #[test]
    fn park_and_signal_lose_no_wake_up() {
        // Under miri a few hundred rounds (each one a park/signal race):
        // 20,000 took its virtual 60 s there.
        const ROUNDS: i64 = if cfg!(miri) { 400 } else { 20_000 };
        let notifier = std::sync::Arc::new(Notifier::new());
        let turn = std::sync::Arc::new(AtomicI64::new(0));
        let (done_tx, done) = mpsc::channel();
        for parity in [0, 1] {
            let (notifier, turn, done_tx) = (notifier.clone(), turn.clone(), done_tx.clone());
            std::thread::spawn(move || {
                loop {
                    // Acquire/Release on `turn`: the hand-over itself, as the
                    // cursor and a sequence are in the disruptor.
                    let t = turn.load(Ordering::Acquire);
                    if t >= ROUNDS {
                        break;
                    }
                    if t % 2 == parity {
                        turn.store(t + 1, Ordering::Release);
                        notifier.signal();
                    } else {
                        notifier.park(
                            || {
                                let t = turn.load(Ordering::Acquire);
                                // Widen the window between the check and the
                                // sleep: a protocol that lets the signaller run
                                // here unseen loses the wake-up.
                                std::thread::yield_now();
                                t % 2 == parity || t >= ROUNDS
                            },
                            None,
                        );
                    }
                }
                done_tx.send(()).unwrap();
            });
        }
        for _ in 0..2 {
            // Ten times longer under miri, as testkit's DEADLINE.
            done.recv_timeout(Duration::from_secs(if cfg!(miri) { 600 } else { 60 }))
                .unwrap_or_else(|_| {
                    panic!(
                        "lost wake-up: stuck at turn {}",
                        turn.load(Ordering::Acquire)
                    )
                });
        }
    }

    #[test]
    fn park_returns_at_once_when_ready() {
        let notifier = Notifier::new();
        notifier.park(|| true, None);
    }
}
