//! The async channels of the `channels` suite (`suites::channels_async`):
//! the contenders ([`AsyncChan`], one adapter each) and their round, P
//! producer tasks and C consumer tasks on a tokio multi-thread runtime
//! with 2 workers, each channel waiting in its own `.await`s. As the
//! blocking workload
//! (`workloads::mpmc`): items tagged with their producer, checked in order
//! per producer and counted exactly once, stop markers from the last
//! producer, each task timing itself: its `item`, `Tally` and `Totals`.

mod adapters;
mod contender;
pub mod flow;
mod throughput;

pub use adapters::{AsyncChannelCrate, FlumeAsync, HotqMpmcAsync, KanalAsync, Thingbuf, TokioMpsc};
pub use contender::{AsyncChan, AsyncVisitor};
pub use throughput::{CAPACITY, WORKERS, throughput};

/// Every async contender, ours first.
pub fn each(v: &mut impl AsyncVisitor) {
    v.visit::<HotqMpmcAsync>();
    v.visit::<TokioMpsc>();
    v.visit::<AsyncChannelCrate>();
    v.visit::<FlumeAsync>();
    v.visit::<KanalAsync>();
    v.visit::<Thingbuf>();
}
