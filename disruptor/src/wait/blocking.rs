//! Park on a condition variable: no CPU while idle, and no lost wake-up.
//!
//! # The wake-up protocol
//!
//! A waiter W (a consumer with nothing to do) and a signaller P (the
//! producer after publishing, a consumer after advancing its sequence, or a
//! halt) share `waiters` (how many are parked or about to be) and the
//! lock/condvar pair:
//!
//! ```text
//! W: lock; waiters += 1; fence(SeqCst); if !ready() { wait (unlocks) } waiters -= 1; unlock
//! P: store(progress, Release); fence(SeqCst); if waiters != 0 { lock; notify_all; unlock }
//! ```
//!
//! Without the two `SeqCst` fences this is the store-buffering shape: W's
//! `ready()` load could miss P's progress while P's load of `waiters` misses
//! W's increment, W parks and nobody wakes it (the LMAX lost wake-up). With
//! them, the fences are ordered one way or the other in the single total
//! order of `SeqCst` operations:
//!
//! - P's fence first: W's `ready()` loads come after W's fence, hence after
//!   P's fence, so they see P's progress store (or a later one). W does not
//!   park.
//! - W's fence first: P's load of `waiters` sees W's increment, so P takes
//!   the lock. W holds the lock from its increment until `wait` releases it
//!   atomically, so P's `notify_all` comes after W is waiting (or after W
//!   left): W wakes.
//!
//! `waiters` itself is only changed under the lock, and a stale non-zero
//! read only costs a needless notify, so its accesses are Relaxed.

use super::{WaitStrategy, sealed};
use crate::sync::{AtomicUsize, Condvar, Mutex, Ordering, fence};

/// Parks the consumer on a condition variable until the producer (or the
/// stage before) signals progress: zero CPU while idle. The producer then
/// pays a `SeqCst` fence per publish, and a lock only while someone is
/// parked.
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
    /// Waiters between their increment and their decrement. Changed only
    /// under `lock`.
    waiters: AtomicUsize,
    lock: Mutex<()>,
    condvar: Condvar,
}

impl Notifier {
    pub(crate) fn new() -> Self {
        Notifier {
            waiters: AtomicUsize::new(0),
            lock: Mutex::new(()),
            condvar: Condvar::new(),
        }
    }

    /// Wakes every parked waiter. Call it after the store that may make a
    /// waiter ready.
    #[inline]
    pub(crate) fn signal(&self) {
        // SeqCst: orders the caller's progress store before the load of
        // `waiters`, against the waiter's fence (module docs).
        fence(Ordering::SeqCst);
        if self.waiters.load(Ordering::Relaxed) != 0 {
            let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
            self.condvar.notify_all();
        }
    }

    /// Parks until signalled, unless `ready()` already holds. May return
    /// without `ready()` holding (a signal for another waiter): the caller
    /// re-checks in its loop.
    pub(crate) fn park(&self, ready: impl Fn() -> bool) {
        let guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.waiters.fetch_add(1, Ordering::Relaxed);
        // SeqCst: orders the increment before `ready()`'s loads, against
        // the signaller's fence (module docs).
        fence(Ordering::SeqCst);
        let guard = if ready() {
            guard
        } else {
            self.condvar.wait(guard).unwrap_or_else(|e| e.into_inner())
        };
        self.waiters.fetch_sub(1, Ordering::Relaxed);
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
        const ROUNDS: i64 = 20_000;
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
                        notifier.park(|| {
                            let t = turn.load(Ordering::Acquire);
                            // Widen the window between the check and the
                            // sleep: a protocol that lets the signaller run
                            // here unseen loses the wake-up.
                            std::thread::yield_now();
                            t % 2 == parity || t >= ROUNDS
                        });
                    }
                }
                done_tx.send(()).unwrap();
            });
        }
        for _ in 0..2 {
            done.recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| {
                    panic!(
                        "lost wake-up: stuck at turn {}",
                        turn.load(Ordering::Acquire)
                    )
                });
        }
        assert_eq!(notifier.waiters.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn park_returns_at_once_when_ready() {
        let notifier = Notifier::new();
        notifier.park(|| true);
        assert_eq!(notifier.waiters.load(Ordering::Relaxed), 0);
    }
}
