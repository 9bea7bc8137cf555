//! What hotq-spsc's asymmetric barrier buys across two threads (issue
//! #13): interleaved rounds of the report's SPSC single-item throughput
//! (`workloads::spsc::throughput`, `Ops::Single`: 1P1C, `u64` items,
//! capacity 1024, both sides free-running with the report's backoff, so
//! the consumer keeps pace) on two rings that differ only in their wait
//! slots: `hotq-spsc` (asymmetric: a compiler fence and a load per push
//! and pop, `membarrier` on the side that sleeps) and `hotq-spsc-fenced`
//! (`RingBuffer::fenced`: a `fence(SeqCst)` per push and pop, what rings
//! get where `membarrier` is missing).
//!
//! ```sh
//! cargo build --release --locked -p hotq-benches --example spsc_fenced_ab
//! target/release/examples/spsc_fenced_ab             # 25 rounds of 30M items
//! target/release/examples/spsc_fenced_ab 11 10000000  # ROUNDS ITEMS
//! ```
//!
//! One untimed warm-up run of each ring, then every round runs both, the
//! order alternating (asymmetric first in odd rounds) so that a periodic
//! disturbance does not always hit the same side. Prints each round's
//! M items/s of both, their ratio fenced ÷ asymmetric and the cores' worth
//! of CPU other processes used meanwhile, then the median ratio with its
//! 95 % bootstrap interval (the report's own `report::bootstrap`) and the
//! load average before and after. Threads are pinned to cores 0 and 1
//! where there are two, as in the report. After the warm-up it prints how
//! long the rounds should take at the warm-up's pace. The default is sized
//! for under 3 minutes on a quiet 2-core machine, where hotq-spsc moves
//! about 27 M items/s (README, SPSC cap 1024, single: 1.1 s a run), if the
//! fenced ring is no more than twice as slow; a busy machine is many times
//! slower (pass fewer ROUNDS or ITEMS there). Quote figures only from a
//! quiet machine.

use std::time::Instant;

use hotq_benches::Summary;
use hotq_benches::channel::Channel;
use hotq_benches::contenders::{HotqSpsc, HotqSpscFenced};
use hotq_benches::load::Sample;
use hotq_benches::pin;
use hotq_benches::report::bootstrap;
use hotq_benches::workloads::spsc::{Ops, throughput};

/// The report's SPSC capacity.
const CAPACITY: usize = 1024;

/// One run of `C`: M items/s, and the cores' worth of CPU others used.
fn run<C: Channel>(items: u64) -> (f64, f64) {
    let before = Sample::now();
    let figure = throughput::<C>(items, CAPACITY, Ops::Single);
    let others = match (before, Sample::now()) {
        (Some(a), Some(b)) => a.others_until(&b, cores()),
        _ => f64::NAN,
    };
    (figure, others)
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn main() {
    let usage =
        "usage: spsc_fenced_ab [ROUNDS [ITEMS]]  (defaults: 25 rounds, 30000000 items per run)";
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u64| match args.get(i).map(|a| a.parse::<u64>()) {
        None => default,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("spsc_fenced_ab: ROUNDS and ITEMS must be positive integers\n{usage}");
            std::process::exit(2);
        }
    };
    if args.len() > 2 {
        eprintln!("{usage}");
        std::process::exit(2);
    }
    let rounds = number(0, 25);
    let items = number(1, 30_000_000);
    pin::configure(true);

    println!(
        "hotq-spsc: asymmetric ({}) vs fenced ({}), 1P1C u64, capacity {CAPACITY}, single items",
        HotqSpsc::NAME,
        HotqSpscFenced::NAME
    );
    println!(
        "rounds: {rounds}, items per run: {items}, pinned: {}",
        pin::cores() >= 2
    );
    println!("load average before: {}", loadavg());
    let t0 = Instant::now();
    // Warm-up: page in, spin up the cores' clocks; not counted.
    let warm = items.min(10_000_000);
    let w0 = Instant::now();
    run::<HotqSpsc>(warm);
    run::<HotqSpscFenced>(warm);
    let per_pair = w0.elapsed().as_secs_f64() / warm as f64;
    println!(
        "warm-up done; the rounds should take about {:.0} s at its pace",
        per_pair * items as f64 * rounds as f64
    );

    println!(
        "{:>5}  {:>11}  {:>11}  {:>13}  {:>7}",
        "round", "asym M/s", "fenced M/s", "fenced÷asym", "others"
    );
    let (mut asym, mut fenced, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for r in 1..=rounds {
        let ((a, a_others), (f, f_others)) = if r % 2 == 1 {
            let a = run::<HotqSpsc>(items);
            (a, run::<HotqSpscFenced>(items))
        } else {
            let f = run::<HotqSpscFenced>(items);
            (run::<HotqSpsc>(items), f)
        };
        let others = a_others.max(f_others);
        println!(
            "{r:>5}  {a:>11.2}  {f:>11.2}  {:>13.4}  {others:>7.2}",
            f / a
        );
        asym.push(a);
        fenced.push(f);
        ratios.push(f / a);
    }
    println!("load average after: {}", loadavg());
    let seed = bootstrap::seed_of("hotq-spsc fenced ÷ asymmetric, single items");
    let ratio = bootstrap::median(&ratios, seed);
    println!(
        "median M items/s: asymmetric {:.2}, fenced {:.2}",
        Summary::of(&asym).median,
        Summary::of(&fenced).median
    );
    println!(
        "median fenced÷asymmetric: {:.4}  (95 % bootstrap interval {:.4} .. {:.4}, {rounds} rounds, {:.0} s)",
        ratio.median,
        ratio.lo,
        ratio.hi,
        t0.elapsed().as_secs_f64()
    );
}
