//! The machine's mode per workload: the floor's figure per round, its
//! spread, and a warning where it moved.

use std::fmt::Write;

use super::cells::precision;
use crate::report::floor;
use crate::results::Workload;

/// The floors of the run: each workload's `limit` figure per round, its
/// spread, and a warning when it moved by more than [`floor::MOVED`].
pub fn floors(workloads: &[Workload]) -> String {
    let mut s = String::new();
    let all: Vec<(&Workload, floor::Floor)> = workloads
        .iter()
        .filter_map(|w| Some((w, floor::of(w)?)))
        .collect();
    if all.is_empty() {
        return s;
    }
    let moved: Vec<String> = all
        .iter()
        .filter(|(_, f)| f.moved)
        .map(|(w, f)| {
            format!(
                "{} ({:.*}–{:.*} {}, {:.1}×)",
                w.name,
                precision(f.unit, f.summary.min),
                f.summary.min,
                precision(f.unit, f.summary.max),
                f.summary.max,
                f.unit.label(),
                f.spread
            )
        })
        .collect();
    if moved.is_empty() {
        let worst = all.iter().map(|(_, f)| f.spread).fold(1.0, f64::max);
        let _ = writeln!(
            s,
            "- the machine's mode (the two cores' distance, one cache line bounced before every round of every workload): steady, each workload's within {worst:.2}× (max ÷ min over its rounds; {}× would flag the run)",
            floor::MOVED
        );
    } else {
        let _ = writeln!(
            s,
            "- **the machine's mode moved more than {}× within this run**, in {}: the two cores' distance (one cache line bounced before every round) changed during the run (this VM's vCPUs sharing a cache, then not; or another process), so its verdicts are flagged ⚑ and each goal must hold in every mode.",
            floor::MOVED,
            moved.join("; ")
        );
    }
    s
}

/// One line under a workload's table: its mode's figure round by round.
pub(super) fn floor_line(w: &Workload) -> Option<String> {
    let f = floor::of(w)?;
    let rounds: Vec<String> = f
        .per_round
        .iter()
        .map(|&v| format!("{v:.*}", precision(f.unit, v)))
        .collect();
    let what = match f.source {
        floor::Source::Distance => "core distance per round (round trip of one line)",
        floor::Source::Limit => "floor per round",
    };
    Some(format!(
        "{what} ({}): {}; spread {:.2}×{}\n",
        f.unit.label(),
        rounds.join(", "),
        f.spread,
        if f.moved { ", **moved**" } else { "" }
    ))
}
