//! The `main` of a contender binary: runs what each request line asks of
//! its one contender and answers with the figure (and a round trip's
//! histogram).

use std::io::{BufRead, Write};

use super::request::{self, Request, SOURCE};
use crate::async_channels::flow::{self, AsyncFlow, Calls};
use crate::async_channels::{self, AsyncChan};
use crate::channel::{Channel, Shared, TryChannel};
use crate::pin;
use crate::results::Measured;
use crate::sequenced::{self, Ring};
use crate::waiting::asynchronous::{self, AsyncChannel};
use crate::waiting::wake;
use crate::workloads::spsc::{self, Ops};
use crate::workloads::{hot_path, mpmc, regime, round_trip, select};

/// The `main` of contender `C`'s binary: answers request lines on stdin
/// until it closes. `--no-pin` leaves its threads to the scheduler. Only
/// SPSC and round-trip requests are served: `C`'s ends cannot be cloned,
/// and it has no try calls of its own.
pub fn serve<C: Channel>() {
    answer(C::NAME, every::<C>)
}

/// [`serve`] for a ring with try calls of its own: regime runs too (a
/// batch regime panics, saying so, where it has no slice calls:
/// `regime::throughput`).
pub fn serve_try<C: TryChannel>() {
    answer(C::NAME, |request| match request {
        Request::Regime { regime: r, items } => Ok(regime::throughput::<C>(items, r).into()),
        other => every::<C>(other),
    })
}

/// [`serve_shared`] for a queue with try calls of its own: regime runs
/// too.
pub fn serve_shared_try<C: Shared + TryChannel>() {
    answer(C::NAME, |request| match request {
        Request::Regime { regime: r, items } => Ok(regime::throughput::<C>(items, r).into()),
        other => shared::<C>(other),
    })
}

/// [`serve_shared`] for a channel with a select of its own: select runs
/// too, each `round` (`workloads::select`, this crate's round alone).
pub fn serve_shared_select<C: Shared>(round: select::Round) {
    answer(C::NAME, |request| match request {
        Request::Select { shape, items } => Ok(round(shape, items).into()),
        other => shared::<C>(other),
    })
}

/// [`serve`] for a channel whose sender alone can be cloned: runs with
/// several producers and one consumer too.
pub fn serve_mpsc<C: Channel<Tx: Clone>>() {
    answer(C::NAME, |request| match request {
        Request::Mpsc {
            producers,
            capacity,
            items,
        } => Ok(mpmc::throughput_mpsc::<C>(producers, items, capacity).into()),
        other => every::<C>(other),
    })
}

/// [`serve`] for a contender whose ends can be cloned: MPSC and MPMC runs
/// too.
pub fn serve_shared<C: Shared>() {
    answer(C::NAME, shared::<C>)
}

/// What [`serve_shared`] answers.
fn shared<C: Shared>(request: Request) -> Result<Measured, String> {
    match request {
        Request::Mpmc {
            producers,
            consumers,
            capacity,
            items,
        } => Ok(mpmc::throughput::<C>(producers, consumers, items, capacity).into()),
        Request::Mpsc {
            producers,
            capacity,
            items,
        } => Ok(mpmc::throughput_mpsc::<C>(producers, items, capacity).into()),
        other => every::<C>(other),
    }
}

/// The runs every contender serves, SPSC throughput, the round trip,
/// the wake-up and idle rows and a regime cell's ceiling (no queue);
/// the others are refused, saying what `C` lacks for them.
fn every<C: Channel>(request: Request) -> Result<Measured, String> {
    match request {
        Request::Spsc {
            ops: Ops::Batch(_), ..
        } if !C::SLICES => Err("it has no slice operations: no batch runs".into()),
        Request::Spsc {
            capacity,
            ops,
            items,
        } => Ok(spsc::throughput::<C>(items, capacity, ops).into()),
        Request::Trip { capacity, trips } => Ok(round_trip::round_trip::<C>(trips, capacity)),
        Request::Wake { wakes } => Ok(wake::wake_up_latency::<C>(wakes)),
        Request::Idle => Ok(wake::idle_cpu::<C>(1)),
        Request::Alone { regime: r, items } => Ok(regime::alone(items, r).into()),
        Request::HotPath { rounds } => {
            hot_path::one::<C>(rounds, false);
            Ok((rounds as f64).into())
        }
        Request::Mpmc { .. } => Err("its receiver cannot be cloned: no MPMC runs".into()),
        Request::Mpsc { .. } => Err("its sender cannot be cloned: no MPSC runs".into()),
        Request::Regime { .. } => Err("it has no try calls of its own: no regime runs".into()),
        Request::Async { .. } => Err("it has no futures: no async runs".into()),
        Request::Topology { .. } => Err("it is no disruptor: no topology runs".into()),
        Request::Tasks { .. } => Err("its async tasks run in their own binary".into()),
        Request::Select { .. } => Err("it has no select of its own: no select runs".into()),
    }
}

/// The `main` of disruptor-suite contender `R`'s binary: topology runs
/// only.
pub fn serve_ring<R: Ring>() {
    answer(R::NAME, |request| match request {
        Request::Topology {
            topology,
            events,
            size,
        } => Ok(sequenced::throughput::<R>(topology, events, size).into()),
        _ => Err("a disruptor suite contender's binary runs topologies only".into()),
    })
}

/// The `main` of the `channels` suite's async contender `C`: its tasks
/// with single calls only (it has no flow-control rows).
pub fn serve_tasks<C: AsyncChan>() {
    answer(C::NAME, |request| match request {
        Request::Tasks {
            producers,
            consumers,
            items,
            calls: Calls::Single,
        } => Ok(async_channels::throughput::<C>(producers, consumers, items).into()),
        _ => Err("it runs the channels suite's async shapes only".into()),
    })
}

/// [`serve_tasks`] for a channel with flow-control rows: `recv_many`
/// and reserve-then-send too.
pub fn serve_flow<C: AsyncFlow>() {
    answer(C::NAME, |request| match request {
        Request::Tasks {
            producers,
            consumers,
            items,
            calls,
        } => Ok(flow::throughput::<C>(producers, consumers, items, calls).into()),
        _ => Err("it runs the channels suite's async rows only".into()),
    })
}

/// The `main` of async contender `A`'s binary: async runs only.
pub fn serve_async<A: AsyncChannel>() {
    answer(A::NAME, |request| match request {
        Request::Async { capacity, items } => {
            Ok(asynchronous::throughput::<A>(items, capacity).into())
        }
        _ => Err("an async contender's binary runs async requests only".into()),
    })
}

/// The request loop of every `serve` function; with `--source`, prints
/// [`SOURCE`] instead.
fn answer(name: &str, mut run: impl FnMut(Request) -> Result<Measured, String>) {
    if std::env::args().any(|a| a == "--source") {
        println!("{SOURCE}");
        return;
    }
    pin::configure(!std::env::args().any(|a| a == "--no-pin"));
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("the report's requests");
        let measured = Request::parse(&line)
            .and_then(&mut run)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        writeln!(out, "{}", request::answer(&measured))
            .and_then(|()| out.flush())
            .expect("the report reads the answers");
    }
}
