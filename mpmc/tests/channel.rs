//! The channels on real threads: crossbeam-channel's array-flavour
//! scenarios (smoke, timeouts, disconnection waking either side, counts,
//! drops, linearizable, one-shot, iterator and timeout stress, a channel
//! sent through a channel, a panicking drop, unreceived items), ported in
//! our words, and the contracts of hotq's issue 14: every wait of a test
//! bounded, every item exactly once and in per-producer order, blocked
//! threads woken on time and using no CPU.

use std::future::Future;
use std::pin::pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::task::{Context, Poll, Waker};
use std::thread;
use std::time::{Duration, Instant};

use hotq_mpmc::{
    CapacityError, RecvError, RecvTimeoutError, SendError, SendTimeoutError, TryRecvError,
    TrySendError, bounded, try_bounded,
};
use hotq_testkit::{
    DropCounter, Item, assert_exactly_once_in_order, block_on, bound, scaled, within,
};

/// A limit for one test body: far beyond any healthy run, so only a hang
/// (a lost wake-up) reaches it.
const LIMIT: Duration = bound(Duration::from_secs(60));

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn smoke() {
    let (tx, rx) = bounded(1);
    tx.send(7).unwrap();
    assert_eq!(rx.try_recv(), Ok(7));
    tx.send(8).unwrap();
    assert_eq!(rx.recv(), Ok(8));
    assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
    assert_eq!(rx.recv_timeout(ms(1)), Err(RecvTimeoutError::Timeout));
}

#[test]
fn capacity_errors_and_exact_capacity() {
    for cap in 1..=10 {
        let (tx, rx) = bounded::<()>(cap);
        assert_eq!((tx.capacity(), rx.capacity()), (cap, cap));
    }
    // Capacity 0 is a rendezvous channel (`tests/rendezvous.rs`), not an
    // error: only a capacity that cannot be allocated is.
    let (tx, rx) = try_bounded::<u8>(0).unwrap();
    assert_eq!((tx.capacity(), rx.capacity()), (0, 0));
    assert_eq!(
        try_bounded::<u8>(usize::MAX).unwrap_err(),
        CapacityError::TooLarge
    );
    let panicked = std::panic::catch_unwind(|| bounded::<u8>(usize::MAX)).unwrap_err();
    let msg = panicked.downcast_ref::<String>().unwrap();
    assert_eq!(msg, &CapacityError::TooLarge.to_string());
}

#[test]
fn len_is_empty_is_full_on_both_halves() {
    let (tx, rx) = bounded(3);
    for n in 0..3 {
        assert_eq!((tx.len(), rx.len()), (n, n));
        assert_eq!(tx.is_empty(), n == 0);
        tx.send(n).unwrap();
    }
    assert!(tx.is_full() && rx.is_full());
    for n in (0..3).rev() {
        rx.recv().unwrap();
        assert_eq!(rx.len(), n);
    }
    assert!(rx.is_empty() && !rx.is_full());
}

#[test]
fn handles_are_send_sync_and_any_t_works() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<hotq_mpmc::Sender<u8>>();
    send_sync::<hotq_mpmc::Receiver<String>>();
    fn send<T: Send>(_: &T) {}
    let (tx, rx) = bounded(1);
    send(&tx.send_async(1));
    send(&rx.recv_async());
    // A single-threaded channel of a type that is not `Send`.
    let (tx, rx) = bounded(2);
    tx.send(std::rc::Rc::new(5)).unwrap();
    assert_eq!(*rx.recv().unwrap(), 5);
    assert!(format!("{tx:?} {rx:?}").contains("capacity: 2"));
}

#[test]
fn try_send_full_then_disconnected() {
    let (tx, rx) = bounded(1);
    assert_eq!(tx.try_send(1), Ok(()));
    assert_eq!(tx.try_send(2), Err(TrySendError::Full(2)));
    assert_eq!(rx.recv(), Ok(1));
    assert_eq!(tx.try_send(3), Ok(()));
    drop(rx);
    assert_eq!(tx.try_send(4), Err(TrySendError::Disconnected(4)));
    assert_eq!(tx.send(5), Err(SendError(5)));
    assert_eq!(
        tx.send_timeout(6, ms(1)),
        Err(SendTimeoutError::Disconnected(6))
    );
}

