//! Loom models of `hotq-mpmc`: several producers and consumers on
//! capacities 1 and 2, across at least one lap of the ring.
//!
//! Run: `RUSTFLAGS="--cfg loom" cargo test -p hotq-loom-tests --release
//! --target-dir target/loom --test mpmc -- --nocapture`.
#![cfg(loom)]

/// The batch claims' models (`tests/mpmc/batch.rs`).
#[path = "mpmc/batch.rs"]
mod batch;
/// The channels' models (`tests/mpmc/channel.rs`).
#[path = "mpmc/channel.rs"]
mod channel;

/// The flow-control models (`tests/mpmc/flow.rs`).
#[path = "mpmc/flow.rs"]
mod flow;
/// The rendezvous channel's models (`tests/mpmc/rendezvous.rs`).
#[path = "mpmc/rendezvous.rs"]
mod rendezvous;
/// The permits' models (`tests/mpmc/reserve.rs`).
#[path = "mpmc/reserve.rs"]
mod reserve;
/// The select's models (`tests/mpmc/select.rs`).
#[path = "mpmc/select.rs"]
mod select;

use hotq_loom_tests::{DropLog, Spin, model};
use hotq_mpmc::Queue;
use loom::sync::Arc;
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

/// Two empty queues used crosswise: each thread pushes into one and then
/// pops from the other. In any one order of the four operations some push
/// precedes the other thread's pop of that queue, so the two pops cannot
/// both report empty. What makes this hold is `pop`'s `fence(SeqCst)`
/// before it reads `tail` to decide "empty": of the two fences the later
/// one sees the other thread's claim of `tail`.
#[test]
fn crosswise_pops_do_not_both_see_empty() {
    model("crosswise_pops_do_not_both_see_empty", 3, || {
        let (a, b) = (Arc::new(Queue::new(1)), Arc::new(Queue::new(1)));
        let other = {
            let (a, b) = (a.clone(), b.clone());
            thread::spawn(move || {
                b.push(2).unwrap();
                a.pop()
            })
        };
        a.push(1).unwrap();
        let mine = b.pop();
        let theirs = other.join().unwrap();
        assert!(
            mine.is_some() || theirs.is_some(),
            "both pops saw an empty queue although each followed a push into it"
        );
        assert_eq!(mine.unwrap_or(2), 2);
        assert_eq!(theirs.unwrap_or(1), 1);
    });
}

/// The mirror image on two full queues: each thread pops from one and then
/// pushes into the other; the two pushes cannot both report full. What
/// makes this hold is the `fence(SeqCst)` in `push`'s "full" check, before
/// it reads `head`.
#[test]
fn crosswise_pushes_do_not_both_see_full() {
    model("crosswise_pushes_do_not_both_see_full", 3, || {
        let (a, b) = (Arc::new(Queue::new(1)), Arc::new(Queue::new(1)));
        a.push(10).unwrap();
        b.push(20).unwrap();
        let other = {
            let (a, b) = (a.clone(), b.clone());
            thread::spawn(move || {
                assert_eq!(b.pop(), Some(20));
                a.push(21)
            })
        };
        assert_eq!(a.pop(), Some(10));
        let mine = b.push(11);
        let theirs = other.join().unwrap();
        assert!(
            mine.is_ok() || theirs.is_ok(),
            "both pushes saw a full queue although each followed a pop from it"
        );
    });
}

/// `len` reads `head` and `tail` as a pair that coexisted. One thread
/// hands three items through a queue of 2 one at a time (push, pop, push,
/// pop...), so the queue never holds 2 items, while the main thread calls
/// `len`. A `tail` of the second push paired with the initial `head`, or a
/// `head` of the third pop paired with the `tail` of the first push, sit on
/// the same index a lap apart, which `len` would report as full. Kills
/// weakening either `Acquire` load of `len`, or the `Release` half of
/// either claim (the producer's CAS of `tail`, the consumer's of `head`),
/// which those loads pair with.
#[test]
fn len_never_reports_a_state_the_queue_was_not_in() {
    model("len_never_reports_a_state_the_queue_was_not_in", 3, || {
        let q = Arc::new(Queue::new(2));
        let observer = {
            let q = q.clone();
            thread::spawn(move || (q.len(), q.is_full()))
        };
        for i in 0..3 {
            q.push(i).unwrap();
            assert_eq!(q.pop(), Some(i));
        }
        let (len, full) = observer.join().unwrap();
        assert!(len <= 1, "len {len}: never more than one item was inside");
        assert!(!full, "is_full: never more than one item was inside");
        assert_eq!(q.len(), 0);
    });
}

/// `len` racing `force_push` on a full queue of 3: while two `force_push`es
/// each evict the oldest item and add one, the queue holds 3 items, or 2
/// for the instant between an eviction and its new item, never fewer. A
/// `tail` of a `force_push` paired with the `head` from before its
/// eviction, or the `head` of the second eviction paired with the `tail`
/// from before the first, would read as 1. Kills weakening the `Release`
/// half of `force_push`'s `head` CAS and of its `tail` store, which `len`'s
/// Acquire loads pair with.
#[test]
fn len_during_force_push_on_full_queue() {
    model("len_during_force_push_on_full_queue", 3, || {
        let q = Arc::new(Queue::new(3));
        for i in 0..3 {
            q.push(i).unwrap();
        }
        let observer = {
            let q = q.clone();
            thread::spawn(move || q.len())
        };
        assert_eq!(q.force_push(3), Some(0));
        assert_eq!(q.force_push(4), Some(1));
        let len = observer.join().unwrap();
        assert!(
            (2..=3).contains(&len),
            "len {len}: the queue held 3 items, 2 for an instant"
        );
        assert_eq!(q.len(), 3);
    });
}
