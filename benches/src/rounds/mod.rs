//! Interleaved rounds: every contender of a workload runs once per round,
//! in an order that rotates each round (A B C, B C A, …), so drift of the
//! machine hits all alike, and the load of other processes is recorded
//! beside each figure; the rounds of all workloads are interleaved too
//! ([`run()`]: round 1 of every workload, then round 2, …), so each
//! workload's rounds sample the machine over the whole run, not over the
//! few seconds a workload alone would last; and the one time budget all
//! workloads of a run share ([`Schedule`]); and the run's rounds spread
//! over fresh processes ([`processes`]), whose results come back as
//! [`raw`] JSON.

mod calibrate;
mod entry;
mod pending;
mod plan;
pub mod processes;
pub mod raw;
mod run;
mod schedule;

pub use entry::Entry;
pub use pending::{Pending, workload};
pub use plan::Plan;
pub use run::run;
pub use schedule::{CALIBRATION_RUNS, MAX_RUN, MIN_RUN, Schedule};
