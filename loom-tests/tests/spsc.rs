//! Loom models of `hotq-spsc`: every operation that touches shared state,
//! at the smallest capacities that reach full, empty and the index wrap.
//!
//! Run: `RUSTFLAGS="--cfg loom" cargo test -p hotq-loom-tests --release
//! --target-dir target/loom --test spsc -- --nocapture`.
#![cfg(loom)]

use hotq_loom_tests::{DropLog, model};
use hotq_spsc::{ChunkError, Consumer, Producer, RingBuffer};
use loom::thread;

/// Preemption bound of every model here: each runs in under 2 s with it on
/// a 2-core machine, and each ordering of the crate weakened to `Relaxed`
/// fails at least one model at bound 3 already.
const BOUND: usize = 4;

/// Pushes `value`, yielding to the model's other thread while the ring is
/// full.
fn push<T>(tx: &mut Producer<T>, mut value: T) {
    loop {
        match tx.push(value) {
            Ok(()) => return,
            Err(full) => value = full.into_inner(),
        }
        thread::yield_now();
    }
}

/// Pops one item, yielding to the model's other thread while the ring is
/// empty.
fn pop<T>(rx: &mut Consumer<T>) -> T {
    loop {
        if let Ok(v) = rx.pop() {
            return v;
        }
        thread::yield_now();
    }
}

/// Three items through a ring whose free-running indices cross
/// `usize::MAX` mid-model: FIFO, values intact, ring empty at the end.
fn push_pop_across_wrap(capacity: usize) {
    model(
        &format!("push_pop_across_wrap_capacity_{capacity}"),
        BOUND,
        move || {
            let (mut tx, mut rx) =
                RingBuffer::<usize>::with_initial_index(capacity, usize::MAX - 1).unwrap();
            let producer = thread::spawn(move || {
                for i in 0..3 {
                    push(&mut tx, i);
                }
            });
            for i in 0..3 {
                assert_eq!(pop(&mut rx), i);
            }
            producer.join().unwrap();
            assert!(rx.is_empty());
            assert_eq!(rx.slots(), 0);
        },
    );
}

#[test]
fn push_pop_across_wrap_capacity_1() {
    push_pop_across_wrap(1);
}

#[test]
fn push_pop_across_wrap_capacity_2() {
    push_pop_across_wrap(2);
}

/// `peek` sees the item `pop` then returns, and `slots` on both sides
/// never promises what is not there.
#[test]
fn peek_and_slots_agree_with_pop() {
    model("peek_and_slots_agree_with_pop", BOUND, || {
        let (mut tx, mut rx) = RingBuffer::<usize>::new(2);
        let producer = thread::spawn(move || {
            for i in 0..3 {
                push(&mut tx, i);
                assert!(tx.slots() <= 2);
            }
        });
        for i in 0..3 {
            let ready = loop {
                match rx.slots() {
                    0 => thread::yield_now(),
                    n => break n,
                }
            };
            assert!(ready <= 2);
            assert_eq!(rx.peek(), Ok(&i));
            assert_eq!(rx.pop(), Ok(i));
        }
        producer.join().unwrap();
    });
}

/// A producer writing chunks (`write_chunk_uninit` + `fill_from_iter`,
/// then `write_chunk` + `commit`) races a consumer reading chunks
/// (`read_chunk` + `as_slices` + `commit`, then the chunk's iterator),
/// across the wrap of the storage and of the indices.
#[test]
fn chunk_write_races_chunk_read() {
    model("chunk_write_races_chunk_read", BOUND, || {
        let (mut tx, mut rx) = RingBuffer::<usize>::with_initial_index(2, usize::MAX - 1).unwrap();
        let producer = thread::spawn(move || {
            let chunk = loop {
                match tx.write_chunk_uninit(2) {
                    Ok(chunk) => break chunk,
                    Err(_) => thread::yield_now(),
                }
            };
            assert_eq!(chunk.fill_from_iter([0, 1]), 2);
            let mut chunk = loop {
                match tx.write_chunk(1) {
                    Ok(chunk) => break chunk,
                    Err(_) => thread::yield_now(),
                }
            };
            chunk.as_mut_slices().0[0] = 2;
            chunk.commit_all();
        });
        let chunk = loop {
            match rx.read_chunk(2) {
                Ok(chunk) => break chunk,
                Err(_) => thread::yield_now(),
            }
        };
        let (a, b) = chunk.as_slices();
        assert_eq!([a, b].concat(), [0, 1]);
        chunk.commit_all();
        let chunk = loop {
            match rx.read_chunk(1) {
                Ok(chunk) => break chunk,
                Err(_) => thread::yield_now(),
            }
        };
        assert_eq!(chunk.into_iter().collect::<Vec<_>>(), [2]);
        producer.join().unwrap();
        assert!(rx.is_empty());
    });
}

/// `push_slice` racing `pop_slice` (the two-`memcpy` paths).
#[test]
fn push_slice_races_pop_slice() {
    model("push_slice_races_pop_slice", BOUND, || {
        let (mut tx, mut rx) = RingBuffer::<usize>::with_initial_index(2, usize::MAX).unwrap();
        let producer = thread::spawn(move || {
            let items = [0, 1, 2];
            let mut sent = 0;
            while sent < items.len() {
                match tx.push_slice(&items[sent..]) {
                    0 => thread::yield_now(),
                    n => sent += n,
                }
            }
        });
        let mut got = Vec::new();
        while got.len() < 3 {
            let mut buf = [usize::MAX; 2];
            match rx.pop_slice(&mut buf) {
                0 => thread::yield_now(),
                n => got.extend_from_slice(&buf[..n]),
            }
        }
        producer.join().unwrap();
        assert_eq!(got, [0, 1, 2]);
    });
}

