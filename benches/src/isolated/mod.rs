//! Each contender's loops in a binary of its own (issue 37 §1): the
//! SPSC, MPMC, regime-grid and disruptor suites', the blocking and async
//! throughput rows of the `waiting` and `channels` suites, their wake-up
//! and idle rows, the selects, and the round trips. `hotq-contender-<name>` (`-async` for a future's
//! rows), built from `benches/contenders/`, links the one contender it
//! runs.
//!
//! Why: compiled into the report beside the others, a contender's loop
//! is inlined, split into codegen units and laid out according to what
//! else the binary holds, and its figure moved with edits to crates it
//! never calls (2026-12-05: one line in hotq-disruptor took ringbuf's
//! single items to 0.62 × and rtrb's to 0.76 ×). In a binary of its own
//! its code depends only on its own crate and the workload's loop, as it
//! would in a user's program that depends on it.
//!
//! How: the report process (or each worker of `rounds::processes`) starts
//! each binary at its first run and keeps it (`runner.rs`); each run is
//! one request line on the child's stdin ([`Request`]) answered by one
//! line, the figure (with a round trip's histogram). The suites call the
//! functions of `runs.rs`, which send the request once [`configure`]d and run
//! the workload in this process otherwise. A contender that fails its
//! checks panics in its child, whose stderr is the report's; the report
//! then stops as it does for a contender in-process. The children's CPU
//! time is the report's own for the load column
//! ([`load::adopt`](crate::load::adopt)). A contender binary built from
//! other sources than the report (a report binary run after an edit,
//! without cargo) is refused before any run ([`check`]).

mod binaries;
mod request;
mod runner;
mod runs;
mod serve;

pub use binaries::{
    async_binary, async_names, binary, check, names, ring_names, tasks_binary, tasks_names,
};
pub use request::{Request, SOURCE};
pub use runner::{configure, dir, enabled, run, stop_all};
pub use runs::{
    alone, asynchronous, flow, idle_cpu, mpmc, mpsc, regime, round_trip, select, spsc, tasks,
    topology, wake_up_latency,
};
pub use serve::{
    serve, serve_async, serve_flow, serve_mpsc, serve_ring, serve_shared, serve_shared_select,
    serve_shared_try, serve_tasks, serve_try,
};

/// The environment variable that names the folder of the contender
/// binaries, for a process that must not build them (a worker of the
/// report, or a test that cargo built them for).
pub const DIR_VAR: &str = "HOTQ_CONTENDER_DIR";
