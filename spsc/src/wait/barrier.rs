//! The store→load barrier of the wake-up protocol, made asymmetric.
//!
//! Each side of a wait needs a store→load order: the waiter stores
//! "waiting" and then loads the index it waits on; the working side stores
//! the index and then loads "waiting". With a `fence(SeqCst)` between the
//! store and the load on both sides, at least one of the two loads sees the
//! other side's store, so either the worker sees the waiter or the waiter
//! sees the work: no wake-up is lost. But the working side is the try path,
//! and a full fence per push or pop is what this crate must not pay.
//!
//! The asymmetric answer (Folly's `asymmetric_thread_fence_{light,heavy}`,
//! liburcu's `membarrier` flavour): the working side only keeps the
//! compiler from moving its load above its store ([`light`]), and the side
//! about to sleep, which is rare and about to make a system call anyway,
//! runs `membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)` ([`heavy`]). The
//! kernel then runs a full barrier on every CPU that runs a thread of this
//! process, so every such thread's accesses are split by one point: a load
//! after it sees the waiter's "waiting", and a store before it is visible
//! to the waiter's load after the call returns.
//!
//! When the system call is missing (not Linux, a kernel before 4.14, a
//! seccomp filter, no `std`) or cannot be used (miri, loom), [`available`]
//! says so when a ring is built, and the ring's wait slots are created
//! *fenced*: their state word is never zero, so the working side always
//! takes its slow path, which runs a real `fence(SeqCst)` before it loads
//! the state again, and the waiter uses a `fence(SeqCst)` too. Slower on
//! such systems, never wrong. Loom checks exactly that symmetric protocol.
//!
//! What the asymmetric barrier saves, measured with the hidden
//! `RingBuffer::fenced` (feature `test-hooks`), which builds a fenced ring
//! where `membarrier` works: one thread filling and draining a ring of 1024
//! `u64`s (`benches/probes/hot_path`, callgrind) takes 39 instructions per
//! push + pop asymmetric and 83 fenced (x86-64: each push and each pop calls
//! the cold `wake_slow`, whose `fence(SeqCst)` is a `lock or`).
//! `benches/probes/spsc_fenced_ab` compares the two across threads.

use crate::sync::{self, MODELLED, Ordering, fence};

/// Whether [`heavy`] is the system call (and [`light`] may be a compiler
/// fence). Registers the process for it on the first call; later calls only
/// read the cached answer.
pub(crate) fn available() -> bool {
    !MODELLED && membarrier::available()
}

/// The working side's half: keeps its preceding store and following load
/// in program order. A compiler barrier only: it pairs with [`heavy`]'s
/// system call, never with another `light`. It is
/// [`sync::compiler_barrier`], not a `compiler_fence`: the fence made a
/// push in a user's loop reload its cached indices from memory (42.5 →
/// 37.5 instructions per push+pop of the stamped ring made for waits, 42.0
/// → 38.0 for `RingBuffer`; callgrind, a loop in a function that takes the
/// halves by `&mut`).
#[inline(always)]
pub(crate) fn light() {
    sync::compiler_barrier();
}

/// The waiting side's half, between its store of "waiting" and its load of
/// the index: the system call when `asymmetric`, else a fence.
pub(crate) fn heavy(asymmetric: bool) {
    if asymmetric {
        membarrier::run();
    } else {
        // SeqCst pairs with the working side's `fence(SeqCst)` in
        // `WaitSlot::wake_slow` (fenced slots): [store index; fence; load
        // state] against [store state; fence; load index] lets at most one
        // of the two loads miss the other side's store.
        fence(Ordering::SeqCst);
    }
}

pub(crate) use membarrier::Pace;

#[cfg(all(target_os = "linux", feature = "std", not(loom), not(miri)))]
mod membarrier {
    use core::sync::atomic::{AtomicU8, Ordering};

    // From linux/membarrier.h.
    const CMD_QUERY: libc::c_long = 0;
    const CMD_PRIVATE_EXPEDITED: libc::c_long = 1 << 3;
    const CMD_REGISTER_PRIVATE_EXPEDITED: libc::c_long = 1 << 4;

    const UNKNOWN: u8 = 0;
    const YES: u8 = 1;
    const NO: u8 = 2;

