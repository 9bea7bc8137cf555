//! The one line a report sends a contender binary for each run, and the
//! fingerprint both compare before the first.

use crate::async_channels::flow::Calls;
use crate::results::Measured;
use crate::sequenced::Topology;
use crate::workloads::regime::{Regime, WaitLoop};
use crate::workloads::round_trip;
use crate::workloads::select::Shape;
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
    /// CONSUMER_WORK single|batch:N ITEMS`, `WAIT` a [`WaitLoop::label`] (a
    /// contender with try calls only; with slice calls too for a batch).
    Regime {
        /// The cell.
        regime: Regime,
        /// Items in the run.
        items: u64,
    },
    /// `workloads::regime::alone`: `alone` and the rest of a regime
    /// request's words, the cell's ceiling (any contender's binary).
    Alone {
        /// The cell (only its work per item counts).
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
    /// `workloads::round_trip::round_trip`: `trip CAPACITY TRIPS`, answered
    /// with the median and the histogram (`answer`).
    Trip {
        /// Each of the two queues' capacity.
        capacity: usize,
        /// Timed trips.
        trips: u64,
    },
    /// `waiting::asynchronous::throughput`: `async CAPACITY ITEMS`, to an
    /// async contender's binary.
    Async {
        /// The queue's capacity.
        capacity: usize,
        /// Items in the run.
        items: u64,
    },
    /// `sequenced::throughput`: `topology NAME EVENTS SIZE`, `NAME` the
    /// first word of the topology's name (`unicast`, `diamond`, ...), to a
    /// disruptor suite contender's binary.
    Topology {
        /// Which of the five.
        topology: Topology,
        /// Events published in the run.
        events: u64,
        /// The ring's size.
        size: usize,
    },
    /// `async_channels::flow::throughput` (`async_channels::throughput`
    /// for `single`): `tasks PRODUCERS CONSUMERS ITEMS
    /// single|recv_many:LIMIT|reserve`, to a `channels` suite async
    /// contender's binary.
    Tasks {
        /// Producer tasks.
        producers: u64,
        /// Consumer tasks.
        consumers: u64,
        /// Items in the run.
        items: u64,
        /// How the tasks call the channel.
        calls: Calls,
    },
    /// `waiting::wake::wake_up_latency`: `wake WAKES`, answered with the
    /// median and the histogram, as a round trip.
    Wake {
        /// Timed wake-ups.
        wakes: u64,
    },
    /// `waiting::wake::idle_cpu`: `idle`.
    Idle,
    /// `workloads::hot_path::one`: `hot_path ROUNDS`, the try path's loop
    /// on one thread for callgrind to count (`instructions`), answered
    /// with the rounds.
    HotPath {
        /// Rounds of a full fill and drain.
        rounds: u64,
    },
    /// `workloads::select`: `select SHAPE ITEMS`, `SHAPE` a
    /// [`Shape::label`] (a channel with a select of its own).
    Select {
        /// Which shape.
        shape: Shape,
        /// Items in the run.
        items: u64,
    },
    /// `workloads::mpmc::throughput_mpsc`: `mpsc PRODUCERS CAPACITY ITEMS`
    /// (a contender whose sender alone can be cloned).
    Mpsc {
        /// Producer threads.
        producers: u64,
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
                ops,
                items,
            } => format!("spsc {capacity} {} {items}", ops_word(ops)),
            Request::Mpmc {
                producers,
                consumers,
                capacity,
                items,
            } => format!("mpmc {producers} {consumers} {capacity} {items}"),
            Request::Mpsc {
                producers,
                capacity,
                items,
            } => format!("mpsc {producers} {capacity} {items}"),
            Request::Trip { capacity, trips } => format!("trip {capacity} {trips}"),
            Request::Select { shape, items } => format!("select {} {items}", shape.label()),
            Request::Wake { wakes } => format!("wake {wakes}"),
            Request::Idle => "idle".to_string(),
            Request::HotPath { rounds } => format!("hot_path {rounds}"),
            Request::Async { capacity, items } => format!("async {capacity} {items}"),
            Request::Tasks {
                producers,
                consumers,
                items,
                calls,
            } => {
                let calls = match calls {
                    Calls::Single => "single".to_string(),
                    Calls::RecvMany(limit) => format!("recv_many:{limit}"),
                    Calls::Reserve => "reserve".to_string(),
                };
                format!("tasks {producers} {consumers} {items} {calls}")
            }
            Request::Topology {
                topology,
                events,
                size,
            } => format!("topology {} {events} {size}", first_word(topology)),
            Request::Regime { regime: r, items } => format!("regime {}", cell_words(r, items)),
            Request::Alone { regime: r, items } => format!("alone {}", cell_words(r, items)),
        }
    }

    /// Reads a request line back.
    pub(crate) fn parse(line: &str) -> Result<Request, String> {
        let bad = || {
            format!(
                "a request is `spsc CAPACITY single|batch:N ITEMS`, `mpmc PRODUCERS CONSUMERS CAPACITY ITEMS`, `mpsc PRODUCERS CAPACITY ITEMS`, `trip CAPACITY TRIPS`, `async CAPACITY ITEMS`, `topology NAME EVENTS SIZE`, `tasks PRODUCERS CONSUMERS ITEMS CALLS`, `select data+control|four ITEMS`, `wake WAKES`, `idle`, `hot_path ROUNDS` or `regime CAPACITY WAIT PRODUCER_WORK CONSUMER_WORK single|batch:N ITEMS`, not `{line}`"
            )
        };
        let n = |s: &str| s.parse::<u64>().map_err(|_| bad());
        let ops = |s: &str| match s {
            "single" => Ok(Ops::Single),
            o => o
                .strip_prefix("batch:")
                .and_then(|b| b.parse().ok())
                .map(Ops::Batch)
                .ok_or_else(bad),
        };
        let f: Vec<&str> = line.split_whitespace().collect();
        match f[..] {
            ["spsc", capacity, o, items] => Ok(Request::Spsc {
                capacity: n(capacity)? as usize,
                ops: ops(o)?,
                items: n(items)?,
            }),
            ["mpmc", producers, consumers, capacity, items] => Ok(Request::Mpmc {
                producers: n(producers)?,
                consumers: n(consumers)?,
                capacity: n(capacity)? as usize,
                items: n(items)?,
            }),
            ["topology", name, events, size] => Ok(Request::Topology {
                topology: *Topology::ALL
                    .iter()
                    .find(|&&t| first_word(t) == name)
                    .ok_or_else(bad)?,
                events: n(events)?,
                size: n(size)? as usize,
            }),
            ["tasks", producers, consumers, items, calls] => Ok(Request::Tasks {
                producers: n(producers)?,
                consumers: n(consumers)?,
                items: n(items)?,
                calls: match calls {
                    "single" => Calls::Single,
                    "reserve" => Calls::Reserve,
                    c => Calls::RecvMany(
                        c.strip_prefix("recv_many:")
                            .and_then(|l| l.parse().ok())
                            .ok_or_else(bad)?,
                    ),
                },
            }),
            ["async", capacity, items] => Ok(Request::Async {
                capacity: n(capacity)? as usize,
                items: n(items)?,
            }),
            ["wake", wakes] => Ok(Request::Wake { wakes: n(wakes)? }),
            ["idle"] => Ok(Request::Idle),
            ["hot_path", rounds] => Ok(Request::HotPath { rounds: n(rounds)? }),
            ["select", shape, items] => Ok(Request::Select {
                shape: *Shape::ALL
                    .iter()
                    .find(|s| s.label() == shape)
                    .ok_or_else(bad)?,
                items: n(items)?,
            }),
            ["trip", capacity, trips] => Ok(Request::Trip {
                capacity: n(capacity)? as usize,
                trips: n(trips)?,
            }),
            ["mpsc", producers, capacity, items] => Ok(Request::Mpsc {
                producers: n(producers)?,
                capacity: n(capacity)? as usize,
                items: n(items)?,
            }),
            [
                word @ ("regime" | "alone"),
                capacity,
                wait,
                producer_work,
                consumer_work,
                o,
                items,
            ] => {
                let regime = Regime {
                    producer_work: n(producer_work)? as u32,
                    consumer_work: n(consumer_work)? as u32,
                    wait: *WaitLoop::ALL
                        .iter()
                        .find(|w| w.label() == wait)
                        .ok_or_else(bad)?,
                    capacity: n(capacity)? as usize,
                    ops: ops(o)?,
                };
                let items = n(items)?;
                Ok(match word {
                    "regime" => Request::Regime { regime, items },
                    _ => Request::Alone { regime, items },
                })
            }
            _ => Err(bad()),
        }
    }
}

