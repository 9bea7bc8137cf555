//! One round of the report's SPSC single-item throughput workload
//! (`benches/src/workloads/spsc.rs`, `Ops::Single`) against hotq-spsc
//! alone: capacity 1024, `u64` items `0..ITEMS`, one producer thread
//! pushing, one consumer thread popping and checking each item is the next
//! expected, both retrying with the report's backoff (64 spins, then
//! yields). Prints M items/s from the start signal to the last pop.
//! With a second argument `blocking`, the waiting suite's blocking
//! workload instead: each end in `push_timeout`/`pop_timeout` (an hour's
//! timeout), the crate's own spin-then-park wait, no loop of ours.
//! Built by `ab_spsc_try_path.sh` against each revision's `hotq-spsc`
//! (only `RingBuffer::new`, `push`, `pop` and the two timeouts: the API
//! both sides of the A/B have). No core pinning, unlike the report: the crate under test has no
//! such dependency, and both binaries run alike.

use std::sync::Barrier;
use std::thread;
use std::time::{Duration, Instant};

// The report's wait loop (benches/src/wait.rs, copied in by ab_rounds.sh).
#[allow(dead_code)]
mod wait;
use wait::until;

const CAPACITY: usize = 1024;

fn main() {
    let items: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(50_000_000);
    let blocking = match std::env::args().nth(2).as_deref() {
        None | Some("try") => false,
        Some("blocking") => true,
        Some(other) => panic!("round {other:?}: try or blocking"),
    };
    const HOUR: Duration = Duration::from_secs(3600);
    let (mut tx, mut rx) = hotq_spsc::RingBuffer::<u64>::new(CAPACITY);
    let start = Barrier::new(2);
    let elapsed = thread::scope(|s| {
        let start = &start;
        s.spawn(move || {
            start.wait();
            for i in 0..items {
                if blocking {
                    tx.push_timeout(i, HOUR).expect("consumer gone");
                } else {
                    until(|| tx.push(i).ok());
                }
            }
        });
        let consumer = s.spawn(move || {
            start.wait();
            let t0 = Instant::now();
            let mut sum = 0u64;
            for i in 0..items {
                let got = if blocking {
                    rx.pop_timeout(HOUR).expect("producer gone")
                } else {
                    until(|| rx.pop().ok())
                };
                assert_eq!(got, i, "lost, duplicated or reordered an item");
                sum = sum.wrapping_add(got);
            }
            let elapsed = t0.elapsed();
            assert_eq!(sum, items.wrapping_mul(items.wrapping_sub(1)) / 2);
            elapsed
        });
        consumer.join().expect("consumer panicked")
    });
    println!("{:.3}", items as f64 / elapsed.as_secs_f64() / 1e6);
}
