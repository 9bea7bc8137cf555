//! The one line a report sends a contender binary for each run, and the
//! fingerprint both compare before the first.

use crate::workloads::regime::{Regime, WaitLoop};
use crate::workloads::spsc::Ops;

/// The fingerprint of this package's sources (`build.rs`): a contender
/// binary prints its own for `--source`, and [`check`](super::check)
/// compares the two.
pub const SOURCE: &str = env!("HOTQ_BENCHES_SOURCE");

/// One run, as the report asks a contender binary for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Request {
    /// `workloads::spsc::throughput`: `spsc CAPACITY single|batch:N ITEMS`.
    Spsc {
        /// The ring's capacity.
        capacity: usize,
        /// One item or a batch per operation.
        ops: Ops,
        /// Items in the run.
        items: u64,
    },
    /// `workloads::regime::throughput`: `regime CAPACITY WAIT PRODUCER_WORK
    /// CONSUMER_WORK ITEMS`, `WAIT` a [`WaitLoop::label`] (a contender with
    /// try calls only).
    Regime {
        /// The cell.
        regime: Regime,
        /// Items in the run.
        items: u64,
    },
    /// `workloads::mpmc::throughput`: `mpmc PRODUCERS CONSUMERS CAPACITY
    /// ITEMS` (a contender whose ends can be cloned only).
    Mpmc {
        /// Producer threads.
        producers: u64,
        /// Consumer threads.
        consumers: u64,
        /// The queue's capacity.
        capacity: usize,
        /// Items in the run.
        items: u64,
    },
}

impl Request {
    /// The request line (without its newline).
    pub(crate) fn line(&self) -> String {
        match *self {
            Request::Spsc {
                capacity,
                ops: Ops::Single,
                items,
            } => format!("spsc {capacity} single {items}"),
            Request::Spsc {
                capacity,
                ops: Ops::Batch(b),
                items,
            } => format!("spsc {capacity} batch:{b} {items}"),
            Request::Mpmc {
                producers,
                consumers,
                capacity,
                items,
            } => format!("mpmc {producers} {consumers} {capacity} {items}"),
            Request::Regime { regime: r, items } => format!(
                "regime {} {} {} {} {items}",
                r.capacity,
                r.wait.label(),
                r.producer_work,
                r.consumer_work
            ),
        }
    }

    /// Reads a request line back.
    pub(crate) fn parse(line: &str) -> Result<Request, String> {
        let bad = || {
            format!(
                "a request is `spsc CAPACITY single|batch:N ITEMS`, `mpmc PRODUCERS CONSUMERS CAPACITY ITEMS` or `regime CAPACITY WAIT PRODUCER_WORK CONSUMER_WORK ITEMS`, not `{line}`"
            )
        };
        let n = |s: &str| s.parse::<u64>().map_err(|_| bad());
        let f: Vec<&str> = line.split_whitespace().collect();
        match f[..] {
            ["spsc", capacity, ops, items] => Ok(Request::Spsc {
                capacity: n(capacity)? as usize,
                ops: match ops {
                    "single" => Ops::Single,
                    o => Ops::Batch(
                        o.strip_prefix("batch:")
                            .and_then(|b| b.parse().ok())
                            .ok_or_else(bad)?,
                    ),
                },
                items: n(items)?,
            }),
            ["mpmc", producers, consumers, capacity, items] => Ok(Request::Mpmc {
                producers: n(producers)?,
                consumers: n(consumers)?,
                capacity: n(capacity)? as usize,
                items: n(items)?,
            }),
            [
                "regime",
                capacity,
                wait,
                producer_work,
                consumer_work,
                items,
            ] => Ok(Request::Regime {
                regime: Regime {
                    producer_work: n(producer_work)? as u32,
                    consumer_work: n(consumer_work)? as u32,
                    wait: *WaitLoop::ALL
                        .iter()
                        .find(|w| w.label() == wait)
                        .ok_or_else(bad)?,
                    capacity: n(capacity)? as usize,
                },
                items: n(items)?,
            }),
            _ => Err(bad()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_reads_back_as_it_was_written() {
        for r in [
            Request::Spsc {
                capacity: 1024,
                ops: Ops::Single,
                items: 77,
            },
            Request::Spsc {
                capacity: 2,
                ops: Ops::Batch(16),
                items: 5,
            },
            Request::Mpmc {
                producers: 4,
                consumers: 2,
                capacity: 1024,
                items: 9,
            },
            Request::Regime {
                regime: Regime {
                    producer_work: 4,
                    consumer_work: 16,
                    wait: WaitLoop::SpinThenYield,
                    capacity: 64,
                },
                items: 3,
            },
        ] {
            assert_eq!(Request::parse(&r.line()), Ok(r));
        }
        for bad in [
            "spsc 1024 batch:x 5",
            "spsc 1024 single",
            "mpmc 1 1 8",
            "regime 64 sometimes 0 0 5",
            "",
        ] {
            assert!(Request::parse(bad).is_err(), "{bad}");
        }
    }
}
