//! The channel's try operations are linearizable, and so is its
//! disconnection. Thousands of short concurrent histories of `try_send`,
//! `try_recv`, their zero-deadline timed forms, and the batches
//! `try_send_many` and `try_recv_many` (3–4 threads, capacities
//! 1–3), each checked against the sequential bounded FIFO queue by
//! `hotq_testkit`'s Wing–Gong–Lowe search (`Full` is a refused push,
//! `Empty` a pop that found nothing; a batch is the model's `PushUpTo` or
//! `PopUpTo`, of the length it returned); then disconnection: once one
//! receiver has seen `Disconnected`, every later call on any receiver does
//! too, and every item sent before the last sender left was received.

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Instant;

use hotq_mpmc::{
    Receiver, RecvTimeoutError, SendTimeoutError, Sender, TryRecvError, TrySendError, bounded,
};
use hotq_testkit::fifo::{self, Call, Ret};
use hotq_testkit::history::{self, Body, Log};
use hotq_testkit::{Rng, scaled};

fn body<'a>(
    tx: &'a Sender<u64>,
    rx: &'a Receiver<u64>,
    calls: usize,
    batch: bool,
    seed: u64,
) -> Body<'a, Call, Ret> {
    Box::new(move |log: &mut Log<Call, Ret>| {
        let t = log.thread();
        let mut rng = Rng::for_thread(seed, t);
        for seq in 0..calls as u64 {
            rng.pause(64);
            // Room below for a batch's items: `v + i`, `i < 4`.
            let v = (t as u64) << 32 | seq << 2;
            if batch && rng.below(3) == 0 {
                let invoked = log.invoke();
                if rng.below(2) == 0 {
                    let values: Vec<u64> = (0..rng.below(4)).map(|i| v + i).collect();
                    let mut items = values.clone();
                    let took = match tx.try_send_many(&mut items) {
                        Ok(took) => took,
                        Err(TrySendError::Full(())) => 0,
                        Err(e) => panic!("{e}"),
                    };
                    assert_eq!(items, values[took..], "what did not go stays");
                    log.respond(invoked, Call::PushUpTo { values, took }, Ret::Count(took));
                } else {
                    let max = rng.below_usize(5);
                    let mut buf = Vec::new();
                    let took = match rx.try_recv_many(&mut buf, max) {
                        Ok(took) => took,
                        Err(TryRecvError::Empty) => 0,
                        Err(e) => panic!("{e}"),
                    };
                    assert_eq!(took, buf.len());
                    log.respond(invoked, Call::PopUpTo { max, took }, Ret::Values(buf));
                }
                continue;
            }
            match rng.below(10) {
                0..=2 => log.record(
                    Call::Push(v),
                    || tx.try_send(v),
                    |r| match r {
                        Ok(()) => Ret::Pushed,
                        Err(_) => Ret::Full,
                    },
                ),
                3 => log.record(
                    Call::Push(v),
                    || tx.send_deadline(v, Instant::now()),
                    |r| match r {
                        Ok(()) => Ret::Pushed,
                        Err(SendTimeoutError::Timeout(_)) => Ret::Full,
                        Err(e) => panic!("{e}"),
                    },
                ),
                4..=7 => log.record(
                    Call::Pop,
                    || rx.try_recv(),
                    |r| match r {
                        Ok(v) => Ret::Popped(Some(v)),
                        Err(TryRecvError::Empty) => Ret::Popped(None),
                        Err(e) => panic!("{e}"),
                    },
                ),
                _ => log.record(
                    Call::Pop,
                    || rx.recv_deadline(Instant::now()),
                    |r| match r {
                        Ok(v) => Ret::Popped(Some(v)),
                        Err(RecvTimeoutError::Timeout) => Ret::Popped(None),
                        Err(e) => panic!("{e}"),
                    },
                ),
            }
        }
    })
}

/// Histories: a few under miri, 300 in a debug build (about 20 s at a load
/// average of 25 on 2 cores: the queue's own 1,000 are in
/// `linearizability.rs`; these check the channel's wrapping of them), more
/// in release builds.
const HISTORIES: u64 = if cfg!(miri) {
    4
} else if cfg!(debug_assertions) {
    300
} else {
    3000
};

fn check_many(batch: bool) {
    for seed in 0..HISTORIES {
        let capacity = 1 + (seed % 3) as usize;
        let threads = 3 + (seed % 2) as usize;
        let calls = if cfg!(miri) {
            20
        } else {
            20 + (seed * 7 % 41) as usize
        };
        let (tx, rx) = bounded::<u64>(capacity);
        let h = history::run(
            (0..threads)
                .map(|_| body(&tx, &rx, calls, batch, seed))
                .collect(),
        );
        if let Err(e) = fifo::check(&h, capacity) {
            panic!("seed {seed}, capacity {capacity}, {threads} threads × {calls} calls: {e}");
        }
    }
}

#[test]
fn try_send_and_try_recv_are_linearizable() {
    check_many(false);
}

#[test]
fn batch_try_calls_with_single_try_calls_are_linearizable() {
    check_many(true);
}

#[test]
fn disconnection_is_seen_by_everyone_after_anyone_and_loses_nothing() {
    for seed in 0..scaled(100, 3) as u64 {
        let (tx, rx) = bounded::<u64>(1 + (seed % 3) as usize);
        let each = 50;
        let seen_disconnected = AtomicBool::new(false);
        let got: Vec<Vec<u64>> = thread::scope(|s| {
            for p in 0..2u64 {
                let tx = tx.clone();
                s.spawn(move || {
                    for i in 0..each {
                        let mut v = p << 32 | i;
                        while let Err(e) = tx.try_send(v) {
                            v = e.into_inner();
                            thread::yield_now();
                        }
                    }
                });
            }
            drop(tx);
            let rs: Vec<_> = (0..2)
                .map(|_| {
                    let rx = rx.clone();
                    let seen = &seen_disconnected;
                    s.spawn(move || {
                        let mut got = Vec::new();
                        loop {
                            // Read before the call: if someone had seen the
                            // end already, this call must see it too.
                            let ended_before = seen.load(Ordering::SeqCst);
                            match rx.try_recv() {
                                Ok(v) => {
                                    assert!(!ended_before, "an item after Disconnected: {v:#x}");
                                    got.push(v);
                                }
                                Err(TryRecvError::Empty) => {
                                    assert!(!ended_before, "Empty after Disconnected");
                                    thread::yield_now();
                                }
                                Err(TryRecvError::Disconnected) => {
                                    seen.store(true, Ordering::SeqCst);
                                    // And stays so.
                                    assert_eq!(rx.try_recv(), Err(TryRecvError::Disconnected));
                                    return got;
                                }
                            }
                        }
                    })
                })
                .collect();
            rs.into_iter().map(|r| r.join().unwrap()).collect()
        });
        drop(rx);
        let mut all: Vec<u64> = got.concat();
        all.sort();
        let want: Vec<u64> = (0..2u64)
            .flat_map(|p| (0..each).map(move |i| p << 32 | i))
            .collect();
        assert_eq!(all, want, "seed {seed}: lost or duplicated items");
    }
}