#[test]
fn recv_drains_then_reports_disconnected() {
    let (tx, rx) = bounded(4);
    tx.send(1).unwrap();
    tx.send(2).unwrap();
    drop(tx);
    assert_eq!(rx.recv(), Ok(1));
    assert_eq!(rx.recv_timeout(ms(1)), Ok(2));
    assert_eq!(rx.recv(), Err(RecvError));
    assert_eq!(rx.try_recv(), Err(TryRecvError::Disconnected));
    assert_eq!(rx.recv_timeout(ms(1)), Err(RecvTimeoutError::Disconnected));
}

#[test]
fn a_deadline_in_the_past_never_blocks() {
    let (tx, rx) = bounded(1);
    let past = Instant::now() - ms(10);
    let start = Instant::now();
    assert_eq!(rx.recv_deadline(past), Err(RecvTimeoutError::Timeout));
    tx.send(1).unwrap();
    assert_eq!(tx.send_deadline(2, past), Err(SendTimeoutError::Timeout(2)));
    assert_eq!(rx.recv_deadline(past), Ok(1)); // but it does try once
    assert!(start.elapsed() < bound(Duration::from_secs(5)));
}

#[test]
fn timed_calls_return_by_their_deadline() {
    within("timed calls", LIMIT, || {
        let (tx, rx) = bounded(1);
        for wait in [1, 10, 50] {
            let start = Instant::now();
            assert_eq!(rx.recv_timeout(ms(wait)), Err(RecvTimeoutError::Timeout));
            let took = start.elapsed();
            assert!(took >= ms(wait), "returned early: {took:?} < {wait} ms");
            assert!(
                took < ms(wait) + bound(Duration::from_secs(5)),
                "late: {took:?}"
            );
        }
        tx.send(0).unwrap();
        let start = Instant::now();
        assert_eq!(
            tx.send_timeout(1, ms(20)),
            Err(SendTimeoutError::Timeout(1))
        );
        assert!(start.elapsed() >= ms(20));
        // A huge timeout is no timeout, not an overflow.
        let t = thread::spawn(move || rx.recv_timeout(Duration::MAX));
        thread::sleep(ms(20));
        drop(tx);
        assert_eq!(t.join().unwrap(), Ok(0));
    });
}

#[test]
fn timeout_then_success_across_threads() {
    // crossbeam's `recv_timeout` / `send_timeout` scenarios: one side times
    // out while the other is late, then succeeds once it comes.
    within("timeouts", LIMIT, || {
        let (tx, rx) = bounded(1);
        let gate = Arc::new(Barrier::new(2));
        let g = gate.clone();
        let t = thread::spawn(move || {
            assert_eq!(rx.recv_timeout(ms(5)), Err(RecvTimeoutError::Timeout));
            g.wait();
            assert_eq!(rx.recv_timeout(Duration::from_secs(30)), Ok(7));
            assert_eq!(
                rx.recv_timeout(Duration::from_secs(30)),
                Err(RecvTimeoutError::Disconnected)
            );
        });
        gate.wait();
        thread::sleep(ms(10)); // let it park (it would also work unparked)
        tx.send(7).unwrap();
        drop(tx);
        t.join().unwrap();
    });
}

#[test]
fn last_sender_drop_wakes_a_blocked_receiver() {
    within("disconnect wakes receiver", LIMIT, || {
        let (tx, rx) = bounded::<u8>(1);
        let t = thread::spawn(move || rx.recv());
        thread::sleep(ms(20));
        drop(tx);
        assert_eq!(t.join().unwrap(), Err(RecvError));
    });
}

