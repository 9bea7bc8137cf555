//! One side's place to wait: a waker and the state word that says whether
//! it is there.
//!
//! A ring has two, one per direction: the consumer waits in one for items,
//! the producer in the other for room. Each has exactly one waiter (the half
//! that waits in it) and one waker (the other half), which keeps the state
//! machine small:
//!
//! ```text
//!          register (waiter)            wake_slow (worker)
//!   IDLE ─────────────────────▶ WAITING ─────────────────▶ WAKING ──▶ IDLE
//!     ▲                            │         takes the waker,  then wakes it
//!     └──────── retract (waiter) ──┘
//! ```
//!
//! The cell holding the waker belongs to whoever moved the state last: the
//! waiter writes it only in `IDLE` (after its own retract, or after the
//! worker left `WAKING`), the worker takes it only in `WAKING`. The `FENCED`
//! bit says which protocol the slot runs (see `barrier`): set, it keeps the
//! state word non-zero, so the worker's fast check always falls through to
//! the slow path, which fences. A ring without the asymmetric barrier keeps
//! it set for good; on one with it, the waiter chooses at each registration
//! (`barrier::Pace`), and every other store of the state keeps the bit it
//! found.
//!
//! Switching is sound because the switch itself runs the heavy barrier.
//! Into fences: the registration that sets the bit runs `membarrier`, so a
//! worker's state load either comes after the barrier's point on its CPU
//! (and sees the bit, and fences) or before it, with its index store
//! before that point too, visible to every later check of the waiter. So
//! a later registration that runs only a fence meets, from every worker,
//! either a fence or an index it already sees. Out of fences: the
//! registration that clears the bit runs `membarrier`, as every
//! registration without the bit does.
//!
//! The protocol's store→load order: the waiter stores `WAITING`, runs the
//! heavy barrier, then re-checks the index; the worker stores the index,
//! runs the light barrier, then loads the state. One of the two loads sees
//! the other's store (`barrier`'s module docs say why), so the waiter never
//! sleeps through an index that would have satisfied it.

use core::task::{RawWakerVTable, Waker};

use super::barrier;
use crate::sync::{AtomicU8, Ordering, TrackedCell, fence, relax};

/// No waiter; the cell (`None`, or a retracted waiter's old waker) is the
/// waiter's to write.
const IDLE: u8 = 0;
/// The waiter's waker is in the cell; the worker may take it.
const WAITING: u8 = 1;
/// The worker is taking the waker out of the cell.
const WAKING: u8 = 2;
/// This ring has no asymmetric barrier: both sides fence.
const FENCED: u8 = 4;

/// `yields` from here up: the async waiter registers at once instead of
/// yielding, and the value counts down the waits that do so before one
/// tries a yield again (`take_yield`).
const REGISTERING: u16 = 1 << 15;
/// How many waits in a row register at once before one tries yielding
/// again, so that a pair that came to share one thread finds the cheaper
/// wait again. Not often: on tokio's multi-thread runtime a tried yield
/// usually pays (the other half, on the same worker, runs meanwhile) and
/// leaves the task in the worker's queue, where an idle worker steals it,
/// which splits the pair again. Tried every 64 waits, the async workload
/// at capacity 1024 with 2 workers ran at 0.84 [0.81-0.91] of never
/// trying (9 interleaved runs).
const REGISTERED_WAITS: u16 = 4096;

/// Where one half of a ring waits for the other.
pub(crate) struct WaitSlot {
    /// `IDLE`, `WAITING` or `WAKING`, plus the `FENCED` bit of the
    /// protocol the slot runs now.
    state: AtomicU8,
    /// The waiter's waker while `WAITING`; owned as the state says.
    waker: TrackedCell<Option<Waker>>,
    /// What `barrier::available` said when the ring was built: whether the
    /// slot may run the asymmetric protocol (else it is fenced for good).
    asymmetric: bool,
    /// The waiter's registrations, which choose the protocol when
    /// `asymmetric`; the waiter's alone.
    pace: TrackedCell<barrier::Pace>,
    /// Which waker the waiter's latest `WAITING` announced: the waiter's
    /// alone (it may not read `waker` while `WAITING`, the worker may be
    /// taking it), so that a registration that finds its own announcement
    /// still standing can keep it (see `register`).
    announced: TrackedCell<Option<WakerId>>,
    /// The async waiter's way of waiting (`future::poll_wait`): below
    /// `REGISTERING`, it yields first, and this counts its yields since
    /// its last wait ended; from `REGISTERING` up, it registers at once,
    /// and this counts down to its next try of a yield. The waiter's
    /// alone. Written only when it changes: it shares its cache line with
    /// `state`, which the worker loads on every publish.
    yields: TrackedCell<u16>,
    /// Whether the blocking waiter's last wait parked for long
    /// (`blocking::QUIET`): hand-offs are sporadic, so its next wait parks
    /// after the spin hints, without the yields (`blocking::block_until`
    /// says why). The waiter's alone; written only when it changes, as
    /// `yields`. (Only blocking waits, which need `std`, use it.)
    #[cfg(feature = "std")]
    quiet: TrackedCell<bool>,
}

