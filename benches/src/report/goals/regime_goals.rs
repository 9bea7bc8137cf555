//! The regime grids' goals (issue 37 §2): in every cell, our queue at
//! least as fast as the best of the peers its grid names
//! ([`Grid`]): hotq-spsc's ring for single items
//! (`hotq_spsc::stamped`) against rtrb and ringbuf, its `RingBuffer` in
//! batches against the same, hotq-mpmc's `Queue` against `ArrayQueue` and
//! lfqueue. omango, the SPSC grid's third peer,
//! is compared in the grid's summary line ([`against_beside`]), not in a
//! goal.

use super::evidence::Evidence;
use super::goal::{Goal, goal};
use super::lookup::{best, per_round};
use crate::results::Workload;
use crate::suites::regimes::{ALONE, GRIDS, Grid};

/// One goal per cell of each grid that ran.
pub(super) fn regimes(ws: &[Workload], goals: &mut Vec<Goal>) {
    for grid in GRIDS {
        for w in ws.iter().filter(|w| w.suite == grid.suite) {
            if let Some(peer) = best(w, grid.peers) {
                goals.push(goal(
                    format!(
                        "{}: {} ÷ best {} peer ({peer}), per round",
                        w.name, grid.ours, grid.kind
                    ),
                    true,
                    1.0,
                    per_round(w, grid.ours, peer),
                ));
            }
        }
    }
}

/// Each of `grid`'s cells' median per-round ratio of its queue to the
/// peer that runs beside the others ([`Grid::beside`]), where both ran:
/// for the grid's summary line. Empty when the grid has no such peer.
pub fn against_beside(grid: &Grid, ws: &[Workload]) -> Vec<f64> {
    let Some(beside) = grid.beside else {
        return Vec::new();
    };
    ws.iter()
        .filter(|w| w.suite == grid.suite)
        .filter_map(|w| median_per_round(w, grid.ours, beside))
        .collect()
}

/// The median of `a / b` over `w`'s rounds, where both rows ran.
fn median_per_round(w: &Workload, a: &str, b: &str) -> Option<f64> {
    match per_round(w, a, b)? {
        Evidence::PerRound { mut ratios, .. } => {
            ratios.sort_by(f64::total_cmp);
            ratios.get(ratios.len() / 2).copied()
        }
        _ => None,
    }
}

/// How near a grid's cells run to their ceiling ([`ALONE`], the busier
/// side's work with no queue), for the grid's summary line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NearCeiling {
    /// Cells with a ceiling row (work on either side).
    pub cells: usize,
    /// Of those, the cells whose best peer runs at `share` of it or more.
    pub peer: usize,
    /// Of those, the cells whose own queue does.
    pub ours: usize,
}

/// [`NearCeiling`] of `grid`'s cells in `ws`, each side's share the median
/// of its per-round ratios to the ceiling. A cell whose best peer already
/// runs at `1 / x` of its ceiling cannot be won by `x`: no queue runs
/// faster than the busier side's work alone.
pub fn near_ceiling(grid: &Grid, ws: &[Workload], share: f64) -> NearCeiling {
    let at =
        |w: &Workload, name: &str| median_per_round(w, name, ALONE).is_some_and(|m| m >= share);
    let mut n = NearCeiling {
        cells: 0,
        peer: 0,
        ours: 0,
    };
    for w in ws.iter().filter(|w| w.suite == grid.suite) {
        if !w.rows.iter().any(|r| r.name == ALONE) {
            continue;
        }
        n.cells += 1;
        n.peer += usize::from(best(w, grid.peers).is_some_and(|p| at(w, p)));
        n.ours += usize::from(at(w, grid.ours));
    }
    n
}
