//! The `channels` suite's async half: P producer tasks and C consumer
//! tasks on a tokio multi-thread runtime, each channel waiting in its own
//! `.await`s (`async_channels`).

use super::probe;
use crate::async_channels::flow::{AsyncFlow, Calls};
use crate::async_channels::{
    self, AsyncChan, AsyncVisitor, CAPACITY, HotqMpmcAsync, TokioMpsc, WORKERS,
};
use crate::channel::Kind;
use crate::cli::Options;
use crate::isolated;
use crate::results::Unit;
use crate::rounds::{Entry, Pending, workload};

/// Shapes (producers, consumers).
pub const SHAPES: [(u64, u64); 3] = [(1, 1), (4, 1), (4, 4)];
/// The suite's line in the report's header.
pub fn params(o: &Options) -> (String, String) {
    (
        "channels (async)".to_string(),
        format!(
            "up to {} u64 items per round, capacity {CAPACITY}, shapes 1P1C 4P1C 4P4C as tasks on a tokio multi-thread runtime of {WORKERS} workers, each channel in its own .await",
            o.items
        ),
    )
}

/// Runs the async workloads into `out`: the shapes, then the
/// flow-control rows.
pub fn suite(o: &Options, out: &mut Vec<Pending>) {
    shapes(o, out);
    batches(o, out);
    reserves(o, out);
}

/// The batch rows' shapes and `recv_many` limits (issue 39).
pub const BATCH_SHAPES: [(u64, u64); 2] = [(1, 1), (4, 4)];
/// The `recv_many` limits of the batch rows.
pub const BATCH_LIMITS: [usize; 2] = [16, 256];
/// The reserve rows' shapes: one consumer, so tokio's mpsc runs them all.
pub const RESERVE_SHAPES: [(u64, u64); 2] = [(1, 1), (4, 1)];

/// A flow-control row: `C` called as `calls`, named `name`.
fn flow_entry<C: AsyncFlow>(name: &'static str, kind: Kind, p: u64, c: u64, calls: Calls) -> Entry {
    Entry::new(name, kind, move |items| {
        isolated::flow::<C>(p, c, items, calls).into()
    })
}

/// `recv_many` against the same channel's `recv`, and against tokio's
/// `recv_many` where its one receiver fits the shape.
fn batches(o: &Options, out: &mut Vec<Pending>) {
    for (p, c) in BATCH_SHAPES {
        for limit in BATCH_LIMITS {
            let mut entries = vec![
                flow_entry::<HotqMpmcAsync>(
                    "hotq-mpmc-channel recv_many",
                    Kind::Ours,
                    p,
                    c,
                    Calls::RecvMany(limit),
                ),
                flow_entry::<HotqMpmcAsync>(
                    "hotq-mpmc-channel recv",
                    Kind::Ours,
                    p,
                    c,
                    Calls::Single,
                ),
            ];
            if c == 1 {
                entries.push(flow_entry::<TokioMpsc>(
                    "tokio mpsc recv_many",
                    Kind::Peer,
                    p,
                    c,
                    Calls::RecvMany(limit),
                ));
                entries.push(flow_entry::<TokioMpsc>(
                    "tokio mpsc recv",
                    Kind::Peer,
                    p,
                    c,
                    Calls::Single,
                ));
            }
            entries.push(probe::probe(Unit::MItemsPerSec));
            let params = format!(
                "{p} producer tasks sending one item each, {c} consumer tasks receiving up to {limit} items per recv_many (or one per recv), u64 items, capacity {CAPACITY}, tokio multi-thread runtime of {WORKERS} workers; tokio mpsc (one receiver) in the one-consumer shape only{}",
                probe::PROBE_WORDS
            );
            out.push(workload(
                "channels (async)",
                format!("async batch {p}P{c}C limit {limit}"),
                params,
                Unit::MItemsPerSec,
                o.plan(o.items),
                entries,
            ));
        }
    }
}

/// Reserve-then-send against the same channel's plain async send, and
/// against tokio's `reserve`.
fn reserves(o: &Options, out: &mut Vec<Pending>) {
    for (p, c) in RESERVE_SHAPES {
        let mut entries = vec![
            flow_entry::<HotqMpmcAsync>(
                "hotq-mpmc-channel reserve",
                Kind::Ours,
                p,
                c,
                Calls::Reserve,
            ),
            flow_entry::<HotqMpmcAsync>(
                "hotq-mpmc-channel send_async",
                Kind::Ours,
                p,
                c,
                Calls::Single,
            ),
            flow_entry::<TokioMpsc>("tokio mpsc reserve", Kind::Peer, p, c, Calls::Reserve),
            flow_entry::<TokioMpsc>("tokio mpsc send", Kind::Peer, p, c, Calls::Single),
        ];
        entries.push(probe::probe(Unit::MItemsPerSec));
        let params = format!(
            "{p} producer tasks each reserving a slot and then sending into it (or sending), {c} consumer task, u64 items, capacity {CAPACITY}, tokio multi-thread runtime of {WORKERS} workers{}",
            probe::PROBE_WORDS
        );
        out.push(workload(
            "channels (async)",
            format!("async reserve {p}P{c}C"),
            params,
            Unit::MItemsPerSec,
            o.plan(o.items),
            entries,
        ));
    }
}

/// The async shapes: every contender's own send and receive.
fn shapes(o: &Options, out: &mut Vec<Pending>) {
    struct Shape {
        producers: u64,
        consumers: u64,
        entries: Vec<Entry>,
    }
    impl AsyncVisitor for Shape {
        fn visit<C: AsyncChan>(&mut self) {
            if self.consumers > 1 && !C::MULTI_CONSUMER {
                return;
            }
            let (p, c) = (self.producers, self.consumers);
            self.entries
                .push(Entry::new(C::NAME, C::KIND, move |items| {
                    isolated::tasks::<C>(p, c, items).into()
                }));
        }
    }
    for (producers, consumers) in SHAPES {
        let mut v = Shape {
            producers,
            consumers,
            entries: Vec::new(),
        };
        async_channels::each(&mut v);
        v.entries.push(probe::probe(Unit::MItemsPerSec));
        let params = format!(
            "{producers} producer tasks, {consumers} consumer tasks, u64 items, capacity {CAPACITY}, tokio multi-thread runtime of {WORKERS} workers (one per round); MPSC-only channels (tokio mpsc, thingbuf) run the one-consumer shapes{}",
            probe::PROBE_WORDS
        );
        out.push(workload(
            "channels (async)",
            // Not plain "1P1C": the MPMC suite's workloads have those names,
            // and goals and readers find a workload by its name.
            format!("async {producers}P{consumers}C"),
            params,
            Unit::MItemsPerSec,
            o.plan(o.items),
            v.entries,
        ));
    }
}