/// A regime cell's words in a request: `CAPACITY WAIT PRODUCER_WORK
/// CONSUMER_WORK single|batch:N ITEMS`.
fn cell_words(r: Regime, items: u64) -> String {
    format!(
        "{} {} {} {} {} {items}",
        r.capacity,
        r.wait.label(),
        r.producer_work,
        r.consumer_work,
        ops_word(r.ops)
    )
}

/// How items go in a request: `single` or `batch:N`.
fn ops_word(ops: Ops) -> String {
    match ops {
        Ops::Single => "single".into(),
        Ops::Batch(b) => format!("batch:{b}"),
    }
}

/// A topology's name in a request: the first word of its name.
fn first_word(t: Topology) -> &'static str {
    t.name()
        .split_whitespace()
        .next()
        .expect("a named topology")
}

/// The answer line of a run: the figure, then for a round trip each
/// recorded value of its histogram with its count (`VALUE:COUNT`, in the
/// histogram's order), so that the report's percentiles are the
/// contender's own.
pub(crate) fn answer(m: &Measured) -> String {
    let mut line = m.figure.to_string();
    for v in m.histogram.iter().flat_map(|h| h.iter_recorded()) {
        line.push_str(&format!(
            " {}:{}",
            v.value_iterated_to(),
            v.count_at_value()
        ));
    }
    line
}

