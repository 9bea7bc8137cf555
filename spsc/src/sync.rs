//! The one place that decides between `loom` and `core`/`alloc`.
//!
//! Everything the algorithm shares between threads comes from here, so the
//! source that `cargo test` runs is the source that loom model-checks
//! (`RUSTFLAGS="--cfg loom"`), and no `cfg` appears anywhere else.
//!
//! Slot memory is special. Chunks hand the caller contiguous slices of slots,
//! so the slots must be plain memory in both builds (`core`'s `UnsafeCell` is
//! `repr(transparent)`; loom's is not). Loom still sees every slot access:
//! [`SlotAccess`] keeps one `loom::cell::UnsafeCell<()>` per slot, and the
//! ring claims the slots it touches for exactly as long as it touches them.
//! A read that is not ordered after the write it reads (a too-weak ordering)
//! is then a causality violation that loom reports. Outside loom,
//! `SlotAccess` is zero-sized and every claim compiles to nothing.

pub(crate) use core::cell::UnsafeCell;
pub(crate) use core::sync::atomic::Ordering;

#[cfg(not(loom))]
pub(crate) use alloc::sync::Arc;
#[cfg(not(loom))]
pub(crate) use core::sync::atomic::{AtomicBool, AtomicUsize};
#[cfg(not(loom))]
pub(crate) use untracked::{Claim, SlotAccess};

#[cfg(loom)]
pub(crate) use loom::sync::Arc;
#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicBool, AtomicUsize};
#[cfg(loom)]
pub(crate) use tracked::{Claim, SlotAccess};

// The waiting layer (`wait/`): its state word, its fences, its waker cell,
// spin hints and thread parking. A compiler barrier orders nothing between
// threads, so loom has none to model (`compiler_barrier`, below).

#[cfg(not(loom))]
pub(crate) use core::hint::spin_loop;
#[cfg(not(loom))]
pub(crate) use core::sync::atomic::{AtomicU8, fence};
#[cfg(not(loom))]
pub(crate) use untracked::TrackedCell;

#[cfg(loom)]
pub(crate) use loom::cell::UnsafeCell as TrackedCell;
#[cfg(loom)]
pub(crate) use loom::hint::spin_loop;
#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicU8, fence};

/// Waits a moment for another thread to finish a few instructions: gives
/// the core away where there is a scheduler to give it to (`std`, and
/// loom's `yield_now`), so a preempted thread is not starved by our spin on
/// an oversubscribed machine; a spin hint without `std`.
#[inline]
pub(crate) fn relax() {
    #[cfg(all(feature = "std", not(loom)))]
    std::thread::yield_now();
    #[cfg(any(not(feature = "std"), loom))]
    spin_loop();
}

/// Keeps the compiler from moving a load or store of memory another thread
/// can reach across this point; emits no instruction and orders nothing
/// in the CPU. Unlike `compiler_fence`, which LLVM treats as touching all
/// memory, it lets the compiler keep in registers what no other thread can
/// see: a producer's cached indices behind `&mut self` stay in registers
/// across a push's wake check (`wait::barrier::light`).
///
/// Where inline asm is stable, an empty asm block: without `nomem` or
/// `readonly` the compiler must assume it reads and writes any memory
/// reachable through a pointer that left the function (as a ring's, shared
/// with the other half, has), the same barrier as Linux's `barrier()`.
/// Elsewhere, and under loom and miri, which run no asm, a
/// `compiler_fence(SeqCst)`.
#[inline(always)]
pub(crate) fn compiler_barrier() {
    #[cfg(all(
        any(
            target_arch = "x86_64",
            target_arch = "x86",
            target_arch = "aarch64",
            target_arch = "arm",
            target_arch = "riscv64",
            target_arch = "riscv32"
        ),
        not(loom),
        not(miri)
    ))]
    {
        // SAFETY: the template is empty: the block runs no instruction, so
        // it reads, writes and clobbers nothing (`preserves_flags`,
        // `nostack`).
        unsafe { core::arch::asm!("", options(nostack, preserves_flags)) };
        return;
    }
    #[allow(unreachable_code)]
    core::sync::atomic::compiler_fence(Ordering::SeqCst);
}

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

/// Whether the code runs under a model (loom) or an interpreter (miri),
/// where the asymmetric barrier (a system call) cannot be used: the waiting
/// layer then puts a `fence(SeqCst)` on both sides, which is what loom
/// checks and miri can run.
pub(crate) const MODELLED: bool = cfg!(loom) || cfg!(miri);

/// How many times in a row an async wait may wake its own task and return
/// `Pending` (a yield to the executor) before it registers, when it yields
/// at all (see `wait/future.rs` for why and when). None under loom,
/// as `SPIN`: a self-wake cannot lose a wake-up, and each one is more
/// branches of the model to explore.
pub(crate) const ASYNC_YIELDS: u16 = if cfg!(loom) { 0 } else { 8 };

/// Whether a blocking wait spins before it parks: not under loom, where
/// every spin is one more branch of the model to explore.
#[cfg(feature = "std")]
pub(crate) const SPIN: bool = !cfg!(loom);

/// How long a blocking wait's yields may go on before it parks (after its
/// spin hints and at least a few yields); none under a model or miri,
/// where time is not the machine's.
#[cfg(feature = "std")]
pub(crate) const SPIN_TIME: std::time::Duration = if MODELLED {
    std::time::Duration::ZERO
} else {
    std::time::Duration::from_micros(20)
};

