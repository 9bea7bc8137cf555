//! Batch claims (`Queue::pop_many`, `Queue::push_many`) and the channel's
//! batch calls on them (`try_recv_many`, `recv_many`, `try_send_many`,
//! `send_many`): the exact sequential results against a `VecDeque` across
//! the lap boundary and the wrap of positions, and with real threads, batch
//! and single-item producers and consumers together losing and
//! duplicating nothing, one producer's items in its order; a close in the
//! middle of a batch send; a batch send waking every receiver it feeds.
//! Their linearizability is checked with the other calls in
//! `linearizability.rs` and `channel_linearizability.rs`.
mod common;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use common::laps_before_wrap;
use hotq_mpmc::{Queue, RecvError, SendError, TryRecvError, TrySendError, bounded};
use hotq_testkit::{
    DEADLINE, Item, Rng, StartGate, TimeLimit, assert_exactly_once_in_order, scaled, wait_for,
    with_watchdog, within,
};

/// Start positions: the first lap, and two laps before the wrap of
/// positions at `u64::MAX` (so a run of a few laps crosses it).
fn starts(capacity: usize) -> [u64; 2] {
    [0, laps_before_wrap(capacity, 2)]
}

/// One thread, random single and batch calls, each result compared with a
/// `VecDeque` of the same capacity: limits 0, 1, up to the capacity and
/// beyond what is there; batches that fill the queue or find it full;
/// enough calls to go round the ring many times, across the lap boundary
/// (a batch claim stepping from the last index to index 0 of the next lap)
/// and the wrap of positions.
#[test]
fn batch_calls_give_the_sequential_results_across_laps_and_the_wrap() {
    let calls = scaled(4000, 300);
    for capacity in [1, 2, 3, 4, 5, 7, 8] {
        for start in starts(capacity) {
            let q = Queue::with_initial_position(capacity, start).unwrap();
            let mut model = VecDeque::new();
            let mut rng = Rng::new(capacity as u64 ^ start);
            let mut next = 0u64;
            for call in 0..calls {
                let context = || format!("capacity {capacity}, start {start}, call {call}");
                match rng.below(4) {
                    0 => {
                        let n = rng.below_usize(capacity + 3);
                        let mut items: Vec<u64> = (next..next + n as u64).collect();
                        next += n as u64;
                        let room = capacity - model.len();
                        let pushed = q.push_many(&mut items);
                        assert_eq!(pushed, n.min(room), "{}", context());
                        model.extend((next - n as u64..).take(pushed));
                        // What did not fit stays, in order, at the front.
                        let left: Vec<u64> = (next - (n - pushed) as u64..next).collect();
                        assert_eq!(items, left, "{}", context());
                    }
                    1 => {
                        let limit = rng.below_usize(capacity + 3);
                        let mut buf = vec![u64::MAX]; // appended to, not replaced
                        let popped = q.pop_many(&mut buf, limit);
                        let expected: Vec<u64> = model.drain(..limit.min(model.len())).collect();
                        assert_eq!(popped, expected.len(), "{}", context());
                        assert_eq!(buf[1..], expected[..], "{}", context());
                        assert_eq!(buf[0], u64::MAX);
                    }
                    2 => {
                        let pushed = q.push(next).is_ok();
                        assert_eq!(pushed, model.len() < capacity, "{}", context());
                        if pushed {
                            model.push_back(next);
                        }
                        next += 1;
                    }
                    _ => assert_eq!(q.pop(), model.pop_front(), "{}", context()),
                }
                assert_eq!(q.len(), model.len(), "{}", context());
            }
        }
    }
}

#[test]
fn limit_zero_one_and_more_than_there_is() {
    let q = Queue::new(4);
    let mut buf = Vec::new();
    assert_eq!(q.pop_many(&mut buf, usize::MAX), 0, "empty");
    assert_eq!(q.push_many(&mut vec![1, 2, 3]), 3);
    assert_eq!(q.pop_many(&mut buf, 0), 0);
    assert_eq!(q.pop_many(&mut buf, 1), 1);
    assert_eq!(q.pop_many(&mut buf, usize::MAX), 2);
    assert_eq!(buf, [1, 2, 3]);
    assert_eq!(q.push_many(&mut Vec::new()), 0, "nothing to push");
    let mut many: Vec<u32> = (0..10).collect();
    assert_eq!(q.push_many(&mut many), 4, "room for the capacity");
    assert_eq!(many, (4..10).collect::<Vec<_>>());
    assert_eq!(q.push_many(&mut many), 0, "full");
    assert_eq!(many.len(), 6);
}

