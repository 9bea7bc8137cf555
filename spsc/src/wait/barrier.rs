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
//! `u64`s (`benches/examples/hot_path`, callgrind) takes 39 instructions per
//! push + pop asymmetric and 83 fenced (x86-64: each push and each pop calls
//! the cold `wake_slow`, whose `fence(SeqCst)` is a `lock or`).
//! `benches/examples/spsc_fenced_ab` compares the two across threads.

use crate::sync::{MODELLED, Ordering, compiler_fence, fence};

/// Whether [`heavy`] is the system call (and [`light`] may be a compiler
/// fence). Registers the process for it on the first call; later calls only
/// read the cached answer.
pub(crate) fn available() -> bool {
    !MODELLED && membarrier::available()
}

/// The working side's half: keeps its preceding store and following load
/// in program order. A compiler fence only: it pairs with [`heavy`]'s
/// system call, never with another `light`.
#[inline(always)]
pub(crate) fn light() {
    compiler_fence(Ordering::SeqCst);
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
    use std::time::{Duration, Instant};

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
    /// system call. `Pace` is the waiter's record of its registrations (its
    /// alone, like the rest of the slot's waiter state): a slot that may use
    /// the system call switches to the fenced protocol while registrations
    /// come closer than [`Pace::FENCE_WITHIN`] apart with fewer than
    /// [`Pace::FENCE_BELOW_ITEMS`] items between them, and back once one
    /// comes after more than [`Pace::UNFENCE_AFTER`] or
    /// [`Pace::UNFENCE_ABOVE_ITEMS`] (`WaitSlot::register` runs the switch).
    pub(crate) struct Pace {
        /// When the waiter last registered.
        last: Option<Instant>,
        /// [`stale`](Pace::stale) calls since the last registration, which
        /// decide which of them read the clock.
        checks: u32,
        /// The waiter's own index (its items taken, or pushed) at its last
        /// registration: how many moved between two registrations is the
        /// other half of the choice.
        at: usize,
    }

    impl Pace {
        /// Closer registrations than this switch an asymmetric slot to fences:
        /// at 12 µs a call, the system call then takes over a tenth of the
        /// waiter's time.
        pub(crate) const FENCE_WITHIN: Duration = Duration::from_micros(100);
        /// A registration this long after the last one switches a fenced slot
        /// back: waits are rare again, and fences on every push and pop
        /// (measured at 0.7-1.0 × the asymmetric ring's throughput at capacity
        /// 1024) are then the larger cost.
        pub(crate) const UNFENCE_AFTER: Duration = Duration::from_millis(1);
        /// Registrations that come closer than [`FENCE_WITHIN`] switch to
        /// fences only when fewer items than this moved between them: the
        /// fenced protocol costs a fence per push and per pop, the
        /// asymmetric one a system call per registration, so what decides
        /// is items per registration, not time. Measured (`waiting_probe`,
        /// tokio, 2 workers, 5 interleaved runs, 2026-12-05): registering
        /// once every 1,024 items or so (capacity 1024), the asymmetric
        /// protocol ran at 1.19 [0.97-1.27] x the fenced one; every 8 or
        /// fewer (capacity 8), at 0.05. This rule against time alone: 1.33
        /// [1.11-1.42] at capacity 1024 (7 runs), 1.00 at capacity 8.
        ///
        /// [`FENCE_WITHIN`]: Self::FENCE_WITHIN
        pub(crate) const FENCE_BELOW_ITEMS: usize = 256;
        /// A registration after more items than this since the last one
        /// switches a fenced slot back, as [`UNFENCE_AFTER`] does: above
        /// [`FENCE_BELOW_ITEMS`], so that a pace near it does not switch at
        /// every registration (each switch is a system call).
        ///
        /// [`UNFENCE_AFTER`]: Self::UNFENCE_AFTER
        /// [`FENCE_BELOW_ITEMS`]: Self::FENCE_BELOW_ITEMS
        pub(crate) const UNFENCE_ABOVE_ITEMS: usize = 512;

        /// How many [`stale`](Self::stale) calls share one clock read, once
        /// the waiter has asked this often since its last registration.
        /// The waiter asks on every wait while its slot is fenced and idle,
        /// and an async waiter whose polls keep succeeding asks once an
        /// item: a read each time (43-53 ns here) was 5 % of the samples of
        /// the async workload at capacity 1024.
        pub(crate) const STALE_EVERY: u32 = 16;

        pub(crate) const fn new() -> Self {
            Pace {
                last: None,
                checks: 0,
                at: 0,
            }
        }

        /// Called by each registration of a slot that may use the system
        /// call, with the waiter's own index: whether this one, and the wait
        /// it starts, should be fenced, given whether the slot is fenced now.
        pub(crate) fn fence_next(&mut self, fenced_now: bool, at: usize) -> bool {
            self.decide(Instant::now(), at, fenced_now)
        }

        /// Whether the waiter's last registration is more than
        /// [`UNFENCE_AFTER`](Self::UNFENCE_AFTER) old (or there was none):
        /// a fenced slot whose waiter stopped registering should leave the
        /// fenced protocol without waiting for its next registration.
        /// Calls 0, 1, 2, 4 and 8 after a registration read the clock, then
        /// every [`STALE_EVERY`](Self::STALE_EVERY)th; the others say no.
        /// Waits that come seldom (a stream that keeps up, after a burst of
        /// registrations fenced the slot) still leave the fenced protocol
        /// at their second wait, as the worker then stops fencing every
        /// publish; waits that come once an item pay one read per sixteen.
        pub(crate) fn stale(&mut self) -> bool {
            let n = self.checks;
            let due = n % Self::STALE_EVERY == 0 || (n < Self::STALE_EVERY && n.is_power_of_two());
            self.checks = self.checks.wrapping_add(1);
            due && self
                .last
                .is_none_or(|last| last.elapsed() > Self::UNFENCE_AFTER)
        }

        /// [`fence_next`](Self::fence_next) at the instant `now`, with the
        /// waiter's index at `at`.
        fn decide(&mut self, now: Instant, at: usize, fenced_now: bool) -> bool {
            self.checks = 0;
            let since = self.last.replace(now).map(|last| now - last);
            // Wrapping: the indices are free-running.
            let moved = at.wrapping_sub(core::mem::replace(&mut self.at, at));
            match since {
                None => fenced_now,
                Some(since) if fenced_now => {
                    since <= Self::UNFENCE_AFTER && moved <= Self::UNFENCE_ABOVE_ITEMS
                }
                Some(since) => since < Self::FENCE_WITHIN && moved < Self::FENCE_BELOW_ITEMS,
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::Pace;
        use std::time::{Duration, Instant};

        #[test]
        fn pace_fences_close_registrations_and_unfences_after_a_quiet_spell() {
            let t0 = Instant::now();
            let at = |us: u64| t0 + Duration::from_micros(us);
            let mut pace = Pace::new();
            // The first registration keeps the slot as it is, either way.
            assert!(!pace.decide(at(0), 0, false));
            // Far apart: stays asymmetric.
            assert!(!pace.decide(at(10_000), 0, false));
            // Closer than `FENCE_WITHIN`: switches in ...
            assert!(pace.decide(at(10_050), 0, false));
            // ... stays in while registrations come within `UNFENCE_AFTER` ...
            assert!(pace.decide(at(10_900), 0, true));
            assert!(pace.decide(at(11_900), 0, true));
            // ... and leaves after a longer gap.
            assert!(!pace.decide(at(13_000), 0, true));
            // At exactly `FENCE_WITHIN` it does not switch in; just below, it does.
            assert!(!pace.decide(at(13_100), 0, false));
            assert!(pace.decide(at(13_199), 0, false));
        }

        #[test]
        fn close_registrations_fence_only_when_few_items_moved_between_them() {
            let t0 = Instant::now();
            let at = |us: u64| t0 + Duration::from_micros(us);
            let mut pace = Pace::new();
            assert!(!pace.decide(at(0), 0, false));
            // Close in time but a ring's worth of items apart: stays
            // asymmetric.
            assert!(!pace.decide(at(20), 1024, false));
            assert!(!pace.decide(at(40), 2048, false));
            // Close, and just under `FENCE_BELOW_ITEMS` apart: switches in.
            assert!(pace.decide(at(60), 2048 + Pace::FENCE_BELOW_ITEMS - 1, false));
            // Stays in up to `UNFENCE_ABOVE_ITEMS` apart ...
            let mut index = 2048 + Pace::FENCE_BELOW_ITEMS - 1;
            index += Pace::UNFENCE_ABOVE_ITEMS;
            assert!(pace.decide(at(80), index, true));
            // ... and leaves above it, however close in time.
            index += Pace::UNFENCE_ABOVE_ITEMS + 1;
            assert!(!pace.decide(at(100), index, true));
            // The indices wrap: a move across `usize::MAX` counts as small.
            let mut pace = Pace::new();
            assert!(!pace.decide(at(0), usize::MAX - 2, false));
            assert!(pace.decide(at(10), 5, false));
        }

        #[test]
        fn staleness_reads_the_clock_at_calls_0_1_2_4_8_then_every_sixteenth() {
            let mut pace = Pace::new();
            assert!(pace.stale(), "never registered");
            let long_ago = Instant::now()
                .checked_sub(Duration::from_millis(50))
                .expect("an instant 50 ms back");
            let _ = pace.decide(long_ago, 0, true);
            let looked: alloc::vec::Vec<u32> = (0..3 * Pace::STALE_EVERY)
                .filter(|_| pace.stale())
                .collect();
            assert_eq!(looked, [0, 1, 2, 4, 8, 16, 32]);
            let _ = pace.decide(Instant::now(), 0, true);
            assert!(!pace.stale(), "a registration just now");
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

    /// Where the system call is missing every slot is fenced for good: no
    /// clock, nothing to record.
    pub(crate) struct Pace;

    impl Pace {
        pub(crate) const fn new() -> Self {
            Pace
        }

        pub(crate) fn fence_next(&mut self, fenced_now: bool, _at: usize) -> bool {
            fenced_now
        }

        pub(crate) fn stale(&mut self) -> bool {
            false
        }
    }
}
