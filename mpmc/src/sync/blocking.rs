//! What the channel's waiting layer shares between threads: a mutex, `Arc`,
//! parking and the clock, from `std` or from loom (`cfg(loom)`), so the
//! waiting code reads the same in both builds.

pub(crate) use crate::sync::AtomicUsize;
pub(crate) use core::sync::atomic::Ordering;
pub(crate) use std::time::Instant;

#[cfg(not(loom))]
pub(crate) use std::sync::atomic::AtomicBool;
#[cfg(not(loom))]
pub(crate) use std::sync::{Arc, Mutex};
#[cfg(not(loom))]
pub(crate) use std::thread::{Thread, current};

#[cfg(loom)]
pub(crate) use loom::sync::atomic::AtomicBool;
#[cfg(loom)]
pub(crate) use loom::sync::{Arc, Mutex};
#[cfg(loom)]
pub(crate) use loom::thread::{Thread, current};

/// The working side's load of a waiter flag, right after its operation's
/// claim (a `SeqCst` CAS in `Queue::push`/`pop`).
///
/// The store→load order the wake-up protocol needs: the claim, then this
/// load. Both are `SeqCst` accesses, so they are in the one total order
/// *S*, and the C++ model ([atomics.order]/4) puts the sleeping side's
/// `fence(SeqCst)` (in `Queue`'s failure path, after its flag store) in
/// *S* too: either this load sees the flag, or the sleeper's fence comes
/// after the claim and its re-check sees the item. On x86 the claim is a
/// `lock cmpxchg` (a full barrier) and this load a plain `mov`: no fence on
/// the try path.
#[cfg(not(loom))]
#[inline(always)]
pub(crate) fn load_after_claim(flag: &AtomicUsize) -> usize {
    // SeqCst: in S after the claim (see above); pairs with the fence in
    // `Queue::push_or_else`/`pop` that follows the waiter's flag store.
    flag.load(Ordering::SeqCst)
}

/// Loom models a `SeqCst` *access* as `AcqRel` (only `fence(SeqCst)` joins
/// its total order), so it cannot see the order the `std` build relies on;
/// a fence stands in for it. The fence orders more than the std build's
/// load does (this thread's earlier stores before its later ones, for any
/// thread that fences too), which could hide a missing Release elsewhere:
/// a model that never waits (only `try_*` calls, so no wake-up to lose)
/// turns it off with [`try_only_model`] and checks the rest unaided.
#[cfg(loom)]
pub(crate) fn load_after_claim(flag: &AtomicUsize) -> usize {
    if !TRY_ONLY.with(core::cell::Cell::get) {
        // SeqCst fence: stands in for the SeqCst claim→load order of the
        // std build (above); pairs with the fence in
        // `Queue::push_or_else`/`pop`.
        loom::sync::atomic::fence(Ordering::SeqCst);
    }
    flag.load(Ordering::Relaxed)
}

#[cfg(loom)]
std::thread_local! {
    static TRY_ONLY: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
}

/// Under loom: drops the stand-in fence of `load_after_claim` for the rest
/// of this test (loom runs a model's threads on the test's own thread), for
/// models whose threads never block. Not part of the API.
#[cfg(loom)]
pub fn try_only_model() {
    TRY_ONLY.with(|t| t.set(true));
}

/// Parks the current thread until unparked, or (with a deadline) until the
/// deadline. Returns `false` when the deadline has passed. May return
/// early (a spurious wake-up): callers re-check their condition.
#[cfg(not(loom))]
pub(crate) fn park(deadline: Option<Instant>) -> bool {
    match deadline {
        None => {
            std::thread::park();
            true
        }
        Some(deadline) => {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            std::thread::park_timeout(deadline - now);
            Instant::now() < deadline
        }
    }
}

/// Under loom a timed park is one yield and then the deadline passes: loom
/// has no clock, and this makes every timed wait race its own timeout.
#[cfg(loom)]
pub(crate) fn park(deadline: Option<Instant>) -> bool {
    match deadline {
        None => {
            loom::thread::park();
            true
        }
        Some(_) => {
            loom::thread::yield_now();
            false
        }
    }
}

