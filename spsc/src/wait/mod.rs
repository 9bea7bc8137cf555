//! Waiting for the other half: blocking with deadlines, and futures.
//!
//! The try path knows nothing of this module but one call: after a half
//! publishes its index (and when it is dropped), it calls
//! [`WaitSlot::wake_if_waiting`] on the other half's slot, a load and a
//! branch when nobody waits. Everything else lives here:
//!
//! - `barrier`: the store→load barrier of the protocol, asymmetric
//!   (`membarrier`) where the system has it, `fence(SeqCst)` otherwise;
//! - `slot`: one direction's waker and its state machine;
//! - `blocking`: `push_timeout`, `pop_deadline`, `wait_slots`, ... (with
//!   `std`), which park the calling thread;
//! - `future`: `push_async` / `pop_async` and the `Stream` impl, which
//!   register the task's waker (its `poll_wait` also drives the stamped
//!   ring's futures, `stamped/future.rs`);
//! - `count_future`: `wait_slots_async` / `wait_items_async`, the same
//!   wait for `n` slots or items, moving nothing;
//! - `poll`: those waits as poll calls on the halves (`poll_slots`,
//!   `poll_items`, `clear_waker`), for a waiting layer of one's own.
//!
//! A wait is always the same three steps: check the condition (and return
//! at once if it holds: a wait that can succeed never registers), register
//! in the slot (heavy barrier included), check again; only then sleep. The
//! worker's check after its store and the waiter's check after its
//! registration are the two loads of the protocol.

pub(crate) mod barrier;
#[cfg(feature = "std")]
pub(crate) mod blocking;
mod count_future;
mod error;
pub(crate) mod future;
mod poll;
mod slot;

pub use count_future::{WaitItemsFuture, WaitSlotsFuture};
pub use error::{PopAsyncError, PopTimeoutError, PushAsyncError, PushTimeoutError, WaitError};
pub use future::{PopFuture, PushFuture};
pub(crate) use slot::WaitSlot;

use crossbeam_utils::CachePadded;

/// The two slots of a ring, each on cache lines of its own: the producer
/// loads `items`' state after every publish, the consumer `room`'s, and the
/// two must not share the lines (or the line pair the adjacent-line
/// prefetcher fetches together) whatever size a slot has. Packed together,
/// they fitted in one 128-byte block once `barrier::Pace` shrank, and
/// the try path ran at 0.89-0.93 x the layout where they did not
/// (`ab_spsc_try_path.sh`, 21 rounds, three runs; the slots padded back
/// to 256 bytes: 1.08 [1.04-1.17]).
pub(crate) struct Waiters {
    /// The consumer waits here for items; the producer wakes it.
    pub(crate) items: CachePadded<WaitSlot>,
    /// The producer waits here for room; the consumer wakes it.
    pub(crate) room: CachePadded<WaitSlot>,
}

impl Waiters {
    /// Both slots of a ring; `asymmetric` is what [`barrier::available`]
    /// said for it (false: fenced slots).
    pub(crate) fn new(asymmetric: bool) -> Self {
        Waiters {
            items: CachePadded::new(WaitSlot::new(asymmetric)),
            room: CachePadded::new(WaitSlot::new(asymmetric)),
        }
    }
}

/// What a wait's condition says when it is checked.
pub(crate) enum Check<R> {
    /// Satisfied: the value to return.
    Ready(R),
    /// Can never be satisfied: the other half is gone.
    Abandoned,
    /// Not yet: wait.
    Wait,
}
