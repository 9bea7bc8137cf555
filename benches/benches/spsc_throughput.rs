//! Two-thread SPSC throughput, hotq-spsc against rtrb, in one run.
//!
//! `cargo bench -p hotq-benches --bench spsc_throughput [-- ROUNDS [ITEMS [CAPACITY]]]`
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

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
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

    let mut ours = Vec::new();
    let mut peer = Vec::new();
    let mut ratios = Vec::new();
    for r in 0..rounds {
        // Alternate which contender goes first, so neither always runs on
        // a machine the other just warmed (or heated).
        let (a, b) = if r % 2 == 0 {
            let a = round::<Hotq>(items, capacity);
            (a, round::<Rtrb>(items, capacity))
        } else {
            let b = round::<Rtrb>(items, capacity);
            (round::<Hotq>(items, capacity), b)
        };
        let (a, b) = (
            items as f64 / a.as_secs_f64() / 1e6,
            items as f64 / b.as_secs_f64() / 1e6,
        );
        println!(
            "round {r:2}: {:>10} {a:7.1} M/s   {:>10} {b:7.1} M/s   ratio {:.2}",
            Hotq::NAME,
            Rtrb::NAME,
            a / b
        );
        ours.push(a);
        peer.push(b);
        ratios.push(a / b);
    }
    for (name, v) in [(Hotq::NAME, &mut ours), (Rtrb::NAME, &mut peer)] {
        let (min, max) = (
            v.iter().copied().fold(f64::MAX, f64::min),
            v.iter().copied().fold(0.0, f64::max),
        );
        println!(
            "{name:>10}: median {:7.1} M items/s (min {min:.1}, max {max:.1})",
            median(v)
        );
    }
    let (min, max) = (
        ratios.iter().copied().fold(f64::MAX, f64::min),
        ratios.iter().copied().fold(0.0, f64::max),
    );
    println!(
        "hotq-spsc / rtrb per round: median {:.2} (min {min:.2}, max {max:.2})",
        median(&mut ratios)
    );
}