/// What `Waker::will_wake` compares: the raw waker's data and vtable
/// addresses, kept as numbers (never dereferenced, and only compared while
/// the waker they came from is alive in the cell).
#[derive(Clone, Copy, PartialEq, Eq)]
struct WakerId(usize, usize);

impl WakerId {
    fn of(waker: &Waker) -> Self {
        WakerId(
            waker.data() as usize,
            waker.vtable() as *const RawWakerVTable as usize,
        )
    }
}

impl WaitSlot {
    /// A slot with nobody waiting; `asymmetric` is what
    /// [`barrier::available`] answered for this ring.
    pub(crate) fn new(asymmetric: bool) -> Self {
        let fenced = if asymmetric { 0 } else { FENCED };
        WaitSlot {
            state: AtomicU8::new(fenced | IDLE),
            waker: TrackedCell::new(None),
            asymmetric,
            pace: TrackedCell::new(barrier::Pace::new()),
            announced: TrackedCell::new(None),
            yields: TrackedCell::new(0),
            #[cfg(feature = "std")]
            quiet: TrackedCell::new(false),
        }
    }

    /// Whether this slot was built fenced for good (for the constructors'
    /// tests).
    #[cfg(test)]
    pub(crate) fn is_fenced(&self) -> bool {
        !self.asymmetric
    }

    /// Whether the slot runs the fenced protocol now (for the tests of the
    /// switch).
    #[cfg(test)]
    pub(crate) fn fenced_now(&self) -> bool {
        self.state.load(Ordering::Relaxed) & FENCED != 0
    }

    /// The worker's side, right after it stored its index (or the
    /// abandoned flag): wakes the waiter if there is one. A load, a test
    /// and a branch when nobody waits (x86-64: an atomic load is never
    /// folded into the compare).
    #[inline(always)]
    pub(crate) fn wake_if_waiting(&self) {
        barrier::light();
        // Relaxed: with the asymmetric barrier this load is ordered after
        // the caller's store by `light` + the waiter's `heavy`; without it
        // (FENCED) it only routes to `wake_slow`, which fences and loads
        // again.
        let state = self.state.load(Ordering::Relaxed);
        if state != IDLE {
            self.wake_slow(state);
        }
    }

    #[cold]
    #[inline(never)]
    fn wake_slow(&self, seen: u8) {
        if seen & FENCED != 0 {
            // SeqCst pairs with the waiter's `fence(SeqCst)` in
            // `barrier::heavy` (fenced slots): see there for the
            // interleaving this orders.
            fence(Ordering::SeqCst);
        }
        // A plain load first: on a fenced slot every publish comes here, and
        // one that finds nobody waiting should not pay a locked instruction.
        let state = self.state.load(Ordering::Relaxed);
        if state & !FENCED != WAITING {
            return;
        }
        // The protocol bit the waiter chose; kept by both stores below.
        let mode = state & FENCED;
        // Acquire pairs with the Release store of `WAITING` in `register`:
        // the waker written into the cell happens before we take it.
        if self
            .state
            .compare_exchange(state, mode | WAKING, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return; // nobody waits, or the waiter retracted
        }
        // SAFETY: in `WAKING` the cell is ours alone: the waiter writes it
        // only in `IDLE`, which only we can restore now.
        let waker = self.waker.with_mut(|cell| unsafe { (*cell).take() });
        // Release pairs with the Acquire load in `register`: our take of the
        // waker happens before the waiter's next write of the cell.
        self.state.store(mode | IDLE, Ordering::Release);
        if let Some(waker) = waker {
            waker.wake();
        }
    }

