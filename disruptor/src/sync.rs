//! The one place that decides between `loom` and `std`.
//!
//! Everything the disruptor shares between threads comes from here: atomics,
//! `Arc`, the event slots' `UnsafeCell`, the `Mutex`/`Condvar` pair that the
//! blocking wait strategy parks on, thread spawning and the spin/yield/sleep
//! hints. So the source that `cargo test` runs is the source that loom
//! model-checks (`RUSTFLAGS="--cfg loom"`), and no `cfg` appears anywhere
//! else in the crate.
//!
//! Under loom the processors' threads are `loom::thread`s, every spin or
//! sleep is a `loom::thread::yield_now`, and the event slots are
//! `loom::cell::UnsafeCell`s, so an event read that is not ordered after the
//! write it reads (or a write that races a read) is reported by loom. The
//! timing hints (a consumer's pause between batches, its prefetch) are
//! no-ops there.

pub(crate) use std::sync::atomic::Ordering;

#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU8, AtomicUsize, fence};
#[cfg(not(loom))]
pub(crate) use std::sync::{Arc, Condvar, Mutex, MutexGuard};
#[cfg(not(loom))]
pub(crate) use std_cell::UnsafeCell;
#[cfg(not(loom))]
pub(crate) use std_thread::{JoinHandle, spawn_named};

#[cfg(loom)]
pub(crate) use loom::cell::UnsafeCell;
#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicBool, AtomicI64, AtomicU8, AtomicUsize, fence};
#[cfg(loom)]
pub(crate) use loom::sync::{Arc, Condvar, Mutex, MutexGuard};
#[cfg(loom)]
pub(crate) use loom_thread::{JoinHandle, spawn_named};

#[cfg(not(loom))]
pub(crate) use hints::{prefetch_read, spin_until};
#[cfg(loom)]
pub(crate) use loom_hints::{prefetch_read, spin_until};

pub(crate) use backoff::Backoff;

/// Set once by the build, before any event exists, to hand an
/// [`EventPoller`](crate::EventPoller) made earlier its disruptor. `std`'s in
/// both builds: loom has none, and the value is written before the producer
/// exists, so no model can race it with an event.
pub(crate) use std::sync::OnceLock;

/// `std`'s `UnsafeCell` behind loom's closure-based API, so that every slot
/// access reads the same in both builds and loom sees each one.
#[cfg(not(loom))]
mod std_cell {
    #[derive(Debug)]
    pub(crate) struct UnsafeCell<T>(core::cell::UnsafeCell<T>);

    impl<T> UnsafeCell<T> {
        pub(crate) const fn new(value: T) -> Self {
            UnsafeCell(core::cell::UnsafeCell::new(value))
        }

        #[inline(always)]
        pub(crate) fn with<R>(&self, f: impl FnOnce(*const T) -> R) -> R {
            f(self.0.get())
        }

        #[inline(always)]
        pub(crate) fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
            f(self.0.get())
        }
    }
}

#[cfg(not(loom))]
mod std_thread {
    pub(crate) use std::thread::JoinHandle;

    /// Spawns a named thread (the name is the handler's).
    pub(crate) fn spawn_named<F>(name: String, f: F) -> std::io::Result<JoinHandle<()>>
    where
        F: FnOnce() + Send + 'static,
    {
        std::thread::Builder::new().name(name).spawn(f)
    }
}

#[cfg(loom)]
mod loom_thread {
    pub(crate) use loom::thread::JoinHandle;

    pub(crate) fn spawn_named<F>(name: String, f: F) -> std::io::Result<JoinHandle<()>>
    where
        F: FnOnce() + Send + 'static,
    {
        loom::thread::Builder::new().name(name).spawn(f)
    }
}

/// Timing only: a consumer's pause between batches
/// ([`Pacing`](crate::wait::Pacing)) and its prefetch of the events ahead.
#[cfg(not(loom))]
mod hints {
    use std::time::Instant;