/// The consumer takes one item and leaves while the producer is still
/// pushing: the producer notices (it stops when its ring is full and
/// abandoned), and every item ever made is dropped exactly once, by
/// whichever of the consumer, the producer or the ring's last owner holds
/// it at the end.
#[test]
fn consumer_drops_leftovers_while_producer_finishes() {
    model(
        "consumer_drops_leftovers_while_producer_finishes",
        BOUND,
        || {
            let log = DropLog::new(3);
            let (mut tx, mut rx) = RingBuffer::new(2);
            let items = log.clone();
            let producer = thread::spawn(move || {
                for id in 0..3 {
                    let mut item = items.item(id);
                    loop {
                        match tx.push(item) {
                            Ok(()) => break,
                            Err(full) if tx.is_abandoned() => {
                                drop(full.into_inner());
                                return;
                            }
                            Err(full) => item = full.into_inner(),
                        }
                        thread::yield_now();
                    }
                }
            });
            let first = pop(&mut rx);
            assert_eq!(first.id, 0);
            drop(first);
            drop(rx);
            producer.join().unwrap();
            log.assert_each_dropped_once();
        },
    );
}

/// Once the consumer sees the producer abandoned, everything the producer
/// pushed is visible: draining then loses nothing.
#[test]
fn abandoned_producer_leaves_everything_visible() {
    model(
        "abandoned_producer_leaves_everything_visible",
        BOUND,
        || {
            let (mut tx, mut rx) = RingBuffer::<usize>::new(2);
            let producer = thread::spawn(move || {
                push(&mut tx, 0);
                push(&mut tx, 1);
            });
            let mut got = Vec::new();
            loop {
                match rx.pop() {
                    Ok(v) => got.push(v),
                    Err(_) if rx.is_abandoned() => {
                        while let Ok(v) = rx.pop() {
                            got.push(v);
                        }
                        break;
                    }
                    Err(_) => thread::yield_now(),
                }
            }
            producer.join().unwrap();
            assert_eq!(got, [0, 1]);
        },
    );
}

/// Partial commits on both sides (`WriteChunk::commit(k)` drops the rest
/// of its chunk, `ReadChunk::commit(k)` frees only `k` slots, `as_mut_slices`
/// of a read chunk) racing each other through capacity 2 across the index
/// wrap, with `slots`, `is_full` and `is_empty` asked on the way: each
/// value arrives once and in order, the dropped extra slot is never read,
/// and the producer, which writes only into an empty ring, never sees it
/// full.
#[test]
fn partial_commits_and_full_empty_checks() {
    model("partial_commits_and_full_empty_checks", BOUND, || {
        let (mut tx, mut rx) = RingBuffer::<usize>::with_initial_index(2, usize::MAX).unwrap();
        let producer = thread::spawn(move || {
            for v in [10, 20, 30] {
                let mut chunk = loop {
                    match tx.write_chunk(2) {
                        Ok(chunk) => break chunk,
                        Err(ChunkError::TooFewSlots(free)) => {
                            // Not 2 free slots: at least one is taken.
                            assert!(free < 2, "refused with {free} free slots");
                            thread::yield_now();
                        }
                    }
                };
                let (a, b) = chunk.as_mut_slices();
                a[0] = v;
                if let Some(x) = a.get_mut(1).or(b.first_mut()) {
                    *x = usize::MAX; // dropped by commit(1), never read
                }
                chunk.commit(1);
            }
            tx.is_full()
        });
        let mut got = Vec::new();
        while got.len() < 3 {
            match rx.read_chunk(1) {
                Ok(mut chunk) => {
                    let (a, b) = chunk.as_mut_slices();
                    let v = a.first().or(b.first()).copied().unwrap();
                    got.push(v);
                    chunk.commit(1);
                }
                Err(_) => {
                    assert!(rx.is_empty() || rx.slots() >= 1);
                    thread::yield_now();
                }
            }
        }
        let was_full = producer.join().unwrap();
        assert!(
            !was_full,
            "is_full with at most one item committed at a time"
        );
        assert_eq!(got, [10, 20, 30]);
        assert!(rx.is_empty());
    });
}

/// `io::Write` for the producer racing `io::Read` for the consumer: bytes
/// arrive in order; `WouldBlock` while full or empty; end of file once the
/// writer is gone and everything was read.
#[test]
fn io_write_races_io_read() {
    use std::io::{ErrorKind, Read, Write};
    model("io_write_races_io_read", BOUND, || {
        let (mut tx, mut rx) = RingBuffer::<u8>::new(2);
        let producer = thread::spawn(move || {
            let mut data: &[u8] = &[1, 2, 3];
            while !data.is_empty() {
                match tx.write(data) {
                    Ok(n) => data = &data[n..],
                    Err(e) if e.kind() == ErrorKind::WouldBlock => thread::yield_now(),
                    Err(e) => panic!("write: {e}"),
                }
            }
        });
        let mut got = Vec::new();
        loop {
            let mut buf = [0u8; 2];
            match rx.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == ErrorKind::WouldBlock => thread::yield_now(),
                Err(e) => panic!("read: {e}"),
            }
        }
        producer.join().unwrap();
        assert_eq!(got, [1, 2, 3]);
    });
}
