//! Unicast 1P-1C throughput: hotq-disruptor against the `disruptor` crate
//! 4.4.0 and a `crossbeam-channel` bounded channel, busy-spin and blocking,
//! in one run.
//!
//! `cargo bench -p hotq-benches --bench disruptor_unicast [-- ROUNDS [ITEMS]]`
//!
//! One producer publishes `ITEMS` u64 values (0, 1, 2, ...) into a ring of
//! 1024; one consumer adds them up. A round's time runs from the first
//! publish to the moment the consumer has handled the last item (for the
//! disruptors: the shutdown, which drains and joins; for the channel: the
//! consumer thread's join). The sum is checked after every round.
//!
//! The modes:
//! - busy-spin: hotq `BusySpin`, disruptor `BusySpin`, channel `try_recv`
//!   in a spin loop (`spin_loop` hint) on the consumer, `try_send` likewise
//!   on the producer;
//! - blocking: hotq `Blocking` (parks on a condvar), disruptor `Sleep` with
//!   its shortest nap (1 µs: the crate has no blocking strategy), channel
//!   `send`/`recv` (they park).
//!
//! The contenders run round-robin, the order rotating every round; the
//! report gives each one's median (min, max) and the median per-round ratio
//! of hotq to each peer.

use std::hint::spin_loop;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use hotq_benches::Summary;

const SIZE: usize = 1024;

/// A contender: runs one round, returns M items/s.
type Contender = (&'static str, fn(u64, Mode) -> f64);

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    BusySpin,
    Blocking,
}

fn expected(items: u64) -> u64 {
    items * (items - 1) / 2
}

/// M items per second.
fn rate(items: u64, elapsed: Duration) -> f64 {
    items as f64 / elapsed.as_secs_f64() / 1e6
}

fn hotq(items: u64, mode: Mode) -> f64 {
    use hotq_disruptor::Disruptor;
    use hotq_disruptor::wait::{Blocking, BusySpin};
    let sum = Arc::new(AtomicU64::new(0));
    let out = Arc::clone(&sum);
    let mut acc = 0u64;
    let handler = move |e: &u64, _seq: i64, end_of_batch: bool| {
        acc += *e;
        if end_of_batch {
            out.store(acc, Ordering::Relaxed);
        }
    };
    let builder = Disruptor::builder(SIZE, || 0u64);
    let builder = match mode {
        Mode::BusySpin => builder.wait_strategy(BusySpin),
        Mode::Blocking => builder.wait_strategy(Blocking),
    };
    let mut producer = builder
        .handle_events_with(handler)
        .build_single_producer()
        .expect("build");
    let start = Instant::now();
    for i in 0..items {
        producer.publish(|e| *e = i).expect("publish");
    }
    producer.shutdown().expect("shutdown");
    let elapsed = start.elapsed();
    assert_eq!(sum.load(Ordering::Relaxed), expected(items));
    rate(items, elapsed)
}

fn peer(items: u64, mode: Mode) -> f64 {
    use disruptor::{BusySpin, Producer, Sleep, build_single_producer};
    let sum = Arc::new(AtomicU64::new(0));
    let out = Arc::clone(&sum);
    let mut acc = 0u64;
    let handler = move |e: &u64, _seq: i64, end_of_batch: bool| {
        acc += *e;
        if end_of_batch {
            out.store(acc, Ordering::Relaxed);
        }
    };
    let start;
    match mode {
        Mode::BusySpin => {
            let mut producer = build_single_producer(SIZE, || 0u64, BusySpin)
                .handle_events_with(handler)
                .build();
            start = Instant::now();
            for i in 0..items {
                producer.publish(|e| *e = i);
            }
            drop(producer); // drains and joins
        }
        Mode::Blocking => {
            let mut producer =
                build_single_producer(SIZE, || 0u64, Sleep::new(Duration::from_micros(1)))
                    .handle_events_with(handler)
                    .build();
            start = Instant::now();
            for i in 0..items {
                producer.publish(|e| *e = i);
            }
            drop(producer);
        }
    }
    let elapsed = start.elapsed();
    assert_eq!(sum.load(Ordering::Relaxed), expected(items));
    rate(items, elapsed)
}

fn channel(items: u64, mode: Mode) -> f64 {
    let (tx, rx) = crossbeam_channel::bounded::<u64>(SIZE);
    let consumer = thread::spawn(move || {
        let mut acc = 0u64;
        for _ in 0..items {
            let v = match mode {
                Mode::Blocking => rx.recv().expect("recv"),
                Mode::BusySpin => loop {
                    match rx.try_recv() {
                        Ok(v) => break v,
                        Err(_) => spin_loop(),
                    }
                },
            };
            acc += v;
        }
        acc
    });
    let start = Instant::now();
    for i in 0..items {
        match mode {
            Mode::Blocking => tx.send(i).expect("send"),
            Mode::BusySpin => {
                while tx.try_send(i).is_err() {
                    spin_loop();
                }
            }
        }
    }
    let acc = consumer.join().expect("consumer");
    let elapsed = start.elapsed();
    assert_eq!(acc, expected(items));
    rate(items, elapsed)
}

fn main() {
    // `cargo bench` passes `--bench`; keep only the numbers.
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let rounds = args.first().copied().unwrap_or(7) as usize;
    let items = args.get(1).copied().unwrap_or(10_000_000);
    println!(
        "unicast 1P-1C, u64, ring {SIZE}, {items} items, {rounds} interleaved rounds (M items/s)"
    );
    let contenders: [Contender; 3] = [
        ("hotq-disruptor", hotq),
        ("disruptor", peer),
        ("crossbeam-channel", channel),
    ];
    for (mode, label) in [(Mode::BusySpin, "busy-spin"), (Mode::Blocking, "blocking")] {
        let mut results = vec![Vec::new(); contenders.len()];
        for r in 0..rounds {
            for k in 0..contenders.len() {
                let i = (r + k) % contenders.len();
                results[i].push((contenders[i].1)(items, mode));
            }
            let line: Vec<String> = contenders
                .iter()
                .zip(&results)
                .map(|((n, _), v)| format!("{n} {:.1}", v[r]))
                .collect();
            println!("{label} round {r}: {}", line.join(", "));
        }
        for ((name, _), v) in contenders.iter().zip(&results) {
            println!("{label} {name:>18}: median {:.1}", Summary::of(v));
        }
        for (i, (name, _)) in contenders.iter().enumerate().skip(1) {
            let ratios: Vec<f64> = results[0]
                .iter()
                .zip(&results[i])
                .map(|(a, b)| a / b)
                .collect();
            println!(
                "{label} hotq-disruptor / {name} per round: median {:.2}",
                Summary::of(&ratios)
            );
        }
    }
}
