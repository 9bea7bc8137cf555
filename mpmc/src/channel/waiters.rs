//! The waiting layer: the threads and tasks blocked on one side of a
//! channel, kept apart from the queue (the queue never sees them).
//!
//! # The wake-up protocol
//!
//! A waiter puts itself on the list, sets [`WAITING`] in `flags`, then
//! tries its operation once more; only if that fails does it sleep. The
//! working side does its operation, then loads `flags`
//! ([`load_after_claim`]), and takes the lock only when someone waits. The
//! store→load order this relies on is the classic one of two flags, here
//! the queue's position and `flags`:
//!
//! - sleeping side: store `WAITING` → `fence(SeqCst)` (in
//!   `Queue::pop`/`push`'s failure path, before it decides "empty"/"full")
//!   → load `tail`/`head`;
//! - working side: claim CAS on `tail`/`head` (`SeqCst`) → load `flags`
//!   (`SeqCst`).
//!
//! In the total order of `SeqCst` operations either the load comes after
//! the fence, and sees the waiter, or the fence comes after the claim, and
//! the re-try sees the item (or the free slot). So no wake-up is lost, and
//! with nobody waiting the working side pays one load of a line that
//! nobody writes: no lock, no allocation, no system call, no fence.
//!
//! The same word carries [`CLOSED`], set when the other side's last handle
//! goes, and the same order makes the last receiver's drain safe against a
//! racing send: the drain's `CLOSED` store comes before its pops' fences,
//! and a send loads `flags` after its claim, so either the drain sees the
//! sent item (and drops it), or the sender sees `CLOSED` (and drops what is
//! left itself).
//!
//! A notification removes one waiter from the list (oldest first, so eight
//! blocked senders all make progress) and wakes it; the woken waiter always
//! tries its operation again before it gives up or sleeps again, so a
//! notification it does not use is one whose item (or slot) someone else
//! took. A waiter that leaves without trying after it was notified (a
//! dropped future, or one whose re-check succeeded with another item)
//! passes the notification on to the next waiter.

use alloc::collections::VecDeque;
use alloc::vec::Vec;
use core::task::{Context as TaskContext, Poll, Waker};

use super::context::Context;
use super::fill_barrier::FillBarrier;
use crate::sync::AtomicUsize;
use crate::sync::blocking::{
    self, Arc, AtomicBool, Instant, Mutex, Ordering, Quiet, SpinFirst, Thread, load_after_claim,
};

/// In `Waiters::flags`: someone is on the list.
pub(crate) const WAITING: usize = 1;
/// In `Waiters::flags`: the other side's last handle is gone.
pub(crate) const CLOSED: usize = 2;

/// One blocked thread or task.
pub(crate) struct Waiter {
    /// Set (under the list's lock) by the notifier that removed this waiter
    /// from the list. Relaxed everywhere: whoever reads `true` next takes
    /// the list's lock (in [`Waiters::unregister`]), which orders the
    /// notifier's operation before the waiter's retry.
    notified: AtomicBool,
    wake: Wake,
}

enum Wake {
    Thread(Thread),
    Task(Waker),
    /// A select's entry for its operation at this position: it takes a
    /// notification only if no other list has picked the select yet
    /// (`context.rs`).
    Select(Arc<Context>, usize),
}

impl Waiter {
    pub(crate) fn thread() -> Arc<Waiter> {
        Arc::new(Waiter {
            notified: AtomicBool::new(false),
            wake: Wake::Thread(blocking::current()),
        })
    }

    pub(crate) fn task(waker: &Waker) -> Arc<Waiter> {
        Arc::new(Waiter {
            notified: AtomicBool::new(false),
            wake: Wake::Task(waker.clone()),
        })
    }

    pub(crate) fn select(context: &Arc<Context>, position: usize) -> Arc<Waiter> {
        Arc::new(Waiter {
            notified: AtomicBool::new(false),
            wake: Wake::Select(Arc::clone(context), position),
        })
    }

    /// Under the list's lock: whether this waiter takes the notification
    /// (a select that another list has picked does not).
    pub(crate) fn pick(&self) -> bool {
        match &self.wake {
            Wake::Select(context, position) => context.pick(*position),
            _ => true,
        }
    }

    /// Marks it notified; under the lock of the list it was on (a
    /// rendezvous channel's: `zero.rs`).
    pub(crate) fn set_notified(&self) {
        // Relaxed: as every access of `notified` (see the field).
        self.notified.store(true, Ordering::Relaxed);
    }

