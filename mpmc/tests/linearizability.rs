//! Linearizability: thousands of short concurrent histories (3–4 threads,
//! 20–60 calls each, capacities 1–3 so that full and empty happen often)
//! of `push`, `pop` and `force_push`, each checked against the sequential
//! bounded FIFO queue by `hotq_testkit`'s Wing–Gong–Lowe search. The
//! checker's own tests (in `hotq-testkit`) show it rejects LIFO order, a
//! lost, a duplicated item and a spurious empty; the last test here shows
//! it rejects real concurrent histories of this queue made to report a
//! spurious empty.

use std::sync::atomic::{AtomicUsize, Ordering};

use hotq_mpmc::Queue;
use hotq_testkit::Rng;
use hotq_testkit::fifo::{self, Call, FifoOp, Ret};
use hotq_testkit::history::{self, Body, Log};

/// The calls a history makes, on whatever queue is under test.
trait Fifo: Sync {
    fn push(&self, v: u64) -> Result<(), u64>;
    fn pop(&self) -> Option<u64>;
    fn force_push(&self, v: u64) -> Option<u64>;
}

impl Fifo for Queue<u64> {
    fn push(&self, v: u64) -> Result<(), u64> {
        Queue::push(self, v)
    }
    fn pop(&self) -> Option<u64> {
        Queue::pop(self)
    }
    fn force_push(&self, v: u64) -> Option<u64> {
        Queue::force_push(self, v)
    }
}

/// A deliberately broken queue: every other `pop` reports empty without
/// looking, as Vyukov's original does when the next slot's producer is
/// slow even though later slots are ready.
struct SpuriousEmpty {
    queue: Queue<u64>,
    pops: AtomicUsize,
}

impl Fifo for SpuriousEmpty {
    fn push(&self, v: u64) -> Result<(), u64> {
        self.queue.push(v)
    }
    fn pop(&self) -> Option<u64> {
        if self.pops.fetch_add(1, Ordering::Relaxed) % 2 == 1 {
            return None;
        }
        self.queue.pop()
    }
    fn force_push(&self, v: u64) -> Option<u64> {
        self.queue.force_push(v)
    }
}

/// One thread of a history: `calls` random calls (push, pop, and
/// force_push if `force`), every value unique (thread in the high bits),
/// a random few spins apart so the threads' calls overlap in varied ways.
fn body(queue: &dyn Fifo, calls: usize, force: bool, seed: u64) -> Body<'_, Call, Ret> {
    Box::new(move |log: &mut Log<Call, Ret>| {
        let t = log.thread();
        let mut rng = Rng::for_thread(seed, t);
        for seq in 0..calls as u64 {
            rng.pause(64);
            let v = (t as u64) << 32 | seq;
            match rng.below(if force { 10 } else { 9 }) {
                0..=3 => log.record(
                    Call::Push(v),
                    || queue.push(v),
                    |r| match r {
                        Ok(()) => Ret::Pushed,
                        Err(_) => Ret::Full,
                    },
                ),
                4..=8 => log.record(Call::Pop, || queue.pop(), Ret::Popped),
                _ => log.record(Call::ForcePush(v), || queue.force_push(v), Ret::Evicted),
            }
        }
    })
}

fn run_history(
    queue: &dyn Fifo,
    threads: usize,
    calls: usize,
    force: bool,
    seed: u64,
) -> Vec<FifoOp> {
    history::run(
        (0..threads)
            .map(|_| body(queue, calls, force, seed))
            .collect(),
    )
}

/// Histories per test: thousands natively (more in release builds), a few
/// under miri, which checks the same histories for undefined behaviour.
const HISTORIES: u64 = if cfg!(miri) {
    4
} else if cfg!(debug_assertions) {
    1000
} else {
    3000
};

fn check_many(force: bool) {
    for seed in 0..HISTORIES {
        let capacity = 1 + (seed % 3) as usize;
        let threads = 3 + (seed % 2) as usize;
        let calls = if cfg!(miri) {
            20
        } else {
            20 + (seed * 7 % 41) as usize
        };
        let queue = Queue::<u64>::new(capacity);
        let history = run_history(&queue, threads, calls, force, seed);
        if let Err(e) = fifo::check(&history, capacity) {
            panic!("seed {seed}, capacity {capacity}, {threads} threads × {calls} calls: {e}");
        }
    }
    println!("{HISTORIES} histories checked");
}

#[test]
fn push_and_pop_are_linearizable() {
    check_many(false);
}

#[test]
fn force_push_push_and_pop_are_linearizable() {
    check_many(true);
}

#[test]
fn checker_rejects_histories_of_a_spurious_empty_pop() {
    // Real concurrent runs of the broken queue: most histories have a pop
    // that reported empty while an item sat in the queue for its whole
    // duration.
    let runs = if cfg!(miri) { 2 } else { 200 };
    let rejected = (0..runs)
        .filter(|&seed| {
            let broken = SpuriousEmpty {
                queue: Queue::new(3),
                pops: AtomicUsize::new(0),
            };
            let history = run_history(&broken, 3, 40, false, seed);
            fifo::check(&history, 3).is_err()
        })
        .count();
    assert!(
        rejected > 0,
        "the checker accepted every history of a queue with spurious empties"
    );
}
