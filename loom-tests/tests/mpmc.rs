//! Loom models of `hotq-mpmc`: several producers and consumers on
//! capacities 1 and 2, across at least one lap of the ring.
//!
//! Run: `RUSTFLAGS="--cfg loom" cargo test -p hotq-loom-tests --release
//! --target-dir target/loom --test mpmc -- --nocapture`.
#![cfg(loom)]

use hotq_loom_tests::{DropLog, Spin, model};
use hotq_mpmc::Queue;
use loom::sync::Arc;
use loom::sync::atomic::{AtomicBool, Ordering};
use loom::thread;

/// Pushes `value`, waiting while the queue is full.
fn push<T>(q: &Queue<T>, mut value: T) {
    let mut spin = Spin::new();
    while let Err(back) = q.push(value) {
        value = back;
        spin.wait();
    }
}

/// Pops one item, waiting while the queue is empty.
fn pop<T>(q: &Queue<T>) -> T {
    let mut spin = Spin::new();
    loop {
        if let Some(v) = q.pop() {
            return v;
        }
        spin.wait();
    }
}

/// Asserts that `seen` holds every `(producer, seq)` of `sent` exactly
/// once, and that each consumer's own items of each producer came in order.
fn assert_exactly_once_in_order(sent: &[(usize, usize)], per_consumer: &[Vec<(usize, usize)>]) {
    for got in per_consumer {
        for w in got.windows(2) {
            if w[0].0 == w[1].0 {
                assert!(w[0].1 < w[1].1, "producer order broken: {got:?}");
            }
        }
    }
    let mut all: Vec<_> = per_consumer.concat();
    all.sort();
    let mut want = sent.to_vec();
    want.sort();
    assert_eq!(all, want, "lost or duplicated");
}

/// `producers[i]` items from producer i, `consumers[j]` pops by consumer j
/// (the main thread is the last consumer), through a queue of `capacity`
/// whose positions start `offset` slots into a lap, so that a few items
/// cross into the next lap.
fn producers_consumers(
    name: &str,
    bound: usize,
    capacity: usize,
    offset: usize,
    producers: &'static [usize],
    consumers: &'static [usize],
) {
    model(name, bound, move || {
        let q = Arc::new(Queue::new(capacity));
        for _ in 0..offset {
            q.push((usize::MAX, 0)).unwrap();
            q.pop().unwrap();
        }
        let sent: Vec<(usize, usize)> = producers
            .iter()
            .enumerate()
            .flat_map(|(p, &n)| (0..n).map(move |s| (p, s)))
            .collect();
        let ps: Vec<_> = producers
            .iter()
            .enumerate()
            .map(|(p, &n)| {
                let q = q.clone();
                thread::spawn(move || (0..n).for_each(|s| push(&q, (p, s))))
            })
            .collect();
        let (last, others) = consumers.split_last().unwrap();
        let cs: Vec<_> = others
            .iter()
            .map(|&n| {
                let q = q.clone();
                thread::spawn(move || (0..n).map(|_| pop(&q)).collect::<Vec<_>>())
            })
            .collect();
        let mine: Vec<_> = (0..*last).map(|_| pop(&q)).collect();
        ps.into_iter().for_each(|t| t.join().unwrap());
        let mut got: Vec<_> = cs.into_iter().map(|t| t.join().unwrap()).collect();
        got.push(mine);
        assert_exactly_once_in_order(&sent, &got);
        assert_eq!(q.pop(), None);
        assert!(q.is_empty());
    });
}

// Capacity 1: every item is a new lap. Capacity 2: three items, or a start
// one slot into the lap, cross into the next one.

#[test]
fn two_producers_one_consumer_capacity_1() {
    producers_consumers(
        "two_producers_one_consumer_capacity_1",
        3,
        1,
        0,
        &[1, 1],
        &[2],
    );
}

#[test]
fn two_producers_one_consumer_capacity_2() {
    producers_consumers(
        "two_producers_one_consumer_capacity_2",
        2,
        2,
        0,
        &[2, 1],
        &[3],
    );
}

#[test]
fn one_producer_two_consumers_capacity_1() {
    producers_consumers(
        "one_producer_two_consumers_capacity_1",
        3,
        1,
        0,
        &[2],
        &[1, 1],
    );
}