    /// The waiter, about to wait with its own index at `at`, takes its slot
    /// out of the fenced protocol if it is in it only because of
    /// registrations many items past ([`barrier::Pace::stale`]). Without
    /// this a slot stayed fenced from its last close registrations until
    /// its next registration, however far off: in the waiting suite's async
    /// workload at capacity 1024, 9 of a run's 71 registrations were
    /// fenced, most of them early, and the worker's fence on every publish
    /// then took 29-43 % of the process's samples (`perf record -e
    /// cpu-clock`, `WaitSlot::wake_slow`).
    ///
    /// Sound with a plain store: in `FENCED | IDLE` nobody waits and only
    /// the waiter moves the state, and its next registration, finding the
    /// slot not fenced, enters either protocol through the heavy barrier
    /// (see `register`). A worker that still reads the old `FENCED` bit
    /// only fences once more than it must.
    #[inline]
    pub(crate) fn unfence_if_stale(&self, at: usize) {
        if !self.asymmetric {
            return;
        }
        // Relaxed: the waiter's own last store (only it leaves `IDLE`
        // unfenced or fenced), or a worker's `IDLE` store after a wake-up,
        // which keeps the bit the waiter chose.
        if self.state.load(Ordering::Relaxed) != FENCED | IDLE {
            return;
        }
        // SAFETY: `pace` is the waiter's alone (see `register`).
        if self.pace.with_mut(|cell| unsafe { (*cell).stale(at) }) {
            // Relaxed: see above.
            self.state.store(IDLE, Ordering::Relaxed);
        }
    }

    /// The waiter's side: puts `waker` in the slot, announces the wait and
    /// runs the heavy barrier, unless its own announcement of the same
    /// waker still stands. `at` is the waiter's own index (its head, or
    /// its tail), for the choice of protocol (`barrier::Pace`). The caller
    /// must then check its condition again (and [`retract`](Self::retract)
    /// if it no longer waits).
    pub(crate) fn register(&self, waker: &Waker, at: usize) {
        // Whether the slot ran the fenced protocol, once it is `IDLE` for us.
        let was_fenced = loop {
            // Acquire pairs with the Release store that leaves `WAKING` in
            // `wake_slow`: the worker's take of the old waker happens before
            // our write of the cell.
            let state = self.state.load(Ordering::Acquire);
            match state & !FENCED {
                IDLE => break state & FENCED != 0,
                // Our own earlier registration, still standing, of a waker
                // that wakes the same task (a re-poll that no wake-up
                // caused: a `select!` sibling's, a spurious one): keep it,
                // with neither a new store nor a new heavy barrier. Sound
                // because only the worker moves the state out of `WAITING`
                // but for us, so the `WAITING` read here is our own last
                // store S, and `register` ran the heavy barrier B after S
                // before it returned. Take any publish X of the worker and
                // its later load L of the state (X, light, L). If L comes
                // after B, it reads S or a later value: S sends the worker
                // to `wake_slow`, which wakes the waker in the cell (the
                // same task); a later value is the worker's own `WAKING` /
                // `IDLE`, i.e. it took S from a state we read after it was
                // stored, so that wake-up comes after this load, not
                // before. If L comes before B, so does X, and the caller's
                // check after this returns (after B) sees X. Either the
                // check sees X or the task is woken: the same either-or a
                // fresh registration gives. Once the worker has left
                // `WAITING` (it woke us), the state reads `WAKING`/`IDLE`
                // and the full registration below, barrier included, runs
                // again. Loom: `async_pop_repolled_while_registered`.
                WAITING => {
                    // SAFETY: `announced` is the waiter's alone: only
                    // `register` touches it, and each slot has one waiter.
                    let id = self.announced.with_mut(|cell| unsafe { *cell });
                    if id == Some(WakerId::of(waker)) {
                        return;
                    }
                    // Another waker: withdraw our registration to own the
                    // cell again (Relaxed: the cell was last written by us).
                    if self
                        .state
                        .compare_exchange(
                            state,
                            (state & FENCED) | IDLE,
                            Ordering::Relaxed,
                            Ordering::Relaxed,
                        )
                        .is_ok()
                    {
                        break state & FENCED != 0;
                    }
                }
                // The worker is between its take and its store of `IDLE`:
                // a few instructions, unless it was preempted there (so
                // yield rather than spin: it may need this core).
                _ => relax(),
            }
        };
        self.waker.with_mut(|cell| {
            // SAFETY: in `IDLE` the cell is the waiter's: the worker touches
            // it only in `WAKING`, which it enters only from `WAITING`.
            let cell = unsafe { &mut *cell };
            match cell {
                Some(old) if old.will_wake(waker) => {}
                _ => *cell = Some(waker.clone()),
            }
        });
        // SAFETY: the waiter's alone, as above.
        self.announced
            .with_mut(|cell| unsafe { *cell = Some(WakerId::of(waker)) });
        // The protocol of this wait: fenced for good without the
        // asymmetric barrier, else as the waiter's pace says.
        let fenced = if self.asymmetric {
            // SAFETY: `pace` is the waiter's alone, as above.
            self.pace
                .with_mut(|cell| unsafe { (*cell).fence_next(was_fenced, at) })
        } else {
            true
        };
        let mode = if fenced { FENCED } else { 0 };
        // Release pairs with the Acquire compare-exchange in `wake_slow`:
        // the waker written above happens before the worker takes it.
        self.state.store(mode | WAITING, Ordering::Release);
        // A fence only when the slot was fenced before this store and stays
        // so; entering or leaving the fenced protocol takes the system call
        // (the module docs say why).
        barrier::heavy(self.asymmetric && !(was_fenced && fenced));
    }