/// Reads an [`answer`] line back; the histogram's bounds are the round
/// trip's ([`round_trip::histogram`]).
pub(crate) fn read_answer(line: &str) -> Option<Measured> {
    let mut fields = line.split_whitespace();
    let figure = fields.next()?.parse::<f64>().ok()?;
    let mut histogram = None;
    for pair in fields {
        let (value, count) = pair.split_once(':')?;
        let h = histogram.get_or_insert_with(round_trip::histogram);
        h.record_n(value.parse().ok()?, count.parse().ok()?).ok()?;
    }
    Some(Measured { figure, histogram })
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
            Request::Mpsc {
                producers: 8,
                capacity: 0,
                items: 11,
            },
            Request::Trip {
                capacity: 8,
                trips: 100,
            },
            Request::Select {
                shape: Shape::DataAndControl,
                items: 10,
            },
            Request::Wake { wakes: 5 },
            Request::Idle,
            Request::HotPath { rounds: 7 },
            Request::Select {
                shape: Shape::Four,
                items: 12,
            },
            Request::Async {
                capacity: 1024,
                items: 4,
            },
            Request::Topology {
                topology: Topology::Diamond,
                events: 6,
                size: 1024,
            },
            Request::Tasks {
                producers: 4,
                consumers: 1,
                items: 7,
                calls: Calls::RecvMany(16),
            },
            Request::Tasks {
                producers: 1,
                consumers: 1,
                items: 7,
                calls: Calls::Reserve,
            },
            Request::Regime {
                regime: Regime {
                    producer_work: 4,
                    consumer_work: 16,
                    wait: WaitLoop::SpinThenYield,
                    capacity: 64,
                    ops: Ops::Single,
                },
                items: 3,
            },
            Request::Regime {
                regime: Regime {
                    producer_work: 0,
                    consumer_work: 1,
                    wait: WaitLoop::Yield,
                    capacity: 1024,
                    ops: Ops::Batch(16),
                },
                items: 8,
            },
            Request::Alone {
                regime: Regime {
                    producer_work: 16,
                    consumer_work: 4,
                    wait: WaitLoop::Spin,
                    capacity: 65536,
                    ops: Ops::Single,
                },
                items: 9,
            },
        ] {
            assert_eq!(Request::parse(&r.line()), Ok(r));
        }
        for bad in [
            "spsc 1024 batch:x 5",
            "spsc 1024 single",
            "mpmc 1 1 8",
            "mpsc 1 1 8 9",
            "trip 8",
            "select five 100",
            "wake",
            "idle 5",
            "async 8 x",
            "topology star 5 1024",
            "tasks 1 1 5 recv_many",
            "regime 64 sometimes 0 0 single 5",
            "regime 64 spin 0 0 5",
            "regime 64 spin 0 0 batch:y 5",
            "alone 64 spin 0 0 single",
            "",
        ] {
            assert!(Request::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn an_answer_reads_back_with_its_histogram() {
        let plain = read_answer(&answer(&Measured::from(12.5))).unwrap();
        assert_eq!((plain.figure, plain.histogram.is_none()), (12.5, true));
        let mut h = round_trip::histogram();
        for ns in [90, 95, 95, 1200, 70_000] {
            h.record(ns).unwrap();
        }
        let sent = Measured {
            figure: 95.0,
            histogram: Some(h),
        };
        let back = read_answer(&answer(&sent)).unwrap();
        let (a, b) = (sent.histogram.unwrap(), back.histogram.unwrap());
        assert_eq!(back.figure, 95.0);
        assert_eq!(a.len(), b.len());
        for q in [0.0, 0.5, 0.9, 0.99, 1.0] {
            assert_eq!(a.value_at_quantile(q), b.value_at_quantile(q), "{q}");
        }
        assert!(read_answer("").is_none());
        assert!(read_answer("7 90").is_none());
    }
}
