//! MPMC throughput: P producers each send `items / P` u64 items tagged
//! with the producer's id; C consumers receive until each gets a stop
//! marker, checking that every producer's items reach them in increasing
//! order; the counts and sums are checked at the end, so every item must
//! arrive exactly once. The last producer to finish sends one stop marker
//! per consumer: everything sent before is ahead of the markers, and each
//! consumer stops at its first, so the markers need no shared counter per
//! item and blocking receives work too.
//!
//! How the threads wait: every producer and consumer calls the contender's
//! `send`/`recv` once per item and nothing else. A try-only queue's adapter
//! retries through [`crate::wait::until`], the report's one wait loop
//! (spin 64 tries, then yield on every try); a blocking channel waits in
//! its own call. So hotq-mpmc and `ArrayQueue` meet the same caller, the
//! loop a user writes around a try-only queue, and a ratio between them is
//! the queues' difference, not their waits'.

use std::sync::Barrier;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::Instant;

use crate::channel::{Channel, Shared};
use crate::pin;

/// Producer id in the top 8 bits, sequence below.
const SHIFT: u32 = 56;
/// The stop marker (no producer id reaches 255).
const STOP: u64 = u64::MAX;

/// One round; returns M items/s from the start signal to the last
/// consumer's stop.
pub fn throughput<C: Shared>(producers: u64, consumers: u64, items: u64, capacity: usize) -> f64 {
    round::<C>(producers, consumers, items, capacity, |rx| {
        (0..consumers).map(|_| rx.clone()).collect()
    })
}

/// One round with a single consumer, for channels whose sender can be
/// cloned but whose receiver cannot (`mpsc::sync_channel`): the same
/// workload as [`throughput`] at `producers`P1C.
pub fn throughput_mpsc<C: Channel<Tx: Clone>>(producers: u64, items: u64, capacity: usize) -> f64 {
    round::<C>(producers, 1, items, capacity, |rx| vec![rx])
}

/// The round behind both: `receivers` turns the channel's receiver into
/// one per consumer.
fn round<C: Channel<Tx: Clone>>(
    producers: u64,
    consumers: u64,
    items: u64,
    capacity: usize,
    receivers: impl FnOnce(C::Rx) -> Vec<C::Rx>,
) -> f64 {
    assert!(
        producers < 255,
        "producer ids must fit below the stop marker"
    );
    let (tx, rx) = C::with_capacity(capacity);
    let rxs = receivers(rx);
    assert_eq!(rxs.len() as u64, consumers, "one receiver per consumer");
    let per_producer = items / producers;
    let threads = (producers + consumers) as usize;
    let finished = AtomicU64::new(0);
    let start = Barrier::new(threads + 1);
    // Each thread notes when it left the barrier and each consumer when it
    // stopped: the round lasts from the first start to the last stop. (The
    // spawning thread is not one of them: on a busy machine it may be
    // scheduled long after the workers started.)
    let (elapsed, sum, count) = thread::scope(|s| {
        let (start, finished) = (&start, &finished);
        let ps: Vec<_> = (0..producers)
            .map(|p| {
                let mut tx = tx.clone();
                s.spawn(move || {
                    pin::thread(p as usize, threads);
                    start.wait();
                    let t0 = Instant::now();
                    for seq in 0..per_producer {
                        C::send(&mut tx, p << SHIFT | seq);
                    }
                    // AcqRel: the last producer's increment reads every other
                    // producer's (Release) increment, which came after all of
                    // that producer's sends, so its markers follow every item.
                    if finished.fetch_add(1, Ordering::AcqRel) == producers - 1 {
                        (0..consumers).for_each(|_| C::send(&mut tx, STOP));
                    }
                    t0
                })
            })
            .collect();
        let cs: Vec<_> = (0..consumers)
            .zip(rxs)
            .map(|(c, mut rx)| {
                s.spawn(move || {
                    pin::thread((producers + c) as usize, threads);
                    let mut next = vec![0u64; producers as usize];
                    let (mut sum, mut count) = (0u64, 0u64);
                    start.wait();
                    let t0 = Instant::now();
                    loop {
                        let v = C::recv(&mut rx);
                        if v == STOP {
                            break;
                        }
                        let (p, seq) = ((v >> SHIFT) as usize, v & ((1 << SHIFT) - 1));
                        assert!(
                            p < next.len() && seq >= next[p],
                            "{}: producer {p}'s items reordered or duplicated",
                            C::NAME
                        );
                        next[p] = seq + 1;
                        sum = sum.wrapping_add(v);
                        count += 1;
                    }
                    (t0, Instant::now(), sum, count)
                })
            })
            .collect();
        drop(tx);
        start.wait();
        let mut first = None::<Instant>;
        let mut last = None::<Instant>;
        let (mut sum, mut count) = (0u64, 0u64);
        for c in cs {
            let (t0, t1, cs, cn) = c.join().expect("consumer panicked");
            first = Some(first.map_or(t0, |f| f.min(t0)));
            last = Some(last.map_or(t1, |l| l.max(t1)));
            (sum, count) = (sum.wrapping_add(cs), count + cn);
        }
        for p in ps {
            let t0 = p.join().expect("producer panicked");
            first = Some(first.map_or(t0, |f| f.min(t0)));
        }
        (last.unwrap() - first.unwrap(), sum, count)
    });
    let want = (0..producers).fold(0u64, |a, p| {
        a.wrapping_add((p << SHIFT).wrapping_mul(per_producer))
            .wrapping_add(per_producer * (per_producer - 1) / 2)
    });
    assert_eq!(
        count,
        per_producer * producers,
        "{}: lost or duplicated items",
        C::NAME
    );
    assert_eq!(sum, want, "{}: lost or duplicated items", C::NAME);
    (per_producer * producers) as f64 / elapsed.as_secs_f64() / 1e6
}
