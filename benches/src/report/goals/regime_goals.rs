//! The regime grid's goals (issue 37 §2): in every cell, hotq-spsc's ring
//! for single items (`hotq_spsc::stamped`) at least as fast as the best of
//! rtrb and ringbuf in that cell, the peers the issue names. omango, the
//! grid's third peer, is compared in the grid's summary line
//! ([`against_omango`]), not in a goal.

use super::evidence::Evidence;
use super::goal::{Goal, goal};
use super::lookup::{best, per_round};
use crate::results::Workload;
use crate::suites::regimes::SUITE;

/// One goal per cell of the grid that ran.
pub(super) fn regimes(ws: &[Workload], goals: &mut Vec<Goal>) {
    for w in ws.iter().filter(|w| w.suite == SUITE) {
        if let Some(peer) = best(w, &["rtrb", "ringbuf"]) {
            goals.push(goal(
                format!("{}: {OURS} ÷ best SPSC peer ({peer}), per round", w.name),
                true,
                1.0,
                per_round(w, OURS, peer),
            ));
        }
    }
}

/// The ring whose cells the goals judge: hotq-spsc's ring for single
/// items.
pub const OURS: &str = "hotq-spsc stamped";

/// Each cell's median per-round ratio of [`OURS`] to omango, where both
/// ran: for the grid's summary line.
pub fn against_omango(ws: &[Workload]) -> Vec<f64> {
    ws.iter()
        .filter(|w| w.suite == SUITE)
        .filter_map(|w| match per_round(w, OURS, "omango")? {
            Evidence::PerRound { mut ratios, .. } => {
                ratios.sort_by(f64::total_cmp);
                ratios.get(ratios.len() / 2).copied()
            }
            _ => None,
        })
        .collect()
}