#[test]
fn last_receiver_drop_wakes_a_blocked_sender_with_its_value() {
    within("disconnect wakes sender", LIMIT, || {
        let (tx, rx) = bounded(1);
        tx.send(1).unwrap();
        let t = thread::spawn(move || (tx.send(2), tx));
        thread::sleep(ms(20));
        drop(rx);
        let (sent, tx) = t.join().unwrap();
        // Always: the channel was full and nobody received, so the only
        // room there ever was is the room the drop's drain made, after
        // the disconnection. (A send that read "connected" just before the
        // drop, as miri's scheduler finds, claims that room and then finds
        // the flag: it gives the slot back and fails.)
        assert_eq!(sent, Err(SendError(2)));
        assert!(tx.is_empty(), "an item left in a channel nobody receives");
    });
}

#[test]
fn sixteen_receivers_with_long_timeouts_all_woken_by_the_last_sender_drop() {
    within("16 receivers", LIMIT, || {
        let (tx, rx) = bounded::<u8>(4);
        let parked = Arc::new(Barrier::new(17));
        let ts: Vec<_> = (0..16)
            .map(|_| {
                let (rx, parked) = (rx.clone(), parked.clone());
                thread::spawn(move || {
                    parked.wait();
                    let start = Instant::now();
                    let got = rx.recv_timeout(Duration::from_secs(3600));
                    (got, start.elapsed())
                })
            })
            .collect();
        drop(rx);
        parked.wait();
        thread::sleep(ms(50));
        let tx2 = tx.clone();
        drop(tx); // not the last: nobody wakes
        thread::sleep(ms(10));
        drop(tx2);
        for t in ts {
            let (got, took) = t.join().unwrap();
            assert_eq!(got, Err(RecvTimeoutError::Disconnected));
            assert!(
                took < bound(Duration::from_secs(30)),
                "woken late: {took:?}"
            );
        }
    });
}

#[test]
fn spsc_counts() {
    let n = scaled(100_000, 500);
    within("spsc", LIMIT, move || {
        let (tx, rx) = bounded(3);
        let t = thread::spawn(move || (0..n).for_each(|i| tx.send(i).unwrap()));
        for i in 0..n {
            assert_eq!(rx.recv(), Ok(i));
        }
        assert_eq!(rx.recv(), Err(RecvError));
        t.join().unwrap();
    });
}

/// `producers` × `each` items through a channel of `capacity` to
/// `consumers`, each side using `how(thread index, item index)` to pick a
/// call: every item exactly once, each producer's items in order per
/// consumer.
fn many_to_many(producers: usize, consumers: usize, capacity: usize, each: u32, mix: bool) {
    let what = format!("{producers}P{consumers}C capacity {capacity} mixed {mix}");
    within(&what.clone(), LIMIT, move || {
        let (tx, rx) = bounded(capacity);
        let ps: Vec<_> = (0..producers as u32)
            .map(|p| {
                let tx = tx.clone();
                thread::spawn(move || {
                    for seq in 0..each {
                        let item = Item { producer: p, seq };
                        match (mix, (seq + p) % 3) {
                            (true, 0) => block_on(tx.send_async(item)).unwrap(),
                            (true, 1) => {
                                let mut item = item;
                                loop {
                                    match tx.send_timeout(item, ms(1)) {
                                        Ok(()) => break,
                                        Err(SendTimeoutError::Timeout(back)) => item = back,
                                        Err(e) => panic!("{e}"),
                                    }
                                }
                            }
                            _ => tx.send(item).unwrap(),
                        }
                    }
                })
            })
            .collect();
        drop(tx);
        let cs: Vec<_> = (0..consumers)
            .map(|c| {
                let rx = rx.clone();
                thread::spawn(move || {
                    let mut got = Vec::new();
                    let mut k = c;
                    loop {
                        k += 1;
                        let next = match (mix, k % 3) {
                            (true, 0) => block_on(rx.recv_async()).ok(),
                            (true, 1) => match rx.recv_timeout(ms(1)) {
                                Ok(v) => Some(v),
                                Err(RecvTimeoutError::Timeout) => continue,
                                Err(RecvTimeoutError::Disconnected) => None,
                            },
                            _ => rx.recv().ok(),
                        };
                        match next {
                            Some(v) => got.push(v),
                            None => return got,
                        }
                    }
                })
            })
            .collect();
        drop(rx);
        ps.into_iter().for_each(|t| t.join().unwrap());
        let streams: Vec<_> = cs
            .into_iter()
            .enumerate()
            .map(|(c, t)| (format!("consumer {c}"), t.join().unwrap()))
            .collect();
        let views: Vec<_> = streams.iter().map(|(n, s)| (n.clone(), &s[..])).collect();
        assert_exactly_once_in_order(&what, producers, each, &views);
    });
}