    /// Whether a notifier has marked it: a hint to stop waiting, after
    /// which the waiter looks at its list again under the list's lock.
    pub(crate) fn is_notified(&self) -> bool {
        // Relaxed: as every access of `notified` (see the field).
        self.notified.load(Ordering::Relaxed)
    }

    /// Whether it is an entry of a select running on the calling thread
    /// (a rendezvous channel never pairs a select with itself: `zero.rs`).
    pub(crate) fn is_select_of_current_thread(&self) -> bool {
        match &self.wake {
            Wake::Select(context, _) => context.is_current_thread(),
            _ => false,
        }
    }

    /// Unparks the thread or wakes the task; `notified` is already set.
    pub(crate) fn wake(&self) {
        match &self.wake {
            Wake::Thread(thread) => thread.unpark(),
            Wake::Task(waker) => waker.wake_by_ref(),
            Wake::Select(context, _) => context.unpark(),
        }
    }

    /// Parks until notified or until `deadline`; `false` when the deadline
    /// passed first.
    pub(crate) fn park(&self, deadline: Option<Instant>) -> bool {
        while !self.notified.load(Ordering::Relaxed) {
            if !blocking::park(deadline) {
                return self.notified.load(Ordering::Relaxed);
            }
        }
        true
    }
}

/// The waiters of one side of a channel (its blocked senders, or its
/// blocked receivers).
pub(crate) struct Waiters {
    /// [`WAITING`] while `list` is not empty, [`CLOSED`] once the other
    /// side is gone: written only under the lock, read without it by every
    /// operation of the other side. Its stores need no ordering of their
    /// own: the `fence(SeqCst)` of the re-try (or drain) that follows them
    /// carries them (see the module docs).
    flags: AtomicUsize,
    list: Mutex<VecDeque<Arc<Waiter>>>,
    /// Whether this side's last blocking wait parked for long.
    quiet: Quiet,
    /// The permits' barrier (`fill_barrier.rs`): moves only on the
    /// receivers' list, at the first permit's send; a registration or
    /// `close` runs its heavy half once it has.
    fill: FillBarrier,
}

impl Waiters {
    /// A list whose permits' barrier never goes light (a senders' list,
    /// the closing watchers, a small channel's receivers).
    pub(crate) fn new() -> Self {
        Self::with_fill_barrier(false)
    }

    /// The receivers' list of a channel of `capacity`.
    pub(crate) fn for_receivers(capacity: usize) -> Self {
        Self::with_fill_barrier(capacity >= super::fill_barrier::LIGHT_FROM_CAPACITY)
    }

    fn with_fill_barrier(may_flip: bool) -> Self {
        Waiters {
            flags: AtomicUsize::new(0),
            list: Mutex::new(VecDeque::new()),
            quiet: Quiet::new(),
            fill: FillBarrier::new(may_flip),
        }
    }

    fn lock(&self) -> impl core::ops::DerefMut<Target = VecDeque<Arc<Waiter>>> + '_ {
        // A panic never happens under this lock (only `VecDeque` calls), so
        // a poisoned lock is still consistent.
        self.list.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Puts `waiter` at the back of the list. The caller must re-try its
    /// operation afterwards, before it sleeps.
    pub(crate) fn register(&self, waiter: &Arc<Waiter>) {
        {
            let mut list = self.lock();
            list.push_back(Arc::clone(waiter));
            self.set_waiting(!list.is_empty());
        }
        // After the flag store, before the caller's re-try.
        self.fill.after_flag_store();
    }

    /// A permit's send, between its publishing store and its flag load
    /// (`notify_all_after_fence`): a fence, or a compiler fence once the
    /// receivers run the other half (`fill_barrier.rs`).
    #[inline(always)]
    pub(crate) fn after_fill(&self) {
        self.fill.after_fill();
    }

    /// Takes `waiter` off the list. Returns `false` when a notifier had
    /// already taken it off (it was notified).
    pub(crate) fn unregister(&self, waiter: &Arc<Waiter>) -> bool {
        let mut list = self.lock();
        let Some(at) = list.iter().position(|w| Arc::ptr_eq(w, waiter)) else {
            return false;
        };
        list.remove(at);
        self.set_waiting(!list.is_empty());
        true
    }

