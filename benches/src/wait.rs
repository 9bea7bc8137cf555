//! How the harness waits on a try-only queue.

use std::hint::spin_loop;
use std::thread;

/// Spins, yielding every 64 failed tries so a thread that shares a core
/// with the one it waits for lets that one run (the 4P4C shapes put four
/// threads on each of two cores).
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
        self.tries = self.tries.wrapping_add(1);
        if self.tries % 64 == 0 {
            thread::yield_now();
        } else {
            spin_loop();
        }
    }
}

/// Retries `op` until it returns `Some`.
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
