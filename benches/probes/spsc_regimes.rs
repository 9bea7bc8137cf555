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

use std::hint::black_box;

use hotq_benches::pin;
use hotq_benches::workloads::pace::{self, CAP, Paced, RINGS};

/// `n` steps the compiler keeps (about a cycle each).
#[inline(never)]
fn work(n: u32) {
    let mut x = 0u32;
    for _ in 0..n {
        x = black_box(x + 1);
    }
}

fn main() {
    let arg = hotq_benches::cli::positional;
    let (items, rounds) = (arg(1, 2_000_000), arg(2, 5) as usize);
    pin::configure(true);
    println!(
        "{items} items per run, capacity {CAP}, median of {rounds} runs; ns per item (f: failed pushes, e: failed pops, per item)\n"
    );
    println!("| work | {} |", RINGS.join(" | "));
    println!("|---|---|---|---|");
    let steps = [0u32, 1, 2, 4, 8, 16];
    let cells = steps
        .iter()
        .map(|&n| (n, 0))
        .chain(steps.iter().skip(1).map(|&n| (0, n)));
    for (k, pc) in cells.enumerate() {
        let (p, c) = pc;
        let mut runs: [Vec<Paced>; 3] = Default::default();
        for round in 0..rounds {
            for i in 0..3 {
                let r = (round + k + i) % 3;
                runs[r].push(pace::ring(r, items, || work(p), || work(c)));
            }
        }
        let per = |n: u64| n as f64 / items as f64;
        let cell = |v: &mut Vec<Paced>| {
            v.sort_by(|a, b| a.ns.total_cmp(&b.ns));
            let m = v[v.len() / 2];
            format!("{:.2} (f {:.3}, e {:.3})", m.ns, per(m.full), per(m.empty))
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
