//! The figures a table shows for each row, all computed per round and then
//! summarised: the contender's figure, the others' load, and its ratios to
//! the baseline, to the best peer and to the floor in the same round.

use super::bootstrap::{self, Interval};
use crate::channel::Kind;
use crate::results::{Row, Workload};
use crate::summary::Summary;

/// The name of the lock-based baseline ratios are taken against.
pub const BASELINE: &str = "Mutex<VecDeque>";

/// A row's summaries.
#[derive(Debug, Clone)]
pub struct RowStats {
    /// The figure over rounds.
    pub figure: Summary,
    /// Cores' worth of CPU other processes used, over rounds.
    pub others_load: Option<Summary>,
    /// `figure / baseline figure`, per round.
    pub vs_baseline: Option<Summary>,
    /// `figure / best peer's figure`, per round.
    pub vs_best_peer: Option<Summary>,
    /// The 95 % bootstrap interval of the median of `vs_baseline`.
    pub vs_baseline_interval: Option<Interval>,
    /// The 95 % bootstrap interval of the median of `vs_best_peer`.
    pub vs_best_peer_interval: Option<Interval>,
    /// Fraction of the floor reached, per round (1 = as good as the floor):
    /// `figure / limit` for throughput, `limit / figure` for round trips.
    pub of_floor: Option<Summary>,
    /// p50, p99, p99.9 over every trip of every round (latency only).
    pub percentiles: Option<[f64; 3]>,
}

/// The workload's reference rows and each row's summaries.
#[derive(Debug, Clone)]
pub struct WorkloadStats {
    /// The baseline's name, if the workload has one.
    pub baseline: Option<String>,
    /// The best peer (by median), if any.
    pub best_peer: Option<String>,
    /// One per row, in row order.
    pub rows: Vec<RowStats>,
}

fn figures(row: &Row) -> Vec<f64> {
    row.rounds.iter().map(|r| r.figure).collect()
}

fn ratios(a: &Row, b: &Row, f: impl Fn(f64, f64) -> f64) -> Vec<f64> {
    a.rounds
        .iter()
        .zip(&b.rounds)
        .map(|(x, y)| f(x.figure, y.figure))
        .collect()
}

fn per_round(a: &Row, b: &Row, f: impl Fn(f64, f64) -> f64) -> Summary {
    Summary::of(&ratios(a, b, f))
}

/// The interval of the median of `a / b` per round, seeded by the names.
fn interval(w: &Workload, a: &Row, b: &Row) -> Interval {
    let seed = bootstrap::seed_of(&format!("{} {} ÷ {}", w.name, a.name, b.name));
    bootstrap::median(&ratios(a, b, |x, y| x / y), seed)
}

/// Summarises `w`.
pub fn of(w: &Workload) -> WorkloadStats {
    let higher = w.unit.higher_is_better();
    let baseline = w
        .rows
        .iter()
        .find(|r| r.name == BASELINE)
        .or_else(|| w.rows.iter().find(|r| r.kind == Kind::Baseline));
    let best_peer = w
        .rows
        .iter()
        .filter(|r| r.kind == Kind::Peer)
        .max_by(|a, b| {
            let (a, b) = (
                Summary::of(&figures(a)).median,
                Summary::of(&figures(b)).median,
            );
            if higher {
                a.total_cmp(&b)
            } else {
                b.total_cmp(&a)
            }
        });
    let limit = w.rows.iter().find(|r| r.kind == Kind::Limit);
    let rows = w
        .rows
        .iter()
        .map(|row| {
            let loads: Vec<f64> = row.rounds.iter().filter_map(|r| r.others_load).collect();
            RowStats {
                figure: Summary::of(&figures(row)),
                others_load: (!loads.is_empty()).then(|| Summary::of(&loads)),
                vs_baseline: baseline.map(|b| per_round(row, b, |x, y| x / y)),
                vs_best_peer: best_peer.map(|b| per_round(row, b, |x, y| x / y)),
                vs_baseline_interval: baseline.map(|b| interval(w, row, b)),
                vs_best_peer_interval: best_peer.map(|b| interval(w, row, b)),
                of_floor: limit
                    .map(|l| per_round(row, l, |x, y| if higher { x / y } else { y / x })),
                percentiles: row
                    .histogram
                    .as_ref()
                    .map(|h| [0.5, 0.99, 0.999].map(|q| h.value_at_quantile(q) as f64)),
            }
        })
        .collect();
    WorkloadStats {
        baseline: baseline.map(|r| r.name.clone()),
        best_peer: best_peer.map(|r| r.name.clone()),
        rows,
    }
}
