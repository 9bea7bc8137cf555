//! The try paths of hotq-mpmc's `Queue` and crossbeam's `ArrayQueue` that
//! `hot_path` does not reach, for instruction counting (issue #15 §3): in
//! the report's MPMC 1P1C workload the consumer often meets an empty
//! queue (or the producer a full one), so a failed try costs as much as a
//! successful one. On one thread, deterministic, `ROUNDS` × 1024 times:
//!
//! - `empty`: a pop on an empty queue (returns `None`);
//! - `full`: a push on a full queue of 1024 (returns `Err`);
//! - `pace`: push one, pop it, pop again on the now empty queue: a
//!   consumer that keeps pace and finds the queue empty once per item.
//!
//! ```sh
//! cargo build --release -p hotq-benches --example mpmc_tries
//! valgrind --tool=callgrind target/release/examples/mpmc_tries hotq-mpmc empty 200
//! valgrind --tool=callgrind target/release/examples/mpmc_tries hotq-mpmc empty 0   # setup only
//! ```
//! (instructions per try = difference / (200 × 1024)).

use std::hint::black_box;

const CAPACITY: usize = 1024;

/// The two queues' try operations, as the report's adapters call them.
trait Tries {
    fn make() -> Self;
    fn push(&self, v: u64) -> Result<(), u64>;
    fn pop(&self) -> Option<u64>;
}

impl Tries for hotq_mpmc::Queue<u64> {
    fn make() -> Self {
        hotq_mpmc::Queue::new(CAPACITY)
    }
    #[inline]
    fn push(&self, v: u64) -> Result<(), u64> {
        hotq_mpmc::Queue::push(self, v)
    }
    #[inline]
    fn pop(&self) -> Option<u64> {
        hotq_mpmc::Queue::pop(self)
    }
}

impl Tries for crossbeam_queue::ArrayQueue<u64> {
    fn make() -> Self {
        crossbeam_queue::ArrayQueue::new(CAPACITY)
    }
    #[inline]
    fn push(&self, v: u64) -> Result<(), u64> {
        crossbeam_queue::ArrayQueue::push(self, v)
    }
    #[inline]
    fn pop(&self) -> Option<u64> {
        crossbeam_queue::ArrayQueue::pop(self)
    }
}

fn run<Q: Tries>(shape: &str, rounds: u64) {
    let q = black_box(Q::make());
    let mut sum = 0u64;
    match shape {
        "empty" => {
            for _ in 0..rounds * CAPACITY as u64 {
                assert!(black_box(&q).pop().is_none());
            }
        }
        "full" => {
            for i in 0..CAPACITY as u64 {
                q.push(i).expect("room");
            }
            for i in 0..rounds * CAPACITY as u64 {
                assert!(black_box(&q).push(black_box(i)).is_err());
            }
        }
        "pace" => {
            for i in 0..rounds * CAPACITY as u64 {
                q.push(black_box(i)).expect("room");
                sum = sum.wrapping_add(black_box(&q).pop().expect("an item"));
                assert!(black_box(&q).pop().is_none());
            }
        }
        _ => {
            eprintln!("mpmc_tries: shape is empty, full or pace");
            std::process::exit(2);
        }
    }
    black_box(sum);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(name), Some(shape), Some(rounds)) = (
        args.first(),
        args.get(1),
        args.get(2).and_then(|r| r.parse().ok()),
    ) else {
        eprintln!("usage: mpmc_tries hotq-mpmc|ArrayQueue empty|full|pace ROUNDS");
        std::process::exit(2);
    };
    match name.as_str() {
        "hotq-mpmc" => run::<hotq_mpmc::Queue<u64>>(shape, rounds),
        "ArrayQueue" => run::<crossbeam_queue::ArrayQueue<u64>>(shape, rounds),
        _ => {
            eprintln!("mpmc_tries: contender is hotq-mpmc or ArrayQueue");
            std::process::exit(2);
        }
    }
}
