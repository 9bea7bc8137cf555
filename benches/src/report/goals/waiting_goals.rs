//! The waiting suite's goals: hotq-spsc's blocking and async ends against
//! the peers, its wake-up latency and idle CPU.

use super::goal::{Goal, goal};
use super::lookup::{best, idle_share, per_round, workload};
use crate::results::Workload;

/// The waiting suite's goals (issue 13): blocking and async throughput
/// against the peers, the wake-up latency, the CPU of an idle wait.
pub(super) fn waiting(ws: &[Workload], goals: &mut Vec<Goal>) {
    // Both of hotq-spsc's rings, blocking and async: `RingBuffer` (rtrb's
    // API) and `stamped`, its ring for single items (issue 37 §2: the
    // blocking row moved 10× between runs with the first, and the async
    // row trailed kanal's in three runs of four).
    let suites = [
        (
            "blocking, cap 1024",
            &["hotq-spsc blocking", "hotq-spsc stamped blocking"],
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
            &["hotq-spsc async", "hotq-spsc stamped async"],
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
    for (name, ours_rows, anchor, peers) in suites {
        let Some(w) = workload(ws, name) else {
            continue;
        };
        for &ours in ours_rows {
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
