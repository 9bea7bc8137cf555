//! The regime grid's goals as grids (one per capacity and wait loop:
//! producer work down, consumer work across), where the goals table would
//! list 144 rows: each cell is hotq-spsc's ring for single items ÷ the
//! best of rtrb and ringbuf, with its verdict (✓ met, ✗ missed, ?
//! undecided).

use std::fmt::Write;

use crate::report::goals::regime_goals::{OURS, against_omango};
use crate::report::goals::{Goal, Verdict};
use crate::results::Workload;
use crate::suites::regimes::{self, CAPACITIES, WORK};
use crate::workloads::regime::WaitLoop;

/// Whether `g` is one of the grid's goals.
pub fn is_grid_goal(g: &Goal) -> bool {
    g.what.starts_with("regime cap ")
}

/// The grids of `goals`' regime cells (empty when none ran), with a
/// count of the verdicts, the median cell, and how the same ring fares
/// against omango in `workloads`' cells.
pub fn grid(goals: &[Goal], workloads: &[Workload]) -> String {
    let cells: Vec<&Goal> = goals.iter().filter(|g| is_grid_goal(g)).collect();
    if cells.is_empty() {
        return String::new();
    }
    let mut s = String::new();
    let count = |v: Verdict| cells.iter().filter(|g| g.verdict == Some(v)).count();
    let mut medians: Vec<f64> = cells
        .iter()
        .filter_map(|g| g.measured.map(|m| m.median))
        .collect();
    medians.sort_by(f64::total_cmp);
    let mut omango = against_omango(workloads);
    omango.sort_by(f64::total_cmp);
    let median = |v: &[f64]| v.get(v.len() / 2).map_or("—".into(), |m| format!("{m:.2}"));
    let _ = writeln!(
        s,
        "**SPSC regimes**: {OURS} ÷ the best of rtrb and ringbuf in each cell (median of per-round ratios; ✓ met ≥ 1.0, ✗ missed, ? undecided). {} cells: {} met, {} missed, {} undecided; the median cell {}. Against omango: {} of {} cells ≥ 1.0, the median cell {}.\n",
        cells.len(),
        count(Verdict::Met),
        count(Verdict::Missed),
        count(Verdict::Undecided),
        median(&medians),
        omango.iter().filter(|r| **r >= 1.0).count(),
        omango.len(),
        median(&omango),
    );
    for capacity in CAPACITIES {
        for wait in WaitLoop::ALL {
            let _ = writeln!(
                s,
                "capacity {capacity}, {}: producer work down, consumer work across\n",
                wait.label()
            );
            let head: Vec<String> = WORK.iter().map(|w| w.to_string()).collect();
            let _ = writeln!(s, "| | {} |", head.join(" | "));
            let _ = writeln!(s, "|---|{}", "---|".repeat(WORK.len()));
            for producer_work in WORK {
                let row: Vec<String> = WORK
                    .iter()
                    .map(|&consumer_work| {
                        let name = regimes::name(&crate::workloads::regime::Regime {
                            producer_work,
                            consumer_work,
                            wait,
                            capacity,
                        });
                        cells
                            .iter()
                            .find(|g| g.what.starts_with(&format!("{name}:")))
                            .map_or("—".into(), |g| cell(g))
                    })
                    .collect();
                let _ = writeln!(s, "| {producer_work} | {} |", row.join(" | "));
            }
            let _ = writeln!(s);
        }
    }
    s
}

fn cell(g: &Goal) -> String {
    let mark = match g.verdict {
        Some(Verdict::Met) => "✓",
        Some(Verdict::Missed) => "✗",
        _ => "?",
    };
    g.measured
        .map_or("—".into(), |m| format!("{:.2} {mark}", m.median))
}