    /// Busy-waits until `deadline`, without touching shared memory.
    #[inline]
    pub(crate) fn spin_until(deadline: Instant) {
        while Instant::now() < deadline {
            core::hint::spin_loop();
        }
    }

    /// Asks the CPU to bring the line of `p` into this core's cache: a
    /// hint that reads nothing, so `p` need not point at anything. On
    /// x86-64 only; elsewhere a no-op.
    #[inline(always)]
    pub(crate) fn prefetch_read<T>(p: *const T) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `prefetcht0` (SSE, always on x86-64) neither reads memory
        // nor faults, whatever the address. (`unsafe` for Rust before 1.86,
        // where a target-feature function could not be safe.)
        #[allow(unused_unsafe)]
        unsafe {
            use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = p;
    }
}

/// Under loom the timing hints do nothing: a pause or a prefetch changes no
/// value any thread can read, so the models explore the same executions
/// without them.
#[cfg(loom)]
mod loom_hints {
    use std::time::Instant;

    pub(crate) fn spin_until(_deadline: Instant) {}

    pub(crate) fn prefetch_read<T>(_p: *const T) {}
}

/// The steps of every wait in the crate (wait strategies, a producer waiting
/// for room, the shutdown waiting for the drain): one value per wait.
#[cfg(not(loom))]
mod backoff {
    use std::time::Duration;

    pub(crate) struct Backoff(crossbeam_utils::Backoff);

    impl Backoff {
        #[inline]
        pub(crate) fn new() -> Self {
            Backoff(crossbeam_utils::Backoff::new())
        }

        /// One busy-wait step.
        #[inline(always)]
        pub(crate) fn spin(&self) {
            core::hint::spin_loop();
        }

        /// One busy-wait step without the spin-loop hint.
        #[inline(always)]
        pub(crate) fn busy(&self) {}

        /// Gives the core to another thread.
        #[inline]
        pub(crate) fn yield_now(&self) {
            std::thread::yield_now();
        }

        /// Sleeps for `d`.
        #[inline]
        pub(crate) fn sleep(&self, d: Duration) {
            std::thread::sleep(d);
        }

        /// Exponential: spins while the peer is about to finish, then
        /// yields, so that a preempted peer (fewer cores than threads) runs.
        #[inline]
        pub(crate) fn snooze(&self) {
            self.0.snooze();
        }

        /// True once spinning is pointless and the waiter should sleep.
        #[inline]
        pub(crate) fn is_completed(&self) -> bool {
            self.0.is_completed()
        }
    }
}

/// Under loom every wait step is a yield, so loom runs the other threads.
/// A waiter that has yielded [`FAIR_WAITS`] times in one wait ends the
/// exploration of the current branch (`loom::skip_branch`), as in
/// hotq-mpmc: otherwise loom explores two waiters taking turns forever and
/// never running the thread they wait for. Waiting only reads shared state,
/// so a longer wait can observe nothing that a shorter one cannot.
#[cfg(loom)]
mod backoff {
    use core::cell::Cell;
    use std::time::Duration;

    /// Waits per operation that loom explores in full.
    const FAIR_WAITS: u32 = 2;

    pub(crate) struct Backoff {
        waits: Cell<u32>,
    }

    impl Backoff {
        pub(crate) fn new() -> Self {
            Backoff {
                waits: Cell::new(0),
            }
        }

        fn step(&self) {
            self.waits.set(self.waits.get() + 1);
            if self.waits.get() > FAIR_WAITS {
                loom::skip_branch();
            }
            loom::thread::yield_now();
        }

        pub(crate) fn spin(&self) {
            self.step();
        }

        pub(crate) fn busy(&self) {
            self.step();
        }

        pub(crate) fn yield_now(&self) {
            self.step();
        }

        pub(crate) fn sleep(&self, _d: Duration) {
            self.step();
        }

        pub(crate) fn snooze(&self) {
            self.step();
        }

        pub(crate) fn is_completed(&self) -> bool {
            false
        }
    }
}
