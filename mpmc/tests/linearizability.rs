//! Linearizability: thousands of short concurrent histories (3–4 threads,
//! 20–60 calls each, capacities 1–3 so that full and empty happen often)
//! of `push`, `pop` and `force_push`, each checked against the sequential
//! bounded FIFO queue by a Wing–Gong search (`lincheck`). The checker's own
//! tests show it rejects LIFO order, a lost item, a duplicated item, and
//! histories from a queue with a spurious-empty `pop`.

mod lincheck;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use hotq_mpmc::Queue;
use lincheck::{Call, Clock, Op, Ret, check};

/// The calls a history makes, on whatever queue is under test.
trait Fifo: Send + Sync + 'static {
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

/// A small deterministic generator (xorshift), so a failing history can be
/// replayed from its seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Runs one history: `threads` threads released together, each making
/// `calls` random calls (push, pop, and force_push if `force`), every value
/// unique (thread in the high bits). Calls are a few dozen nanoseconds, far
/// less than the skew of threads waking from a barrier, so the threads
/// first spin (yielding) until all have arrived, and pause a random few
/// spins between calls: the calls of the threads that share the cores then
/// really overlap.
fn run_history(
    queue: Arc<dyn Fifo>,
    threads: usize,
    calls: usize,
    force: bool,
    seed: u64,
) -> Vec<Op> {
    let clock = Clock::new();
    let arrived = Arc::new(AtomicUsize::new(0));
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let (queue, arrived) = (queue.clone(), arrived.clone());
            thread::spawn(move || {
                let mut rng =
                    Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (t as u64 + 1) << 40 | 1);
                let mut log = Vec::with_capacity(calls);
                // Relaxed: a start gate only; no data is handed over.
                arrived.fetch_add(1, Ordering::Relaxed);
                let mut spins = 0u32;
                while arrived.load(Ordering::Relaxed) < threads {
                    // Spin, so that the threads on the cores start together;
                    // yield now and then, so the others get to arrive.
                    spins += 1;
                    if spins % 4096 == 0 {
                        thread::yield_now();
                    }
                    std::hint::spin_loop();
                }
                for seq in 0..calls as u64 {
                    for _ in 0..rng.below(64) {
                        std::hint::spin_loop();
                    }
                    let v = (t as u64) << 32 | seq;
                    match rng.below(if force { 10 } else { 9 }) {
                        0..=3 => clock.record(
                            &mut log,
                            t,
                            Call::Push(v),
                            || queue.push(v),
                            |r| match r {
                                Ok(()) => Ret::Pushed,
                                Err(_) => Ret::Full,
                            },
                        ),
                        4..=8 => clock.record(&mut log, t, Call::Pop, || queue.pop(), Ret::Popped),
                        _ => clock.record(
                            &mut log,
                            t,
                            Call::ForcePush(v),
                            || queue.force_push(v),
                            Ret::Evicted,
                        ),
                    }
                }
                log
            })
        })
        .collect();
    handles
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect()
}

/// Histories per test: thousands in release builds, fewer in debug ones.
const HISTORIES: u64 = if cfg!(debug_assertions) { 1000 } else { 3000 };

fn check_many(force: bool) {
    for seed in 0..HISTORIES {
        let capacity = 1 + (seed % 3) as usize;
        let threads = 3 + (seed % 2) as usize;
        let calls = 20 + (seed * 7 % 41) as usize;
        let history = run_history(
            Arc::new(Queue::<u64>::new(capacity)),
            threads,
            calls,
            force,
            seed,
        );
        if let Err(e) = check(&history, capacity) {
            panic!("seed {seed}, capacity {capacity}, {threads} threads × {calls} calls: {e}");
        }
    }
}

#[test]
fn push_and_pop_are_linearizable() {
    check_many(false);
}

#[test]
fn force_push_push_and_pop_are_linearizable() {
    check_many(true);
}

/// A history op from (thread, call, result, invoked, returned).
fn op(thread: usize, call: Call, ret: Ret, invoked: u64, returned: u64) -> Op {
    Op {
        thread,
        call,
        ret,
        invoked,
        returned,
    }
}

#[test]
fn checker_accepts_overlapping_calls_in_either_order() {
    // Two pushes overlap, so the pops may see them in either order.
    let h = [
        op(0, Call::Push(1), Ret::Pushed, 0, 10),
        op(1, Call::Push(2), Ret::Pushed, 5, 15),
        op(0, Call::Pop, Ret::Popped(Some(2)), 20, 30),
        op(1, Call::Pop, Ret::Popped(Some(1)), 31, 40),
        op(0, Call::Pop, Ret::Popped(None), 41, 50),
    ];
    assert_eq!(check(&h, 2), Ok(()));
    // A pop that overlaps a push may miss it (it came first)...
    let h = [
        op(0, Call::Push(1), Ret::Pushed, 0, 10),
        op(1, Call::Pop, Ret::Popped(None), 5, 6),
    ];
    assert_eq!(check(&h, 1), Ok(()));
    // ... and a push that overlaps a pop may see the queue still full.
    let h = [
        op(0, Call::Push(1), Ret::Pushed, 0, 1),
        op(1, Call::Pop, Ret::Popped(Some(1)), 2, 10),
        op(0, Call::Push(2), Ret::Full, 3, 4),
    ];
    assert_eq!(check(&h, 1), Ok(()));
}

#[test]
fn checker_rejects_lifo_order() {
    let h = [
        op(0, Call::Push(1), Ret::Pushed, 0, 1),
        op(0, Call::Push(2), Ret::Pushed, 2, 3),
        op(1, Call::Pop, Ret::Popped(Some(2)), 4, 5),
    ];
    assert!(check(&h, 2).is_err());
}

#[test]
fn checker_rejects_a_lost_item() {
    // The push returned before the pop began, yet the pop saw nothing.
    let h = [
        op(0, Call::Push(1), Ret::Pushed, 0, 1),
        op(1, Call::Pop, Ret::Popped(None), 2, 3),
    ];
    assert!(check(&h, 1).is_err());
}

#[test]
fn checker_rejects_a_duplicated_item() {
    let h = [
        op(0, Call::Push(1), Ret::Pushed, 0, 1),
        op(1, Call::Pop, Ret::Popped(Some(1)), 2, 5),
        op(2, Call::Pop, Ret::Popped(Some(1)), 3, 6),
    ];
    assert!(check(&h, 1).is_err());
}

#[test]
fn checker_rejects_a_spurious_full_and_a_wrong_eviction() {
    let h = [op(0, Call::Push(1), Ret::Full, 0, 1)];
    assert!(check(&h, 1).is_err());
    let h = [
        op(0, Call::Push(1), Ret::Pushed, 0, 1),
        op(0, Call::Push(2), Ret::Pushed, 2, 3),
        op(0, Call::ForcePush(3), Ret::Evicted(Some(2)), 4, 5),
    ];
    assert!(check(&h, 2).is_err());
}

#[test]
fn checker_rejects_histories_of_a_spurious_empty_pop() {
    // Real concurrent runs of the broken queue: most histories have a pop
    // that reported empty while an item sat in the queue for its whole
    // duration.
    let rejected = (0..200u64)
        .filter(|&seed| {
            let broken = SpuriousEmpty {
                queue: Queue::new(3),
                pops: AtomicUsize::new(0),
            };
            let history = run_history(Arc::new(broken), 3, 40, false, seed);
            check(&history, 3).is_err()
        })
        .count();
    assert!(
        rejected > 0,
        "the checker accepted every history of a queue with spurious empties"
    );
}
