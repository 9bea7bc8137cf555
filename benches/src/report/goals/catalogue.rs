//! The goals, suite by suite: which workloads decide one
//! ([`goal_workloads`]), and every goal this run's workloads can answer
//! ([`evaluate`]), each a ratio of two rows against its target.

use super::goal::{Goal, flag, goal};
use super::lookup::{best, idle_share, medians, per_round, row, workload};
use crate::results::Workload;
use crate::sequenced::{self, Topology};

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
    flag(ws, &mut goals);
    goals
}

/// The oversubscribable topologies' goals (issue 15 §4): hotq-disruptor
/// at least as fast as the `disruptor` crate. With at least as many
/// `cores` as the topology has threads, the busy-spin rows (the LMAX
/// ones); with fewer, each crate's strategy that gives the core away
/// (`Sleeping` and the crate's `Sleep`, its only one that does, with the
/// same 10 µs nap, so that the two rows differ by the ring alone), as a
/// user with more threads than cores would run them: busy-spinning
/// handlers there measure the scheduler's tick as much as the ring (see
/// [`crate::sequenced`]).
pub(super) fn topologies(ws: &[Workload], cores: usize, goals: &mut Vec<Goal>) {
    use crate::sequenced::{
        DisruptorCrate, DisruptorCrateSleep, HotqDisruptor, HotqDisruptorSleeping, Ring,
    };
    for t in Topology::ALL {
        if t == Topology::Unicast {
            continue;
        }
        let Some(w) = workload(ws, t.name()) else {
            continue;
        };
        let name = t.name();
        let (what, ours, peer) = if sequenced::oversubscribed(t, cores) {
            (
                format!(
                    "{name}: {} ÷ {}, per round ({} threads on {cores} cores)",
                    HotqDisruptorSleeping::NAME,
                    DisruptorCrateSleep::NAME,
                    t.threads()
                ),
                HotqDisruptorSleeping::NAME,
                DisruptorCrateSleep::NAME,
            )
        } else {
            (
                format!("{name}: hotq-disruptor ÷ disruptor, per round"),
                HotqDisruptor::NAME,
                DisruptorCrate::NAME,
            )
        };
        goals.push(goal(what, true, 1.0, per_round(w, ours, peer)));
    }
}

/// The channel suite's goals (issue 14): hotq-mpmc's channel, each side
/// blocking in its own calls (or awaiting), against crossbeam-channel (or
/// tokio mpsc) and against the best peer of the shape; its wake-up latency
/// no worse than crossbeam-channel's; no CPU while blocked (zero, read as
/// under 1 % of a core: the clock sees the park and the wake itself).
fn channels(ws: &[Workload], goals: &mut Vec<Goal>) {
    const OURS: &str = "hotq-mpmc-channel";
    for shape in ["1P1C", "2P2C", "4P4C", "8P8C"] {
        let name = format!("{shape} cap 1024");
        let Some(w) = workload(ws, &name) else {
            continue;
        };
        goals.push(goal(
            format!("channels blocking {name}: {OURS} ÷ crossbeam-channel, per round"),
            true,
            1.5,
            per_round(w, OURS, "crossbeam-channel"),
        ));
        // std's channel runs the one-consumer shape only.
        let peers = [
            "crossbeam-channel",
            "flume",
            "kanal",
            "async-channel",
            "mpsc::sync_channel",
        ];
        if let Some(peer) = best(w, &peers) {
            goals.push(goal(
                format!("channels blocking {name}: {OURS} ÷ best peer ({peer}), per round"),
                true,
                1.2,
                per_round(w, OURS, peer),
            ));
        }
    }
    let waits = crate::suites::channels::WAITS;
    if let Some(w) = workload(ws, &format!("{waits}wake-up latency")) {
        goals.push(goal(
            format!("channels wake-up latency: {OURS} time ÷ crossbeam-channel time, per round"),
            false,
            1.0,
            per_round(w, OURS, "crossbeam-channel"),
        ));
    }
    if let Some(w) = workload(ws, &format!("{waits}idle CPU")) {
        goals.push(goal(
            format!("channels idle CPU: share of a core a blocked {OURS} receiver uses"),
            false,
            0.01,
            idle_share(w, OURS),
        ));
    }
    for shape in ["1P1C", "4P1C", "4P4C"] {
        let name = format!("async {shape}");
        let Some(w) = workload(ws, &name) else {
            continue;
        };
        // tokio's mpsc has one receiver: it runs the one-consumer shapes only.
        if row(w, "tokio mpsc").is_some() {
            goals.push(goal(
                format!("channels {name}: {OURS} ÷ tokio mpsc, per round"),
                true,
                1.5,
                per_round(w, OURS, "tokio mpsc"),
            ));
        }
        let peers = ["tokio mpsc", "async-channel", "flume", "kanal", "thingbuf"];
        if let Some(peer) = best(w, &peers) {
            goals.push(goal(
                format!("channels {name}: {OURS} ÷ best peer ({peer}), per round"),
                true,
                1.2,
                per_round(w, OURS, peer),
            ));
        }
    }
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
            idle_share(w, "hotq-spsc blocking"),
        ));
    }
}
