//! Which side of an SPSC ring waits, and what it costs: hotq-spsc, rtrb
//! and ringbuf at capacity 1024 with a little extra work per item on the
//! producer's side (`p`) or on the consumer's (`c`), swept from none up.
//!
//! The three rings run one algorithm (a cached copy of the other side's
//! index, refreshed only when it says full or empty), so their speed on
//! two cores is set less by their instructions than by where their two
//! sides settle: a producer faster than the consumer fills the ring and
//! then reloads the consumer's index on every try, writing each freed slot
//! on the line the consumer is reading (*fall-behind*); a producer slower
//! than the consumer lets the consumer catch up and poll the producer's
//! index (*near-empty*); in between, neither waits and the lines move
//! while both run (*keep-pace*). A nanosecond of work on one side moves a
//! ring from one mode to another, and the modes differ several-fold: this
//! shows where each ring sits with no work (the report's SPSC workload)
//! and that each lands in the same modes once its sides are made slower.
//!
//! ```sh
//! cargo build --release -p hotq-benches --example spsc_regimes
//! target/release/examples/spsc_regimes [ITEMS per run, default 2000000] [ROUNDS, default 5]
//! ```
//!
//! Each run: `ITEMS` u64 items, each thread pinned to a core of its own,
//! a failed try followed by a spin hint (no yield: run it on a quiet
//! two-core machine); every item is checked in order on arrival. The work
//! is `n` steps of a loop the compiler cannot remove, in a function that is
//! never inlined, called on both sides of every ring (with 0 where a side
//! has none), so each ring's loop has the same calls. Every (side, work)
//! cell runs the three rings in a rotating order, `ROUNDS` times; a cell
//! prints the median ns per item (the consumer's wall time ÷ items) and
//! the failed pushes (`f`) and pops (`e`) per item of the median run.

use std::hint::{black_box, spin_loop};
use std::time::Instant;

use hotq_benches::pin;
use hotq_benches::workloads::pair::pair;

/// Every ring's capacity: the report's.
const CAP: usize = 1024;

/// `n` steps the compiler keeps (about a cycle each).
#[inline(never)]
fn work(n: u32) {
    let mut x = 0u32;
    for _ in 0..n {
        x = black_box(x + 1);
    }
}

/// One run: ns per item, failed pushes and pops per item.
#[derive(Clone, Copy)]
struct Run {
    ns: f64,
    full: f64,
    empty: f64,
}

/// One run of one ring built as `(tx, rx)`, with `p` steps of work before
/// each push and `c` after each pop.
fn run<Tx: Send, Rx: Send>(
    items: u64,
    (mut tx, mut rx): (Tx, Rx),
    (p, c): (u32, u32),
    push: impl Fn(&mut Tx, u64) -> bool + Send,
    pop: impl Fn(&mut Rx) -> Option<u64> + Send,
) -> Run {
    let mut full = 0u64;
    let full_out = &mut full;
    let (ns, empty) = pair(
        1,
        move || {
            for i in 0..items {
                work(p);
                while !push(&mut tx, i) {
                    *full_out += 1;
                    spin_loop();
                }
            }
        },
        move || {
            let t0 = Instant::now();
            let mut empty = 0u64;
            for i in 0..items {
                loop {
                    if let Some(v) = pop(&mut rx) {
                        assert_eq!(v, i, "lost, duplicated or reordered an item");
                        break;
                    }
                    empty += 1;
                    spin_loop();
                }
                work(c);
            }
            (t0.elapsed().as_nanos() as f64 / items as f64, empty)
        },
    );
    let per = |n: u64| n as f64 / items as f64;
    Run {
        ns,
        full: per(full),
        empty: per(empty),
    }
}

/// Ring `r` (0 hotq-spsc, 1 rtrb, 2 ringbuf) with work `pc`.
fn ring(r: usize, items: u64, pc: (u32, u32)) -> Run {
    match r {
        0 => run(
            items,
            hotq_spsc::RingBuffer::<u64>::new(CAP),
            pc,
            |tx: &mut hotq_spsc::Producer<u64>, i| tx.push(i).is_ok(),
            |rx: &mut hotq_spsc::Consumer<u64>| rx.pop().ok(),
        ),
        1 => run(
            items,
            rtrb::RingBuffer::<u64>::new(CAP),
            pc,
            |tx: &mut rtrb::Producer<u64>, i| tx.push(i).is_ok(),
            |rx: &mut rtrb::Consumer<u64>| rx.pop().ok(),
        ),
        _ => {
            use ringbuf::traits::{Consumer as _, Producer as _, Split as _};
            run(
                items,
                ringbuf::HeapRb::<u64>::new(CAP).split(),
                pc,
                |tx: &mut ringbuf::HeapProd<u64>, i| tx.try_push(i).is_ok(),
                |rx: &mut ringbuf::HeapCons<u64>| rx.try_pop(),
            )
        }
    }
}

fn main() {
    let arg = |i: usize, d: u64| {
        std::env::args()
            .nth(i)
            .map(|s| s.parse().expect("a positive integer"))
            .unwrap_or(d)
    };
    let (items, rounds) = (arg(1, 2_000_000), arg(2, 5) as usize);
    pin::configure(true);
    println!(
        "{items} items per run, capacity {CAP}, median of {rounds} runs; ns per item (f: failed pushes, e: failed pops, per item)\n"
    );
    println!("| work | hotq-spsc | rtrb | ringbuf |");
    println!("|---|---|---|---|");
    let steps = [0u32, 1, 2, 4, 8, 16];
    let cells = steps
        .iter()
        .map(|&n| (n, 0))
        .chain(steps.iter().skip(1).map(|&n| (0, n)));
    for (k, pc) in cells.enumerate() {
        let mut runs: [Vec<Run>; 3] = Default::default();
        for round in 0..rounds {
            for i in 0..3 {
                let r = (round + k + i) % 3;
                runs[r].push(ring(r, items, pc));
            }
        }
        let cell = |v: &mut Vec<Run>| {
            v.sort_by(|a, b| a.ns.total_cmp(&b.ns));
            let m = v[v.len() / 2];
            format!("{:.2} (f {:.3}, e {:.3})", m.ns, m.full, m.empty)
        };
        let work = match pc {
            (0, 0) => "none".to_string(),
            (p, 0) => format!("p {p}"),
            (_, c) => format!("c {c}"),
        };
        let [h, t, b] = &mut runs;
        println!("| {work} | {} | {} | {} |", cell(h), cell(t), cell(b));
    }
}