    /// A task's place on the list between its polls, taken off at the
    /// start of the next poll: notified or not, the next step is a try,
    /// which uses the notification.
    #[inline(always)]
    pub(crate) fn take_place(&self, place: &mut Option<Arc<Waiter>>) {
        if let Some(w) = place.take() {
            self.unregister(&w);
        }
    }

    /// One poll of a task's wait on this list, the parking phase of
    /// [`block_on`](Self::block_on) with the task's waker for the park:
    /// takes the task's `place` off the list ([`take_place`](Self::take_place)),
    /// tries (`attempt`: `Pending` while it must wait), registers, tries
    /// again (the re-try after the flag store, see the module docs), and
    /// keeps the place in `place` only when both tries failed. A place the
    /// re-try did not need is left with its notification passed on.
    ///
    /// Inlined into each future's poll, beside its try: called, the
    /// async `reserve` at 1P1C read 32 M items/s against 46–52 in the
    /// report's contender binary (2026-12-07, docs/goals-missed.md, "One
    /// poll step for the four futures").
    #[inline(always)]
    pub(crate) fn poll_wait<R>(
        &self,
        place: &mut Option<Arc<Waiter>>,
        cx: &mut TaskContext<'_>,
        mut attempt: impl FnMut() -> Poll<R>,
    ) -> Poll<R> {
        self.take_place(place);
        if let Poll::Ready(done) = attempt() {
            return Poll::Ready(done);
        }
        let w = Waiter::task(cx.waker());
        self.register(&w);
        if let Poll::Ready(done) = attempt() {
            self.leave(&w);
            return Poll::Ready(done);
        }
        *place = Some(w);
        Poll::Pending
    }

    /// Takes `waiter` off the list when it leaves without using a
    /// notification it may have had: passes that notification on.
    pub(crate) fn leave(&self, waiter: &Arc<Waiter>) {
        if !self.unregister(waiter) {
            self.notify_one_waiting();
        }
    }

    /// Passes on a notification that a select took from this list and did
    /// not use (`context.rs`).
    pub(crate) fn pass_on(&self) {
        self.notify_one_waiting();
    }

    /// Only under the lock (the flags' one writer at a time).
    fn set_waiting(&self, waiting: bool) {
        let flags = self.flags.load(Ordering::Relaxed);
        let flags = if waiting {
            flags | WAITING
        } else {
            flags & !WAITING
        };
        self.flags.store(flags, Ordering::Relaxed);
    }

    /// Wakes the oldest waiter, if any: called by every operation of the
    /// other side, right after its claim. Returns whether the other side
    /// is gone ([`CLOSED`]), in the same load.
    #[inline(always)]
    pub(crate) fn notify_one(&self) -> bool {
        let flags = load_after_claim(&self.flags);
        if flags & WAITING != 0 {
            self.notify_one_waiting();
        }
        flags & CLOSED != 0
    }

    /// As [`notify_one`](Self::notify_one), for a rendezvous channel's
    /// receive arm that a select registers (`zero.rs`): never picks an
    /// entry of the calling thread's own select, which would only wake
    /// itself (its send arm cannot meet its own receive arm) and, waking,
    /// register and notify itself again: a select with both arms on one
    /// rendezvous channel would spin instead of parking.
    pub(crate) fn notify_one_other(&self) {
        if load_after_claim(&self.flags) & WAITING == 0 {
            return;
        }
        let waiter = {
            let mut list = self.lock();
            let mut at = 0;
            let mut waiter = None;
            while at < list.len() {
                if list[at].is_select_of_current_thread() {
                    at += 1; // stays, for another thread's notification
                    continue;
                }
                let w = list.remove(at).expect("in bounds");
                if w.pick() {
                    w.notified.store(true, Ordering::Relaxed);
                    waiter = Some(w);
                    break;
                }
            }
            self.set_waiting(!list.is_empty());
            waiter
        };
        if let Some(waiter) = waiter {
            waiter.wake();
        }
    }

    /// Wakes every waiter, if any: for a caller that has just run a
    /// `fence(SeqCst)` after its store (a permit's publish or tombstone,
    /// `reserve.rs`), which orders this Relaxed load after that store as
    /// `load_after_claim` does after a claim. Returns whether the other
    /// side is gone ([`CLOSED`]).
    pub(crate) fn notify_all_after_fence(&self) -> bool {
        // Relaxed: ordered by the caller's fence (above).
        let flags = self.flags.load(Ordering::Relaxed);
        if flags & WAITING != 0 {
            self.wake_all(false);
        }
        flags & CLOSED != 0
    }

