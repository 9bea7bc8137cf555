//! The performance goals, read off the workloads of this run: each
//! a per-round ratio (or a ratio of medians, where the two figures come
//! from different workloads) against its target. Goals, not tests: the
//! report states where we stand, nothing fails on them.

use crate::rounds::{Row, Workload};
use crate::summary::Summary;

/// One goal and where this run stands.
#[derive(Debug, Clone)]
pub struct Goal {
    /// What is compared, in words.
    pub what: String,
    /// The target, e.g. `≥ 1.20`.
    pub target: String,
    /// The measured ratio (median, min–max), if both rows ran.
    pub measured: Option<Summary>,
    /// Whether the median meets the target.
    pub met: Option<bool>,
}

fn workload<'a>(ws: &'a [Workload], name: &str) -> Option<&'a Workload> {
    ws.iter().find(|w| w.name == name)
}

fn row<'a>(w: &'a Workload, name: &str) -> Option<&'a Row> {
    w.rows.iter().find(|r| r.name == name)
}

fn figures(r: &Row) -> Vec<f64> {
    r.rounds.iter().map(|x| x.figure).collect()
}

/// `a / b` per round of one workload.
fn per_round(w: &Workload, a: &str, b: &str) -> Option<Summary> {
    let (a, b) = (row(w, a)?, row(w, b)?);
    let v: Vec<f64> = a
        .rounds
        .iter()
        .zip(&b.rounds)
        .map(|(x, y)| x.figure / y.figure)
        .collect();
    (!v.is_empty()).then(|| Summary::of(&v))
}

/// Of `names`, the row of `w` with the best (highest) median.
fn best<'a>(w: &Workload, names: &[&'a str]) -> Option<&'a str> {
    names
        .iter()
        .filter_map(|n| row(w, n).map(|r| (*n, Summary::of(&figures(r)).median)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(n, _)| n)
}

fn goal(what: String, at_least: bool, target: f64, measured: Option<Summary>) -> Goal {
    Goal {
        what,
        target: format!("{} {target:.2}", if at_least { "≥" } else { "≤" }),
        met: measured.map(|m| {
            if at_least {
                m.median >= target
            } else {
                m.median <= target
            }
        }),
        measured,
    }
}

/// Every goal of the issue that this run's workloads can answer.
pub fn evaluate(ws: &[Workload]) -> Vec<Goal> {
    let mut goals = Vec::new();
    let single = "cap 1024, single";
    if let Some(w) = workload(ws, single) {
        if let Some(peer) = best(w, &["rtrb", "ringbuf"]) {
            goals.push(goal(
                format!("SPSC {single}: hotq-spsc ÷ best SPSC peer ({peer}), per round"),
                true,
                1.2,
                per_round(w, "hotq-spsc", peer),
            ));
        }
        goals.push(goal(
            format!("SPSC {single}: hotq-spsc ÷ Mutex<VecDeque>, per round"),
            true,
            20.0,
            per_round(w, "hotq-spsc", "Mutex<VecDeque>"),
        ));
        for batch in ["cap 1024, batch 16", "cap 1024, batch 256"] {
            let m = workload(ws, batch).and_then(|b| {
                let (c, s) = (row(b, "hotq-spsc")?, row(w, "hotq-spsc")?);
                Some(Summary::of(&[
                    Summary::of(&figures(c)).median / Summary::of(&figures(s)).median
                ]))
            });
            goals.push(goal(
                format!("SPSC hotq-spsc {batch} ÷ single (medians)"),
                true,
                3.0,
                m,
            ));
        }
    }
    if let Some(w) = workload(ws, "round trip") {
        goals.push(goal(
            "round trip: hotq-spsc time ÷ rtrb time, per round".into(),
            false,
            0.9,
            per_round(w, "hotq-spsc", "rtrb"),
        ));
    }
    for shape in ["1P1C", "2P2C"] {
        if let Some(w) = workload(ws, shape) {
            goals.push(goal(
                format!("MPMC {shape}: hotq-mpmc ÷ ArrayQueue, per round"),
                true,
                1.1,
                per_round(w, "hotq-mpmc", "ArrayQueue"),
            ));
        }
    }
    if let (Some(w4), Some(w2)) = (workload(ws, "4P4C"), workload(ws, "2P2C")) {
        let m = row(w4, "hotq-mpmc")
            .zip(row(w2, "hotq-mpmc"))
            .map(|(a, b)| {
                Summary::of(&[Summary::of(&figures(a)).median / Summary::of(&figures(b)).median])
            });
        goals.push(goal(
            "MPMC hotq-mpmc 4P4C ÷ 2P2C (medians)".into(),
            true,
            0.5,
            m,
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
    for t in [
        "pipeline 1P-3C",
        "multicast 1P-3C",
        "diamond 1P-3C",
        "sequencer 3P-1C",
    ] {
        if let Some(w) = workload(ws, t) {
            goals.push(goal(
                format!("{t}: hotq-disruptor ÷ disruptor, per round"),
                true,
                1.0,
                per_round(w, "hotq-disruptor", "disruptor"),
            ));
        }
    }
    waiting(ws, &mut goals);
    goals
}

/// The waiting suite's goals (issue 13): blocking and async throughput
/// against the peers, the wake-up latency, the CPU of an idle wait.
fn waiting(ws: &[Workload], goals: &mut Vec<Goal>) {
    let suites = [
        (
            "blocking, cap 1024",
            "hotq-spsc blocking",
            "crossbeam-channel",
            &[
                "crossbeam-channel",
                "mpsc::sync_channel",
                "flume",
                "kanal",
                "ringbuf-blocking",
            ][..],
        ),
        (
            "async, cap 1024",
            "hotq-spsc async",
            "tokio mpsc",
            &[
                "tokio mpsc",
                "async-ringbuf",
                "flume async",
                "async-channel",
                "kanal async",
            ][..],
        ),
    ];
    for (name, ours, anchor, peers) in suites {
        let Some(w) = workload(ws, name) else {
            continue;
        };
        goals.push(goal(
            format!("waiting {name}: {ours} ÷ {anchor}, per round"),
            true,
            2.0,
            per_round(w, ours, anchor),
        ));
        if let Some(peer) = best(w, peers) {
            goals.push(goal(
                format!("waiting {name}: {ours} ÷ best peer ({peer}), per round"),
                true,
                1.2,
                per_round(w, ours, peer),
            ));
        }
    }
    if let Some(w) = workload(ws, "wake-up latency") {
        goals.push(goal(
            "wake-up latency: hotq-spsc time ÷ crossbeam-channel time, per round".into(),
            false,
            1.0,
            per_round(w, "hotq-spsc blocking", "crossbeam-channel"),
        ));
    }
    if let Some(w) = workload(ws, "idle CPU") {
        goals.push(goal(
            "idle CPU: share of a core a blocked hotq-spsc consumer uses".into(),
            false,
            0.01,
            row(w, "hotq-spsc blocking")
                .map(|r| Summary::of(&figures(r).iter().map(|ns| ns / 1e9).collect::<Vec<_>>())),
        ));
    }
}
