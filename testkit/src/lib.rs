//! Test support shared by the hotq queue crates (a dev-dependency only,
//! never published).
//!
//! - [`deadline`]: waiting loops that fail as a hang instead of stalling
//!   the run ([`wait_for`], [`Patience`], [`with_watchdog`], [`TimeLimit`]),
//!   or fails only the hanging test ([`within`]).
//! - [`drops`]: an item type that counts its drops ([`DropCounter`],
//!   [`Counted`]), and can panic in `drop` on request.
//! - [`conservation`]: tagged items ([`Item`]) and the check that streams
//!   of them hold every item exactly once, in per-producer order.
//! - [`cpu`]: a thread's own CPU clock ([`thread_cpu_time`]), to show a
//!   blocked thread parks instead of spinning.
//! - [`mod@debug_field`]: a number from a value's `Debug`, for layouts that
//!   are not public API.
//! - [`gate`]: a start gate that releases threads together ([`StartGate`]).
//! - [`history`]: a recorder of concurrent calls (per-thread logs, one
//!   monotonic clock, merged after the run).
//! - [`lincheck`]: a Wing–Gong search with Lowe's memoisation that checks
//!   a recorded history against a sequential [`lincheck::Model`].
//! - [`fifo`]: that model for a bounded FIFO queue, covering every
//!   operation of `hotq-spsc` and `hotq-mpmc`.
//! - [`sequenced`]: that model for a disruptor ring with event pollers in
//!   stages, one and several producers (`hotq-disruptor`).
//! - [`rng`]: a small seeded generator, so a failing run replays.
//! - [`scale`]: counts that shrink under miri.
//! - [`task`]: [`block_on`], a minimal executor that parks between polls.

pub mod conservation;
pub mod cpu;
pub mod deadline;
pub mod debug_field;
pub mod drops;
pub mod fifo;
pub mod gate;
pub mod history;
pub mod lincheck;
pub mod rng;
pub mod scale;
pub mod sequenced;
pub mod task;

pub use conservation::{Item, assert_exactly_once_in_order};
pub use cpu::thread_cpu_time;
pub use deadline::{
    DEADLINE, Patience, TimeLimit, one_run_at_a_time, wait_for, wait_for_watching, with_watchdog,
};
pub use deadline::{bound, within, within_watching};
pub use debug_field::debug_field;
pub use drops::{Counted, DropCounter};
pub use gate::StartGate;
pub use rng::Rng;
pub use scale::scaled;
pub use task::block_on;