    /// Whether the async waiter may yield instead of registering: it
    /// yields first (fewer than `limit` yields so far in this wait; counts
    /// this one), or it registers at once (counts the wait down; the wait
    /// after `REGISTERED_WAITS` of those yields once, as a try).
    pub(crate) fn take_yield(&self, limit: u16) -> bool {
        // SAFETY: `yields` is the waiter's alone: only the waiter's
        // `take_yield`, `yielded` and `after_wait` touch it, and each slot
        // has one waiter.
        self.yields.with_mut(|cell| unsafe {
            let n = *cell;
            if n < limit {
                *cell = n + 1;
                return true;
            }
            if n == REGISTERING && limit > 0 {
                // The count down is over: this wait tries a yield.
                *cell = 1;
                return true;
            }
            if n > REGISTERING {
                *cell = n - 1;
            }
            false
        })
    }

    /// Whether the async waiter yielded in the wait now ending.
    #[inline]
    pub(crate) fn yielded(&self) -> bool {
        // SAFETY: the waiter's alone, as in `take_yield`.
        self.yields
            .with_mut(|cell| unsafe { *cell != 0 && *cell < REGISTERING })
    }

    /// The async waiter's wait ended (its condition holds after it yielded
    /// or registered): its next waits yield first (`yield_next`) or
    /// register at once; `future::poll_wait` decides which, and says why.
    /// Inline: every completed poll that waited calls it (a load, and no
    /// store unless the way of waiting changes).
    #[inline]
    pub(crate) fn after_wait(&self, yield_next: bool) {
        // SAFETY: the waiter's alone, as in `take_yield`.
        self.yields.with_mut(|cell| unsafe {
            let n = *cell;
            let next = if yield_next {
                0
            } else if n >= REGISTERING {
                // Registering already: keep the count down going.
                n
            } else {
                REGISTERING + REGISTERED_WAITS
            };
            if n != next {
                *cell = next;
            }
        });
    }

    /// Whether the blocking waiter's last wait parked for long.
    #[cfg(feature = "std")]
    pub(crate) fn is_quiet(&self) -> bool {
        // SAFETY: `quiet` is the waiter's alone: only the waiter's
        // `is_quiet` and `set_quiet` touch it, and each slot has one waiter.
        self.quiet.with_mut(|cell| unsafe { *cell })
    }

    /// Records whether the blocking waiter's wait parked for long.
    #[cfg(feature = "std")]
    pub(crate) fn set_quiet(&self, quiet: bool) {
        // SAFETY: the waiter's alone, as in `is_quiet`.
        self.quiet.with_mut(|cell| unsafe {
            if *cell != quiet {
                *cell = quiet;
            }
        });
    }

    /// The waiter no longer waits. If the worker is waking it right now,
    /// that wake-up still arrives (a spurious one, which every wait absorbs).
    pub(crate) fn retract(&self) {
        // Relaxed: nothing is published; the cell keeps our own old waker.
        // Only the worker moves the state out of our `WAITING`, keeping
        // its protocol bit, so the bit read here is the one we stored.
        let state = self.state.load(Ordering::Relaxed);
        if state & !FENCED == WAITING {
            let _ = self.state.compare_exchange(
                state,
                (state & FENCED) | IDLE,
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
        }
    }
}

// Where `barrier::Pace` chooses: elsewhere every slot is fenced for good
// and nothing switches.
#[cfg(all(test, target_os = "linux", feature = "std", not(loom), not(miri)))]
mod tests {
    use super::{WaitSlot, barrier};
    use alloc::sync::Arc;
    use core::sync::atomic::{AtomicUsize, Ordering};
    use core::task::Waker;
    use std::task::Wake;

