//! The contenders and workloads of the `waiting` suite (`suites::waiting`):
//! queues whose ends sleep while they wait, blocking and async, against the
//! peers people use for that.
//!
//! - [`blocking`]: each end in its queue's blocking call; throughput at
//!   capacities 8 and 1024 and the blocking round trip (the SPSC suite's
//!   workloads, reused).
//! - [`asynchronous`]: a producer and a consumer task on a tokio
//!   multi-thread runtime with 2 workers.
//! - [`wake`]: the wake-up latency of a parked consumer, and the CPU it
//!   uses while blocked.

pub mod asynchronous;
pub mod blocking;
pub mod wake;
