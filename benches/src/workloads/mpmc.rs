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
use crate::workloads::placement;

/// Producer id in the top 8 bits, sequence below.
const SHIFT: u32 = 56;
/// The stop marker (no producer id reaches 255).
pub const STOP: u64 = u64::MAX;

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
/// one per consumer. Its threads' loops start at the next of the
/// [`placement`] offsets.
fn round<C: Channel<Tx: Clone>>(
    producers: u64,
    consumers: u64,
    items: u64,
    capacity: usize,
    receivers: impl FnOnce(C::Rx) -> Vec<C::Rx>,
) -> f64 {
    placement::at_drawn_offset!(placed::<C>(
        producers, consumers, items, capacity, receivers
    ))
}

/// [`round`] with every thread's loop at `OFFSET` past a 64-byte boundary.
fn placed<C: Channel<Tx: Clone>, const OFFSET: usize>(
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
    let totals = thread::scope(|s| {
        let (start, finished) = (&start, &finished);
        let ps: Vec<_> = (0..producers)
            .map(|p| {
                let mut tx = tx.clone();
                s.spawn(move || {
                    placement::align::<OFFSET>();
                    pin::thread(p as usize, threads);
                    start.wait();
                    let t0 = Instant::now();
                    for seq in 0..per_producer {
                        C::send(&mut tx, item(p, seq));
                    }
                    // AcqRel: the last producer's increment reads every other
                    // producer's (Release) increment, which came after all of
                    // that producer's sends, so its markers follow every item.
                    C::flush(&mut tx);
                    if finished.fetch_add(1, Ordering::AcqRel) == producers - 1 {
                        (0..consumers).for_each(|_| C::send(&mut tx, STOP));
                        C::flush(&mut tx);
                    }
                    t0
                })
            })
            .collect();
        let cs: Vec<_> = (0..consumers)
            .zip(rxs)
            .map(|(c, mut rx)| {
                s.spawn(move || {
                    placement::align::<OFFSET>();
                    pin::thread((producers + c) as usize, threads);
                    let mut tally = Tally::new(C::NAME, producers);
                    start.wait();
                    let t0 = Instant::now();
                    while tally.take(C::recv(&mut rx)) {}
                    (t0, Instant::now(), tally)
                })
            })
            .collect();
        drop(tx);
        start.wait();
        let mut totals = Totals::default();
        for c in cs {
            let (t0, t1, tally) = c.join().expect("consumer panicked");
            totals.consumer(t0, t1, tally);
        }
        for p in ps {
            totals.producer(p.join().expect("producer panicked"));
        }
        totals
    });
    totals.throughput(C::NAME, producers, per_producer)
}

/// The item producer `p` sends `seq`-th: its id in the top 8 bits.
#[inline]
pub fn item(p: u64, seq: u64) -> u64 {
    p << SHIFT | seq
}

/// What one consumer has received, checked as it comes: each producer's
/// items in increasing order (none twice), summed and counted.
pub struct Tally {
    name: &'static str,
    next: Vec<u64>,
    sum: u64,
    count: u64,
}

impl Tally {
    /// A consumer of `producers` producers' items, in the tables as `name`.
    pub fn new(name: &'static str, producers: u64) -> Tally {
        Tally {
            name,
            next: vec![0; producers as usize],
            sum: 0,
            count: 0,
        }
    }

    /// Takes `v`; `false` when it is the stop marker.
    #[inline]
    pub fn take(&mut self, v: u64) -> bool {
        if v == STOP {
            return false;
        }
        let (p, seq) = ((v >> SHIFT) as usize, v & ((1 << SHIFT) - 1));
        assert!(
            p < self.next.len() && seq >= self.next[p],
            "{}: producer {p}'s items reordered or duplicated",
            self.name
        );
        self.next[p] = seq + 1;
        self.sum = self.sum.wrapping_add(v);
        self.count += 1;
        true
    }
}

/// A round's consumers and producers, gathered: the first task's start,
/// the last consumer's stop, and every consumer's sum and count.
#[derive(Default)]
pub struct Totals {
    first: Option<Instant>,
    last: Option<Instant>,
    sum: u64,
    count: u64,
}

impl Totals {
    /// A consumer that ran from `t0` to `t1` and received `tally`.
    pub fn consumer(&mut self, t0: Instant, t1: Instant, tally: Tally) {
        self.producer(t0);
        self.last = Some(self.last.map_or(t1, |l| l.max(t1)));
        (self.sum, self.count) = (self.sum.wrapping_add(tally.sum), self.count + tally.count);
    }

    /// A producer that started at `t0`.
    pub fn producer(&mut self, t0: Instant) {
        self.first = Some(self.first.map_or(t0, |f| f.min(t0)));
    }

    /// Checks that every item of `producers` × `per_producer` arrived
    /// exactly once; returns M items/s from the first start to the last
    /// stop.
    pub fn throughput(self, name: &str, producers: u64, per_producer: u64) -> f64 {
        let want = (0..producers).fold(0u64, |a, p| {
            a.wrapping_add((p << SHIFT).wrapping_mul(per_producer))
                .wrapping_add(per_producer * (per_producer - 1) / 2)
        });
        assert_eq!(
            self.count,
            per_producer * producers,
            "{name}: lost or duplicated items"
        );
        assert_eq!(self.sum, want, "{name}: lost or duplicated items");
        let elapsed = self.last.expect("a consumer") - self.first.expect("a task");
        (per_producer * producers) as f64 / elapsed.as_secs_f64() / 1e6
    }
}
