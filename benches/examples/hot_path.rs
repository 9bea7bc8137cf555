//! The uncontended hot path of one contender, for instruction counting:
//! fills a queue of 1024 to the brim with single sends, drains it with
//! single receives, `ROUNDS` times, on one thread. Deterministic, so
//! `valgrind --tool=callgrind` counts are reproducible on a busy machine:
//!
//! ```sh
//! cargo build --release -p hotq-benches --example hot_path
//! valgrind --tool=callgrind target/release/examples/hot_path rtrb 200
//! valgrind --tool=callgrind target/release/examples/hot_path rtrb 0   # setup only
//! ```
//! (instructions per item = difference / (200 × 1024)). With `--batch` the
//! same items move as slices of 256. Besides the report's contenders,
//! `hotq-spsc-fenced` is hotq-spsc with fenced wait slots (a
//! `fence(SeqCst)` per push and per pop, as where `membarrier` is missing):
//! its difference from `hotq-spsc` is what the asymmetric barrier saves.

use std::hint::black_box;

use hotq_benches::channel::Channel;
use hotq_benches::contenders::{self, ChannelVisitor, SharedVisitor};

const CAPACITY: usize = 1024;

struct Run {
    name: String,
    rounds: u64,
    batch: bool,
    found: bool,
}

impl SharedVisitor for Run {
    fn visit<C: hotq_benches::channel::Shared>(&mut self) {
        ChannelVisitor::visit::<C>(self);
    }
}

impl ChannelVisitor for Run {
    fn visit<C: Channel>(&mut self) {
        if C::NAME != self.name {
            return;
        }
        self.found = true;
        let (mut tx, mut rx) = C::with_capacity(CAPACITY);
        let mut sum = 0u64;
        if self.batch {
            assert!(C::SLICES, "{} has no slice operations", C::NAME);
            let items: Vec<u64> = (0..256).collect();
            let mut out = vec![0u64; 256];
            for _ in 0..self.rounds {
                for _ in 0..CAPACITY / 256 {
                    assert_eq!(C::send_slice(&mut tx, black_box(&items)), 256);
                }
                for _ in 0..CAPACITY / 256 {
                    assert_eq!(C::recv_slice(&mut rx, black_box(&mut out)), 256);
                    sum = sum.wrapping_add(out[255]);
                }
            }
        } else {
            for r in 0..self.rounds {
                for i in 0..CAPACITY as u64 {
                    C::send(&mut tx, black_box(r + i));
                }
                for _ in 0..CAPACITY {
                    sum = sum.wrapping_add(C::recv(&mut rx));
                }
            }
        }
        black_box(sum);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let batch = args.iter().any(|a| a == "--batch");
    let args: Vec<&String> = args.iter().filter(|a| *a != "--batch").collect();
    let (Some(name), Some(rounds)) = (args.first(), args.get(1).and_then(|r| r.parse().ok()))
    else {
        eprintln!("usage: hot_path CONTENDER ROUNDS [--batch]");
        std::process::exit(2);
    };
    let mut run = Run {
        name: name.to_string(),
        rounds,
        batch,
        found: false,
    };
    contenders::each_channel(&mut run);
    contenders::each_waiting_channel(&mut run);
    ChannelVisitor::visit::<contenders::HotqMpmcChannelTry>(&mut run);
    // The alternative to hotq-spsc's asymmetric barrier (issue #13).
    ChannelVisitor::visit::<contenders::HotqSpscFenced>(&mut run);
    if !run.found {
        eprintln!("hot_path: no contender named `{name}`");
        std::process::exit(2);
    }
}
