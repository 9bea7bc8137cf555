//! Two-thread SPSC throughput and round-trip latency, hotq-spsc against
//! rtrb, in one run.
//!
//! `cargo bench -p hotq-benches --bench spsc_throughput [-- ROUNDS [ITEMS [CAPACITY]]]`
//!
//! Throughput on a 2-core machine is bimodal (a consumer that keeps pace
//! with its producer pays a cache miss per item; one that falls behind
//! reads in runs), so the round trip is measured too: one thread sends a
//! u64 through one ring, the other sends it back through a second ring,
//! `ITEMS / 100` times per round; the figure is the mean round trip of the
//! round, and the report gives the median over rounds.
//!
//! One producer pushes `0..ITEMS` (u64), one consumer pops and checks each
//! item is the next expected one (a contender that loses, duplicates or
//! reorders an item fails the run instead of getting a number). Both wait
//! by spinning with `spin_loop` when full/empty. The contenders run in
//! alternating rounds (A B A B …) so machine drift hits both alike; the
//! report gives each one's median with min–max, and the median of the
//! per-round ratios.

use std::hint::spin_loop;
use std::sync::Barrier;
use std::thread;
use std::time::{Duration, Instant};

use hotq_benches::interleave;

/// The two operations a contender offers, behind one small adapter each.
trait Spsc: Send + 'static {
    const NAME: &'static str;
    type Tx: Send + 'static;
    type Rx: Send + 'static;
    fn new(capacity: usize) -> (Self::Tx, Self::Rx);
    fn push(tx: &mut Self::Tx, v: u64) -> bool;
    fn pop(rx: &mut Self::Rx) -> Option<u64>;
}

struct Hotq;
impl Spsc for Hotq {
    const NAME: &'static str = "hotq-spsc";
    type Tx = hotq_spsc::Producer<u64>;
    type Rx = hotq_spsc::Consumer<u64>;
    fn new(capacity: usize) -> (Self::Tx, Self::Rx) {
        hotq_spsc::RingBuffer::new(capacity)
    }
    #[inline]
    fn push(tx: &mut Self::Tx, v: u64) -> bool {
        tx.push(v).is_ok()
    }
    #[inline]
    fn pop(rx: &mut Self::Rx) -> Option<u64> {
        rx.pop().ok()
    }
}

struct Rtrb;
impl Spsc for Rtrb {
    const NAME: &'static str = "rtrb 0.4";
    type Tx = rtrb::Producer<u64>;
    type Rx = rtrb::Consumer<u64>;
    fn new(capacity: usize) -> (Self::Tx, Self::Rx) {
        rtrb::RingBuffer::new(capacity)
    }
    #[inline]
    fn push(tx: &mut Self::Tx, v: u64) -> bool {
        tx.push(v).is_ok()
    }
    #[inline]
    fn pop(rx: &mut Self::Rx) -> Option<u64> {
        rx.pop().ok()
    }
}

/// One round: returns the time from the start signal to the last pop.
fn round<Q: Spsc>(items: u64, capacity: usize) -> Duration {
    let (mut tx, mut rx) = Q::new(capacity);
    let start = std::sync::Arc::new(Barrier::new(2));
    let go = start.clone();
    let producer = thread::spawn(move || {
        go.wait();
        for i in 0..items {
            while !Q::push(&mut tx, i) {
                spin_loop();
            }
        }
    });
    start.wait();
    let t0 = Instant::now();
    for expected in 0..items {
        let got = loop {
            match Q::pop(&mut rx) {
                Some(v) => break v,
                None => spin_loop(),
            }
        };
        assert_eq!(got, expected, "{}: lost, duplicated or reordered", Q::NAME);
    }
    let elapsed = t0.elapsed();
    producer.join().unwrap();
    elapsed
}

/// One round of ping-pong over two rings: the mean round trip, in ns.
fn round_trip<Q: Spsc>(trips: u64, capacity: usize) -> f64 {
    let (mut ping_tx, mut ping_rx) = Q::new(capacity);
    let (mut pong_tx, mut pong_rx) = Q::new(capacity);
    let echo = thread::spawn(move || {
        for _ in 0..trips {
            let v = loop {
                match Q::pop(&mut ping_rx) {
                    Some(v) => break v,
                    None => spin_loop(),
                }
            };
            while !Q::push(&mut pong_tx, v) {
                spin_loop();
            }
        }
    });
    let t0 = Instant::now();
    for i in 0..trips {
        while !Q::push(&mut ping_tx, i) {
            spin_loop();
        }
        let back = loop {
            match Q::pop(&mut pong_rx) {
                Some(v) => break v,
                None => spin_loop(),
            }
        };
        assert_eq!(back, i, "{}: round trip lost its item", Q::NAME);
    }
    let elapsed = t0.elapsed();
    echo.join().unwrap();
    elapsed.as_nanos() as f64 / trips as f64
}

fn main() {
    // `cargo bench` passes `--bench`; numbers are ours.
    let args: Vec<u64> = std::env::args().filter_map(|a| a.parse().ok()).collect();
    let rounds = args.first().copied().unwrap_or(15) as usize;
    let items = args.get(1).copied().unwrap_or(10_000_000);
    let capacity = args.get(2).copied().unwrap_or(1024) as usize;
    println!(
        "SPSC throughput: {items} u64 items, capacity {capacity}, {rounds} interleaved rounds"
    );

    let names = [Hotq::NAME, Rtrb::NAME];
    let per_second = |d: std::time::Duration| items as f64 / d.as_secs_f64() / 1e6;
    interleave(
        rounds,
        || per_second(round::<Hotq>(items, capacity)),
        || per_second(round::<Rtrb>(items, capacity)),
        |r, a, b| {
            println!(
                "round {r:2}: {:>10} {a:7.1} M/s   {:>10} {b:7.1} M/s   ratio {:.2}",
                names[0],
                names[1],
                a / b
            )
        },
    )
    .report("throughput", names, "M items/s", 1);

    let trips = (items / 100).max(1);
    println!(
        "Round trip: {trips} ping-pongs per round over two rings of {capacity} (below 1 is faster)"
    );
    interleave(
        rounds,
        || round_trip::<Hotq>(trips, capacity),
        || round_trip::<Rtrb>(trips, capacity),
        |_, _, _| {},
    )
    .report("round trip", names, "ns", 0);
}
