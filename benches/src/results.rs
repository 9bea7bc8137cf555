//! What a run measured, in the words every layer above the workloads
//! shares: a workload's [`Measured`] figure, and the rounds, rows and
//! workloads the scheduler (`rounds`) fills and the report reads.

use std::time::Duration;

use hdrhistogram::Histogram;

use crate::channel::Kind;

/// What one run of a contender measured.
pub struct Measured {
    /// Throughput in M items/s, or a round trip in ns.
    pub figure: f64,
    /// Every round trip of the run, for latency workloads.
    pub histogram: Option<Histogram<u64>>,
}

impl From<f64> for Measured {
    fn from(figure: f64) -> Self {
        Measured {
            figure,
            histogram: None,
        }
    }
}

/// One round of one contender.
#[derive(Debug, Clone)]
pub struct Round {
    /// Items (or trips, or events) the run moved.
    pub items: u64,
    /// The figure of the run.
    pub figure: f64,
    /// Cores' worth of CPU other processes used during it (`None`: unknown).
    pub others_load: Option<f64>,
    /// Median, p99 and p99.9 of the run's round trips (latency only).
    pub percentiles: Option<[f64; 3]>,
    /// Which of the report's processes ran it (0 for the first; see
    /// `processes`): rounds of one process share its build, its heap
    /// layout and its minutes of the machine, so the report's intervals
    /// resample processes as well as rounds.
    pub process: usize,
}

/// A contender's rounds.
#[derive(Debug)]
pub struct Row {
    /// The row name.
    pub name: String,
    /// Ours, peer, baseline or limit.
    pub kind: Kind,
    /// Items (or trips, or events) for the next run: the workload's number,
    /// or fewer for a contender so slow that a run would outlast the time
    /// budget (each round records what it ran).
    pub items: u64,
    /// One per round, in round order.
    pub rounds: Vec<Round>,
    /// Every round trip of every round (latency only).
    pub histogram: Option<Histogram<u64>>,
}

/// What the workload measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Throughput, higher is better.
    MItemsPerSec,
    /// Round-trip time, lower is better.
    Nanos,
}

impl Unit {
    /// How the tables write it.
    pub fn label(self) -> &'static str {
        match self {
            Unit::MItemsPerSec => "M items/s",
            Unit::Nanos => "ns",
        }
    }
    /// Whether a bigger figure is better.
    pub fn higher_is_better(self) -> bool {
        self == Unit::MItemsPerSec
    }
}

/// A workload's results.
#[derive(Debug)]
pub struct Workload {
    /// `spsc`, `latency`, `mpmc` or `disruptor`.
    pub suite: &'static str,
    /// A short name, unique in the report (also the plot's file name).
    pub name: String,
    /// The workload's parameters, in words.
    pub params: String,
    /// What the figures are.
    pub unit: Unit,
    /// One per contender.
    pub rows: Vec<Row>,
    /// The time each run was planned to last: its share of the run's
    /// budget, or the fixed budget per run without one.
    pub per_run: Duration,
    /// The two cores' distance just before each round (ns per round trip
    /// of one cache line, `workloads::floor::distance`): the machine's mode in that
    /// round. Empty where it was not measured (then the `limit` row's
    /// figures tell the mode).
    pub distance: Vec<f64>,
}
