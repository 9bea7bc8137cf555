//! A regime grid's goals as grids (one per capacity and wait loop:
//! producer work down, consumer work across), where the goals table would
//! list 144 rows: each cell is our queue ÷ the best of the grid's peers
//! (hotq-spsc's ring for single items ÷ rtrb and ringbuf, its
//! `RingBuffer` in batches ÷ the same, hotq-mpmc ÷ `ArrayQueue` and
//! lfqueue), with its verdict (✓ met, ✗ missed, ?
//! undecided).

use std::fmt::Write;

use crate::report::goals::regime_goals::{against_beside, near_ceiling};
use crate::report::goals::{Goal, Verdict};
use crate::results::Workload;
use crate::suites::regimes::{self, ALONE, CAPACITIES, GRIDS, Grid, WORK};
use crate::workloads::regime::{Regime, WaitLoop};

/// The lead the summary line asks of a cell's ceiling: the goal
/// for the median cell (issue 37 §2, ≥ 1.2×).
const CEILING_LEAD: f64 = 1.2;

/// Whether `g` is one of `grid`'s goals.
fn in_grid(grid: &Grid, g: &Goal) -> bool {
    g.what.starts_with(&format!("{} cap ", grid.prefix))
}

/// Whether `g` is one of a regime grid's goals.
pub fn is_grid_goal(g: &Goal) -> bool {
    GRIDS.iter().any(|grid| in_grid(grid, g))
}

/// The tables of `grid`'s cells among `goals` (empty when none ran), with
/// a count of the verdicts, the median cell, and how the same queue fares
/// against the grid's peer beside the others ([`Grid::beside`]) in
/// `workloads`' cells.
pub fn grid(grid: &Grid, goals: &[Goal], workloads: &[Workload]) -> String {
    let cells: Vec<&Goal> = goals.iter().filter(|g| in_grid(grid, g)).collect();
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
    let median = |v: &[f64]| v.get(v.len() / 2).map_or("—".into(), |m| format!("{m:.2}"));
    let _ = write!(
        s,
        "**{}**: {} ÷ the best of {} in each cell (median of per-round ratios; ✓ met ≥ 1.0, ✗ missed, ? undecided). {} cells: {} met, {} missed, {} undecided; the median cell {}.",
        grid.suite,
        grid.ours,
        grid.peers.join(" and "),
        cells.len(),
        count(Verdict::Met),
        count(Verdict::Missed),
        count(Verdict::Undecided),
        median(&medians),
    );
    let mut beside = against_beside(grid, workloads);
    beside.sort_by(f64::total_cmp);
    if let (Some(peer), false) = (grid.beside, beside.is_empty()) {
        let _ = write!(
            s,
            " Against {peer}: {} of {} cells ≥ 1.0, the median cell {}.",
            beside.iter().filter(|r| **r >= 1.0).count(),
            beside.len(),
            median(&beside),
        );
    }
    let near = near_ceiling(grid, workloads, 1.0 / CEILING_LEAD);
    if near.cells > 0 {
        let _ = write!(
            s,
            " In {} of the {} cells with work, the best peer runs at {:.0} % or more of the busier side's work alone (`{ALONE}`), where no queue can lead it by {CEILING_LEAD}×; {} runs there in {}.",
            near.peer,
            near.cells,
            100.0 / CEILING_LEAD,
            grid.ours,
            near.ours,
        );
    }
    let _ = writeln!(s, "\n");
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
                        let name = regimes::name(
                            grid,
                            &Regime {
                                producer_work,
                                consumer_work,
                                wait,
                                capacity,
                                ops: grid.ops,
                            },
                        );
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
