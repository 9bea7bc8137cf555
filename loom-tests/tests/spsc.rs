//! Loom models of `hotq-spsc`: every operation that touches shared state,
//! at the smallest capacities that reach full, empty and the index wrap.
//!
//! Run: `RUSTFLAGS="--cfg loom" cargo test -p hotq-loom-tests --release
//! --target-dir target/loom --test spsc -- --nocapture`.
#![cfg(loom)]

/// The stamped ring's models (`tests/spsc/stamped.rs`).
#[path = "spsc/stamped.rs"]
mod stamped;

use hotq_loom_tests::{DropLog, model};
use hotq_spsc::{
    ChunkError, Consumer, PopAsyncError, PopTimeoutError, Producer, PushTimeoutError, RingBuffer,
};
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

// ---------------------------------------------------------------------------
// Waiting: the wake-up protocol (`spsc/src/wait/`). Under loom both sides of
// the store→load barrier are a `fence(SeqCst)`, and a timed park parks until
// unparked, so a lost wake-up is a deadlock that loom reports.
//
// No model joins a thread after a wait: the other side may still be inside
// its wake-up (it takes the waker, then unparks), and that late unpark,
// harmless with std's `join`, trips loom's own `join` (it asserts it was
// notified). Loom runs every spawned thread to its end anyway.

/// Long enough never to pass during a model: only a wake-up ends a wait.
const FOREVER: std::time::Duration = std::time::Duration::from_secs(3600);

/// A consumer parked in `pop_timeout`, woken by a real-time producer that
/// only ever calls the non-blocking `push`: every item arrives, in order,
/// and the consumer then sees the producer gone.
fn parked_consumer_woken_by_push(capacity: usize) {
    model(
        &format!("parked_consumer_woken_by_push_capacity_{capacity}"),
        BOUND,
        move || {
            let (mut tx, mut rx) = RingBuffer::<usize>::new(capacity);
            // The producer's half comes back through a channel, alive until
            // both items are in (not a join: see above): its drop, which
            // wakes the consumer too, must not stand in for the pushes'
            // wake-ups.
            let (back, returned) = loom::sync::mpsc::channel();
            thread::spawn(move || {
                for i in 0..2 {
                    push(&mut tx, i);
                }
                back.send(tx).unwrap();
            });
            for i in 0..2 {
                assert_eq!(rx.pop_timeout(FOREVER), Ok(i));
            }
            drop(returned.recv().unwrap());
            assert_eq!(rx.pop_timeout(FOREVER), Err(PopTimeoutError::Abandoned));
        },
    );
}

#[test]
fn parked_consumer_woken_by_push_capacity_1() {
    parked_consumer_woken_by_push(1);
}

#[test]
fn parked_consumer_woken_by_push_capacity_2() {
    parked_consumer_woken_by_push(2);
}

/// A producer parked in `push_timeout` on a full ring, woken by a consumer
/// that only calls `pop`.
#[test]
fn parked_producer_woken_by_pop() {
    model("parked_producer_woken_by_pop", BOUND, || {
        let (mut tx, mut rx) = RingBuffer::<usize>::new(1);
        thread::spawn(move || {
            for i in 0..3 {
                tx.push_timeout(i, FOREVER).unwrap();
            }
        });
        for i in 0..3 {
            assert_eq!(pop(&mut rx), i);
        }
    });
}

/// The producer pushes one item and is dropped while the consumer may be
/// parking: the item comes first, then `Abandoned`, never a hang.
#[test]
fn producer_dropped_while_consumer_parks() {
    model("producer_dropped_while_consumer_parks", BOUND, || {
        let (mut tx, mut rx) = RingBuffer::<usize>::new(2);
        thread::spawn(move || {
            tx.push(7).unwrap();
            drop(tx);
        });
        assert_eq!(rx.pop_timeout(FOREVER), Ok(7));
        assert_eq!(rx.pop_timeout(FOREVER), Err(PopTimeoutError::Abandoned));
    });
}

/// The consumer is dropped while the producer parks on a full ring: the
/// value comes back as `Abandoned`, never a hang.
#[test]
fn consumer_dropped_while_producer_parks() {
    model("consumer_dropped_while_producer_parks", BOUND, || {
        let (mut tx, rx) = RingBuffer::<usize>::new(1);
        tx.push(1).unwrap();
        thread::spawn(move || drop(rx));
        assert_eq!(
            tx.push_timeout(2, FOREVER),
            Err(PushTimeoutError::Abandoned(2))
        );
    });
}

