//! hotq-benches: the comparative benchmark report (`cargo run --release -p
//! hotq-benches`) and what the criterion benches share with it.
//!
//! - [`channel`]: the trait a contender's adapter implements; the adapters
//!   live in [`contenders`], one file each; [`sequenced`] has the disruptor
//!   suite's trait and adapters.
//! - [`workloads`]: the shapes of work, generic over a contender, and the
//!   physical floor ([`workloads::floor`]).
//! - [`rounds`]: interleaved rounds with the load of other processes.
//! - [`report`]: Markdown, JSON and SVG.

pub mod async_channels;
pub mod channel;
pub mod channels;
pub mod cli;
pub mod contenders;
#[cfg(target_os = "linux")]
pub mod counters;
pub mod load;
pub mod pin;
pub mod progress;
pub mod report;
pub mod rounds;
pub mod sequenced;
pub mod suites;
pub mod summary;
pub mod wait;
pub mod waiting;
pub mod workloads;

pub use summary::Summary;