#[test]
fn mpmc_counts_blocking() {
    many_to_many(4, 4, 16, scaled(20_000, 50) as u32, false);
}

#[test]
fn eight_blocking_senders_eight_blocking_receivers_capacity_2() {
    many_to_many(8, 8, 2, scaled(5_000, 20) as u32, false);
}

#[test]
fn async_timed_and_blocking_calls_mixed_keep_per_producer_order() {
    many_to_many(2, 2, 2, scaled(10_000, 30) as u32, true);
    many_to_many(4, 4, 3, scaled(5_000, 20) as u32, true);
}

#[test]
fn eight_blocked_senders_all_make_progress() {
    within("fair senders", LIMIT, || {
        let each = scaled(20, 10) as u32;
        let (tx, rx) = bounded(1);
        let ts: Vec<_> = (0..8u32)
            .map(|p| {
                let tx = tx.clone();
                thread::spawn(move || (0..each).for_each(|i| tx.send((p, i)).unwrap()))
            })
            .collect();
        drop(tx);
        thread::sleep(ms(20)); // let them all block on the full channel
        let mut order = Vec::new();
        while let Ok((p, _)) = rx.recv() {
            order.push(p);
            thread::sleep(Duration::from_micros(200)); // a slow consumer
        }
        ts.into_iter().for_each(|t| t.join().unwrap());
        assert_eq!(order.len(), 8 * each as usize);
        let first_half = &order[..order.len() / 2];
        for p in 0..8 {
            assert!(first_half.contains(&p), "sender {p} starved: {order:?}");
        }
    });
}

#[test]
fn a_sender_blocked_on_a_full_channel_takes_the_first_slot_freed() {
    // A blocked sender's spin phase waits for half the ring to be free
    // (`Sender::send_waiting`): a hint only, so one receive must still let
    // it through, whether it is spinning, parked, or not yet blocked when
    // the slot frees (the pauses vary which).
    within("first freed slot", LIMIT, || {
        // (A smaller ring under miri, which interprets every instruction.)
        let capacity = if cfg!(miri) { 16 } else { 1024 };
        for pause in [Duration::ZERO, Duration::from_micros(50), ms(20)] {
            let (tx, rx) = bounded(capacity);
            (0..capacity).for_each(|i| tx.send(i).unwrap());
            let sender = thread::spawn(move || tx.send(capacity));
            thread::sleep(pause);
            assert_eq!(rx.recv(), Ok(0));
            assert_eq!(sender.join().unwrap(), Ok(()), "pause {pause:?}");
            assert!(rx.iter().eq(1..=capacity), "pause {pause:?}");
        }
    });
}

#[test]
fn linearizable_send_then_try_recv() {
    // crossbeam's `linearizable`: after my send returns, my try_recv must
    // find an item (mine or another's), on a channel big enough for all.
    let rounds = scaled(10_000, 50);
    within("linearizable", LIMIT, move || {
        let (tx, rx) = bounded(4);
        let ts: Vec<_> = (0..4)
            .map(|_| {
                let (tx, rx) = (tx.clone(), rx.clone());
                thread::spawn(move || {
                    for _ in 0..rounds {
                        tx.send(0).unwrap();
                        rx.try_recv().unwrap();
                    }
                })
            })
            .collect();
        ts.into_iter().for_each(|t| t.join().unwrap());
    });
}

