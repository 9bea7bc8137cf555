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
use crate::suites::regimes::{GRIDS, Grid};

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
        .filter_map(|w| match per_round(w, grid.ours, beside)? {
            Evidence::PerRound { mut ratios, .. } => {
                ratios.sort_by(f64::total_cmp);
                ratios.get(ratios.len() / 2).copied()
            }
            _ => None,
        })
        .collect()
}
