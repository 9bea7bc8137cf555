//! The regime grid's goals (issue 37 §2): in every cell, hotq-spsc at
//! least as fast as the best of rtrb, ringbuf and omango in that cell.

use super::goal::{Goal, goal};
use super::lookup::{best, per_round};
use crate::results::Workload;
use crate::suites::regimes::SUITE;

/// One goal per cell of the grid that ran.
pub(super) fn regimes(ws: &[Workload], goals: &mut Vec<Goal>) {
    for w in ws.iter().filter(|w| w.suite == SUITE) {
        if let Some(peer) = best(w, &["rtrb", "ringbuf", "omango"]) {
            goals.push(goal(
                format!("{}: hotq-spsc ÷ best SPSC peer ({peer}), per round", w.name),
                true,
                1.0,
                per_round(w, "hotq-spsc", peer),
            ));
        }
    }
}
