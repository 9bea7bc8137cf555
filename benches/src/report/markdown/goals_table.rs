//! The goals table: each goal's target, rounds per mode, median ratio with
//! its interval, and verdict with its marks; then the notes the marks need.

use std::fmt::Write;

use super::cells::iv;
use crate::report::floor;
use crate::report::goals::{self, Goal, Verdict};

/// Above this many cores' worth of other processes' CPU (median over the
/// run), the README fragment says the run was not on a quiet machine.
const BUSY: f64 = goals::BUSY;

/// The rounds behind `g` and their modes: `all 25 (fast 17, slow 8)`,
/// `all 25 (steady)`, or `all 25 (no floor)`.
pub fn rounds_cell(g: &Goal) -> String {
    let counts: Vec<String> = g
        .mode_rounds
        .iter()
        .map(|(m, n)| match m {
            floor::Mode::Steady => "steady".to_string(),
            m => format!("{} {n}", m.label()),
        })
        .collect();
    match (g.modes_apart, counts.is_empty()) {
        (true, _) => format!(
            "all {}: its two workloads ran in different modes ({})",
            g.rounds,
            counts.join(", ")
        ),
        (false, true) => format!("all {} (no floor)", g.rounds),
        (false, false) => format!("all {} ({})", g.rounds, counts.join(", ")),
    }
}

/// A verdict's label and the goal's marks: `⚑` the floor moved, `≠` its
/// modes disagree, `busy`.
fn verdict_cell(g: &Goal, v: Verdict, rounds: usize) -> String {
    let v = match v {
        Verdict::Met => "met".to_string(),
        Verdict::Missed => "**missed**".to_string(),
        Verdict::Undecided if rounds < goals::MIN_ROUNDS => {
            format!("undecided (under {} rounds)", goals::MIN_ROUNDS)
        }
        Verdict::Undecided => "undecided".to_string(),
    };
    let mut marks = String::new();
    if g.flagged {
        marks.push_str(" ⚑");
    }
    if g.modes_disagree {
        marks.push_str(" ≠");
    }
    if g.busy {
        marks.push_str(" busy");
    }
    format!("{v}{marks}")
}

/// The performance goals and where this run stands.
pub fn goals_table(goals: &[Goal]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| goal | target | rounds (per mode of the machine) | median ratio [95 % interval] | verdict |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|");
    for g in goals {
        let row = match (&g.evidence, g.verdict) {
            (Some(e), Some(v)) => {
                let m = match g.interval {
                    Some(i) => iv(i),
                    None => format!("{:.2} (no interval)", e.summary().median),
                };
                format!(
                    "{} | {m} | {}",
                    rounds_cell(g),
                    verdict_cell(g, v, e.rounds())
                )
            }
            _ => "— | not measured (a row is missing) | —".into(),
        };
        let _ = writeln!(s, "| {} | {} | {row} |", g.what, g.target);
    }
    let count = |v: Verdict| goals.iter().filter(|g| g.verdict == Some(v)).count();
    let _ = writeln!(
        s,
        "\n{} met, {} missed, {} undecided, {} not measured; {} undecided because one mode meets the goal and another misses it (≠).",
        count(Verdict::Met),
        count(Verdict::Missed),
        count(Verdict::Undecided),
        goals.iter().filter(|g| g.verdict.is_none()).count(),
        goals.iter().filter(|g| g.modes_disagree).count(),
    );
    let split: Vec<&Goal> = goals.iter().filter(|g| g.by_mode.len() > 1).collect();
    if !split.is_empty() {
        let _ = writeln!(s);
    }
    for g in split {
        let parts: Vec<String> = g
            .by_mode
            .iter()
            .map(|m| {
                format!(
                    "{}, {} rounds: {}, {}",
                    m.mode.label(),
                    m.rounds,
                    iv(m.interval),
                    m.verdict.label()
                )
            })
            .collect();
        let _ = writeln!(
            s,
            "- {}, by the machine's mode: {}",
            g.what,
            parts.join("; ")
        );
    }
    if goals.iter().any(|g| g.busy) {
        let _ = writeln!(
            s,
            "\nbusy: other processes used more than {BUSY} cores' worth of CPU (median over the rounds behind this goal): the verdict measures the machine's other work as much as the queues."
        );
    }
    if goals.iter().any(|g| g.flagged) {
        let _ = writeln!(
            s,
            "\n⚑ the machine's mode (the cores' distance) moved more than {}× within a workload behind this goal (see above): its rounds mix two modes of the machine, in the proportions the run had them; each mode's own interval and verdict are listed above.",
            floor::MOVED
        );
    }
    if goals.iter().any(|g| g.modes_disagree) {
        let _ = writeln!(
            s,
            "\n≠ one mode of the machine meets the goal and the other misses it (each on at least {} rounds of its own), so the goal is undecided: a run with more rounds of the other mode would give the other verdict.",
            goals::MIN_ROUNDS
        );
    }
    s
}