#[test]
fn stress_oneshot() {
    let rounds = scaled(10_000, 30);
    within("oneshot", LIMIT, move || {
        for _ in 0..rounds {
            let (tx, rx) = bounded(1);
            let t = thread::spawn(move || rx.recv().unwrap());
            tx.send(1).unwrap();
            assert_eq!(t.join().unwrap(), 1);
        }
    });
}

#[test]
fn stress_iter_and_try_iter() {
    let n = scaled(100_000, 300);
    within("iter", LIMIT, move || {
        let (tx, rx) = bounded(5);
        let (ack_tx, ack_rx) = bounded(1);
        let t = thread::spawn(move || {
            for i in 0..n {
                tx.send(i).unwrap();
                if i % 1000 == 0 {
                    ack_rx.recv().unwrap(); // pace: wait for the consumer
                }
            }
        });
        let mut next = 0;
        while next < n {
            for v in rx.try_iter() {
                assert_eq!(v, next);
                next += 1;
                if (next - 1) % 1000 == 0 {
                    ack_tx.send(()).unwrap();
                }
            }
            if let Ok(v) = rx.recv() {
                assert_eq!(v, next);
                next += 1;
                if (next - 1) % 1000 == 0 {
                    ack_tx.send(()).unwrap();
                }
            }
        }
        t.join().unwrap();
        assert_eq!(rx.iter().next(), None);
        assert_eq!((&rx).into_iter().count(), 0);
    });
}

#[test]
fn stress_timeout_two_threads() {
    let n = scaled(1_000, 20);
    within("timeouts both sides", LIMIT, move || {
        let (tx, rx) = bounded(2);
        let t = thread::spawn(move || {
            for i in 0..n {
                if i % 2 == 0 {
                    thread::sleep(Duration::from_micros(50));
                }
                let mut v = i;
                loop {
                    match tx.send_timeout(v, Duration::from_micros(100)) {
                        Ok(()) => break,
                        Err(SendTimeoutError::Timeout(back)) => v = back,
                        Err(e) => panic!("{e}"),
                    }
                }
            }
        });
        let mut next = 0;
        while next < n {
            if next % 3 == 0 {
                thread::sleep(Duration::from_micros(50));
            }
            match rx.recv_timeout(Duration::from_micros(100)) {
                Ok(v) => {
                    assert_eq!(v, next);
                    next += 1;
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(e) => panic!("{e}"),
            }
        }
        t.join().unwrap();
    });
}

#[test]
fn channel_through_channel() {
    within("channel through channel", LIMIT, || {
        type Inner = hotq_mpmc::Receiver<u32>;
        let (tx, rx) = bounded::<Inner>(1);
        let t = thread::spawn(move || {
            let (itx, irx) = bounded(1);
            tx.send(irx).unwrap();
            itx.send(42).unwrap();
        });
        let inner = rx.recv().unwrap();
        assert_eq!(inner.recv(), Ok(42));
        t.join().unwrap();
    });
}

#[test]
fn every_item_dropped_exactly_once() {
    let counter = DropCounter::leaked();
    let mut rng = 17u64;
    for round in 0..scaled(50, 5) {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let (sent, received) = ((rng >> 33) as usize % 40, (rng >> 20) as usize % 40);
        let received = received.min(sent);
        let (tx, rx) = bounded(40);
        let base = round * 100;
        thread::scope(|s| {
            s.spawn(|| (0..sent).for_each(|i| tx.send(counter.item(base + i)).unwrap()));
            s.spawn(|| (0..received).for_each(|_| drop(rx.recv().unwrap())));
        });
        drop(tx);
        drop(rx);
        for i in 0..sent {
            assert_eq!(counter.drops_of(base + i), 1, "round {round} item {i}");
        }
    }
    counter.assert_none_dropped_twice();
}

#[test]
fn last_receiver_drops_unreceived_items_at_once() {
    let counter = DropCounter::leaked();
    let (tx, rx) = bounded(8);
    for i in 0..5 {
        tx.send(counter.item(i)).unwrap();
    }
    drop(rx.recv().unwrap());
    let rx2 = rx.clone();
    drop(rx);
    assert_eq!(
        counter.total(),
        1,
        "a receiver is left: nothing more dropped"
    );
    drop(rx2);
    // The sender is still alive, and every item is already dropped.
    assert_eq!(counter.total(), 5);
    for i in 0..5 {
        assert_eq!(counter.drops_of(i), 1);
    }
    assert!(matches!(
        tx.try_send(counter.item(9)),
        Err(TrySendError::Disconnected(_))
    ));
    assert_eq!(counter.drops_of(9), 1); // given back, then dropped by the match
}

#[test]
fn a_panic_in_drop_never_drops_twice() {
    let counter = DropCounter::leaked();
    let (tx, rx) = bounded(4);
    tx.send(counter.item(0)).unwrap();
    tx.send(counter.item_panicking_on_drop(1)).unwrap();
    tx.send(counter.item(2)).unwrap();
    let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || drop(rx)));
    assert!(unwound.is_err(), "the drop's panic reaches the dropper");
    drop(tx); // the channel goes with its last handle: nothing is left in it
    // Item 2, after the panicking one, was leaked by the drain's panic (as
    // crossbeam-channel does), not dropped then or later.
    assert_eq!(
        (0..3).map(|i| counter.drops_of(i)).collect::<Vec<_>>(),
        [1, 1, 0]
    );
}