    /// [`notify_one`](Self::notify_one) for a batch of `count` items (or
    /// freed slots): the same one load after the batch's one claim, then up
    /// to `count` waiters woken, one per item, as `count` single
    /// operations would, taken off the list under one lock (a lock per
    /// wake made a batch receive slower than single ones:
    /// `benches/probes/flow_probe.rs`). A waiter that registers after the
    /// load re-tries after its flag store and sees the batch.
    #[inline]
    pub(crate) fn notify_many(&self, count: usize) -> bool {
        let flags = load_after_claim(&self.flags);
        if flags & WAITING != 0 {
            if count == 1 {
                self.notify_one_waiting();
            } else {
                self.notify_many_waiting(count);
            }
        }
        flags & CLOSED != 0
    }

    #[cold]
    #[inline(never)]
    fn notify_many_waiting(&self, count: usize) {
        let mut woken = Vec::new();
        {
            let mut list = self.lock();
            while woken.len() < count {
                let Some(w) = list.pop_front() else { break };
                // As in `notify_one_waiting`: a select picked elsewhere
                // takes nothing.
                if w.pick() {
                    w.notified.store(true, Ordering::Relaxed);
                    woken.push(w);
                }
            }
            self.set_waiting(!list.is_empty());
        }
        for waiter in woken {
            waiter.wake();
        }
    }

    #[cold]
    #[inline(never)]
    fn notify_one_waiting(&self) {
        let waiter = {
            let mut list = self.lock();
            // A select that another list picked first takes nothing: the
            // notification goes on to the next waiter (`context.rs`).
            let mut waiter = list.pop_front();
            while waiter.as_ref().is_some_and(|w| !w.pick()) {
                waiter = list.pop_front();
            }
            self.set_waiting(!list.is_empty());
            if let Some(w) = &waiter {
                // Under the lock: the waiter's `unregister` then sees both
                // its absence and the flag.
                w.notified.store(true, Ordering::Relaxed);
            }
            waiter
        };
        if let Some(waiter) = waiter {
            waiter.wake();
        }
    }

    /// Sets [`CLOSED`] and wakes every waiter (a disconnection). Always
    /// takes the lock, so a waiter that registers after this has run sees
    /// what preceded it.
    pub(crate) fn close(&self) {
        self.wake_all(true);
        // After the `CLOSED` store, before the caller's drain.
        self.fill.after_flag_store();
    }

    /// Wakes every waiter without marking the list [`CLOSED`]
    /// (`Receiver::close` waking the blocked receivers, who stay and
    /// drain: see `close.rs`).
    pub(crate) fn notify_all(&self) {
        self.wake_all(false);
    }

    /// Empties the list and wakes every waiter on it, marking the list
    /// [`CLOSED`] when `mark_closed` (else only clearing [`WAITING`]).
    fn wake_all(&self, mark_closed: bool) {
        let waiters: VecDeque<_> = {
            let mut list = self.lock();
            if mark_closed {
                self.flags.store(CLOSED, Ordering::Relaxed);
            } else {
                self.set_waiting(false);
            }
            let mut all = core::mem::take(&mut *list);
            // A select already picked by another list is awake anyway; one
            // picked here tries this list's operation.
            all.retain(|w| w.pick());
            for w in &all {
                w.notified.store(true, Ordering::Relaxed);
            }
            all
        };
        for waiter in waiters {
            waiter.wake();
        }
    }

    /// Runs `attempt` until it returns `Some`, parking between tries, or
    /// until `deadline` passes (then `None`, after one last try).
    ///
    /// First a spin phase ([`SpinFirst`]: spin hints, then yields for up
    /// to 20 µs; no registration): between two of its tries `worth_trying` says whether
    /// another try is worth what it costs the other side (a sender waits
    /// for room well ahead, see `Sender::send_waiting`). It is a hint only:
    /// when the phase runs out without it, the parking phase tries anyway,
    /// so it can delay a try by the phase's length (20 µs at most), never
    /// block one.
    ///
    /// The spin has no yields when this side's last wait parked for long
    /// ([`Quiet`]); each wait records how long its last park lasted.
    pub(crate) fn block_on<R>(
        &self,
        deadline: Option<Instant>,
        attempt: impl FnMut() -> Option<R>,
        worth_trying: impl Fn() -> bool,
    ) -> Option<R> {
        let mut parked_for = None;
        let done = self.wait(deadline, attempt, worth_trying, &mut parked_for);
        self.quiet.set(parked_for);
        done
    }

