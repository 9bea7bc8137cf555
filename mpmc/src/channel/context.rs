//! A select's wake-once token: one per blocking [`Select`](super::Select)
//! call, shared by the waiter entries it puts on every channel list it
//! waits on (one entry per operation).
//!
//! # The protocol
//!
//! A notifier of a list (`Waiters::notify_one_waiting`, `Waiters::close`)
//! pops the oldest entry under the list's lock and *picks* it: for a thread
//! or a task that always succeeds; for a select's entry it is a
//! compare-and-swap of `selected` from 0 to the entry's operation + 1. A
//! notifier whose CAS fails (another list's notifier picked the select
//! first) has popped an entry that wants nothing more: it pops the next
//! one, so the notification goes to another waiter of *its* list and is
//! never swallowed by a select that a different channel woke.
//!
//! The select takes every entry off its lists (each under that list's
//! lock) before it reads `selected`, so the value it reads is final: every
//! picking CAS happened under a lock it has taken since. It then owns one
//! notification, of the picked operation, and uses it by trying that
//! operation first; if it ends with a different operation (one that
//! became ready in its re-try, before it parked), it passes the picked
//! list's notification on (`Waiters::pass_on`). It resets `selected` to 0
//! only while no entry is on any list, before it registers again.
//!
//! No store→load pair here needs more than the lists' locks, so every
//! access of `selected` is `Relaxed`:
//!
//! - pick (CAS, under list L's lock) → the select's read after it took L's
//!   lock to unregister: the lock orders them;
//! - the select's reset (no entry on any list) → a notifier's CAS after the
//!   select registered again under that notifier's lock: the lock orders
//!   them;
//! - two notifiers of different lists race only on the CAS itself, and a
//!   read-modify-write is atomic whatever its ordering: exactly one wins.
//!
//! The lost wake-up between a select's registration and a notifier's
//! claim is the lists' own protocol (`waiters.rs`): the select stores its
//! flags (register), then re-tries every operation, and each try's failure
//! path runs the queue's `fence(SeqCst)` before it decides "empty" or
//! "full" (a `ready` re-check runs one of its own).

use crate::sync::AtomicUsize;
use crate::sync::blocking::{self, Arc, Instant, Ordering, Thread};

/// No operation picked yet.
const WAITING: usize = 0;

/// One blocking select call's token and thread.
pub(crate) struct Context {
    /// [`WAITING`], or the picked operation's position + 1.
    selected: AtomicUsize,
    thread: Thread,
}

impl Context {
    /// A token for the calling thread.
    pub(crate) fn new() -> Arc<Context> {
        Arc::new(Context {
            selected: AtomicUsize::new(WAITING),
            thread: blocking::current(),
        })
    }

    /// A notifier (under its list's lock) tries to take the token for the
    /// operation at `position`; `false` when another list's notifier took
    /// it first.
    pub(crate) fn pick(&self, position: usize) -> bool {
        // Relaxed: only the CAS's atomicity is needed (see the module docs).
        self.selected
            .compare_exchange(WAITING, position + 1, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    }

    /// Whether the select runs on the calling thread.
    pub(crate) fn is_current_thread(&self) -> bool {
        blocking::is_current(&self.thread)
    }

    /// Unparks the select's thread (after a successful [`pick`](Self::pick)).
    pub(crate) fn unpark(&self) {
        self.thread.unpark();
    }

    /// The picked operation's position. Final only once the select has
    /// taken every entry off its lists.
    pub(crate) fn selected(&self) -> Option<usize> {
        // Relaxed: read after the lists' locks (see the module docs); while
        // parked, a hint re-read after every wake-up.
        self.selected.load(Ordering::Relaxed).checked_sub(1)
    }

    /// Back to waiting; only while no entry is on any list.
    pub(crate) fn reset(&self) {
        // Relaxed: no notifier can reach the token now (see the module docs).
        self.selected.store(WAITING, Ordering::Relaxed);
    }

    /// Parks until picked or until `deadline`; `false` when the deadline
    /// passed first.
    pub(crate) fn park(&self, deadline: Option<Instant>) -> bool {
        while self.selected().is_none() {
            if !blocking::park(deadline) {
                return self.selected().is_some();
            }
        }
        true
    }
}
