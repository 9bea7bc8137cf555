//! The one place that decides between `loom` and `core`.
//!
//! Everything the algorithm shares between threads comes from here, so the
//! source that `cargo test` runs is the source that loom model-checks
//! (`RUSTFLAGS="--cfg loom"`), and no `cfg` appears anywhere else.

pub(crate) use core::sync::atomic::Ordering;

#[cfg(not(loom))]
pub(crate) use core::sync::atomic::{AtomicBool, AtomicUsize, fence};
#[cfg(not(loom))]
pub(crate) use std_cell::UnsafeCell;

#[cfg(loom)]
pub(crate) use loom::cell::UnsafeCell;
#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicBool, AtomicUsize, fence};

/// A position or stamp (see the top of `queue.rs`): 64 bits wherever the
/// target has 64-bit atomics (every 64-bit target, and i686, 32-bit ARMv7
/// Linux and others), so that positions never wrap in practice (2^63 items
/// at least), whatever `usize` is. Targets without them (such as
/// `thumbv7em`) use `usize`, with the bound the crate docs state: a thread
/// must not stall inside one operation while about 2^31 items pass.
#[cfg(target_has_atomic = "64")]
pub(crate) type Position = u64;
#[cfg(not(target_has_atomic = "64"))]
pub(crate) type Position = usize;

/// The atomic that holds a [`Position`].
#[cfg(all(not(loom), target_has_atomic = "64"))]
pub(crate) use core::sync::atomic::AtomicU64 as AtomicPosition;
#[cfg(all(not(loom), not(target_has_atomic = "64")))]
pub(crate) use core::sync::atomic::AtomicUsize as AtomicPosition;
#[cfg(all(loom, target_has_atomic = "64"))]
pub(crate) use loom::sync::atomic::AtomicU64 as AtomicPosition;
#[cfg(all(loom, not(target_has_atomic = "64")))]
pub(crate) use loom::sync::atomic::AtomicUsize as AtomicPosition;

pub(crate) use backoff::Backoff;
pub(crate) use seams::seam;

/// Asks the CPU to bring the line of `p` into this core's cache, ahead of
/// a read: a hint that reads nothing, so `p` need not point at anything.
/// `prefetcht0` on x86-64; a no-op elsewhere and under loom, where it
/// changes no value any thread can read.
#[inline(always)]
pub(crate) fn prefetch_read<T>(p: *const T) {
    #[cfg(all(target_arch = "x86_64", not(loom)))]
    // SAFETY: `prefetcht0` (SSE, always on x86-64) neither reads memory nor
    // faults, whatever the address. (`unsafe` for Rust before 1.86, where a
    // target-feature function could not be safe.)
    #[allow(unused_unsafe)]
    unsafe {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>());
    }
    #[cfg(not(all(target_arch = "x86_64", not(loom))))]
    let _ = p;
}

/// `core`'s `UnsafeCell` behind loom's closure-based API, so that every
/// slot access reads the same in both builds and loom sees each one.
#[cfg(not(loom))]
mod std_cell {
    #[derive(Debug)]
    pub(crate) struct UnsafeCell<T>(core::cell::UnsafeCell<T>);

    impl<T> UnsafeCell<T> {
        pub(crate) const fn new(value: T) -> Self {
            UnsafeCell(core::cell::UnsafeCell::new(value))
        }

        #[inline(always)]
        pub(crate) fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
            f(self.0.get())
        }
    }
}

/// Exponential backoff: spin while a peer is about to finish, then yield
/// the core so that a peer preempted mid-operation (on a machine with fewer
/// cores than threads) gets to run.
#[cfg(not(loom))]
mod backoff {
    pub(crate) struct Backoff(crossbeam_utils::Backoff);

    impl Backoff {
        #[inline]
        pub(crate) fn new() -> Self {
            Backoff(crossbeam_utils::Backoff::new())
        }

        /// After losing a race (a failed CAS): a short spin.
        #[inline]
        pub(crate) fn spin(&self) {
            self.0.spin();
        }

        /// While waiting for another thread to finish its step: spin, then
        /// yield (with the `std` feature).
        #[inline]
        pub(crate) fn snooze(&self) {
            self.0.snooze();
        }
    }
}

/// Under loom every wait is a yield, so loom explores the other threads
/// instead of the spin. A yield lets loom switch to any thread without
/// spending a preemption, so with two threads waiting for a third, loom
/// would also explore the unfair schedule in which they take turns forever
/// and the third never runs. A waiter that has yielded [`FAIR_WAITS`] times
/// in one operation therefore ends the exploration of the current branch
/// (`loom::skip_branch`): the execution still completes, along loom's
/// default schedule, which runs the thread that has yielded least. Waiting
/// only reads shared state, so a longer wait can observe nothing that a
/// shorter one cannot.
#[cfg(loom)]
mod backoff {
    use core::cell::Cell;

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

        pub(crate) fn spin(&self) {
            loom::thread::yield_now();
        }

        pub(crate) fn snooze(&self) {
            self.waits.set(self.waits.get() + 1);
            if self.waits.get() > FAIR_WAITS {
                loom::skip_branch();
            }
            loom::thread::yield_now();
        }
    }
}

/// Test seams: points in the algorithm where this crate's unit tests can
/// stop a thread to force an interleaving. Outside those tests, `seam` is
/// an empty inline function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Seam {
    /// A producer has seen its slot free for its lap and not yet tried to
    /// claim it (its `tail` may be stale by the time it does).
    BeforeClaim,
    /// A producer has claimed a slot and not yet written it.
    AfterClaim,
    /// A `force_push` has evicted the oldest item (moved `head`) and not
    /// yet moved `tail` or written its own item.
    Evicted,
    /// A consumer found no item in its slot but the queue not provably
    /// empty (a peer is mid-operation on the slot), and waits.
    PopWaits,
}

#[cfg(not(test))]
mod seams {
    #[inline(always)]
    pub(crate) fn seam(_at: super::Seam) {}
}

#[cfg(test)]
pub(crate) mod seams {
    use super::Seam;
    use std::boxed::Box;
    use std::cell::RefCell;

    type Hook = Box<dyn FnMut(Seam)>;

    std::thread_local! {
        static HOOK: RefCell<Option<Hook>> = RefCell::new(None);
    }

    /// Runs this thread's hook, if one is set.
    pub(crate) fn seam(at: Seam) {
        HOOK.with(|hook| {
            if let Some(hook) = hook.borrow_mut().as_mut() {
                hook(at);
            }
        });
    }

    /// Sets the hook this thread runs at every seam it passes.
    pub(crate) fn set_hook(hook: impl FnMut(Seam) + 'static) {
        HOOK.with(|h| *h.borrow_mut() = Some(Box::new(hook)));
    }
}

/// What the channels' waiting layer shares between threads (a mutex,
/// `Arc`, parking, the clock), decided in the same way.
#[cfg(feature = "std")]
pub(crate) mod blocking;

/// The system call behind the permits' asymmetric barrier
/// (`channel/fill_barrier.rs`), where there is one.
#[cfg(feature = "std")]
pub(crate) mod membarrier;