/// crossbeam-channel's `panic_on_drop` scenario, with every item
/// panicking: whichever handle goes last, the first destructor's panic
/// reaches the dropper and the rest are leaked. Dropping them while that
/// panic unwound (the queue's drop, as the unwind dropped the channel)
/// aborted the process at the second.
#[test]
fn a_channel_dropped_with_panicking_items_panics_once_and_leaks_the_rest() {
    for receiver_last in [false, true] {
        let counter = DropCounter::leaked();
        let (tx, rx) = bounded(4);
        for id in 0..3 {
            tx.send(counter.item_panicking_on_drop(id)).unwrap();
        }
        let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
            if receiver_last {
                drop(tx);
                drop(rx);
            } else {
                drop(rx); // the last receiver drains (and panics)
                drop(tx);
            }
        }));
        assert!(unwound.is_err(), "the destructor's panic was swallowed");
        assert_eq!(
            (0..3).map(|id| counter.drops_of(id)).collect::<Vec<_>>(),
            [1, 0, 0],
            "receiver last: {receiver_last}"
        );
    }
}

#[test]
fn dropped_async_futures_take_nothing_and_pass_wakes_on() {
    within("dropped futures", LIMIT, || {
        let (tx, rx) = bounded(1);
        let mut cx = Context::from_waker(Waker::noop());
        // A pending receive, dropped: takes no item.
        {
            let mut fut = pin!(rx.recv_async());
            assert!(fut.as_mut().poll(&mut cx).is_pending());
            tx.send(1).unwrap(); // notifies the future's waiter
        }
        assert_eq!(rx.try_recv(), Ok(1));
        // A notified pending receive dropped while a thread waits behind it:
        // the thread still gets the item.
        let rx2 = rx.clone();
        let mut fut = Box::pin(rx.recv_async());
        assert!(fut.as_mut().poll(&mut cx).is_pending());
        let t = thread::spawn(move || rx2.recv());
        thread::sleep(ms(20)); // the thread parks behind the future
        tx.send(2).unwrap(); // notifies the future (the oldest waiter)
        drop(fut);
        assert_eq!(t.join().unwrap(), Ok(2));
        // A pending send, dropped: only its own value goes.
        let counter = DropCounter::leaked();
        let (tx, rx) = bounded(1);
        tx.send(counter.item(0)).unwrap();
        {
            let mut fut = pin!(tx.send_async(counter.item(1)));
            assert!(fut.as_mut().poll(&mut cx).is_pending());
        }
        assert_eq!(counter.drops_of(1), 1);
        assert_eq!(rx.try_recv().unwrap().id, 0);
        assert_eq!(counter.drops_of(0), 1);
    });
}

