//! The one wait loop of the report: how every try-only contender waits
//! while its queue is full or empty.
//!
//! Every adapter of a try-only queue (hotq-spsc, hotq-mpmc, rtrb, ringbuf,
//! `ArrayQueue`, concurrent-queue, `Mutex<VecDeque>`) sends and receives
//! through [`until`], and the workloads' batch loops wait with the same
//! [`Backoff`], so in the SPSC and MPMC workloads every such contender is
//! driven by the same caller: the loop a user writes around a try-only
//! queue.
//!
//! The loop: a failed try is followed by a [`spin_loop`] hint for the
//! first [`SPINS`] tries of a wait, then by a [`thread::yield_now`] on
//! every further try, until the operation succeeds. Spinning first keeps a
//! short wait (the peer is a few instructions away on another core) off
//! the scheduler; yielding after that lets a peer that shares the core (the
//! 4P4C shapes put four threads on each of two cores) run, instead of
//! burning the rest of the time slice. The blocking contenders
//! (crossbeam-channel, flume, `Mutex`+`Condvar`, `sync_channel`) wait in
//! their own `send`/`recv`, as their users do.
//!
//! This is the "spin 64, then yield" wait of the independent harness in
//! issue 15; the report's loop before yielded once every 64 tries and spun
//! between, which gave hotq-mpmc a lead over `ArrayQueue` that such a loop
//! did not see.

use std::hint::spin_loop;
use std::thread;

/// Failed tries of one wait that spin before each further one yields.
pub const SPINS: u32 = 64;

/// One wait: spins for [`SPINS`] failed tries, then yields on every try.
#[derive(Debug, Default)]
pub struct Backoff {
    tries: u32,
}

impl Backoff {
    /// A fresh wait.
    pub fn new() -> Self {
        Backoff::default()
    }

    /// One failed try.
    #[inline]
    pub fn snooze(&mut self) {
        if self.tries < SPINS {
            self.tries += 1;
            spin_loop();
        } else {
            thread::yield_now();
        }
    }

    /// Whether this wait has begun to yield.
    pub fn is_yielding(&self) -> bool {
        self.tries >= SPINS
    }
}

/// Retries `op` until it returns `Some`, waiting with a fresh [`Backoff`].
#[inline]
pub fn until<T>(mut op: impl FnMut() -> Option<T>) -> T {
    let mut backoff = Backoff::new();
    loop {
        if let Some(v) = op() {
            return v;
        }
        backoff.snooze();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_spins_its_first_tries_then_yields() {
        let mut b = Backoff::new();
        for _ in 0..SPINS {
            assert!(!b.is_yielding());
            b.snooze();
        }
        assert!(b.is_yielding());
        b.snooze();
        assert!(b.is_yielding(), "it keeps yielding until the wait ends");
    }

    #[test]
    fn until_returns_the_first_success() {
        let mut left = 200;
        let v = until(|| {
            left -= 1;
            (left == 0).then_some(7)
        });
        assert_eq!((v, left), (7, 0));
    }
}