    struct Count(AtomicUsize);
    impl Wake for Count {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Two registrations with no item between them: the second switches
    /// the slot to fences.
    fn fence_by_close_registrations(slot: &WaitSlot, waker: &Waker) {
        for _ in 0..2 {
            slot.register(waker, 0);
            slot.retract();
        }
        assert!(slot.fenced_now(), "registrations 0 items apart");
    }

    #[test]
    fn registrations_few_items_apart_switch_to_fences_and_many_apart_switch_back() {
        if !barrier::available() {
            // Fenced for good: nothing to switch.
            assert!(WaitSlot::new(false).fenced_now());
            return;
        }
        let slot = WaitSlot::new(true);
        assert!(!slot.fenced_now());
        let count = Arc::new(Count(AtomicUsize::new(0)));
        let waker = Waker::from(Arc::clone(&count));
        fence_by_close_registrations(&slot, &waker);
        // Fenced: the worker's slow path still finds and wakes the waiter,
        // and keeps the protocol bit.
        let woken = count.0.load(Ordering::Relaxed);
        slot.register(&waker, 0);
        slot.wake_if_waiting();
        assert_eq!(count.0.load(Ordering::Relaxed), woken + 1);
        assert!(slot.fenced_now());
        // A registration more than `UNFENCE_ABOVE_ITEMS` items on switches
        // back.
        slot.register(&waker, barrier::Pace::UNFENCE_ABOVE_ITEMS + 1);
        assert!(!slot.fenced_now());
        slot.wake_if_waiting();
        assert_eq!(count.0.load(Ordering::Relaxed), woken + 2);
        assert!(!slot.fenced_now());
    }

    /// A slot fenced by close registrations leaves the fenced protocol
    /// when its waiter, about to wait again many items on, finds it so,
    /// not only at its next registration (which may never come while the
    /// other side keeps up): the worker then stops fencing.
    #[test]
    fn a_fenced_slot_whose_waiter_stopped_registering_is_unfenced_before_its_next_wait() {
        if !barrier::available() {
            return; // fenced for good: nothing to switch
        }
        let slot = WaitSlot::new(true);
        let waker = Waker::from(Arc::new(Count(AtomicUsize::new(0))));
        fence_by_close_registrations(&slot, &waker);
        // Not yet stale: stays fenced.
        let many = barrier::Pace::UNFENCE_ABOVE_ITEMS;
        slot.unfence_if_stale(many);
        assert!(slot.fenced_now(), "unfenced within UNFENCE_ABOVE_ITEMS");
        slot.unfence_if_stale(many + 1);
        assert!(!slot.fenced_now(), "still fenced after many items");
        // The next registration enters the protocol its pace chooses, and
        // the worker still finds and wakes the waiter.
        slot.register(&waker, 2 * many + 2);
        assert!(!slot.fenced_now());
        slot.wake_if_waiting();
    }
}

#[cfg(test)]
mod yield_policy_tests {
    use super::{REGISTERED_WAITS, WaitSlot};

    const LIMIT: u16 = 8;

    /// Yields taken by one wait until the slot refuses one.
    fn yields_in_one_wait(slot: &WaitSlot) -> u16 {
        (0..=LIMIT).take_while(|_| slot.take_yield(LIMIT)).count() as u16
    }

    #[test]
    fn a_new_waiter_yields_at_most_the_limit_in_one_wait() {
        let slot = WaitSlot::new(false);
        assert!(!slot.yielded());
        assert_eq!(yields_in_one_wait(&slot), LIMIT);
        assert!(slot.yielded());
    }

    #[test]
    fn waits_told_to_yield_keep_yielding() {
        let slot = WaitSlot::new(false);
        for _ in 0..100 {
            assert!(slot.take_yield(LIMIT), "yields rearmed by the last wait");
            slot.after_wait(true);
            assert!(!slot.yielded());
        }
    }

    #[test]
    fn waits_told_to_register_do_so_4096_times_then_one_tries_a_yield_again() {
        let slot = WaitSlot::new(false);
        assert!(slot.take_yield(LIMIT));
        slot.after_wait(false);
        for wait in 0..REGISTERED_WAITS {
            assert!(
                !slot.take_yield(LIMIT),
                "wait {wait} should register at once"
            );
            assert!(!slot.yielded());
            // Each of those waits ends registered: the count goes on.
            slot.after_wait(false);
        }
        assert!(slot.take_yield(LIMIT), "then one tries a yield again");
        slot.after_wait(true);
        assert_eq!(
            yields_in_one_wait(&slot),
            LIMIT,
            "told it paid: yielding again"
        );
    }
}