/// Producers and consumers with real threads, half of them batch: the
/// items of every producer are taken exactly once, each consumer sees
/// each producer's items in order. Capacities 1 (every batch one item, a
/// new lap each), 3 and 8; starting in the first lap and just before the
/// wrap of positions.
#[test]
fn batch_and_single_calls_together_lose_and_duplicate_nothing() {
    let per_producer = scaled(
        if cfg!(debug_assertions) {
            5_000
        } else {
            50_000
        },
        // Under miri: 4 threads on capacities 1, 3 and 8 from two starts
        // took most of the file's 317 s at 200 (2026-12-05).
        50,
    ) as u32;
    for capacity in [1, 3, 8] {
        for start in starts(capacity) {
            let what = format!("capacity {capacity}, start {start}");
            let q = Queue::<Item>::with_initial_position(capacity, start).unwrap();
            let progress = AtomicU64::new(0);
            let gate = StartGate::new(4);
            let streams = with_watchdog(&what, &progress, || {
                thread::scope(|s| {
                    let (q, gate, progress) = (&q, &gate, &progress);
                    for producer in 0..2u32 {
                        s.spawn(move || {
                            let mut rng = Rng::new(u64::from(producer) + 1);
                            gate.wait();
                            let mut seq = 0;
                            while seq < per_producer {
                                let pushed = if producer == 0 {
                                    let item = Item { producer, seq };
                                    u32::from(q.push(item).is_ok())
                                } else {
                                    let n = (1 + rng.below(5) as u32).min(per_producer - seq);
                                    let mut items: Vec<Item> =
                                        (seq..seq + n).map(|seq| Item { producer, seq }).collect();
                                    q.push_many(&mut items) as u32
                                };
                                seq += pushed;
                                progress.fetch_add(1, Ordering::Relaxed);
                                if pushed == 0 {
                                    thread::yield_now(); // full: let a consumer run
                                }
                            }
                        });
                    }
                    let consumers: Vec<_> = (0..2)
                        .map(|consumer| {
                            s.spawn(move || {
                                let mut rng = Rng::new(consumer + 10);
                                let mut got = Vec::new();
                                gate.wait();
                                while got.len() < per_producer as usize {
                                    let before = got.len();
                                    if consumer == 0 {
                                        got.extend(q.pop());
                                    } else {
                                        let room = per_producer as usize - got.len();
                                        q.pop_many(&mut got, room.min(1 + rng.below_usize(6)));
                                    }
                                    progress.fetch_add(1, Ordering::Relaxed);
                                    if got.len() == before {
                                        thread::yield_now(); // empty: let a producer run
                                    }
                                }
                                got
                            })
                        })
                        .collect();
                    // Each consumer takes as many as one producer sends:
                    // together, everything.
                    consumers
                        .into_iter()
                        .map(|c| c.join().unwrap())
                        .collect::<Vec<_>>()
                })
            });
            let streams: Vec<(String, &[Item])> = streams
                .iter()
                .enumerate()
                .map(|(c, got)| (format!("consumer {c}"), &got[..]))
                .collect();
            assert_exactly_once_in_order(&what, 2, per_producer, &streams);
            assert!(q.is_empty(), "{what}");
        }
    }
}

/// The channel's blocking batches: two senders `send_many`, two receivers
/// `recv_many` with different limits (one blocking `recv` too), through a
/// small channel that is full and empty often; then the senders leave and
/// the receivers see the end.
#[test]
fn blocking_batches_through_a_channel_deliver_everything_once_in_order() {
    let per_producer = scaled(20_000, 60) as u32;
    let _limit = TimeLimit::new("blocking batches through a channel");
    let (tx, rx) = bounded::<Item>(4);
    let streams = thread::scope(|s| {
        for producer in 0..2u32 {
            let tx = tx.clone();
            s.spawn(move || {
                let mut rng = Rng::new(u64::from(producer) + 100);
                let mut seq = 0;
                while seq < per_producer {
                    let n = (1 + rng.below(9) as u32).min(per_producer - seq);
                    let mut items: Vec<Item> =
                        (seq..seq + n).map(|seq| Item { producer, seq }).collect();
                    tx.send_many(&mut items).unwrap();
                    assert!(items.is_empty());
                    seq += n;
                }
            });
        }
        drop(tx);
        let consumers: Vec<_> = (0..2)
            .map(|consumer| {
                let rx = rx.clone();
                s.spawn(move || {
                    let mut got = Vec::new();
                    loop {
                        let limit = if consumer == 0 { 3 } else { 256 };
                        match rx.recv_many(&mut got, limit) {
                            Ok(n) => assert!((1..=limit).contains(&n)),
                            Err(RecvError) => return got,
                        }
                        if consumer == 1 {
                            match rx.recv() {
                                Ok(item) => got.push(item),
                                Err(RecvError) => return got,
                            }
                        }
                    }
                })
            })
            .collect();
        consumers
            .into_iter()
            .map(|c| c.join().unwrap())
            .collect::<Vec<_>>()
    });
    let streams: Vec<(String, &[Item])> = streams
        .iter()
        .enumerate()
        .map(|(c, got)| (format!("receiver {c}"), &got[..]))
        .collect();
    assert_exactly_once_in_order("blocking batches", 2, per_producer, &streams);
}

