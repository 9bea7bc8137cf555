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
    // Issue 38: rendezvous channels (`bounded(0)`), against
    // crossbeam-channel's.
    for name in crate::suites::channels::RENDEZVOUS {
        if let Some(w) = workload(ws, name) {
            goals.push(goal(
                format!("channels {name}: {OURS} ÷ crossbeam-channel, per round"),
                true,
                1.5,
                per_round(w, OURS, "crossbeam-channel"),
            ));
        }
    }
    flow(ws, goals);
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

/// Issue 39's goals: a batch receive at limit 256 moves at least twice
/// the items of the same channel's single receives, and more than tokio's
/// `recv_many`; so do batch sends and receives together, blocking;
/// single sends drained with `recv_many` cost at most a tenth against
/// `recv`; reserve-then-send costs at most a tenth over the plain async
/// send, and beats tokio's `reserve`.
fn flow(ws: &[Workload], goals: &mut Vec<Goal>) {
    use crate::suites::channels_async::{BATCH_LIMITS, BATCH_SHAPES, RESERVE_SHAPES};
    const MANY: &str = "hotq-mpmc-channel recv_many";
    for (p, c) in BATCH_SHAPES {
        for limit in BATCH_LIMITS {
            let name = format!("async batch {p}P{c}C limit {limit}");
            let Some(w) = workload(ws, &name) else {
                continue;
            };
            if limit >= 256 {
                goals.push(goal(
                    format!("channels {name}: recv_many ÷ the same channel's recv, per round"),
                    true,
                    2.0,
                    per_round(w, MANY, "hotq-mpmc-channel recv"),
                ));
            }
            if row(w, "tokio mpsc recv_many").is_some() {
                goals.push(goal(
                    format!("channels {name}: {MANY} ÷ tokio mpsc recv_many, per round"),
                    true,
                    1.5,
                    per_round(w, MANY, "tokio mpsc recv_many"),
                ));
            }
        }
    }
    use crate::suites::channels::BATCH_SHAPES as BLOCKING_BATCH_SHAPES;
    const BATCH: &str = "hotq-mpmc-channel send_many+recv_many";
    const RECV_MANY: &str = "hotq-mpmc-channel send+recv_many";
    for (p, c) in BLOCKING_BATCH_SHAPES {
        let name = format!("batch {p}P{c}C limit {}", crate::contenders::BATCH);
        let Some(w) = workload(ws, &name) else {
            continue;
        };
        goals.push(goal(
            format!("channels {name}: {BATCH} ÷ the same channel's send+recv, per round"),
            true,
            2.0,
            per_round(w, BATCH, "hotq-mpmc-channel"),
        ));
        // Single sends drained in batches: a batch receive that kept pace
        // with its senders once made this row a fifth of `recv`'s.
        goals.push(goal(
            format!("channels {name}: {RECV_MANY} ÷ the same channel's send+recv, per round"),
            true,
            0.9,
            per_round(w, RECV_MANY, "hotq-mpmc-channel"),
        ));
    }
    const RESERVE: &str = "hotq-mpmc-channel reserve";
    for (p, c) in RESERVE_SHAPES {
        let name = format!("async reserve {p}P{c}C");
        let Some(w) = workload(ws, &name) else {
            continue;
        };
        goals.push(goal(
            format!(
                "channels {name}: reserve then send ÷ the same channel's send_async, per round"
            ),
            true,
            0.9,
            per_round(w, RESERVE, "hotq-mpmc-channel send_async"),
        ));
        goals.push(goal(
            format!("channels {name}: {RESERVE} ÷ tokio mpsc reserve, per round"),
            true,
            1.5,
            per_round(w, RESERVE, "tokio mpsc reserve"),
        ));
    }
}
