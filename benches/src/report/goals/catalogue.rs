//! The goals: which workloads decide one ([`goal_workloads`]), and
//! every goal this run's workloads can answer ([`evaluate`]), each a ratio
//! of two rows against its target: the SPSC, MPMC and unicast goals here,
//! the other suites' in `disruptor_goals`, `channel_goals` and
//! `waiting_goals`.

use super::channel_goals::channels;
use super::disruptor_goals::topologies;
use super::goal::{Goal, flag, goal};
use super::lookup::{best, medians, per_round, workload};
use super::regime_goals::regimes;
use super::waiting_goals::waiting;
use crate::results::Workload;
use crate::sequenced;

/// The workloads whose figures decide a goal (those [`evaluate`] reads),
/// less the idle-CPU ones: their runs last a fixed time each, whatever the
/// budget, and their goal is decided by orders of magnitude. `--goal-rounds`
/// gives these more rounds than the others.
pub fn goal_workloads() -> Vec<String> {
    let mut v: Vec<String> = [
        "cap 1024, single",
        "cap 1024, batch 16",
        "cap 1024, batch 256",
        "round trip",
        "1P1C",
        "2P2C",
        "4P4C",
        "unicast 1P-1C",
        "pipeline 1P-3C",
        "multicast 1P-3C",
        "diamond 1P-3C",
        "sequencer 3P-1C",
        "blocking, cap 1024",
        "async, cap 1024",
        "wake-up latency",
        "async 1P1C",
        "async 4P1C",
        "async 4P4C",
    ]
    .map(String::from)
    .into();
    v.extend(["1P1C", "2P2C", "4P4C", "8P8C"].map(|s| format!("{s} cap 1024")));
    v.push(format!("{}wake-up latency", crate::suites::channels::WAITS));
    v.extend(crate::suites::channels::SELECTS.map(String::from));
    v
}

/// Whether the workload called `name` decides a goal (see
/// [`goal_workloads`]).
pub fn decides_a_goal(name: &str) -> bool {
    goal_workloads().iter().any(|w| w == name)
}

/// Every goal of the issue that this run's workloads can answer.
pub fn evaluate(ws: &[Workload]) -> Vec<Goal> {
    let mut goals = Vec::new();
    let single = "cap 1024, single";
    if let Some(w) = workload(ws, single) {
        if let Some(peer) = best(w, &["rtrb", "ringbuf", "omango"]) {
            // Both of hotq-spsc's rings: `RingBuffer` (rtrb's API, what a
            // drop-in user gets) and `stamped`, its ring for single items.
            for ours in ["hotq-spsc", "hotq-spsc stamped"] {
                goals.push(goal(
                    format!("SPSC {single}: {ours} ÷ best SPSC peer ({peer}), per round"),
                    true,
                    1.2,
                    per_round(w, ours, peer),
                ));
            }
        }
        goals.push(goal(
            format!("SPSC {single}: hotq-spsc ÷ Mutex<VecDeque>, per round"),
            true,
            20.0,
            per_round(w, "hotq-spsc", "Mutex<VecDeque>"),
        ));
        for batch in ["cap 1024, batch 16", "cap 1024, batch 256"] {
            let m = workload(ws, batch).and_then(|b| medians(b, "hotq-spsc", w, "hotq-spsc"));
            goals.push(goal(
                format!("SPSC hotq-spsc {batch} ÷ single (medians)"),
                true,
                3.0,
                m,
            ));
        }
    }
    // Issue 15 §2: chunked at least as fast as ringbuf's own slices, the
    // peer whose batch figures are the higher ones here.
    for batch in ["cap 1024, batch 16", "cap 1024, batch 256"] {
        if let Some(b) = workload(ws, batch) {
            goals.push(goal(
                format!("SPSC {batch}: hotq-spsc ÷ ringbuf, per round"),
                true,
                1.0,
                per_round(b, "hotq-spsc", "ringbuf"),
            ));
        }
    }
    if let Some(w) = workload(ws, "round trip") {
        // Both rings again: the stamped ring's slot carries its own
        // "published" mark, so a crossing moves one line where an index
        // and a slot move two (docs/performance.md, "What the SPSC rings
        // move between cores").
        for ours in ["hotq-spsc", "hotq-spsc stamped"] {
            goals.push(goal(
                format!("round trip: {ours} time ÷ rtrb time, per round"),
                false,
                0.9,
                per_round(w, ours, "rtrb"),
            ));
        }
    }
    for shape in ["1P1C", "2P2C"] {
        if let Some(w) = workload(ws, shape) {
            // Issue 37: against the fetch-and-add SCQ (lfqueue) too.
            for peer in ["ArrayQueue", "lfqueue"] {
                goals.push(goal(
                    format!("MPMC {shape}: hotq-mpmc ÷ {peer}, per round"),
                    true,
                    1.1,
                    per_round(w, "hotq-mpmc", peer),
                ));
            }
        }
    }
    if let (Some(w4), Some(w2)) = (workload(ws, "4P4C"), workload(ws, "2P2C")) {
        goals.push(goal(
            "MPMC hotq-mpmc 4P4C ÷ 2P2C (medians)".into(),
            true,
            0.5,
            medians(w4, "hotq-mpmc", w2, "hotq-mpmc"),
        ));
    }
    if let Some(w) = workload(ws, "unicast 1P-1C") {
        goals.push(goal(
            "unicast 1P-1C: hotq-disruptor ÷ disruptor, per round".into(),
            true,
            1.2,
            per_round(w, "hotq-disruptor", "disruptor"),
        ));
        goals.push(goal(
            "unicast 1P-1C: hotq-disruptor ÷ crossbeam-channel arcs, per round".into(),
            true,
            3.0,
            per_round(w, "hotq-disruptor", "crossbeam-channel arcs"),
        ));
    }
    topologies(ws, sequenced::cores(), &mut goals);
    waiting(ws, &mut goals);
    channels(ws, &mut goals);
    regimes(ws, &mut goals);
    flag(ws, &mut goals);
    goals
}