/// `Receiver::close` while a `send_many` waits on a full channel: every
/// item claimed before the close is received, the rest stays in the
/// sender's `Vec`, in order; nothing is both, nothing neither.
#[test]
fn close_during_a_batch_send_splits_the_items_exactly() {
    for round in 0..scaled(200, 2) {
        let (tx, rx) = bounded::<u32>(4);
        let total = 50;
        let barrier = Barrier::new(2);
        let (received, left, sent) = thread::scope(|s| {
            let sender = s.spawn(|| {
                let mut items: Vec<u32> = (0..total).collect();
                barrier.wait();
                let sent = tx.send_many(&mut items);
                (items, sent)
            });
            barrier.wait();
            let mut received = Vec::new();
            // A few batches, then the close, at a point that varies.
            for _ in 0..round % 5 {
                rx.recv_many(&mut received, 3).unwrap();
            }
            rx.close();
            while rx.recv_many(&mut received, 8).is_ok() {}
            let (left, sent) = sender.join().unwrap();
            (received, left, sent)
        });
        let n = received.len() as u32;
        assert_eq!(received, (0..n).collect::<Vec<_>>(), "round {round}");
        assert_eq!(left, (n..total).collect::<Vec<_>>(), "round {round}");
        assert_eq!(sent.is_ok(), n == total, "round {round}");
        if n < total {
            assert_eq!(sent, Err(SendError(())));
        }
        // Closed: later batches are refused, their items kept.
        let mut more = vec![7, 8];
        assert_eq!(
            tx.try_send_many(&mut more),
            Err(TrySendError::Disconnected(()))
        );
        assert_eq!(more, [7, 8]);
        assert_eq!(
            rx.try_recv_many(&mut Vec::new(), 4),
            Err(TryRecvError::Disconnected)
        );
    }
}

/// One batch send of three items with three receivers blocked: all three
/// wake (one notification per item), none is left parked beside an item.
/// The receivers park after a spin of at most 20 µs; the pause before the
/// send only makes that likely, the test is sound either way.
#[test]
fn one_batch_send_wakes_as_many_blocked_receivers_as_it_sends() {
    for _ in 0..scaled(20, 2) {
        let (tx, rx) = bounded::<u32>(8);
        let got = within("three receivers woken by one batch", DEADLINE, move || {
            let ready = Arc::new(Barrier::new(4));
            let receivers: Vec<_> = (0..3)
                .map(|_| {
                    let (rx, ready) = (rx.clone(), Arc::clone(&ready));
                    thread::spawn(move || {
                        ready.wait();
                        rx.recv()
                    })
                })
                .collect();
            ready.wait();
            thread::sleep(Duration::from_millis(5));
            let mut items = vec![1, 2, 3];
            assert_eq!(tx.try_send_many(&mut items), Ok(3));
            let mut got: Vec<u32> = receivers
                .into_iter()
                .map(|r| r.join().unwrap().unwrap())
                .collect();
            got.sort_unstable();
            got
        });
        assert_eq!(got, [1, 2, 3]);
    }
}

/// A batch receive waiting on an empty channel is woken by a single send,
/// and a blocked batch send by a single receive.
#[test]
fn batch_waits_are_woken_by_single_item_calls() {
    let (tx, rx) = bounded::<u32>(2);
    thread::scope(|s| {
        let receiver = s.spawn(|| {
            let mut buf = Vec::new();
            rx.recv_many(&mut buf, 8).map(|_| buf)
        });
        tx.send(5).unwrap();
        assert_eq!(receiver.join().unwrap(), Ok(vec![5]));
        tx.send_many(&mut vec![1, 2]).unwrap();
        let sender = s.spawn(|| tx.send_many(&mut vec![3, 4]));
        let mut got = Vec::new();
        while got.len() < 4 {
            got.push(wait_for("an item", || rx.try_recv().ok()));
        }
        sender.join().unwrap().unwrap();
        assert_eq!(got, [1, 2, 3, 4]);
    });
}

