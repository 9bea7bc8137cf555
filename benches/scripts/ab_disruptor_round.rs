//! One round of the report's sequencer 3P-1C workload
//! (`benches/src/sequenced/`, `Topology::Sequencer` through
//! `HotqDisruptor`) against hotq-disruptor alone: a multi-producer ring of
//! 65,536 `u64` events (the report's `RING`), `BusySpin`, one handler, three
//! producer threads each publishing `ITEMS / 3` single events tagged with
//! its id, then `shutdown` (the last one drains and joins). The handler
//! checks that every producer's events arrive once each, in order; the
//! run panics otherwise. Prints M events/s from the first producer's start
//! to the last one's shutdown, as each producer read its own clock (the
//! report's measure). Built by `ab_disruptor_sequencer.sh` against each
//! revision's `hotq-disruptor` (only the builder, `handle_events_with`,
//! `build_multi_producer`, `clone`, `publish`, `shutdown`: the API both
//! sides of the A/B have). Not pinned, as the report's disruptor suite.

use std::sync::{Arc, Barrier, Mutex};
use std::thread;
use std::time::Instant;

use hotq_disruptor::wait::BusySpin;
use hotq_disruptor::{Disruptor, Sequence};

const RING: usize = 65_536;
const PRODUCERS: u64 = 3;
const SHIFT: u32 = 56;

fn main() {
    let items: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(6_000_000);
    let per_producer = items / PRODUCERS;
    // Per producer: how many of its events arrived; the first error.
    let seen = Arc::new(Mutex::new((vec![0u64; PRODUCERS as usize], None::<String>)));
    let s = Arc::clone(&seen);
    let mut counts = vec![0u64; PRODUCERS as usize];
    let mut error: Option<String> = None;
    let mut reported = false;
    let producer = Disruptor::builder(RING, || 0u64)
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
        })
        .build_multi_producer()
        .expect("build");
    let start = Barrier::new(PRODUCERS as usize);
    let spans: Vec<(Instant, Instant)> = thread::scope(|sc| {
        let start = &start;
        let mut handles = vec![producer];
        for _ in 1..PRODUCERS {
            handles.push(handles[0].clone());
        }
        let threads: Vec<_> = handles
            .into_iter()
            .zip(0u64..)
            .map(|(mut p, id)| {
                sc.spawn(move || {
                    start.wait();
                    let t0 = Instant::now();
                    for seq in 0..per_producer {
                        p.publish(|e| *e = (id << SHIFT) | seq).expect("publish");
                    }
                    p.shutdown().expect("shutdown");
                    (t0, Instant::now())
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().expect("producer panicked")).collect()
    });
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
    let events = (per_producer * PRODUCERS) as f64;
    println!("{:.3}", events / (last - first).as_secs_f64() / 1e6);
}