#[test]
fn one_producer_two_consumers_capacity_2() {
    producers_consumers(
        "one_producer_two_consumers_capacity_2",
        2,
        2,
        1,
        &[2],
        &[1, 1],
    );
}

#[test]
fn two_producers_two_consumers_capacity_1() {
    producers_consumers(
        "two_producers_two_consumers_capacity_1",
        2,
        1,
        0,
        &[1, 1],
        &[1, 1],
    );
}

#[test]
fn two_producers_two_consumers_capacity_2() {
    producers_consumers(
        "two_producers_two_consumers_capacity_2",
        2,
        2,
        1,
        &[1, 1],
        &[1, 1],
    );
}

/// `force_push` racing `pop` on a full queue: the items popped, evicted
/// and left inside are exactly the items pushed.
#[test]
fn force_push_races_pop() {
    model("force_push_races_pop", 3, || {
        let q = Arc::new(Queue::new(1));
        q.push(0).unwrap();
        let consumer = {
            let q = q.clone();
            thread::spawn(move || q.pop())
        };
        let evicted = [q.force_push(1), q.force_push(2)];
        let popped = consumer.join().unwrap();
        let mut all: Vec<usize> = evicted.into_iter().flatten().chain(popped).collect();
        all.extend(Arc::try_unwrap(q).ok().unwrap());
        all.sort();
        assert_eq!(all, [0, 1, 2]);
    });
}

/// Two producers push while the consumer takes one item and lets go of
/// the queue: whoever drops the queue last drops what is inside, and every
/// item is dropped exactly once.
#[test]
fn drop_with_items_inside() {
    model("drop_with_items_inside", 3, || {
        let log = DropLog::new(3);
        let q = Arc::new(Queue::new(2));
        let producers: Vec<_> = [&[0usize, 1][..], &[2]]
            .into_iter()
            .map(|ids| {
                let (q, log) = (q.clone(), log.clone());
                thread::spawn(move || {
                    for &id in ids {
                        if let Err(item) = q.push(log.item(id)) {
                            drop(item); // full: the test's own drop
                        }
                    }
                })
            })
            .collect();
        drop(pop(&q));
        drop(q);
        producers.into_iter().for_each(|t| t.join().unwrap());
        log.assert_each_dropped_once();
    });
}

/// `len` reads `head` and `tail` as a pair that existed at one instant: a
/// producer and a consumer hand one item at a time through a queue of 2
/// (the producer pushes its second item only after the first was popped),
/// so a `len` of 2, read from a stale `head` or `tail`, would be a state
/// the queue never was in.
#[test]
fn len_reports_a_state_the_queue_was_in() {
    model("len_reports_a_state_the_queue_was_in", 3, || {
        let q = Arc::new(Queue::new(2));
        let popped = Arc::new(AtomicBool::new(false));
        let producer = {
            let (q, popped) = (q.clone(), popped.clone());
            thread::spawn(move || {
                push(&q, 0);
                let mut spin = Spin::new();
                // Acquire pairs with the consumer's Release store below.
                while !popped.load(Ordering::Acquire) {
                    spin.wait();
                }
                push(&q, 1);
            })
        };
        let consumer = {
            let (q, popped) = (q.clone(), popped.clone());
            thread::spawn(move || {
                assert_eq!(pop(&q), 0);
                popped.store(true, Ordering::Release);
                assert_eq!(pop(&q), 1);
            })
        };
        let len = q.len();
        assert!(len <= 1, "len {len}: never more than one item was inside");
        producer.join().unwrap();
        consumer.join().unwrap();
    });
}

/// A capacity-1 queue stays full while `force_push` replaces its item, so
/// a racing `pop` gets the old item or the new one, never `None`.
#[test]
fn force_push_on_full_queue_never_looks_empty() {
    model("force_push_on_full_queue_never_looks_empty", 3, || {
        let q = Arc::new(Queue::new(1));
        q.push(0).unwrap();
        let consumer = {
            let q = q.clone();
            thread::spawn(move || q.pop())
        };
        let evicted = q.force_push(1);
        let popped = consumer.join().unwrap();
        match popped {
            Some(0) => assert_eq!(evicted, None),
            Some(1) => assert_eq!(evicted, Some(0)),
            other => panic!("pop returned {other:?} from a queue that was never empty"),
        }
    });
}
