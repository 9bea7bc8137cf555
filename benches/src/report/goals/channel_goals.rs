//! The channels suite's goals: blocking and async throughput, wake-up
//! latency and idle CPU of hotq-mpmc's channel.

use super::goal::{Goal, goal};
use super::lookup::{best, idle_share, per_round, row, workload};
use crate::results::Workload;

/// The channel suite's goals (issue 14): hotq-mpmc's channel, each side
/// blocking in its own calls (or awaiting), against crossbeam-channel (or
/// tokio mpsc) and against the best peer of the shape; its wake-up latency
/// no worse than crossbeam-channel's; no CPU while blocked (zero, read as
/// under 1 % of a core: the clock sees the park and the wake itself).
pub(super) fn channels(ws: &[Workload], goals: &mut Vec<Goal>) {
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
    // Issue 38: a select over a data and a control channel, and over
    // four channels, against crossbeam-channel's `select!`.
    for name in crate::suites::channels::SELECTS {
        if let Some(w) = workload(ws, name) {
            goals.push(goal(
                format!("channels {name}: {OURS} select! ÷ crossbeam-channel select!, per round"),
                true,
                1.5,
                per_round(w, OURS, "crossbeam-channel"),
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
