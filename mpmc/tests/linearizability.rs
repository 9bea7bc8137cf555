//! Linearizability: thousands of short concurrent histories (3–4 threads,
//! 20–60 calls each, capacities 1–3 so that full and empty happen often)
//! of `push`, `pop` and `force_push`, and of those with the batch calls
//! `push_many` (one atomic append of a prefix, at least one item unless
//! full: the model's `PushUpTo`) and `pop_many` (one atomic removal of 1
//! to `limit` of the oldest items unless empty: its `PopUpTo`), each
//! checked against the sequential
//! bounded FIFO queue by `hotq_testkit`'s Wing–Gong–Lowe search. The
//! checker's own tests (in `hotq-testkit`) show it rejects LIFO order, a
//! lost, a duplicated item and a spurious empty; the last test here shows
//! it rejects real concurrent histories of this queue made to report a
//! spurious empty, and of a batch pop made of single pops.

use std::sync::atomic::{AtomicUsize, Ordering};

use hotq_mpmc::Queue;
use hotq_testkit::fifo::{self, Call, FifoOp, Ret};
use hotq_testkit::history::{self, Body, Log};
use hotq_testkit::{Rng, TimeLimit};

/// The calls a history makes, on whatever queue is under test.
trait Fifo: Sync {
    fn push(&self, v: u64) -> Result<(), u64>;
    fn pop(&self) -> Option<u64>;
    fn force_push(&self, v: u64) -> Option<u64>;
    fn push_many(&self, items: &mut Vec<u64>) -> usize;
    fn pop_many(&self, buf: &mut Vec<u64>, limit: usize) -> usize;
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
    fn push_many(&self, items: &mut Vec<u64>) -> usize {
        Queue::push_many(self, items)
    }
    fn pop_many(&self, buf: &mut Vec<u64>, limit: usize) -> usize {
        Queue::pop_many(self, buf, limit)
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
    fn push_many(&self, items: &mut Vec<u64>) -> usize {
        self.queue.push_many(items)
    }
    fn pop_many(&self, buf: &mut Vec<u64>, limit: usize) -> usize {
        self.queue.pop_many(buf, limit)
    }
}

/// A deliberately broken batch pop: one `pop` per item, letting other
/// threads run between them, so another consumer's pop can take an item
/// between two of the batch's (what one claim for the whole batch rules
/// out): the batch is then not a prefix of the queue at any instant.
struct PopsOneByOne(Queue<u64>);

impl Fifo for PopsOneByOne {
    fn push(&self, v: u64) -> Result<(), u64> {
        self.0.push(v)
    }
    fn pop(&self) -> Option<u64> {
        self.0.pop()
    }
    fn force_push(&self, v: u64) -> Option<u64> {
        self.0.force_push(v)
    }
    fn push_many(&self, items: &mut Vec<u64>) -> usize {
        self.0.push_many(items)
    }
    fn pop_many(&self, buf: &mut Vec<u64>, limit: usize) -> usize {
        let mut taken = 0;
        while taken < limit {
            match self.0.pop() {
                Some(v) => buf.push(v),
                None => break,
            }
            taken += 1;
            std::thread::yield_now();
        }
        taken
    }
}

/// Which calls a history makes besides `push` and `pop`.
#[derive(Clone, Copy)]
struct Mix {
    force: bool,
    batch: bool,
}

/// One thread of a history: `calls` random calls (push, pop, force_push
/// if `mix.force`, push_many and pop_many if `mix.batch`), every value
/// unique (thread in the high bits), a random few spins apart so the
/// threads' calls overlap in varied ways.
fn body(queue: &dyn Fifo, calls: usize, mix: Mix, seed: u64) -> Body<'_, Call, Ret> {
    Box::new(move |log: &mut Log<Call, Ret>| {
        let t = log.thread();
        let mut rng = Rng::for_thread(seed, t);
        for seq in 0..calls as u64 {
            rng.pause(64);
            // Room below for a batch's items: `v + i`, `i < 4`.
            let v = (t as u64) << 32 | seq << 2;
            if mix.batch && rng.below(3) == 0 {
                // A batch's length is the queue's to choose within bounds
                // (see `PushUpTo`/`PopUpTo`): the call records it.
                let invoked = log.invoke();
                if rng.below(2) == 0 {
                    let values: Vec<u64> = (0..rng.below(4)).map(|i| v + i).collect();
                    let mut items = values.clone();
                    let took = queue.push_many(&mut items);
                    assert_eq!(items, values[took..], "what did not go stays");
                    log.respond(invoked, Call::PushUpTo { values, took }, Ret::Count(took));
                } else {
                    let max = rng.below_usize(5);
                    let mut buf = Vec::new();
                    let took = queue.pop_many(&mut buf, max);
                    assert_eq!(took, buf.len());
                    log.respond(invoked, Call::PopUpTo { max, took }, Ret::Values(buf));
                }
                continue;
            }
            match rng.below(if mix.force { 10 } else { 9 }) {
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

fn run_history(queue: &dyn Fifo, threads: usize, calls: usize, mix: Mix, seed: u64) -> Vec<FifoOp> {
    history::run(
        (0..threads)
            .map(|_| body(queue, calls, mix, seed))
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

fn check_many(mix: Mix) {
    // A history whose queue loses track of a slot spins forever inside a
    // call: fail it as a hang instead of stalling the run.
    let _limit = TimeLimit::new("linearizability histories");
    for seed in 0..HISTORIES {
        let capacity = 1 + (seed % 3) as usize;
        let threads = 3 + (seed % 2) as usize;
        let calls = if cfg!(miri) {
            20
        } else {
            20 + (seed * 7 % 41) as usize
        };
        let queue = Queue::<u64>::new(capacity);
        let history = run_history(&queue, threads, calls, mix, seed);
        if let Err(e) = fifo::check(&history, capacity) {
            panic!("seed {seed}, capacity {capacity}, {threads} threads × {calls} calls: {e}");
        }
    }
    println!("{HISTORIES} histories checked");
}

#[test]
fn push_and_pop_are_linearizable() {
    check_many(Mix {
        force: false,
        batch: false,
    });
}

#[test]
fn force_push_push_and_pop_are_linearizable() {
    check_many(Mix {
        force: true,
        batch: false,
    });
}

#[test]
fn batch_calls_with_single_calls_are_linearizable() {
    check_many(Mix {
        force: false,
        batch: true,
    });
}

#[test]
fn batch_calls_with_force_push_are_linearizable() {
    check_many(Mix {
        force: true,
        batch: true,
    });
}

/// Only `push` and `pop`.
const SINGLE: Mix = Mix {
    force: false,
    batch: false,
};

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
            let history = run_history(&broken, 3, 40, SINGLE, seed);
            fifo::check(&history, 3).is_err()
        })
        .count();
    assert!(
        rejected > 0,
        "the checker accepted every history of a queue with spurious empties"
    );
}

#[test]
fn checker_rejects_histories_of_a_batch_pop_made_of_single_pops() {
    // Real concurrent runs of the broken batch: some history has a batch
    // that took items with another consumer's in between, a FIFO order no
    // single atomic removal gives.
    let runs = if cfg!(miri) { 4 } else { 300 };
    let rejected = (0..runs)
        .filter(|&seed| {
            let broken = PopsOneByOne(Queue::new(3));
            let mix = Mix {
                force: false,
                batch: true,
            };
            let history = run_history(&broken, 3, 40, mix, seed);
            fifo::check(&history, 3).is_err()
        })
        .count();
    assert!(
        rejected > 0,
        "the checker accepted every history of a batch pop made of single pops"
    );
}