/// A blocked batch receive waits for a whole batch only briefly (1 µs,
/// `BATCH_HOLD`, then the usual park): a lone item, or a few, reach it
/// on their own, and a timed one returns them however short its timeout.
/// The bounds are generous; only a receive kept waiting for the rest of
/// its batch fails them.
#[test]
fn a_blocked_batch_receive_takes_a_lone_item_without_waiting_for_a_batch() {
    within("a lone item to recv_many", DEADLINE, || {
        for round in 0..scaled(200, 5) {
            let items = 1 + round % 3;
            let (tx, rx) = bounded::<usize>(1024);
            let receiver = thread::spawn(move || {
                let mut buf = Vec::new();
                let got = match round % 3 {
                    0 => rx.recv_many(&mut buf, 256),
                    1 => rx
                        .recv_many_timeout(&mut buf, 256, DEADLINE)
                        .map_err(|_| RecvError),
                    // Shorter than a wait for a batch could ever last.
                    _ => loop {
                        match rx.recv_many_timeout(&mut buf, 256, Duration::from_micros(50)) {
                            Ok(taken) => break Ok(taken),
                            Err(e) => assert!(e.is_timeout(), "{e:?}"),
                        }
                    },
                };
                let first_at = Instant::now();
                // The rest, if the first call took a part of them.
                while buf.len() < items {
                    rx.recv_many(&mut buf, 256).unwrap();
                }
                (got, buf, first_at)
            });
            let sent_at = Instant::now();
            (0..items).for_each(|i| tx.send(round + i).unwrap());
            let (got, buf, first_at) = receiver.join().unwrap();
            assert!(got.is_ok_and(|n| n >= 1), "{got:?}");
            assert_eq!(buf, (round..round + items).collect::<Vec<_>>());
            let waited = first_at.saturating_duration_since(sent_at);
            assert!(
                waited < Duration::from_secs(1),
                "{items} items waited {waited:?} for a batch"
            );
        }
    });
}

/// A dropped permit behind an item leaves a tombstone that a batch
/// receive meets after taking the item: it skips it, as a single receive
/// does, and takes what comes after in the same call (it neither stops
/// nor says "empty" with an item behind the tombstone, nor spins on it).
#[test]
fn a_batch_receive_skips_a_dropped_permits_tombstone() {
    hotq_testkit::within("tombstone in a batch", Duration::from_secs(60), || {
        let (tx, rx) = bounded::<u32>(4);
        tx.send(0).unwrap();
        let permit = tx.try_reserve().unwrap(); // position 1
        tx.send(2).unwrap();
        drop(permit); // a tombstone behind item 0: nobody skips it yet
        let mut buf = Vec::new();
        assert_eq!(
            rx.try_recv_many(&mut buf, 10),
            Ok(2),
            "skips the tombstone, takes item 2 in the same call"
        );
        assert_eq!(buf, [0, 2]);
        assert_eq!(rx.try_recv_many(&mut buf, 10), Err(TryRecvError::Empty));
        // The capacity is all back: four sends fit.
        let mut more = vec![5, 6, 7, 8];
        assert_eq!(tx.try_send_many(&mut more), Ok(4));
    });
}

/// After `close`, a permit still held is delivered: until it is, a batch
/// receive says `Empty`, not `Disconnected` (as `try_recv`; the fuzz
/// target `mpmc_channel_model` found the batch saying `Disconnected`).
#[test]
fn a_batch_receive_after_close_waits_for_a_held_permit() {
    let (tx, rx) = bounded::<u32>(4);
    let permit = tx.try_reserve().unwrap();
    rx.close();
    let mut buf = Vec::new();
    assert_eq!(rx.try_recv_many(&mut buf, 8), Err(TryRecvError::Empty));
    permit.send(7);
    assert_eq!(rx.try_recv_many(&mut buf, 8), Ok(1));
    assert_eq!(buf, [7]);
    assert_eq!(
        rx.try_recv_many(&mut buf, 8),
        Err(TryRecvError::Disconnected)
    );
}
