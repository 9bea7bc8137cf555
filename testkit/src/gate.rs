//! A start gate that releases a few threads together, closely enough for
//! their first calls to overlap.
//!
//! Calls on these queues take tens of nanoseconds, far less than the skew
//! of threads woken by a `Barrier` (on 2 cores about 1% of the calls of a
//! barrier-started history overlapped another thread's) or than spawning a
//! thread (a thread spawned second often starts after the first has made
//! all its calls). Instead each thread spins on an arrival counter until
//! all have arrived, yielding now and then so that the ones still to come
//! get to run on a busy machine.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

/// Releases `threads` threads once all have called [`wait`](Self::wait).
#[derive(Debug)]
pub struct StartGate {
    threads: usize,
    arrived: AtomicUsize,
}

impl StartGate {
    pub fn new(threads: usize) -> Self {
        StartGate {
            threads,
            arrived: AtomicUsize::new(0),
        }
    }

    /// Arrives, and spins until every thread has.
    pub fn wait(&self) {
        // Relaxed: a start signal only. What the threads share (the queue
        // under test) is handed over by the scope that spawned them, and
        // ordering the threads here would hide the races under test.
        self.arrived.fetch_add(1, Ordering::Relaxed);
        let mut spins = 0u32;
        while self.arrived.load(Ordering::Relaxed) < self.threads {
            spins = spins.wrapping_add(1);
            if spins % 4096 == 0 || cfg!(miri) {
                thread::yield_now();
            }
            std::hint::spin_loop();
        }
    }
}
