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
pub(crate) use parker::{Thread, current};

/// The real clock's thread and lock, the same with or without loom: for
/// the timer channels' alarm thread (`channel/alarm.rs`), which sleeps
/// until an `Instant` and so is not for loom models (`channel/timer.rs`).
pub(crate) mod real_time {
    pub(crate) use std::sync::Mutex;
    pub(crate) use std::thread::Thread;
    use std::time::Instant;

    /// Starts `body` on a thread of its own, named for what it is.
    pub(crate) fn spawn(body: fn()) -> std::io::Result<Thread> {
        let handle = std::thread::Builder::new()
            .name("hotq timer alarm".into())
            .spawn(body)?;
        Ok(handle.thread().clone())
    }

    /// Parks this thread until `at`, or until unparked (or spuriously).
    pub(crate) fn park_until(at: Instant) {
        std::thread::park_timeout(at.saturating_duration_since(Instant::now()));
    }
}

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

/// Whether `thread` is the calling thread.
#[cfg(not(loom))]
pub(crate) fn is_current(thread: &Thread) -> bool {
    thread.id() == current().id()
}

/// Whether `thread` is the calling thread (its parker is this thread's).
#[cfg(loom)]
pub(crate) fn is_current(thread: &Thread) -> bool {
    parker::is_current(thread)
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

/// Parking under loom: each thread parks on a parker of its own, not in
/// `loom::thread::park`. Loom's `Thread::unpark` resumes its target
/// whatever the target is blocked on (loom issue #249), and a notifier's
/// unpark may always come late, after the waiter has left (it took the
/// waiter off the list just before the waiter's own re-try succeeded).
/// Measured in a user's model (`examples/verify-pipeline`): a late unpark
/// resumed a thread blocked on this crate's waiter lock, and loom failed
/// correct code with "expected to be able to acquire lock". A token under
/// a mutex with a condition variable wakes only a wait on itself, as
/// `std`'s park does. (A `loom::sync::Notify` would too, but loom explores
/// a spurious return from each, and the pipeline's blocking model went
/// from 13.6 s to over 300 s at preemption bound 2.)
#[cfg(loom)]
mod parker {
    use loom::sync::{Condvar, Mutex};
    use std::sync::Arc;

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

    /// Whether `thread` is the calling thread's.
    pub(crate) fn is_current(thread: &Thread) -> bool {
        PARKER.with(|parker| Arc::ptr_eq(parker, &thread.0))
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
}

/// Under loom a timed park is one yield and then the deadline passes: loom
/// has no clock, and this makes every timed wait race its own timeout.
#[cfg(loom)]
pub(crate) fn park(deadline: Option<Instant>) -> bool {
    match deadline {
        None => {
            parker::park();
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
/// than a park and unpark cost. Spins first (spin hints 2^0 … 2^6, 127 in
/// all), then yields the core (on a machine with fewer cores than threads
/// the peer needs it to run) until [`SPIN_TIME`] has passed since the first
/// yield, at least [`MIN_YIELDS`] times, or until the wait's deadline.
///
/// The bound is time, not a count of yields, because what it must outlast
/// is time: the other side's wake-up. Once one side has parked, the other
/// side's reply comes only after the parked side's wake-up latency (some
/// 10 µs on the Intel VM, Linux 6.18); a spin shorter than that parks too,
/// and from then on every hand-off parks and pays a wake-up. With
/// crossbeam's `Backoff` (3 yields, 1–2 µs) a 1P1C channel of capacity 8
/// ran at 0.2–1.8 M items/s here, as the queues that always park do
/// (hotq-spsc's `block_until` learnt the same, and has the same bound).
///
/// A *quiet* side (its last wait parked for [`QUIET`] or more) skips the
/// yields: there a thread that yielded before it parked was woken some
/// 10 µs after its unpark, one that only spun in 1.5–2 µs.
#[cfg(not(loom))]
pub(crate) struct SpinFirst {
    /// Spin-hint rounds done (the `n`th spins 2^n hints) and then yields
    /// done.
    step: u32,
    /// When the first yield came; `None` until then.
    yields_began: Option<Instant>,
    quiet: bool,
    deadline: Option<Instant>,
}

/// Spin-hint rounds of a [`SpinFirst`] before it yields.
#[cfg(not(loom))]
const HINT_STEPS: u32 = 7;

/// Yields of a [`SpinFirst`] that come whatever the clock says (unless the
/// deadline has passed).
#[cfg(not(loom))]
const MIN_YIELDS: u32 = 4;

/// How long a [`SpinFirst`]'s yields may go on: twice the wake-up latency
/// it must outlast, and 0.002 % of a second-long block. Under miri none
/// (its clock is virtual; the [`MIN_YIELDS`] still come).
#[cfg(not(loom))]
pub(crate) const SPIN_TIME: core::time::Duration = if cfg!(miri) {
    core::time::Duration::ZERO
} else {
    core::time::Duration::from_micros(20)
};

/// How long a batch receive holds out for a whole batch before it takes
/// fewer (`channel/recv_many.rs`: the blocking `recv_many`'s spin, and
/// `recv_many_async`'s yields). Under loom none, as there is no spin
/// there (an async batch receive then registers at its first empty try,
/// as `recv_async` does): a hold in time would only multiply the
/// schedules to explore. None on `wasm32-unknown-unknown` either, whose
/// `std` has no clock (`Instant::now` panics there), so that an async
/// batch receive works there as `recv_async` does.
pub(crate) const BATCH_HOLD: core::time::Duration = if cfg!(any(
    loom,
    all(target_family = "wasm", target_os = "unknown")
)) {
    core::time::Duration::ZERO
} else {
    core::time::Duration::from_micros(1)
};

/// How long an async batch receive holds out for a whole batch while
/// items stream in ([`STREAMING_ITEMS`] there when [`BATCH_HOLD`] is up),
/// where a blocking one stops at [`BATCH_HOLD`]
/// (`channel/recv_many.rs`). An async receive's hold ends sooner than its
/// batch fills at the pace of single-item senders (at 60 M items/s, 512
/// items take 8.5 µs), and then takes the few items there are: with the
/// batch pop's prefetch (`queue/batch.rs`), which took a batch faster, that
/// left 63–70 items a call where there had been 155–181, and async
/// `recv_many` of 256 fell from 65–74 to 48–57 M items/s (4 senders, 4
/// receivers, 2 tokio workers). A lone item, or a trickle, still waits no
/// more than [`BATCH_HOLD`]. Zero where [`BATCH_HOLD`] is.
pub(crate) const STREAMING_HOLD: core::time::Duration = BATCH_HOLD.saturating_mul(4);

/// How many items, there when [`BATCH_HOLD`] is up, say that items are
/// streaming in: 16 a µs, 16 M items/s.
pub(crate) const STREAMING_ITEMS: usize = 16;

/// A park at least this long makes its side of the channel quiet: ten
/// times [`SPIN_TIME`], a hand-off this late would not have been caught
/// by the spin anyway.
#[cfg(not(loom))]
pub(crate) const QUIET: core::time::Duration = core::time::Duration::from_micros(200);

#[cfg(not(loom))]
impl SpinFirst {
    /// The spin of a wait that ends by `deadline`; without the yields
    /// when `quiet`.
    pub(crate) fn new(quiet: bool, deadline: Option<Instant>) -> Self {
        SpinFirst {
            step: 0,
            yields_began: None,
            quiet,
            deadline,
        }
    }

    /// Waits a little; `false` once it is time to park instead.
    pub(crate) fn wait(&mut self) -> bool {
        let step = self.step;
        self.step = step.saturating_add(1);
        if step < HINT_STEPS {
            (0..1u32 << step).for_each(|_| core::hint::spin_loop());
            return true;
        }
        if self.quiet {
            return false;
        }
        let now = Instant::now();
        if self.deadline.is_some_and(|d| now >= d) {
            return false;
        }
        let began = *self.yields_began.get_or_insert(now);
        if step >= HINT_STEPS + MIN_YIELDS && now.duration_since(began) >= SPIN_TIME {
            return false;
        }
        std::thread::yield_now();
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
    pub(crate) fn new(_quiet: bool, _deadline: Option<Instant>) -> Self {
        SpinFirst
    }

    pub(crate) fn wait(&mut self) -> bool {
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

std::thread_local! {
    /// A select's [`Quiet`]: kept per thread, as a `Select` lives for one
    /// call.
    static SELECT_QUIET: Quiet = const { Quiet::new() };
}

/// Whether this thread's last select that waited parked for long
/// ([`Quiet::get`]).
pub(crate) fn select_quiet() -> bool {
    SELECT_QUIET.with(Quiet::get)
}

/// Records how long this thread's last select that waited parked
/// (`None`: it did not park), as [`Quiet::set`].
pub(crate) fn set_select_quiet(parked_for: Option<core::time::Duration>) {
    SELECT_QUIET.with(|quiet| quiet.set(parked_for));
}

/// Shuffles `order` (a select's order of tries, for fairness among ready
/// operations): Fisher–Yates over a thread's own xorshift generator, seeded
/// from a process-wide counter and the thread. Not for anything but
/// fairness. (No clock in the seed: miri's isolation has no wall clock.)
#[cfg(not(loom))]
pub(crate) fn shuffle(order: &mut [usize]) {
    use core::cell::Cell;
    use std::sync::atomic::AtomicU64;
    /// Seeds handed out so far, spaced by the golden ratio.
    static SEEDS: AtomicU64 = AtomicU64::new(0x9E37_79B9_7F4A_7C15);
    std::thread_local! {
        static STATE: Cell<u64> = const { Cell::new(0) };
    }
    STATE.with(|state| {
        let mut x = state.get();
        if x == 0 {
            // A seed that differs between threads; never 0. Relaxed: only
            // the increment's atomicity matters (distinct seeds).
            let seed = SEEDS.fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed);
            x = (seed ^ (core::ptr::from_ref(state).addr() as u64)) | 1;
        }
        for i in (1..order.len()).rev() {
            // xorshift64 (Marsaglia's 13, 7, 17).
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let j = (x % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        state.set(x);
    });
}

/// Under loom the order stays as listed: a model must replay the same
/// choices on every execution.
#[cfg(loom)]
pub(crate) fn shuffle(_order: &mut [usize]) {}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::{HINT_STEPS, MIN_YIELDS, SpinFirst};
    use std::time::{Duration, Instant};

    /// Waits until `spin` says park; returns how many waits it allowed.
    fn run_out(mut spin: SpinFirst) -> u32 {
        let mut waits = 0;
        while spin.wait() {
            waits += 1;
            assert!(waits < 10_000_000, "a spin that never ends");
        }
        waits
    }

    /// A select's quiet hint is its thread's, from its last wait's park.
    #[test]
    fn a_select_is_quiet_after_a_long_park_only() {
        use super::{QUIET, select_quiet, set_select_quiet};
        set_select_quiet(Some(QUIET));
        assert!(select_quiet());
        std::thread::spawn(|| assert!(!select_quiet(), "per thread"))
            .join()
            .unwrap();
        set_select_quiet(Some(QUIET / 2));
        assert!(!select_quiet());
        set_select_quiet(Some(QUIET));
        set_select_quiet(None); // a wait that did not park
        assert!(!select_quiet());
    }

    /// The bound that lets a 1P1C channel of capacity 8 hand over without
    /// parking: a spin that ended after a fixed few yields (crossbeam's
    /// `Backoff`, 1–2 µs) was shorter than a parked peer's wake-up, and
    /// then every hand-off parked.
    #[test]
    #[cfg_attr(miri, ignore = "timing: miri's isolated clock")]
    fn a_spin_yields_for_spin_time_before_it_parks() {
        let t0 = Instant::now();
        let waits = run_out(SpinFirst::new(false, None));
        let spun = t0.elapsed();
        // What the spin must outlast: a parked peer's wake-up, 10 µs here.
        let wake_up = Duration::from_micros(10);
        assert!(spun >= wake_up, "parked after {spun:?}, {waits} waits");
        assert!(waits >= HINT_STEPS + MIN_YIELDS);
        // A generous bound: it ends (20 µs of yields, on a loaded machine
        // a few time slices).
        assert!(spun < Duration::from_secs(1), "spun for {spun:?}");
    }

    #[test]
    fn a_quiet_side_parks_after_the_hints() {
        assert_eq!(run_out(SpinFirst::new(true, None)), HINT_STEPS);
    }

    #[test]
    fn a_passed_deadline_ends_the_spin_after_the_hints() {
        let spin = SpinFirst::new(false, Some(Instant::now()));
        assert_eq!(run_out(spin), HINT_STEPS);
    }
}
