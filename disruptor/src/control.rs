//! The control plane: halting, and the record of the first handler panic.
//! It travels apart from the data: a full ring or a blocked producer never
//! delays a halt, because every wait in the crate watches the halt flag.

use crossbeam_utils::CachePadded;

use crate::error::HandlerPanic;
use crate::sequence::Sequence;
use crate::sync::{AtomicBool, AtomicI64, Mutex, Ordering};
use crate::wait::Notifier;

pub(crate) struct Control {
    /// Set once, never cleared: by `halt()`, by a handler's panic under the
    /// default policy, or by the shutdown after its drain. Relaxed both
    /// ways: it is a flag that publishes nothing (the panic record has its
    /// own lock, and the wake-up of parked waiters goes through
    /// [`Notifier::signal`], whose fence orders this store before the
    /// waiter count is read).
    halted: CachePadded<AtomicBool>,
    /// The last event that will ever be published: `Sequence::MAX` while a
    /// producer handle lives, then the final cursor, set once by the last
    /// handle to go. A consumer past it is finished: a processor stops, a
    /// poller returns `Halted`. Relaxed both ways, as `halted`: it decides
    /// only to stop, never to touch an event (and a parked waiter is woken
    /// through [`Notifier::signal`] after the store).
    end: CachePadded<AtomicI64>,
    /// Where waiters of the `Blocking` and `PhasedBackoff` strategies park.
    pub(crate) notifier: Notifier,
    /// True if some consumer may park on `notifier`; then every advance of
    /// the cursor or of a consumer's sequence signals it. Fixed at build.
    signal_needed: bool,
    /// The first handler panic, reported by the shutdown.
    panic: Mutex<Option<HandlerPanic>>,
}

impl Control {
    pub(crate) fn new(signal_needed: bool) -> Self {
        Control {
            halted: CachePadded::new(AtomicBool::new(false)),
            end: CachePadded::new(AtomicI64::new(Sequence::MAX)),
            notifier: Notifier::new(),
            signal_needed,
            panic: Mutex::new(None),
        }
    }

    #[inline]
    pub(crate) fn is_halted(&self) -> bool {
        self.halted.load(Ordering::Relaxed)
    }

    /// Stops every processor at its next batch, makes every waiting or
    /// future publish return `Halted`, and wakes every parked waiter.
    pub(crate) fn halt(&self) {
        self.halted.store(true, Ordering::Relaxed);
        // Always signal, even without parking strategies: cheap, once. The
        // shutdown's drain relies on the fence in `signal` too (it acquires
        // for the drain's Relaxed loads of the leaves' sequences).
        self.notifier.signal();
    }

    /// No producer is left and `last` is the last event published: each
    /// consumer stops once it has handled it. Wakes every parked waiter.
    pub(crate) fn close(&self, last: Sequence) {
        self.end.store(last, Ordering::Relaxed);
        self.notifier.signal();
    }

    /// True if a consumer whose next event is `next` will never get it:
    /// halted, or past the last event published.
    #[inline]
    pub(crate) fn is_finished(&self, next: Sequence) -> bool {
        self.is_halted() || next > self.end.load(Ordering::Relaxed)
    }

    /// After a store that may let a parked waiter proceed (the cursor, an
    /// availability flag, a consumer's sequence): wakes the parked waiters,
    /// if any may exist.
    #[inline]
    pub(crate) fn progress(&self) {
        if self.signal_needed {
            self.notifier.signal();
        }
    }

    /// A consumer stopped (a processor's thread ends, a poller finds the
    /// stream finished or is dropped), after its last sequence store: wakes
    /// the shutdown's drain, which parks whatever the wait strategies are.
    /// Once per consumer, so it signals even where `progress` does not.
    pub(crate) fn stopped(&self) {
        self.notifier.signal();
    }

    /// Records `panic` if it is the first.
    pub(crate) fn record_panic(&self, panic: HandlerPanic) {
        let mut slot = self.panic.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(panic);
        }
    }

    /// The first panic recorded, if any.
    pub(crate) fn recorded_panic(&self) -> Option<HandlerPanic> {
        self.panic.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}
