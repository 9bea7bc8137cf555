//! One round of the report's MPMC throughput workload
//! (`benches/src/workloads/mpmc.rs`) against hotq-mpmc alone: capacity
//! 1024, `P` producers each pushing `ITEMS / P` `u64` items tagged with
//! the producer's id in the top 8 bits, `C` consumers popping until each
//! takes a stop marker (the last producer to finish pushes one per
//! consumer) and checking that every producer's items reach them in
//! increasing order; counts and sums are checked at the end. Every push
//! and pop retries with the report's wait loop (`benches/src/wait.rs`:
//! spin 64 tries, then yield on every try). Prints M items/s from the
//! first thread's start to the last consumer's stop.
//!
//!   ab-mpmc-round ITEMS [SHAPE]     SHAPE: 1p1c (default) or 2p2c
//!
//! Built by `ab_mpmc_queue.sh` against each revision's `hotq-mpmc` (only
//! `Queue::new`, `push`, `pop`: the API both sides of the A/B have). No
//! core pinning, unlike the report: the crate under test has no such
//! dependency, and both binaries run alike.

use std::sync::Barrier;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::Instant;

// The report's wait loop (benches/src/wait.rs, copied in by ab_rounds.sh).
#[allow(dead_code)]
mod wait;
use wait::until;

const CAPACITY: usize = 1024;
const SHIFT: u32 = 56;
const STOP: u64 = u64::MAX;

fn main() {
    let mut args = std::env::args().skip(1);
    let items: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(20_000_000);
    let (producers, consumers) = match args.next().as_deref() {
        None | Some("1p1c") => (1u64, 1u64),
        Some("2p2c") => (2, 2),
        Some(other) => panic!("unknown shape {other:?}: 1p1c or 2p2c"),
    };
    let per_producer = items / producers;
    let q = hotq_mpmc::Queue::<u64>::new(CAPACITY);
    let finished = AtomicU64::new(0);
    let start = Barrier::new((producers + consumers) as usize);
    let (first, last, sum, count) = thread::scope(|s| {
        let (q, start, finished) = (&q, &start, &finished);
        let ps: Vec<_> = (0..producers)
            .map(|p| {
                s.spawn(move || {
                    start.wait();
                    let t0 = Instant::now();
                    for seq in 0..per_producer {
                        let v = p << SHIFT | seq;
                        until(|| q.push(v).ok());
                    }
                    // AcqRel: the last producer's increment reads every
                    // other producer's, which came after all its pushes, so
                    // the markers follow every item.
                    if finished.fetch_add(1, Ordering::AcqRel) == producers - 1 {
                        for _ in 0..consumers {
                            until(|| q.push(STOP).ok());
                        }
                    }
                    t0
                })
            })
            .collect();
        let cs: Vec<_> = (0..consumers)
            .map(|_| {
                s.spawn(move || {
                    let mut next = vec![0u64; producers as usize];
                    let (mut sum, mut count) = (0u64, 0u64);
                    start.wait();
                    let t0 = Instant::now();
                    loop {
                        let v = until(|| q.pop());
                        if v == STOP {
                            break;
                        }
                        let (p, seq) = ((v >> SHIFT) as usize, v & ((1 << SHIFT) - 1));
                        assert!(seq >= next[p], "producer {p}'s items reordered");
                        next[p] = seq + 1;
                        sum = sum.wrapping_add(v);
                        count += 1;
                    }
                    (t0, Instant::now(), sum, count)
                })
            })
            .collect();
        let (mut first, mut last, mut sum, mut count) = (None::<Instant>, None::<Instant>, 0u64, 0);
        for c in cs {
            let (t0, t1, s, n) = c.join().expect("consumer panicked");
            first = Some(first.map_or(t0, |f| f.min(t0)));
            last = Some(last.map_or(t1, |l| l.max(t1)));
            (sum, count) = (sum.wrapping_add(s), count + n);
        }
        for p in ps {
            let t0 = p.join().expect("producer panicked");
            first = Some(first.map_or(t0, |f| f.min(t0)));
        }
        (first.unwrap(), last.unwrap(), sum, count)
    });
    let want = (0..producers).fold(0u64, |a, p| {
        a.wrapping_add((p << SHIFT).wrapping_mul(per_producer))
            .wrapping_add(per_producer * (per_producer - 1) / 2)
    });
    assert_eq!(count, per_producer * producers, "lost or duplicated items");
    assert_eq!(sum, want, "lost or duplicated items");
    let secs = last.duration_since(first).as_secs_f64();
    println!("{:.3}", count as f64 / secs / 1e6);
}