    /// The process-wide answer of [`available`]. Not state of any ring
    /// (each ring copies the answer when it is built), so a plain atomic:
    /// racing first calls both register, which is idempotent.
    static STATE: AtomicU8 = AtomicU8::new(UNKNOWN);

    fn membarrier(cmd: libc::c_long) -> libc::c_long {
        // SAFETY: `membarrier(cmd, flags = 0, cpu_id = 0)` reads no memory
        // of ours; an unknown or refused command only returns -1.
        unsafe {
            libc::syscall(
                libc::SYS_membarrier,
                cmd,
                0 as libc::c_long,
                0 as libc::c_long,
            )
        }
    }

    fn register() -> bool {
        let supported = membarrier(CMD_QUERY);
        supported >= 0
            && supported & CMD_PRIVATE_EXPEDITED != 0
            && membarrier(CMD_REGISTER_PRIVATE_EXPEDITED) == 0
    }

    pub(super) fn available() -> bool {
        // Relaxed: the answer is one byte; the registration it reports is
        // kernel state, ordered by the system calls themselves.
        match STATE.load(Ordering::Relaxed) {
            YES => true,
            NO => false,
            _ => {
                let yes = register();
                STATE.store(if yes { YES } else { NO }, Ordering::Relaxed);
                yes
            }
        }
    }

    pub(super) fn run() {
        if membarrier(CMD_PRIVATE_EXPEDITED) == 0 {
            return;
        }
        // Registered once, but a `fork`ed child starts unregistered:
        // register again and retry. A refusal now would leave the working
        // side without its barrier, so it is a loud error, never a hang.
        assert!(
            register() && membarrier(CMD_PRIVATE_EXPEDITED) == 0,
            "membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed after registration succeeded"
        );
    }

    /// When a waiter registers often, the system call costs more than fences
    /// would: on this kind of 2-vCPU VM one `membarrier` takes about 12 µs
    /// (an IPI to the other vCPU is a VM exit, and two waiters' calls queue on
    /// the kernel's lock), and an async ring of 8 registers every few items,
    /// so it ran at 4 M items/s where the same ring built fenced ran at 27.
    /// But fences cost on every push and pop, so a waiter that registers
    /// often yet once per many items (an async pair on one executor worker,
    /// handing over a whole ring of 1024 each time) does better with the
    /// system call. What decides is items per registration: the fenced
    /// protocol costs a fence per push and per pop, the asymmetric one a
    /// system call per registration. `Pace` is the waiter's record of its
    /// registrations (its alone, like the rest of the slot's waiter state):
    /// a slot that may use the system call switches to the fenced protocol
    /// when fewer than [`Pace::FENCE_BELOW_ITEMS`] items moved between two
    /// registrations, and back once more than [`Pace::UNFENCE_ABOVE_ITEMS`]
    /// have moved since the last one (`WaitSlot::register` runs the switch
    /// at a registration, `WaitSlot::unfence_if_stale` between them).
    ///
    /// The waiter's own index is the measure, so the record costs no clock
    /// read. It used to be time (registrations closer than 100 µs fenced,
    /// a gap over 1 ms unfenced), read at every registration and at some
    /// waits: at capacity 8, where every wait registers, those reads were
    /// 17 % of the async workload's samples (`perf record`, tokio, 2
    /// workers). A slow trickle (an item every few ms, each wait
    /// registering) now stays fenced, where time had it take the system
    /// call at each registration: its fences cost nothing at that rate, and
    /// its registrations skip the 12 µs call.
    pub(crate) struct Pace {
        /// The waiter's own index (its items taken, or pushed) at its last
        /// registration; `None` before the first.
        at: Option<usize>,
    }

    impl Pace {
        /// Registrations with fewer items than this between them switch an
        /// asymmetric slot to fences. Measured (`waiting_probe`, tokio, 2
        /// workers, 5 interleaved runs, 2026-12-05): registering once every
        /// 1,024 items or so (capacity 1024), the asymmetric protocol ran
        /// at 1.19 [0.97-1.27] x the fenced one; every 8 or fewer (capacity
        /// 8), at 0.05.
        pub(crate) const FENCE_BELOW_ITEMS: usize = 256;
        /// A fenced slot whose waiter has moved more items than this since
        /// its last registration switches back: above
        /// [`FENCE_BELOW_ITEMS`], so that a pace near it does not switch at
        /// every registration (each switch is a system call).
        ///
        /// [`FENCE_BELOW_ITEMS`]: Self::FENCE_BELOW_ITEMS
        pub(crate) const UNFENCE_ABOVE_ITEMS: usize = 512;