/// Whether `deadline` has passed, before a wait starts. Under loom never
/// (a timed wait times out in [`park`] instead).
#[cfg(not(loom))]
pub(crate) fn passed(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
}

#[cfg(loom)]
pub(crate) fn passed(_deadline: Option<Instant>) -> bool {
    false
}

/// Retries before a blocking call parks: a peer on another core often
/// frees a slot or sends an item within a few hundred nanoseconds, much less
/// than a park and unpark cost. Spins a little, then yields the core (on a
/// machine with fewer cores than threads the peer needs it to run); a
/// *quiet* side (its last wait parked for [`QUIET`] or more) skips the
/// yields: on the Intel VM (Linux 6.18) a thread that yielded before it
/// parked was woken some 10 µs after its unpark, one that only spun in
/// 1.5–2 µs (hotq-spsc's `block_until` has the measurements).
#[cfg(not(loom))]
pub(crate) struct SpinFirst {
    backoff: crossbeam_utils::Backoff,
    /// Snoozes left when quiet (the spinning ones: crossbeam's `Backoff`
    /// spins for its first 7 and yields from the 8th); `None`: not quiet.
    spins_left: core::cell::Cell<Option<u32>>,
}

/// A park at least this long makes its side of the channel quiet.
#[cfg(not(loom))]
pub(crate) const QUIET: core::time::Duration = core::time::Duration::from_micros(200);

#[cfg(not(loom))]
impl SpinFirst {
    /// The spin of a wait; without the yields when `quiet`.
    pub(crate) fn new(quiet: bool) -> Self {
        SpinFirst {
            backoff: crossbeam_utils::Backoff::new(),
            spins_left: core::cell::Cell::new(quiet.then_some(7)),
        }
    }

    /// Waits a little; `false` once it is time to park instead.
    pub(crate) fn wait(&self) -> bool {
        if let Some(left) = self.spins_left.get() {
            if left == 0 {
                return false;
            }
            self.spins_left.set(Some(left - 1));
        }
        if self.backoff.is_completed() {
            return false;
        }
        self.backoff.snooze();
        true
    }
}

/// Whether the last blocking wait on one side of a channel parked for
/// [`QUIET`] or more: then its waits are sporadic, and the next one skips
/// the spin's yields ([`SpinFirst`]). A hint only, so `Relaxed`, and
/// written only when it changes (it sits beside the flags every send and
/// receive loads).
#[cfg(not(loom))]
pub(crate) struct Quiet(std::sync::atomic::AtomicBool);

#[cfg(not(loom))]
impl Quiet {
    pub(crate) const fn new() -> Self {
        Quiet(std::sync::atomic::AtomicBool::new(false))
    }

    pub(crate) fn get(&self) -> bool {
        // Relaxed: a hint (see the type's docs).
        self.0.load(Ordering::Relaxed)
    }

    /// Records whether a wait parked for long: `parked_for` is how long
    /// its last park lasted, `None` if it did not park.
    pub(crate) fn set(&self, parked_for: Option<core::time::Duration>) {
        let quiet = parked_for.is_some_and(|d| d >= QUIET);
        if self.get() != quiet {
            // Relaxed: a hint.
            self.0.store(quiet, Ordering::Relaxed);
        }
    }
}

/// Under loom a blocking call parks at once: the spin would only multiply
/// the schedules to explore, not the states.
#[cfg(loom)]
pub(crate) struct SpinFirst;

#[cfg(loom)]
impl SpinFirst {
    pub(crate) fn new(_quiet: bool) -> Self {
        SpinFirst
    }

    pub(crate) fn wait(&self) -> bool {
        false
    }
}

/// Under loom there is no spin to shorten: no state.
#[cfg(loom)]
pub(crate) struct Quiet;

#[cfg(loom)]
impl Quiet {
    pub(crate) const fn new() -> Self {
        Quiet
    }

    pub(crate) fn get(&self) -> bool {
        false
    }

    pub(crate) fn set(&self, _parked_for: Option<core::time::Duration>) {}
}
