//! MPMC throughput, hotq-mpmc against crossbeam-queue's `ArrayQueue`, in
//! one run.
//!
//! `cargo bench -p hotq-benches --bench mpmc_throughput [-- ROUNDS [ITEMS [CAPACITY]]]`
//!
//! For each shape (1P1C, 2P2C), P producers each push `ITEMS / P` u64
//! items tagged with the producer's id; C consumers pop until the queue is
//! empty after every producer has finished, each checking that every
//! producer's items reach it in increasing order, and the sums are checked
//! at the end (a contender that loses or duplicates an item fails the
//! run). No shared counter is touched per item: only the queue is measured. Waiting spins with `spin_loop` and
//! yields every 64 failed tries, so oversubscribed shapes still progress.
//! Contenders alternate round by round; the report gives medians with
//! min–max and the median of the per-round ratios.

use std::hint::spin_loop;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use hotq_benches::interleave;

/// The operations a contender offers, behind one small adapter each.
trait Mpmc: Send + Sync + 'static {
    const NAME: &'static str;
    fn new(capacity: usize) -> Self;
    fn push(&self, v: u64) -> Result<(), u64>;
    fn pop(&self) -> Option<u64>;
}

impl Mpmc for hotq_mpmc::Queue<u64> {
    const NAME: &'static str = "hotq-mpmc";
    fn new(capacity: usize) -> Self {
        hotq_mpmc::Queue::new(capacity)
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

impl Mpmc for crossbeam_queue::ArrayQueue<u64> {
    const NAME: &'static str = "ArrayQueue";
    fn new(capacity: usize) -> Self {
        crossbeam_queue::ArrayQueue::new(capacity)
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

/// Spins, yielding every 64 tries so a thread that shares a core with the
/// one it waits for lets it run.
fn wait(tries: &mut u32) {
    *tries += 1;
    if *tries % 64 == 0 {
        thread::yield_now();
    } else {
        spin_loop();
    }
}

/// Producer id in the top 8 bits, sequence below.
const SHIFT: u32 = 56;

/// One round: time from the start signal to the last pop.
fn round<Q: Mpmc>(producers: u64, consumers: u64, items: u64, capacity: usize) -> Duration {
    let q = Arc::new(Q::new(capacity));
    let per_producer = items / producers;
    let total = per_producer * producers;
    let finished = Arc::new(AtomicU64::new(0));
    let start = Arc::new(Barrier::new((producers + consumers) as usize + 1));
    let ps: Vec<_> = (0..producers)
        .map(|p| {
            let (q, start, finished) = (q.clone(), start.clone(), finished.clone());
            thread::spawn(move || {
                start.wait();
                for s in 0..per_producer {
                    let mut v = p << SHIFT | s;
                    let mut tries = 0;
                    while let Err(back) = q.push(v) {
                        v = back;
                        wait(&mut tries);
                    }
                }
                // Release pairs with the consumers' Acquire load: every
                // push of this producer is complete before it counts.
                finished.fetch_add(1, Ordering::Release);
            })
        })
        .collect();
    let cs: Vec<_> = (0..consumers)
        .map(|_| {
            let (q, start, finished) = (q.clone(), start.clone(), finished.clone());
            thread::spawn(move || {
                let mut next = vec![0u64; producers as usize];
                let (mut sum, mut count) = (0u64, 0u64);
                start.wait();
                let mut tries = 0;
                loop {
                    match q.pop() {
                        Some(v) => {
                            let (p, s) = ((v >> SHIFT) as usize, v & ((1 << SHIFT) - 1));
                            assert!(s >= next[p], "{}: producer {p} reordered", Q::NAME);
                            next[p] = s + 1;
                            sum = sum.wrapping_add(v);
                            count += 1;
                        }
                        // Empty after every producer finished (Acquire pairs
                        // with their Release): nothing more will come.
                        None if finished.load(Ordering::Acquire) == producers => match q.pop() {
                            None => break,
                            Some(_) => panic!("{}: empty, then not", Q::NAME),
                        },
                        None => wait(&mut tries),
                    }
                }
                (sum, count)
            })
        })
        .collect();
    start.wait();
    let t0 = Instant::now();
    let (sum, count) = cs.into_iter().fold((0u64, 0u64), |(s, n), c| {
        let (cs, cn) = c.join().unwrap();
        (s.wrapping_add(cs), n + cn)
    });
    let elapsed = t0.elapsed();
    ps.into_iter().for_each(|p| p.join().unwrap());
    let want = (0..producers).fold(0u64, |a, p| {
        a.wrapping_add((p << SHIFT) * per_producer)
            .wrapping_add(per_producer * (per_producer - 1) / 2)
    });
    assert_eq!(count, total, "{}: lost or duplicated items", Q::NAME);
    assert_eq!(sum, want, "{}: lost or duplicated items", Q::NAME);
    assert!(q.pop().is_none(), "{}: items beyond the last", Q::NAME);
    elapsed
}

type Hotq = hotq_mpmc::Queue<u64>;
type Peer = crossbeam_queue::ArrayQueue<u64>;

fn main() {
    // `cargo bench` passes `--bench`; numbers are ours.
    let args: Vec<u64> = std::env::args().filter_map(|a| a.parse().ok()).collect();
    let rounds = args.first().copied().unwrap_or(11) as usize;
    let items = args.get(1).copied().unwrap_or(10_000_000);
    let capacity = args.get(2).copied().unwrap_or(1024) as usize;
    println!(
        "MPMC throughput: {items} u64 items, capacity {capacity}, {rounds} interleaved rounds"
    );
    let names = [Hotq::NAME, Peer::NAME];
    let per_second = |d: Duration| items as f64 / d.as_secs_f64() / 1e6;
    for (p, c) in [(1, 1), (2, 2)] {
        let label = format!("{p}P{c}C");
        interleave(
            rounds,
            || per_second(round::<Hotq>(p, c, items, capacity)),
            || per_second(round::<Peer>(p, c, items, capacity)),
            |r, a, b| {
                println!(
                    "{label} round {r:2}: {:>10} {a:6.1} M/s   {:>10} {b:6.1} M/s   ratio {:.2}",
                    names[0],
                    names[1],
                    a / b
                )
            },
        )
        .report(&label, names, "M items/s", 1);
    }
}