    /// [`block_on`](Self::block_on)'s wait; sets `parked_for` to how long
    /// its last park lasted.
    fn wait<R>(
        &self,
        deadline: Option<Instant>,
        mut attempt: impl FnMut() -> Option<R>,
        worth_trying: impl Fn() -> bool,
        parked_for: &mut Option<core::time::Duration>,
    ) -> Option<R> {
        let mut spin = SpinFirst::new(self.quiet.get(), deadline);
        'spin: loop {
            if let Some(done) = attempt() {
                return Some(done);
            }
            loop {
                if !spin.wait() {
                    break 'spin;
                }
                if worth_trying() {
                    break;
                }
            }
        }
        loop {
            if blocking::passed(deadline) {
                // The last try: the spin phase may have ended at the
                // deadline while `worth_trying` held a try back.
                return attempt();
            }
            let waiter = Waiter::thread();
            self.register(&waiter);
            // The re-try after the flag store (see the module docs).
            if let Some(done) = attempt() {
                self.leave(&waiter);
                return Some(done);
            }
            let parked_at = Instant::now();
            let in_time = waiter.park(deadline);
            *parked_for = Some(parked_at.elapsed());
            // Notified or not, the next step is a try: a notification is
            // used by it.
            self.unregister(&waiter);
            if let Some(done) = attempt() {
                return Some(done);
            }
            if !in_time {
                return None;
            }
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::Waiters;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::thread;
    use std::time::{Duration, Instant};

    /// A wait that parks for long makes its side quiet (the next wait's
    /// spin has no yields); a wait that ends without a long park clears
    /// it again.
    #[test]
    // Under miri the clock is virtual (isolation), and there the park read
    // under 200 µs (2026-12-04): the test is about time, the state machine
    // it drives is the same code everywhere.
    #[cfg_attr(miri, ignore = "timing: miri's isolated clock")]
    fn a_long_park_makes_the_side_quiet_and_a_quick_hand_off_undoes_it() {
        let waiters = Waiters::new();
        assert!(!waiters.quiet.get());
        let (ready, done) = (AtomicBool::new(false), AtomicBool::new(false));
        thread::scope(|s| {
            s.spawn(|| {
                // Well past `QUIET` (200 µs): the waiter is parked by then.
                thread::sleep(Duration::from_millis(20));
                ready.store(true, Ordering::Relaxed);
                // Until the waiter is back: this test's `attempt` is not a
                // queue operation, so it lacks the fence the wake-up
                // protocol pairs with; repeating the notification makes up
                // for it.
                while !done.load(Ordering::Relaxed) {
                    waiters.notify_one();
                    thread::sleep(Duration::from_millis(1));
                }
            });
            let deadline = Instant::now() + Duration::from_secs(30);
            let got = waiters.block_on(
                Some(deadline),
                || ready.load(Ordering::Relaxed).then_some(()),
                || true,
            );
            done.store(true, Ordering::Relaxed);
            assert_eq!(got, Some(()), "not woken within 30 s");
        });
        assert!(waiters.quiet.get(), "a 20 ms park");
        // A wait whose third try succeeds: within the spin, no park.
        let mut tries = 0;
        let got = waiters.block_on(
            None,
            || {
                tries += 1;
                (tries >= 3).then_some(())
            },
            || true,
        );
        assert_eq!(got, Some(()));
        assert!(!waiters.quiet.get(), "a hand-off within the spin");
    }

    /// A wait whose deadline passes while `worth_trying` holds its tries
    /// back still tries once at the deadline: what it waited for may be
    /// there (a batch receive holding out for a whole batch, a sender for
    /// half a ring of room), and a timed call must not time out past it.
    #[test]
    fn a_wait_held_back_by_its_hint_tries_once_more_at_the_deadline() {
        let waiters = Waiters::new();
        let mut tries = 0;
        let got = waiters.block_on(
            Some(Instant::now()),
            || {
                tries += 1;
                // Fails only the first try, the one before the spin.
                (tries >= 2).then_some(())
            },
            || false,
        );
        assert_eq!(got, Some(()), "timed out without a last try");
        assert_eq!(tries, 2);
    }
}
