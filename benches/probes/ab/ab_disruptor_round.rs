//! One round of one of the report's disruptor workloads
//! (`benches/src/sequenced/`, through `HotqDisruptor`) against
//! hotq-disruptor alone: a ring of 65,536 `u64` events (the report's
//! `RING`), `BusySpin`, one handler.
//!
//! ```text
//! ab-disruptor-round [ITEMS [sequencer | unicast]]
//! ```
//!
//! `sequencer` (the default), the sequencer 3P-1C workload: a
//! multi-producer ring, three producer threads each publishing `ITEMS / 3`
//! single events tagged with its id. `unicast`, the unicast 1P-1C
//! workload: a single-producer ring, one producer thread publishing
//! `ITEMS`. Each producer then calls `shutdown` (the last one drains and
//! joins). The handler checks that every producer's events arrive once
//! each, in order; the run panics otherwise. Prints M events/s from the
//! first producer's start to the last one's shutdown, as each producer read
//! its own clock (the report's measure). Built by
//! `ab_disruptor_sequencer.sh` against each revision's `hotq-disruptor`
//! (only the builder, `handle_events_with`, `build_multi_producer`,
//! `build_single_producer`, `clone`, `publish`, `shutdown`: the API both
//! sides of the A/B have). Not pinned, as the report's disruptor suite.

use std::sync::{Arc, Barrier, Mutex};
use std::thread;
use std::time::Instant;

use hotq_disruptor::wait::BusySpin;
use hotq_disruptor::{Builder, Disruptor, MultiProducer, Sequence, SingleProducer};

const RING: usize = 65_536;
const SHIFT: u32 = 56;

/// A producer handle as the round drives it (the report's `Publisher`).
trait Publish: Send {
    fn publish_one(&mut self, v: u64);
    fn done(self);
}

impl Publish for SingleProducer<u64> {
    #[inline]
    fn publish_one(&mut self, v: u64) {
        self.publish(|e| *e = v).expect("publish");
    }
    fn done(self) {
        self.shutdown().expect("shutdown");
    }
}

impl Publish for MultiProducer<u64> {
    #[inline]
    fn publish_one(&mut self, v: u64) {
        self.publish(|e| *e = v).expect("publish");
    }
    fn done(self) {
        self.shutdown().expect("shutdown");
    }
}

/// Runs the producers, each publishing `per_producer` events tagged with
/// its index; returns each one's (start, end of shutdown).
fn run<P: Publish>(handles: Vec<P>, per_producer: u64) -> Vec<(Instant, Instant)> {
    let start = Barrier::new(handles.len());
    thread::scope(|sc| {
        let start = &start;
        let threads: Vec<_> = handles
            .into_iter()
            .zip(0u64..)
            .map(|(mut p, id)| {
                sc.spawn(move || {
                    start.wait();
                    let t0 = Instant::now();
                    for seq in 0..per_producer {
                        p.publish_one((id << SHIFT) | seq);
                    }
                    p.done();
                    (t0, Instant::now())
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().expect("producer panicked"))
            .collect()
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let items: u64 = args
        .first()
        .and_then(|a| a.parse().ok())
        .unwrap_or(6_000_000);
    let unicast = match args.get(1).map(String::as_str) {
        None | Some("sequencer") => false,
        Some("unicast") => true,
        Some(other) => panic!("topology {other:?}: sequencer or unicast"),
    };
    let producers: u64 = if unicast { 1 } else { 3 };
    let per_producer = items / producers;
    // Per producer: how many of its events arrived; the first error.
    let seen = Arc::new(Mutex::new((vec![0u64; producers as usize], None::<String>)));
    let s = Arc::clone(&seen);
    let mut counts = vec![0u64; producers as usize];
    let mut error: Option<String> = None;
    let mut reported = false;
    let builder: Builder<u64> = Disruptor::builder(RING, || 0u64)
        .wait_strategy(BusySpin)
        .handle_events_with(move |e: &u64, _: Sequence, _: bool| {
            let (p, seq) = ((*e >> SHIFT) as usize, *e & ((1 << SHIFT) - 1));
            match counts.get_mut(p) {
                Some(n) if *n == seq => *n += 1,
                _ if error.is_some() => {}
                Some(n) => error = Some(format!("producer {p}: expected {n}, got {seq}")),
                None => error = Some(format!("an event from no producer: {e:#x}")),
            }
            if !reported && counts.iter().all(|&n| n == per_producer) {
                reported = true;
                *s.lock().unwrap() = (counts.clone(), error.clone());
            }
        });
    let spans = if unicast {
        let producer = builder.build_single_producer().expect("build");
        run(vec![producer], per_producer)
    } else {
        let producer = builder.build_multi_producer().expect("build");
        let mut handles = vec![producer];
        for _ in 1..producers {
            handles.push(handles[0].clone());
        }
        run(handles, per_producer)
    };
    let (counts, error) = seen.lock().unwrap().clone();
    if let Some(e) = error {
        panic!("{e}");
    }
    assert!(
        counts.iter().all(|&n| n == per_producer),
        "lost events: {counts:?} of {per_producer} each"
    );
    let first = spans.iter().map(|s| s.0).min().expect("a producer");
    let last = spans.iter().map(|s| s.1).max().expect("a producer");
    let events = (per_producer * producers) as f64;
    println!("{:.3}", events / (last - first).as_secs_f64() / 1e6);
}
