//! Which workloads the report runs, with which contenders and sizes: one
//! file per suite, each turning the workloads (`workloads`, `sequenced`,
//! `waiting`, `async_channels`) over the contenders into [`Pending`]
//! workloads for the round scheduler (`rounds`).

pub mod channels;
pub mod channels_async;
pub mod disruptor;
pub mod mpmc;
pub mod probe;
pub mod regimes;
pub mod sizes;
pub mod spsc;
pub mod waiting;
pub mod wake;

use crate::cli::{Options, Suite};
use crate::rounds::Pending;
use crate::sequenced;
use sizes::{BATCHES, CAPACITY, RING, SPSC_CAPACITIES, events, trips};

/// The run's parameters, for the header.
pub fn params(o: &Options) -> Vec<(String, String)> {
    let p = |k: &str, v: String| (k.to_string(), v);
    vec![
        p(
            "rounds per workload",
            match o.goal_rounds.filter(|&g| g != o.rounds) {
                Some(g) => format!("{} ({g} for the workloads that decide a goal)", o.rounds),
                None => o.rounds.to_string(),
            },
        ),
        p("time budget", o.budget_words()),
        p(
            "SPSC throughput",
            format!(
                "u64 items, up to {} per round, capacities {:?}, single items and batches of {:?}",
                o.items, SPSC_CAPACITIES, BATCHES
            ),
        ),
        p(
            "round trip",
            format!(
                "up to {} trips per round over two queues of {CAPACITY}, timer call included",
                trips(o.items)
            ),
        ),
        p(
            "MPMC throughput",
            format!(
                "up to {} u64 items per round, capacity {CAPACITY}, shapes 1P1C 2P2C 4P4C; every try-only queue waits with the report's one loop (spin {} tries, then yield on each), the channels in their own send/recv",
                o.items,
                crate::wait::SPINS
            ),
        ),
        p(
            "disruptor topologies",
            format!(
                "up to {} events per round, ring (and each channel) of {RING}; each disruptor busy-spinning and sleeping 10 µs per empty poll from the first (the `disruptor` crate's only strategy that gives the core away, and ours with `with_tries(0, 0)`), the row names say which; a topology with more threads than cores ({}) is decided by the two sleeping rows, else by the busy-spin rows",
                events(o.items),
                sequenced::cores()
            ),
        ),
        waiting::params(o),
        channels::params(o),
        channels_async::params(o),
    ]
}

/// Every selected workload, set up (run by [`crate::rounds::run`]).
pub fn run(o: &Options) -> Vec<Pending> {
    let mut out = Vec::new();
    if o.runs(Suite::Spsc) {
        spsc::suite(o, &mut out);
    }
    if o.runs(Suite::Mpmc) {
        mpmc::suite(o, &mut out);
    }
    if o.runs(Suite::Disruptor) {
        disruptor::suite(o, &mut out);
    }
    if o.runs(Suite::Waiting) {
        waiting::suite(o, &mut out);
    }
    if o.runs(Suite::Channels) {
        channels::suite(o, &mut out);
    }
    for grid in regimes::GRIDS {
        if o.runs(grid.selected_by) {
            regimes::suite(o, grid, &mut out);
        }
    }
    out
}
