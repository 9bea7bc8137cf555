//! The waiting layer: the threads and tasks blocked on one side of a
//! channel, kept apart from the queue (the queue never sees them).
//!
//! # The wake-up protocol
//!
//! A waiter puts itself on the list, stores `is_empty = false`, then tries
//! its operation once more; only if that fails does it sleep. The working
//! side does its operation, then loads `is_empty` ([`load_after_claim`]),
//! and takes the lock only when someone waits. The store→load order this
//! relies on is the classic one of two flags, here the queue's position and
//! `is_empty`:
//!
//! - sleeping side: store `is_empty = false` → `fence(SeqCst)` (in
//!   `Queue::pop`/`push`'s failure path, before it decides "empty"/"full")
//!   → load `tail`/`head`;
//! - working side: claim CAS on `tail`/`head` (`SeqCst`) → load `is_empty`
//!   (`SeqCst`).
//!
//! In the total order of `SeqCst` operations either the load comes after
//! the fence, and sees the waiter, or the fence comes after the claim, and
//! the re-try sees the item (or the free slot). So no wake-up is lost, and
//! with nobody waiting the working side pays one load of a line that
//! nobody writes: no lock, no allocation, no system call, no fence.
//!
//! A notification removes one waiter from the list (oldest first, so eight
//! blocked senders all make progress) and wakes it; the woken waiter always
//! tries its operation again before it gives up or sleeps again, so a
//! notification it does not use is one whose item (or slot) someone else
//! took. A waiter that leaves without trying after it was notified (a
//! dropped future, or one whose re-check succeeded with another item)
//! passes the notification on to the next waiter.

use alloc::collections::VecDeque;
use core::task::Waker;

use crate::sync::blocking::{
    self, Arc, AtomicBool, Instant, Mutex, Ordering, SpinFirst, Thread, load_after_claim,
};

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

    /// Unparks the thread or wakes the task; `notified` is already set.
    fn wake(&self) {
        match &self.wake {
            Wake::Thread(thread) => thread.unpark(),
            Wake::Task(waker) => waker.wake_by_ref(),
        }
    }

    /// Parks until notified or until `deadline`; `false` when the deadline
    /// passed first.
    fn park(&self, deadline: Option<Instant>) -> bool {
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
    /// Whether `list` is empty: written under the lock, read without it by
    /// every operation of the other side. Its `false` store needs no
    /// ordering of its own: the `fence(SeqCst)` of the re-try that follows
    /// it carries it (see the module docs).
    is_empty: AtomicBool,
    list: Mutex<VecDeque<Arc<Waiter>>>,
}

impl Waiters {
    pub(crate) fn new() -> Self {
        Waiters {
            is_empty: AtomicBool::new(true),
            list: Mutex::new(VecDeque::new()),
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
        let mut list = self.lock();
        list.push_back(Arc::clone(waiter));
        self.is_empty.store(false, Ordering::Relaxed);
    }

    /// Takes `waiter` off the list. Returns `false` when a notifier had
    /// already taken it off (it was notified).
    pub(crate) fn unregister(&self, waiter: &Arc<Waiter>) -> bool {
        let mut list = self.lock();
        let Some(at) = list.iter().position(|w| Arc::ptr_eq(w, waiter)) else {
            return false;
        };
        list.remove(at);
        self.is_empty.store(list.is_empty(), Ordering::Relaxed);
        true
    }

    /// Takes `waiter` off the list when it leaves without using a
    /// notification it may have had: passes that notification on.
    pub(crate) fn leave(&self, waiter: &Arc<Waiter>) {
        if !self.unregister(waiter) {
            self.notify_one_waiting();
        }
    }

    /// Wakes the oldest waiter, if any: called by every operation of the
    /// other side, right after its claim.
    #[inline(always)]
    pub(crate) fn notify_one(&self) {
        if !load_after_claim(&self.is_empty) {
            self.notify_one_waiting();
        }
    }

    #[cold]
    #[inline(never)]
    fn notify_one_waiting(&self) {
        let waiter = {
            let mut list = self.lock();
            let waiter = list.pop_front();
            self.is_empty.store(list.is_empty(), Ordering::Relaxed);
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

    /// Wakes every waiter (a disconnection). Always takes the lock, so a
    /// waiter that registers after this has run sees what preceded it.
    pub(crate) fn notify_all(&self) {
        let waiters: VecDeque<_> = {
            let mut list = self.lock();
            self.is_empty.store(true, Ordering::Relaxed);
            let all = core::mem::take(&mut *list);
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
    pub(crate) fn block_on<R>(
        &self,
        deadline: Option<Instant>,
        mut attempt: impl FnMut() -> Option<R>,
    ) -> Option<R> {
        let spin = SpinFirst::new();
        loop {
            if let Some(done) = attempt() {
                return Some(done);
            }
            if !spin.wait() {
                break;
            }
        }
        loop {
            if blocking::passed(deadline) {
                return None;
            }
            let waiter = Waiter::thread();
            self.register(&waiter);
            // The re-try after the flag store (see the module docs).
            if let Some(done) = attempt() {
                self.leave(&waiter);
                return Some(done);
            }
            let in_time = waiter.park(deadline);
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