        pub(crate) const fn new() -> Self {
            Pace { at: None }
        }

        /// Called by each registration of a slot that may use the system
        /// call, with the waiter's own index: whether this one, and the wait
        /// it starts, should be fenced, given whether the slot is fenced now.
        pub(crate) fn fence_next(&mut self, fenced_now: bool, at: usize) -> bool {
            match self.at.replace(at) {
                // The first registration keeps the slot as it is.
                None => fenced_now,
                Some(last) => {
                    // Wrapping: the indices are free-running.
                    let moved = at.wrapping_sub(last);
                    if fenced_now {
                        moved <= Self::UNFENCE_ABOVE_ITEMS
                    } else {
                        moved < Self::FENCE_BELOW_ITEMS
                    }
                }
            }
        }

        /// Whether a fenced slot's waiter, now at its index `at`, has moved
        /// more than [`UNFENCE_ABOVE_ITEMS`](Self::UNFENCE_ABOVE_ITEMS)
        /// since its last registration (or never registered): the slot
        /// should leave the fenced protocol without waiting for its next
        /// registration, which a stream that keeps up may never make.
        pub(crate) fn stale(&self, at: usize) -> bool {
            self.at
                .is_none_or(|last| at.wrapping_sub(last) > Self::UNFENCE_ABOVE_ITEMS)
        }
    }

    #[cfg(test)]
    mod tests {
        use super::Pace;

        #[test]
        fn registrations_fence_when_few_items_moved_between_them_and_unfence_when_many() {
            let mut pace = Pace::new();
            // The first registration keeps the slot as it is, either way.
            assert!(!pace.fence_next(false, 0));
            // A ring's worth of items apart: stays asymmetric.
            assert!(!pace.fence_next(false, 1024));
            assert!(!pace.fence_next(false, 2048));
            // At `FENCE_BELOW_ITEMS` apart it does not switch in; just
            // under, it does.
            let mut index = 2048 + Pace::FENCE_BELOW_ITEMS;
            assert!(!pace.fence_next(false, index));
            index += Pace::FENCE_BELOW_ITEMS - 1;
            assert!(pace.fence_next(false, index));
            // Stays in up to `UNFENCE_ABOVE_ITEMS` apart ...
            index += Pace::UNFENCE_ABOVE_ITEMS;
            assert!(pace.fence_next(true, index));
            // ... and leaves above it.
            index += Pace::UNFENCE_ABOVE_ITEMS + 1;
            assert!(!pace.fence_next(true, index));
            // The indices wrap: a move across `usize::MAX` counts as small.
            let mut pace = Pace::new();
            assert!(!pace.fence_next(false, usize::MAX - 2));
            assert!(pace.fence_next(false, 5));
        }

        #[test]
        fn a_waiter_is_stale_once_it_moved_more_than_unfence_above_items_since_it_registered() {
            let mut pace = Pace::new();
            assert!(pace.stale(0), "never registered");
            let _ = pace.fence_next(true, 100);
            assert!(!pace.stale(100));
            assert!(!pace.stale(100 + Pace::UNFENCE_ABOVE_ITEMS));
            assert!(pace.stale(100 + Pace::UNFENCE_ABOVE_ITEMS + 1));
            // Wrapping, as in `fence_next`.
            let _ = pace.fence_next(true, usize::MAX);
            assert!(!pace.stale(3));
            assert!(pace.stale(Pace::UNFENCE_ABOVE_ITEMS));
        }
    }
}

#[cfg(not(all(target_os = "linux", feature = "std", not(loom), not(miri))))]
mod membarrier {
    pub(super) fn available() -> bool {
        false
    }

    pub(super) fn run() {
        unreachable!("no asymmetric barrier on this platform: its rings are fenced")
    }

    /// Where the system call is missing every slot is fenced for good:
    /// nothing to record.
    pub(crate) struct Pace;

    impl Pace {
        pub(crate) const fn new() -> Self {
            Pace
        }

        pub(crate) fn fence_next(&mut self, fenced_now: bool, _at: usize) -> bool {
            fenced_now
        }

        pub(crate) fn stale(&self, _at: usize) -> bool {
            false
        }
    }
}
