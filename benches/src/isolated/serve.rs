//! The `main` of a contender binary: runs what each request line asks of
//! its one contender and answers with the figure.

use std::io::{BufRead, Write};

use super::request::{Request, SOURCE};
use crate::channel::{Channel, Shared, TryChannel};
use crate::pin;
use crate::workloads::spsc::{self, Ops};
use crate::workloads::{mpmc, regime};

/// The `main` of contender `C`'s binary: answers request lines on stdin
/// until it closes. `--no-pin` leaves its threads to the scheduler. MPMC
/// and regime requests are refused: `C`'s ends cannot be cloned, and it
/// has no try calls of its own.
pub fn serve<C: Channel>() {
    answer(C::NAME, |request| match request {
        Request::Spsc {
            capacity,
            ops,
            items,
        } => spsc_run::<C>(items, capacity, ops),
        Request::Mpmc { .. } => Err(NOT_SHARED.into()),
        Request::Regime { .. } => Err(NO_TRY.into()),
    })
}

/// [`serve`] for a ring with try calls of its own: SPSC and regime runs.
pub fn serve_try<C: TryChannel>() {
    answer(C::NAME, |request| match request {
        Request::Spsc {
            capacity,
            ops,
            items,
        } => spsc_run::<C>(items, capacity, ops),
        Request::Regime { regime: r, items } => Ok(regime::throughput::<C>(items, r)),
        Request::Mpmc { .. } => Err(NOT_SHARED.into()),
    })
}

/// Why an MPMC request is refused.
const NOT_SHARED: &str = "its ends cannot be cloned: no MPMC runs";
/// Why a regime request is refused.
const NO_TRY: &str = "it has no try calls of its own: no regime runs";

/// [`serve`] for a contender whose ends can be cloned: SPSC and MPMC runs.
pub fn serve_shared<C: Shared>() {
    answer(C::NAME, |request| match request {
        Request::Spsc {
            capacity,
            ops,
            items,
        } => spsc_run::<C>(items, capacity, ops),
        Request::Mpmc {
            producers,
            consumers,
            capacity,
            items,
        } => Ok(mpmc::throughput::<C>(producers, consumers, items, capacity)),
        Request::Regime { .. } => Err(NO_TRY.into()),
    })
}

/// An SPSC run of `C`, refused for batches where `C` has no slice calls.
fn spsc_run<C: Channel>(items: u64, capacity: usize, ops: Ops) -> Result<f64, String> {
    match ops {
        Ops::Batch(_) if !C::SLICES => Err("it has no slice operations: no batch runs".into()),
        _ => Ok(spsc::throughput::<C>(items, capacity, ops)),
    }
}

/// The request loop of [`serve`] and [`serve_shared`]; with `--source`,
/// prints [`SOURCE`] instead.
fn answer(name: &str, mut run: impl FnMut(Request) -> Result<f64, String>) {
    if std::env::args().any(|a| a == "--source") {
        println!("{SOURCE}");
        return;
    }
    pin::configure(!std::env::args().any(|a| a == "--no-pin"));
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("the report's requests");
        let figure = Request::parse(&line)
            .and_then(&mut run)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        writeln!(out, "{figure}")
            .and_then(|()| out.flush())
            .expect("the report reads the answers");
    }
}