/// Threads, as the blocking waits use them: the current thread's handle
/// (to unpark it) and parking with or without a timeout. Under loom time
/// does not pass: a timed park parks until it is unparked, so a lost
/// wake-up is a deadlock that loom reports.
#[cfg(all(feature = "std", not(loom)))]
pub(crate) mod thread {
    pub(crate) use std::thread::{Thread, current, park, park_timeout, yield_now};
}

/// Threads under loom (see the `std` version). A thread parks on a
/// parker of its own, not in `loom::thread::park`: loom's
/// `Thread::unpark` resumes its target whatever the target is blocked on
/// (loom issue #249), and an unpark may always come late, after the
/// waiter has left (a waker taken just before the wait ended). Measured in
/// a user's model (`examples/verify-pipeline`): the late unpark resumed a
/// thread blocked on hotq-mpmc's waiter lock, and loom failed correct code
/// with "expected to be able to acquire lock". A token under a mutex with
/// a condition variable wakes only a wait on itself, as `std`'s park does.
/// (A `loom::sync::Notify` would too, but loom explores a spurious return
/// from each, and the pipeline's blocking model went from 13.6 s to over
/// 300 s at preemption bound 2.)
#[cfg(all(feature = "std", loom))]
pub(crate) mod thread {
    use loom::sync::{Condvar, Mutex};
    use std::sync::Arc;

    pub(crate) use loom::thread::yield_now;

    /// One thread's parking spot: its token, and the condition variable
    /// it waits on for the token.
    struct Parker {
        token: Mutex<bool>,
        unparked: Condvar,
    }

    /// A handle to unpark one thread.
    #[derive(Clone)]
    pub(crate) struct Thread(Arc<Parker>);

    loom::thread_local! {
        static PARKER: Arc<Parker> = Arc::new(Parker {
            token: Mutex::new(false),
            unparked: Condvar::new(),
        });
    }

    pub(crate) fn current() -> Thread {
        PARKER.with(|parker| Thread(Arc::clone(parker)))
    }

    impl Thread {
        /// Makes the token available and wakes the thread if it waits.
        pub(crate) fn unpark(&self) {
            *self.0.token.lock().unwrap() = true;
            self.0.unparked.notify_one();
        }
    }

    /// Waits for the token, and takes it.
    pub(crate) fn park() {
        PARKER.with(|parker| {
            let mut token = parker.token.lock().unwrap();
            while !*token {
                token = parker.unparked.wait(token).unwrap();
            }
            *token = false;
        });
    }

    /// Loom has no clock: parks until unparked.
    pub(crate) fn park_timeout(_timeout: std::time::Duration) {
        park();
    }
}

#[cfg(not(loom))]
mod untracked {
    /// Access tracking of the ring's slots; nothing to track outside loom.
    pub(crate) struct SlotAccess;

    /// Proof that a range of slots is being accessed; nothing outside loom.
    pub(crate) struct Claim;

    impl SlotAccess {
        #[inline(always)]
        pub(crate) fn new(_slots: usize) -> Self {
            SlotAccess
        }

        #[inline(always)]
        pub(crate) fn claim(&self, _first: usize, _len: usize) -> Claim {
            Claim
        }
    }

    impl Claim {
        /// Ends the access.
        #[inline(always)]
        pub(crate) fn end(self) {}
    }

    /// A cell with loom's closure API (`with_mut`), so that the waiting
    /// layer's cell is tracked under loom and plain memory outside it.
    pub(crate) struct TrackedCell<T>(core::cell::UnsafeCell<T>);

    impl<T> TrackedCell<T> {
        pub(crate) const fn new(value: T) -> Self {
            TrackedCell(core::cell::UnsafeCell::new(value))
        }

        /// Runs `f` on a pointer to the value; the caller's protocol makes
        /// the access exclusive.
        #[inline(always)]
        pub(crate) fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
            f(self.0.get())
        }
    }
}

#[cfg(loom)]
mod tracked {
    use alloc::boxed::Box;
    use alloc::vec::Vec;
    use loom::cell::{MutPtr, UnsafeCell};

    /// One loom cell per slot: claiming a slot is a loom write access.
    pub(crate) struct SlotAccess {
        cells: Box<[UnsafeCell<()>]>,
    }

    /// Loom's record that a range of slots is being accessed; the access
    /// ends when the claim drops, so drop it before publishing the range.
    pub(crate) struct Claim {
        _guards: Vec<MutPtr<()>>,
    }

    impl SlotAccess {
        pub(crate) fn new(slots: usize) -> Self {
            SlotAccess {
                cells: (0..slots).map(|_| UnsafeCell::new(())).collect(),
            }
        }

        /// Claims `len` slots from the free-running index `first` on, as
        /// the ring addresses them (masked: the slot count is a power of two).
        #[track_caller]
        pub(crate) fn claim(&self, first: usize, len: usize) -> Claim {
            // Wrapping: a ring of capacity 0 has no cells, and claims none.
            let mask = self.cells.len().wrapping_sub(1);
            let guards = (0..len)
                .map(|i| self.cells[first.wrapping_add(i) & mask].get_mut())
                .collect();
            Claim { _guards: guards }
        }
    }

    impl Claim {
        /// Ends the access: loom sees it no longer.
        pub(crate) fn end(self) {}
    }
}