/// `wait_items(2)` on a ring the producer fills one push at a time: the
/// waiter re-registers after the first push and is woken by the second.
#[test]
fn wait_items_woken_by_the_last_of_two_pushes() {
    model("wait_items_woken_by_the_last_of_two_pushes", BOUND, || {
        let (mut tx, mut rx) = RingBuffer::<usize>::new(2);
        thread::spawn(move || {
            push(&mut tx, 1);
            push(&mut tx, 2);
        });
        let deadline = std::time::Instant::now() + FOREVER;
        assert_eq!(rx.wait_items(2, deadline), Ok(2));
        let chunk = rx.read_chunk(2).unwrap();
        let (a, b) = chunk.as_slices();
        assert_eq!([a, b].concat(), [1, 2]);
        chunk.commit_all();
    });
}

/// A waker that unparks the current loom thread.
fn unpark_waker() -> std::task::Waker {
    use std::sync::Arc;
    use std::task::{Wake, Waker};

    struct Unpark(thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }

    Waker::from(Arc::new(Unpark(thread::current())))
}

/// Drives a future on the current loom thread, parking between polls
/// until its waker unparks the thread (a lost wake-up is a deadlock).
fn block_on<F: std::future::Future>(future: F) -> F::Output {
    use std::task::{Context, Poll};

    let waker = unpark_waker();
    let mut cx = Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
        thread::park();
    }
}

/// An async pop's waker registration racing a push: the future, driven by
/// loom's executor (which parks between polls), completes with the item.
#[test]
fn async_pop_registration_races_push() {
    model("async_pop_registration_races_push", BOUND, || {
        let (mut tx, mut rx) = RingBuffer::<usize>::new(1);
        thread::spawn(move || {
            push(&mut tx, 5);
            push(&mut tx, 6);
        });
        assert_eq!(block_on(rx.pop_async()), Ok(5));
        assert_eq!(block_on(rx.pop_async()), Ok(6));
        assert_eq!(block_on(rx.pop_async()), Err(PopAsyncError::Abandoned));
    });
}

/// A pending `pop_async` polled again before any wake-up (a `select!`
/// sibling's re-poll), first with another waker, then with the same one,
/// while a push races it: the registration of the other waker replaces the
/// first (barrier and all); the one of the same waker keeps the standing
/// announcement with no new barrier (`WaitSlot::register`); either way
/// the item arrives and the last waker is the one woken. Kills a
/// registration that keeps any standing announcement whatever its waker
/// (the wake-up goes to the no-op waker: a deadlock).
#[test]
fn async_pop_repolled_while_registered() {
    use std::future::Future;
    use std::task::{Context, Poll, Waker};
    model("async_pop_repolled_while_registered", BOUND, || {
        let (mut tx, mut rx) = RingBuffer::<usize>::new(1);
        thread::spawn(move || push(&mut tx, 4));
        let waker = unpark_waker();
        let mut future = std::pin::pin!(rx.pop_async());
        let mut noop = Context::from_waker(Waker::noop());
        if let Poll::Ready(item) = future.as_mut().poll(&mut noop) {
            assert_eq!(item, Ok(4));
            return;
        }
        let mut cx = Context::from_waker(&waker);
        for _ in 0..2 {
            if let Poll::Ready(item) = future.as_mut().poll(&mut cx) {
                assert_eq!(item, Ok(4));
                return;
            }
        }
        loop {
            thread::park();
            if let Poll::Ready(item) = future.as_mut().poll(&mut cx) {
                assert_eq!(item, Ok(4));
                return;
            }
        }
    });
}

/// An async push parked on a full ring, woken by a pop.
#[test]
fn async_push_woken_by_pop() {
    model("async_push_woken_by_pop", BOUND, || {
        let (mut tx, mut rx) = RingBuffer::<usize>::new(1);
        thread::spawn(move || {
            for i in 0..2 {
                block_on(tx.push_async(i)).unwrap();
            }
        });
        for i in 0..2 {
            assert_eq!(pop(&mut rx), i);
        }
    });
}

/// A pending `pop_async` dropped while a push wakes it: dropping takes
/// nothing out of the ring, the wake-up of a gone future is harmless, and a
/// later wait still gets the item.
#[test]
fn pending_pop_future_dropped_while_push_wakes_it() {
    use std::future::Future;
    use std::task::{Context, Poll, Waker};
    model(
        "pending_pop_future_dropped_while_push_wakes_it",
        BOUND,
        || {
            let (mut tx, mut rx) = RingBuffer::<usize>::new(1);
            thread::spawn(move || push(&mut tx, 9));
            {
                let mut cx = Context::from_waker(Waker::noop());
                let mut future = std::pin::pin!(rx.pop_async());
                if let Poll::Ready(item) = future.as_mut().poll(&mut cx) {
                    assert_eq!(item, Ok(9));
                    return;
                }
            } // dropped while pending
            assert_eq!(rx.pop_timeout(FOREVER), Ok(9));
        },
    );
}
