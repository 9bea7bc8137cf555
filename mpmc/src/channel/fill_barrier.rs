//! The store→load barrier between a permit's send and a receiver going to
//! sleep, made asymmetric once a channel uses permits.
//!
//! # Why
//!
//! A receiver that reaches a held slot reads "empty for now" and may go to
//! sleep; the permit's send (`Shared::fill`, `reserve.rs`) must then wake
//! it. That is the two-flag protocol of `waiters.rs` with the slot's stamp
//! as the index: the receiver stores `WAITING` and then loads the stamp,
//! the permit stores the stamp and then loads `WAITING`. Symmetric, each
//! side runs a `fence(SeqCst)` between its store and its load. But the
//! permit's fence waits for its slot's cache line on every send: it made
//! reserve-then-send a third of a plain send's speed at 4 senders, 1
//! receiver on 2 cores (a build without it, unsound, ran 3× faster:
//! `benches/probes/flow_probe.rs`), where a plain send's only locked
//! instruction is its claim.
//!
//! # How
//!
//! As hotq-spsc's waiting layer does (Folly's asymmetric fences): the
//! permit's send keeps only its compiler order (a compiler fence), and the
//! side about to sleep, rare and about to make a system call anyway, runs
//! `membarrier` (`sync::membarrier`): a full barrier on every CPU that
//! runs a thread of this process, so every such thread's accesses are
//! split by one point. A permit's stamp store before that point is seen by
//! the sleeper's re-try after the call; a permit's `WAITING` load after it
//! sees the sleeper's store, made before the call.
//!
//! Only the receivers of a channel that has had a permit, and holds
//! [`LIGHT_FROM_CAPACITY`] items or more, pay the system call, at each
//! registration (and the last receiver's drain, which pairs
//! with a send's `CLOSED` load in the same way). [`FillBarrier`]'s `state` goes
//! `UNUSED → FLIPPING → LIGHT` once, at the first permit's send, which
//! runs the system call itself between the two stores, so that:
//!
//! - a receiver whose registration loaded `UNUSED` made its flag store
//!   before the flip's barrier point on its CPU (else its load, after
//!   that point, would have seen `FLIPPING`): the flip's caller sees it
//!   when the call returns, and hands it on with its Release store of
//!   `LIGHT` to every send that loads `LIGHT` (Acquire) before it loads
//!   the flag;
//! - a receiver that loads `FLIPPING` or `LIGHT` runs the system call
//!   itself;
//! - a send that loads anything but `LIGHT` runs the full fence, as
//!   before.
//!
//! Where `membarrier` is missing or cannot be used (loom, miri) the state
//! stays `UNUSED`: every send fences and no receiver makes the call, the
//! symmetric protocol, which is what loom checks.

use crate::sync::membarrier;
use crate::sync::{AtomicUsize, Ordering, fence};
use core::sync::atomic::compiler_fence;

/// No permit has sent yet (or the system call is missing): sends fence.
const UNUSED: usize = 0;
/// The first permit's send is running the system call: receivers make the
/// call too, sends still fence.
const FLIPPING: usize = 1;
/// Sends keep a compiler order only; receivers make the call.
const LIGHT: usize = 2;

/// The smallest capacity whose channel goes `LIGHT`. A small channel's
/// receivers sleep every few items (it is full, then empty, by turns), and
/// a system call at each sleep cost more than the fences it saves: 1P1C
/// async at capacity 8, reserve then send, fell from 7.1 to 2.7 M items/s
/// with it, where at capacity 1024 (a receiver sleeping once per ~66
/// items) it rose from 13.5 to 35 (`benches/probes/flow_probe.rs`).
/// hotq-spsc measures its waiter's pace instead and switches both ways;
/// switching a channel back from `LIGHT` needs each send to look at the
/// state again after its flag load, not done yet.
pub(crate) const LIGHT_FROM_CAPACITY: usize = 256;

/// One per channel, beside the receivers' waiting list.
pub(crate) struct FillBarrier {
    /// `UNUSED`, `FLIPPING` or `LIGHT`; moves forward only.
    state: AtomicUsize,
    /// Whether this channel may go `LIGHT` at all: a receivers' list of a
    /// channel of [`LIGHT_FROM_CAPACITY`] or more.
    may_flip: bool,
}

impl FillBarrier {
    /// `may_flip`: see the field.
    pub(crate) fn new(may_flip: bool) -> Self {
        FillBarrier {
            state: AtomicUsize::new(UNUSED),
            may_flip,
        }
    }

    /// A permit's send, between its publishing stamp store and its load of
    /// the receivers' flags.
    #[inline(always)]
    pub(crate) fn after_fill(&self) {
        // Acquire: pairs with the Release store of `LIGHT` in `flip`, which
        // follows the system call: every receiver flag stored before that
        // call's barrier point is seen by this send's flag load.
        if self.state.load(Ordering::Acquire) == LIGHT {
            // Pairs with the receivers' system call (see the module docs).
            compiler_fence(Ordering::SeqCst);
        } else {
            // SeqCst fence: the symmetric protocol, pairs with the fence of
            // `Queue::pop`'s held-slot branch (`Queue::still_held`) that a
            // receiver runs after its flag store and before it loads the
            // stamp again.
            fence(Ordering::SeqCst);
            self.flip();
        }
    }

    /// The first send on a channel where the system call works moves the
    /// state to `LIGHT` (see the module docs); every other call returns
    /// at once.
    #[cold]
    #[inline(never)]
    fn flip(&self) {
        // Relaxed: only one caller wins; what the receivers must see of it
        // is ordered by the system call below.
        if !self.may_flip
            || self.state.load(Ordering::Relaxed) != UNUSED
            || !membarrier::available()
            || self
                .state
                .compare_exchange(UNUSED, FLIPPING, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        membarrier::heavy();
        // Release: pairs with the Acquire load in `after_fill`; the flags
        // stored before the call's barrier point go with it.
        self.state.store(LIGHT, Ordering::Release);
    }

    /// A receiver after its `WAITING` (or the last receiver after its
    /// `CLOSED`) store, before it loads the queue again: the system call,
    /// once the channel's sends may be light.
    #[inline]
    pub(crate) fn after_flag_store(&self) {
        // Relaxed: a receiver that loads `UNUSED` is covered by the flip's
        // own system call (see the module docs).
        if self.state.load(Ordering::Relaxed) != UNUSED {
            membarrier::heavy();
        }
    }
}
