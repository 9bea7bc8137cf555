//! Each workload a contender binary serves, as the suites call it: in
//! the contender's own binary once [`configure`](super::configure)d,
//! else in this process.

use super::request::Request;
use super::runner::{enabled, run};
use crate::async_channels::flow::{self, AsyncFlow, Calls};
use crate::async_channels::{self, AsyncChan};
use crate::channel::{Channel, Shared, TryChannel};
use crate::results::Measured;
use crate::sequenced::{self, Ring, Topology};
use crate::waiting::asynchronous::{self, AsyncChannel};
use crate::waiting::wake;
use crate::workloads::regime::{self, Regime};
use crate::workloads::select::{self, Shape};
use crate::workloads::spsc::{self, Ops};
use crate::workloads::{mpmc, round_trip};

/// SPSC throughput of `C` (`workloads::spsc`), in its own binary once
/// [`configure`](super::configure)d, else in this one.
pub fn spsc<C: Channel>(items: u64, capacity: usize, ops: Ops) -> f64 {
    match enabled() {
        true => {
            run(
                C::NAME,
                Request::Spsc {
                    capacity,
                    ops,
                    items,
                },
            )
            .figure
        }
        false => spsc::throughput::<C>(items, capacity, ops),
    }
}

/// MPMC throughput of `C` (`workloads::mpmc`), as [`spsc`](fn@spsc).
pub fn mpmc<C: Shared>(producers: u64, consumers: u64, items: u64, capacity: usize) -> f64 {
    match enabled() {
        true => {
            run(
                C::NAME,
                Request::Mpmc {
                    producers,
                    consumers,
                    capacity,
                    items,
                },
            )
            .figure
        }
        false => mpmc::throughput::<C>(producers, consumers, items, capacity),
    }
}

/// Throughput of `C` with one consumer (`workloads::mpmc`), as [`spsc`](fn@spsc).
pub fn mpsc<C: Channel<Tx: Clone>>(producers: u64, items: u64, capacity: usize) -> f64 {
    match enabled() {
        true => {
            run(
                C::NAME,
                Request::Mpsc {
                    producers,
                    capacity,
                    items,
                },
            )
            .figure
        }
        false => mpmc::throughput_mpsc::<C>(producers, items, capacity),
    }
}

/// `wakes` timed wake-ups of `C` (`waiting::wake::wake_up_latency`), as
/// [`spsc`](fn@spsc): the median and the histogram.
pub fn wake_up_latency<C: Channel>(wakes: u64) -> Measured {
    match enabled() {
        true => run(C::NAME, Request::Wake { wakes }),
        false => wake::wake_up_latency::<C>(wakes),
    }
}

/// The CPU a blocked consumer of `C` uses (`waiting::wake::idle_cpu`), as
/// [`spsc`](fn@spsc); `items` is ignored.
pub fn idle_cpu<C: Channel>(items: u64) -> Measured {
    match enabled() {
        true => run(C::NAME, Request::Idle),
        false => wake::idle_cpu::<C>(items),
    }
}

/// One select round of the contender called `name` (`workloads::select`),
/// as [`spsc`](fn@spsc).
pub fn select(name: &str, shape: Shape, items: u64) -> f64 {
    match enabled() {
        true => run(name, Request::Select { shape, items }).figure,
        false => select::throughput(name, shape, items),
    }
}

/// `trips` timed round trips of `C` over two queues of `capacity`
/// (`workloads::round_trip`), as [`spsc`](fn@spsc): the median and the histogram.
pub fn round_trip<C: Channel>(trips: u64, capacity: usize) -> Measured {
    match enabled() {
        true => run(C::NAME, Request::Trip { capacity, trips }),
        false => round_trip::round_trip::<C>(trips, capacity),
    }
}

/// One regime-grid cell of `C` (`workloads::regime`), as [`spsc`](fn@spsc).
pub fn regime<C: TryChannel>(items: u64, r: Regime) -> f64 {
    match enabled() {
        true => run(C::NAME, Request::Regime { regime: r, items }).figure,
        false => regime::throughput::<C>(items, r),
    }
}

/// The ceiling of regime-grid cell `r` (`workloads::regime::alone`), in
/// the binary of `C`, whose queue it does not use, as [`spsc`](fn@spsc).
pub fn alone<C: TryChannel>(items: u64, r: Regime) -> f64 {
    match enabled() {
        true => run(C::NAME, Request::Alone { regime: r, items }).figure,
        false => regime::alone(items, r),
    }
}

/// Async throughput of `A` on a 2-worker tokio runtime
/// (`waiting::asynchronous`), as [`spsc`](fn@spsc).
pub fn asynchronous<A: AsyncChannel>(items: u64, capacity: usize) -> f64 {
    match enabled() {
        true => run(A::NAME, Request::Async { capacity, items }).figure,
        false => asynchronous::throughput::<A>(items, capacity),
    }
}

/// One disruptor-suite run of `R` (`sequenced::throughput`), as
/// [`spsc`](fn@spsc).
pub fn topology<R: Ring>(topology: Topology, events: u64, size: usize) -> f64 {
    match enabled() {
        true => {
            let request = Request::Topology {
                topology,
                events,
                size,
            };
            run(R::NAME, request).figure
        }
        false => sequenced::throughput::<R>(topology, events, size),
    }
}

/// One run of the `channels` suite's async tasks over `C`, its single
/// calls (`async_channels::throughput`), as [`spsc`](fn@spsc).
pub fn tasks<C: AsyncChan>(producers: u64, consumers: u64, items: u64) -> f64 {
    match enabled() {
        true => {
            let request = Request::Tasks {
                producers,
                consumers,
                items,
                calls: Calls::Single,
            };
            run(C::NAME, request).figure
        }
        false => async_channels::throughput::<C>(producers, consumers, items),
    }
}

/// As [`tasks`], the tasks calling `C` as `calls` (`async_channels::flow`).
pub fn flow<C: AsyncFlow>(producers: u64, consumers: u64, items: u64, calls: Calls) -> f64 {
    match enabled() {
        true => {
            let request = Request::Tasks {
                producers,
                consumers,
                items,
                calls,
            };
            run(C::NAME, request).figure
        }
        false => flow::throughput::<C>(producers, consumers, items, calls),
    }
}