#[test]
fn async_completes_on_first_poll_when_it_can() {
    let (tx, rx) = bounded(1);
    let mut cx = Context::from_waker(Waker::noop());
    assert_eq!(pin!(tx.send_async(5)).poll(&mut cx), Poll::Ready(Ok(())));
    assert_eq!(pin!(rx.recv_async()).poll(&mut cx), Poll::Ready(Ok(5)));
    drop(tx);
    assert_eq!(
        pin!(rx.recv_async()).poll(&mut cx),
        Poll::Ready(Err(RecvError))
    );
}

#[test]
fn async_receiver_woken_by_a_thread() {
    within("async woken", LIMIT, || {
        let (tx, rx) = bounded(2);
        let n = scaled(10_000, 100);
        let t = thread::spawn(move || (0..n).for_each(|i| tx.send(i).unwrap()));
        let got = block_on(async {
            let mut got = 0;
            while let Ok(v) = rx.recv_async().await {
                assert_eq!(v, got);
                got += 1;
            }
            got
        });
        assert_eq!(got, n);
        t.join().unwrap();
    });
}

#[cfg(all(target_os = "linux", not(miri)))]
#[test]
fn a_blocked_thread_uses_no_cpu() {
    within("cpu while blocked", LIMIT, || {
        let (_tx, rx) = bounded::<u8>(1);
        let t = thread::spawn(move || {
            let before = hotq_testkit::thread_cpu_time().expect("a thread CPU clock");
            assert_eq!(
                rx.recv_timeout(Duration::from_secs(1)),
                Err(RecvTimeoutError::Timeout)
            );
            hotq_testkit::thread_cpu_time().unwrap() - before
        });
        let used = t.join().unwrap();
        // The spin before parking is microseconds; spinning for the second
        // would use most of it.
        assert!(
            used < Duration::from_millis(50),
            "a receiver blocked for 1 s used {used:?} of CPU"
        );
    });
}

#[cfg(not(miri))]
#[test]
fn a_parked_receiver_wakes_promptly() {
    within("wake-up latency", LIMIT, || {
        let (tx, rx) = bounded::<Instant>(1);
        let (back_tx, back_rx) = bounded::<Duration>(1);
        let rounds = 20;
        let t = thread::spawn(move || {
            for sent_at in &rx {
                back_tx.send(sent_at.elapsed()).unwrap();
            }
        });
        let mut latencies: Vec<Duration> = (0..rounds)
            .map(|_| {
                thread::sleep(ms(5)); // long enough for the receiver to park
                tx.send(Instant::now()).unwrap();
                back_rx.recv().unwrap()
            })
            .collect();
        drop(tx);
        t.join().unwrap();
        latencies.sort();
        let median = latencies[rounds / 2];
        eprintln!(
            "wake-up latency of a parked receiver: median {median:?}, max {:?}",
            latencies[rounds - 1]
        );
        // A contract, not a benchmark: a lost wake-up would take forever.
        assert!(median < bound(ms(500)), "median wake-up {median:?}");
    });
}

#[test]
fn many_clones_and_drops_disconnect_once() {
    let drops = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = bounded::<u8>(1);
    let senders: Vec<_> = (0..10).map(|_| tx.clone()).collect();
    drop(tx);
    for (i, s) in senders.into_iter().enumerate() {
        assert_eq!(
            rx.try_recv(),
            Err(TryRecvError::Empty),
            "sender {i} still there"
        );
        drop(s);
        drops.fetch_add(1, Ordering::Relaxed);
    }
    assert_eq!(rx.try_recv(), Err(TryRecvError::Disconnected));
}
