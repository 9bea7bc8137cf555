//! The `channels` suite's async half: P producer tasks and C consumer
//! tasks on a tokio multi-thread runtime with 2 workers, each channel
//! waiting in its own `.await`s. As the blocking workload
//! (`workloads::mpmc`): items tagged with their producer, checked in order
//! per producer and counted exactly once, stop markers from the last
//! producer, each task timing itself: its `item`, `Tally` and `Totals`.

mod adapters;

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

pub use adapters::{AsyncChannelCrate, FlumeAsync, HotqMpmcAsync, KanalAsync, Thingbuf, TokioMpsc};

use crate::channel::Kind;
use crate::cli::Options;
use crate::rounds::{Entry, Pending, Unit, workload};
use crate::workloads::floor;
use crate::workloads::mpmc::{STOP, Tally, Totals, item};

/// Shapes (producers, consumers).
pub const SHAPES: [(u64, u64); 3] = [(1, 1), (4, 1), (4, 4)];
/// Capacity of every channel.
pub const CAPACITY: usize = 1024;
/// Worker threads of the runtime.
pub const WORKERS: usize = 2;

/// An async channel of `u64`, as a contender.
pub trait AsyncChan: 'static {
    /// The name in the tables.
    const NAME: &'static str;
    /// Ours, a peer or a baseline.
    const KIND: Kind;
    /// Whether its receiver can be shared (else: one-consumer shapes only).
    const MULTI_CONSUMER: bool;
    /// The sending end.
    type Tx: Clone + Send + Sync + 'static;
    /// The receiving end.
    type Rx: Send + 'static;
    /// A channel of `capacity`.
    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx);
    /// Another receiver, when [`MULTI_CONSUMER`](Self::MULTI_CONSUMER).
    fn clone_rx(rx: &Self::Rx) -> Self::Rx;
    /// Sends `v`, waiting while full.
    fn send(tx: &Self::Tx, v: u64) -> impl Future<Output = ()> + Send;
    /// Receives, waiting while empty.
    fn recv(rx: &mut Self::Rx) -> impl Future<Output = u64> + Send;
}

/// Something done once per async contender.
pub trait AsyncVisitor {
    /// Called with each contender.
    fn visit<C: AsyncChan>(&mut self);
}

/// Every async contender, ours first.
pub fn each(v: &mut impl AsyncVisitor) {
    v.visit::<HotqMpmcAsync>();
    v.visit::<TokioMpsc>();
    v.visit::<AsyncChannelCrate>();
    v.visit::<FlumeAsync>();
    v.visit::<KanalAsync>();
    v.visit::<Thingbuf>();
}

/// One round: M items/s from the first task's start to the last
/// consumer's stop.
pub fn throughput<C: AsyncChan>(producers: u64, consumers: u64, items: u64) -> f64 {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(WORKERS)
        .build()
        .expect("a tokio runtime");
    let (tx, rx) = C::with_capacity(CAPACITY);
    let per_producer = items / producers;
    let finished = Arc::new(AtomicU64::new(0));
    let totals = rt.block_on(async move {
        let ps: Vec<_> = (0..producers)
            .map(|p| {
                let (tx, finished) = (tx.clone(), finished.clone());
                tokio::spawn(async move {
                    let t0 = Instant::now();
                    for seq in 0..per_producer {
                        C::send(&tx, item(p, seq)).await;
                    }
                    // AcqRel: as in `workloads::mpmc`, the last producer's
                    // markers follow every producer's items.
                    if finished.fetch_add(1, Ordering::AcqRel) == producers - 1 {
                        for _ in 0..consumers {
                            C::send(&tx, STOP).await;
                        }
                    }
                    t0
                })
            })
            .collect();
        drop(tx);
        let mut rxs = vec![rx];
        while (rxs.len() as u64) < consumers {
            rxs.push(C::clone_rx(&rxs[0]));
        }
        let cs: Vec<_> = rxs
            .into_iter()
            .map(|mut rx| {
                tokio::spawn(async move {
                    let t0 = Instant::now();
                    let mut tally = Tally::new(C::NAME, producers);
                    while tally.take(C::recv(&mut rx).await) {}
                    (t0, Instant::now(), tally)
                })
            })
            .collect();
        let mut totals = Totals::default();
        for c in cs {
            let (t0, t1, tally) = c.await.expect("consumer panicked");
            totals.consumer(t0, t1, tally);
        }
        for p in ps {
            totals.producer(p.await.expect("producer panicked"));
        }
        totals
    });
    totals.throughput(C::NAME, producers, per_producer)
}

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
                    throughput::<C>(p, c, items).into()
                }));
        }
    }
    for (producers, consumers) in SHAPES {
        let mut v = Shape {
            producers,
            consumers,
            entries: Vec::new(),
        };
        each(&mut v);
        v.entries.push(floor::probe(Unit::MItemsPerSec));
        let params = format!(
            "{producers} producer tasks, {consumers} consumer tasks, u64 items, capacity {CAPACITY}, tokio multi-thread runtime of {WORKERS} workers (one per round); MPSC-only channels (tokio mpsc, thingbuf) run the one-consumer shapes{}",
            floor::PROBE_WORDS
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
