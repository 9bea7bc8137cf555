//! hotq-benches: the comparative benchmark report (`cargo run --release -p
//! hotq-benches`) and what the criterion benches and the probes share
//! with it.
//!
//! The modules import one way, from the top of this list down (the test
//! `tests/import_graph.rs` fails on any circle):
//!
//! - the report ([`report`]): statistics, verdicts, Markdown, JSON and
//!   SVG, read off the [`results`] alone (and the goals off the names the
//!   suites give their workloads and contenders);
//! - the suites ([`suites`]): which workloads run, with which contenders
//!   and sizes, as the command line ([`cli`]) asks;
//! - the instruction counts of the try paths ([`instructions`], callgrind
//!   on the report's own binary);
//! - every contender's runs in a binary of its own ([`isolated`]): the
//!   throughput, regime-grid, round-trip, select, wake-up and idle rows;
//! - the round scheduler ([`rounds`]): interleaved rounds under one time
//!   budget, with the load of other processes and the machine's mode
//!   beside each figure, and the [`progress`] shown meanwhile;
//! - the workloads, generic over a contender: [`workloads`] (SPSC, MPMC,
//!   round trip, the physical floor), [`sequenced`] (the disruptor
//!   topologies), [`async_channels`], [`waiting`] (blocking, async, wake-up);
//! - the contenders: [`channel`] (the trait an adapter implements),
//!   [`contenders`] (one adapter a file), and the adapters in the folders
//!   above;
//! - the bottom: [`results`] (what a run measured), [`wait`] (the one wait
//!   loop), [`pin`], [`load`], [`summary`], [`cpuinfo`], `counters`.

pub mod async_channels;
pub mod channel;
pub mod cli;
pub mod contenders;
#[cfg(target_os = "linux")]
pub mod counters;
pub mod cpuinfo;
pub mod instructions;
pub mod isolated;
pub mod load;
pub mod pin;
pub mod progress;
pub mod report;
pub mod results;
pub mod rounds;
pub mod sequenced;
pub mod suites;
pub mod summary;
pub mod wait;
pub mod waiting;
pub mod workloads;

pub use summary::Summary;
