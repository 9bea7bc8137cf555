//! The `channels` suite's async half: P producer tasks and C consumer
//! tasks on a tokio multi-thread runtime, each channel waiting in its own
//! `.await`s (`async_channels`).

use super::probe;
use crate::async_channels::{self, AsyncChan, AsyncVisitor, CAPACITY, WORKERS};
use crate::cli::Options;
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

/// Runs the async workloads into `out`.
pub fn suite(o: &Options, out: &mut Vec<Pending>) {
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
                    async_channels::throughput::<C>(p, c, items).into()
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
