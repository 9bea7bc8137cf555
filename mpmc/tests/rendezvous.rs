//! Rendezvous channels, `bounded(0)`, on real threads: crossbeam-channel's
//! zero-capacity scenario families in our words (a send blocks until a
//! receive, `try_send` needs a waiting receiver, `try_recv` takes from a
//! blocked sender, timeouts on both sides, disconnection while blocked,
//! ping-pong, oversubscribed many-to-many, selects on both sides), plus
//! the async hand-off: a cancelled `recv_async` never destroys a value,
//! and a `send_async` completes only once a receiver took its value.
//! Every wait is bounded: a lost wake-up fails the test instead of hanging
//! it; threads meet at barriers or wait for an observable state, never
//! for a sleep.

use std::collections::HashSet;
use std::future::Future;
use std::pin::pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Barrier, Mutex};
use std::task::{Context, Poll, Waker};
use std::thread;
use std::time::{Duration, Instant};

use hotq_mpmc::{
    Receiver, RecvError, RecvTimeoutError, Select, SendError, SendTimeoutError, Sender,
    TryRecvError, TrySendError, bounded, select, try_bounded,
};
use hotq_testkit::{block_on, bound, scaled, thread_cpu_time, wait_for, within};

/// A limit for one test body: far beyond any healthy run, so only a hang
/// (a lost wake-up) reaches it.
const LIMIT: Duration = bound(Duration::from_secs(120));

/// Debug builds and miri run fewer rounds of the long loops.
const fn rounds(release: usize, debug: usize, miri: usize) -> usize {
    if cfg!(debug_assertions) {
        scaled(debug, miri)
    } else {
        scaled(release, miri)
    }
}

/// Waits until a receiver is blocked on `tx`'s channel (a send would go
/// ahead), without sending anything.
fn until_a_receiver_waits<T>(tx: &Sender<T>) {
    let mut sel = Select::new();
    sel.send(tx);
    wait_for("a receiver to block", || sel.try_ready().ok());
}

/// Waits until a sender is blocked on `rx`'s channel, without receiving.
fn until_a_sender_waits<T>(rx: &Receiver<T>) {
    let mut sel = Select::new();
    sel.recv(rx);
    wait_for("a sender to block", || sel.try_ready().ok());
}

/// In odd rounds, lets a thread that was just seen blocking get past its
/// spin into its park (20 µs at most), so that a missing unpark shows as a
/// hang. Never what a test's success depends on: it passes either way.
fn let_it_park(round: usize) {
    if round % 2 == 1 {
        thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn a_rendezvous_channel_holds_nothing_len_0_capacity_0_empty_and_full() {
    let (tx, rx) = bounded::<u8>(0);
    assert_eq!((tx.len(), rx.len()), (0, 0));
    assert_eq!((tx.capacity(), rx.capacity()), (0, 0));
    assert!(tx.is_empty() && rx.is_empty());
    assert!(tx.is_full() && rx.is_full());
    let (tx, rx) = try_bounded::<u8>(0).expect("capacity 0 is a rendezvous channel");
    assert_eq!((tx.capacity(), rx.capacity()), (0, 0));
}

#[test]
fn try_send_without_a_waiting_receiver_is_full_and_keeps_the_value() {
    let (tx, rx) = bounded(0);
    assert_eq!(tx.try_send(1), Err(TrySendError::Full(1)));
    assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
    assert_eq!(
        tx.send_timeout(2, Duration::ZERO),
        Err(SendTimeoutError::Timeout(2))
    );
    drop(rx);
    assert_eq!(tx.try_send(3), Err(TrySendError::Disconnected(3)));
}

#[test]
fn try_send_to_a_blocked_receiver_hands_the_value_to_that_receiver() {
    within("try_send to a blocked receiver", LIMIT, || {
        for i in 0..scaled(200, 5) {
            let (tx, rx) = bounded(0);
            let other = rx.clone();
            let r = thread::spawn(move || rx.recv());
            until_a_receiver_waits(&tx);
            assert_eq!(tx.try_send(i), Ok(()));
            // The value is the blocked receiver's, not left in the channel.
            assert_eq!(other.try_recv(), Err(TryRecvError::Empty));
            assert_eq!(r.join().unwrap(), Ok(i));
        }
    });
}

#[test]
fn send_blocks_until_a_receiver_takes_the_value() {
    within("send blocks until recv", LIMIT, || {
        for i in 0..scaled(200, 5) {
            let (tx, rx) = bounded(0);
            let returned = Arc::new(AtomicBool::new(false));
            let s = thread::spawn({
                let returned = Arc::clone(&returned);
                move || {
                    let sent = tx.send(i);
                    returned.store(true, Ordering::SeqCst);
                    sent
                }
            });
            until_a_sender_waits(&rx);
            // Blocked: its offer is there, nobody took it, it has not
            // returned.
            assert!(
                !returned.load(Ordering::SeqCst),
                "send returned before any recv"
            );
            assert_eq!(rx.recv(), Ok(i));
            assert_eq!(s.join().unwrap(), Ok(()));
            assert!(returned.load(Ordering::SeqCst));
        }
    });
}

#[test]
fn try_recv_takes_the_value_of_a_blocked_sender_and_releases_it() {
    within("try_recv from a blocked sender", LIMIT, || {
        for i in 0..scaled(200, 5) {
            let (tx, rx) = bounded(0);
            let s = thread::spawn(move || tx.send(i));
            until_a_sender_waits(&rx);
            let_it_park(i);
            assert_eq!(rx.try_recv(), Ok(i));
            assert_eq!(s.join().unwrap(), Ok(()));
            assert_eq!(rx.try_recv(), Err(TryRecvError::Disconnected));
        }
    });
}

#[test]
fn a_send_with_no_receiver_times_out_with_its_value_and_a_past_deadline_returns_at_once() {
    let (tx, rx) = bounded(0);
    let start = Instant::now();
    let timeout = Duration::from_millis(20);
    assert_eq!(
        tx.send_timeout(7, timeout),
        Err(SendTimeoutError::Timeout(7))
    );
    assert!(start.elapsed() >= timeout, "timed out early");
    // A deadline in the past: one try, no wait, and no offer left behind.
    let past = Instant::now() - Duration::from_millis(1);
    assert_eq!(tx.send_deadline(8, past), Err(SendTimeoutError::Timeout(8)));
    assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
}

#[test]
fn a_recv_with_no_sender_times_out_and_a_past_deadline_returns_at_once() {
    let (tx, rx) = bounded::<u32>(0);
    let start = Instant::now();
    let timeout = Duration::from_millis(20);
    assert_eq!(rx.recv_timeout(timeout), Err(RecvTimeoutError::Timeout));
    assert!(start.elapsed() >= timeout, "timed out early");
    let past = Instant::now() - Duration::from_millis(1);
    assert_eq!(rx.recv_deadline(past), Err(RecvTimeoutError::Timeout));
    // No receiver was left behind waiting.
    assert_eq!(tx.try_send(1), Err(TrySendError::Full(1)));
}

#[test]
fn a_timed_receive_racing_a_send_gets_the_value_or_leaves_it_with_the_sender() {
    within("timed recv against try_send", LIMIT, || {
        let (tx, rx) = bounded(0);
        let (mut delivered, mut refused) = (0, 0);
        for i in 0..scaled(2_000, 20) {
            let start = Arc::new(Barrier::new(2));
            let r = thread::spawn({
                let (rx, start) = (rx.clone(), Arc::clone(&start));
                move || {
                    start.wait();
                    // Under miri, whose clock runs with the instructions
                    // it interprets, 50 µs ran out before every try_send.
                    rx.recv_timeout(if cfg!(miri) {
                        Duration::from_millis(20)
                    } else {
                        Duration::from_micros(50)
                    })
                }
            });
            start.wait();
            let sent = wait_for("the receive to start or end", || match tx.try_send(i) {
                Ok(()) => Some(true),
                Err(TrySendError::Full(_)) if r.is_finished() => Some(false),
                Err(TrySendError::Full(_)) => None,
                Err(TrySendError::Disconnected(_)) => unreachable!(),
            });
            let got = r.join().unwrap();
            if sent {
                assert_eq!(got, Ok(i), "a value handed over must be received");
                delivered += 1;
            } else {
                assert_eq!(got, Err(RecvTimeoutError::Timeout));
                refused += 1;
            }
            assert_eq!(
                rx.try_recv(),
                Err(TryRecvError::Empty),
                "nothing left inside"
            );
        }
        assert!(delivered > 0, "no hand-off in {refused} rounds");
    });
}

#[test]
fn dropping_the_receivers_wakes_a_blocked_sender_with_its_value() {
    within("disconnect a blocked sender", LIMIT, || {
        for round in 0..scaled(20, 2) {
            let (tx, rx) = bounded(0);
            let s = thread::spawn(move || tx.send(5));
            until_a_sender_waits(&rx);
            let_it_park(round);
            drop(rx);
            assert_eq!(s.join().unwrap(), Err(SendError(5)));
        }
    });
}

#[test]
fn dropping_the_senders_wakes_a_blocked_receiver_as_disconnected() {
    within("disconnect a blocked receiver", LIMIT, || {
        for round in 0..scaled(20, 2) {
            let (tx, rx) = bounded::<u8>(0);
            let r = thread::spawn(move || (rx.recv(), rx.recv_timeout(Duration::from_secs(60))));
            until_a_receiver_waits(&tx);
            let_it_park(round);
            drop(tx);
            assert_eq!(
                r.join().unwrap(),
                (Err(RecvError), Err(RecvTimeoutError::Disconnected))
            );
        }
    });
}

#[test]
fn close_refuses_new_sends_and_gives_blocked_senders_their_values_back() {
    within("close", LIMIT, || {
        let (tx, rx) = bounded(0);
        let s = thread::spawn({
            let tx = tx.clone();
            move || tx.send(1)
        });
        until_a_sender_waits(&rx);
        rx.close();
        assert_eq!(s.join().unwrap(), Err(SendError(1)));
        assert_eq!(tx.try_send(2), Err(TrySendError::Disconnected(2)));
        assert_eq!(tx.send(3), Err(SendError(3)));
        assert_eq!(rx.recv(), Err(RecvError));
        assert!(tx.is_disconnected());
    });
}

#[test]
fn a_ping_pong_of_a_million_items_arrives_exactly_once_and_in_order() {
    let n = rounds(1_000_000, 100_000, 300);
    let got = within("ping-pong", LIMIT, move || {
        let (tx, rx) = bounded::<usize>(0);
        let (ack_tx, ack_rx) = bounded::<usize>(0);
        let echo = thread::spawn(move || {
            for v in rx.iter() {
                ack_tx.send(v).unwrap();
            }
        });
        let mut got = 0;
        for i in 0..n {
            tx.send(i).unwrap();
            assert_eq!(ack_rx.recv(), Ok(i), "out of order or lost");
            got += 1;
        }
        drop(tx);
        echo.join().unwrap();
        got
    });
    assert_eq!(got, n);
}

#[test]
fn one_sender_streams_to_one_receiver_in_order() {
    let n = rounds(200_000, 20_000, 200);
    within("stream", LIMIT, move || {
        let (tx, rx) = bounded::<usize>(0);
        let s = thread::spawn(move || (0..n).for_each(|i| tx.send(i).unwrap()));
        for (want, got) in rx.iter().enumerate() {
            assert_eq!(got, want);
        }
        s.join().unwrap();
    });
}

#[test]
fn eight_senders_and_eight_receivers_hand_over_every_item_exactly_once() {
    const SIDE: usize = 8;
    let per = rounds(20_000, 2_000, 20);
    let seen = within("8x8 rendezvous", LIMIT, move || {
        let (tx, rx) = bounded::<usize>(0);
        let start = Arc::new(Barrier::new(2 * SIDE));
        let senders: Vec<_> = (0..SIDE)
            .map(|p| {
                let (tx, start) = (tx.clone(), Arc::clone(&start));
                thread::spawn(move || {
                    start.wait();
                    for i in 0..per {
                        // Mix blocking, timed and try sends.
                        let v = p * per + i;
                        match i % 3 {
                            0 => tx.send(v).unwrap(),
                            1 => loop {
                                match tx.send_timeout(v, Duration::from_micros(100)) {
                                    Ok(()) => break,
                                    Err(SendTimeoutError::Timeout(_)) => continue,
                                    Err(e) => panic!("{e:?}"),
                                }
                            },
                            _ => {
                                let mut v = v;
                                loop {
                                    match tx.try_send(v) {
                                        Ok(()) => break,
                                        Err(TrySendError::Full(back)) => {
                                            v = back;
                                            thread::yield_now();
                                        }
                                        Err(e) => panic!("{e:?}"),
                                    }
                                }
                            }
                        }
                    }
                })
            })
            .collect();
        drop(tx);
        let receivers: Vec<_> = (0..SIDE)
            .map(|c| {
                let (rx, start) = (rx.clone(), Arc::clone(&start));
                thread::spawn(move || {
                    start.wait();
                    let mut got = Vec::new();
                    loop {
                        let r = if c % 2 == 0 {
                            rx.recv().map_err(|_| ())
                        } else {
                            match rx.recv_timeout(Duration::from_micros(100)) {
                                Ok(v) => Ok(v),
                                Err(RecvTimeoutError::Timeout) => continue,
                                Err(RecvTimeoutError::Disconnected) => Err(()),
                            }
                        };
                        match r {
                            Ok(v) => got.push(v),
                            Err(()) => return got,
                        }
                    }
                })
            })
            .collect();
        drop(rx);
        senders.into_iter().for_each(|s| s.join().unwrap());
        let mut seen = Vec::new();
        for r in receivers {
            seen.extend(r.join().unwrap());
        }
        seen
    });
    assert_eq!(seen.len(), SIDE * per, "lost or duplicated items");
    let unique: HashSet<_> = seen.iter().copied().collect();
    assert_eq!(unique.len(), SIDE * per, "an item was received twice");
}

#[test]
fn a_select_recv_arm_takes_from_a_blocked_sender_and_waits_for_a_late_one() {
    within("select recv arm", LIMIT, || {
        let (tx, rx) = bounded(0);
        let (_other_tx, other_rx) = bounded::<i32>(1);
        // A sender blocked first.
        let s = thread::spawn({
            let tx = tx.clone();
            move || tx.send(1)
        });
        until_a_sender_waits(&rx);
        select! {
            recv(rx) -> v => assert_eq!(v, Ok(1)),
            recv(other_rx) -> _v => panic!("nothing sent there"),
        }
        s.join().unwrap().unwrap();
        // The select blocked first, a sender comes later.
        let s = thread::spawn(move || {
            until_a_receiver_waits(&tx);
            tx.send(2)
        });
        select! {
            recv(rx) -> v => assert_eq!(v, Ok(2)),
            recv(other_rx) -> _v => panic!("nothing sent there"),
        }
        s.join().unwrap().unwrap();
    });
}

#[test]
fn a_select_send_arm_hands_to_a_blocked_receiver_and_waits_for_a_late_one() {
    within("select send arm", LIMIT, || {
        let (tx, rx) = bounded(0);
        let (full_tx, _full_rx) = bounded(1);
        full_tx.send(0).unwrap();
        let r = thread::spawn({
            let rx = rx.clone();
            move || rx.recv()
        });
        until_a_receiver_waits(&tx);
        select! {
            send(tx, 1) -> res => assert_eq!(res, Ok(())),
            send(full_tx, 9) -> _res => panic!("that channel is full"),
        }
        assert_eq!(r.join().unwrap(), Ok(1));
        // The select blocked first.
        let r = thread::spawn(move || {
            until_a_sender_waits_on_a_select(&rx);
            rx.recv()
        });
        select! {
            send(tx, 2) -> res => assert_eq!(res, Ok(())),
            send(full_tx, 9) -> _res => panic!("that channel is full"),
        }
        assert_eq!(r.join().unwrap(), Ok(2));
    });
}

/// A select's send arm waits without offering a value (it has none until
/// it is chosen), so nothing shows it: let it block a little first. Not a
/// timing the test depends on: the receive works whichever comes first.
fn until_a_sender_waits_on_a_select<T>(_rx: &Receiver<T>) {
    thread::yield_now();
}

#[test]
fn a_select_send_arm_meets_a_select_recv_arm_on_another_thread() {
    let n = rounds(20_000, 2_000, 30);
    within("select against select", LIMIT, move || {
        let (tx, rx) = bounded::<usize>(0);
        let (_never_tx, never_rx) = bounded::<usize>(1);
        let (never_stx, _never_srx) = bounded::<usize>(1);
        never_stx.send(0).unwrap();
        let s = thread::spawn(move || {
            for i in 0..n {
                select! {
                    send(tx, i) -> res => res.unwrap(),
                    send(never_stx, i) -> _res => panic!("full"),
                }
            }
        });
        for i in 0..n {
            select! {
                recv(rx) -> v => assert_eq!(v, Ok(i)),
                recv(never_rx) -> _v => panic!("nothing sent there"),
            }
        }
        s.join().unwrap();
    });
}

#[test]
fn a_select_with_both_arms_on_one_rendezvous_channel_never_meets_itself() {
    within("a select against itself", LIMIT, || {
        let (tx, rx) = bounded::<i32>(0);
        // Alone, neither arm can go ahead: it times out, whichever arm it
        // registers first.
        for recv_first in [false, true] {
            let mut sel = Select::new();
            if recv_first {
                sel.recv(&rx);
                sel.send(&tx);
            } else {
                sel.send(&tx);
                sel.recv(&rx);
            }
            for _ in 0..scaled(20, 2) {
                assert!(sel.select_timeout(Duration::from_millis(2)).is_err());
            }
            // And it parks meanwhile: a select that woke itself would spin
            // through the whole timeout.
            let cpu_before = thread_cpu_time();
            let timeout = Duration::from_millis(50);
            assert!(sel.select_timeout(timeout).is_err());
            if let (Some(before), Some(after)) = (cpu_before, thread_cpu_time()) {
                let busy = after - before;
                // A parked select used 46 µs here; one that woke itself,
                // 16 ms of a core shared with other work.
                assert!(
                    busy < timeout / 5,
                    "spun for {busy:?} of a {timeout:?} wait"
                );
            }
        }
        let mut sel = Select::new();
        sel.send(&tx);
        sel.recv(&rx);
        // With a peer, one of them does.
        let peer = thread::spawn({
            let (tx, rx) = (tx.clone(), rx.clone());
            move || {
                select! {
                    send(tx, 7) -> res => res.map(|()| None).unwrap(),
                    recv(rx) -> v => Some(v.unwrap()),
                }
            }
        });
        let oper = sel.select();
        let mine = match oper.index() {
            0 => {
                oper.send(&tx, 8).unwrap();
                None
            }
            _ => Some(oper.recv(&rx).unwrap()),
        };
        let theirs = peer.join().unwrap();
        assert!(
            matches!((mine, theirs), (None, Some(8)) | (Some(7), None)),
            "{mine:?} / {theirs:?}"
        );
    });
}

#[test]
fn a_dropped_selected_send_releases_the_claimed_receiver() {
    within("a dropped send arm", LIMIT, || {
        let (tx, rx) = bounded::<i32>(0);
        let r = thread::spawn({
            let rx = rx.clone();
            move || rx.recv()
        });
        until_a_receiver_waits(&tx);
        let mut sel = Select::new();
        sel.send(&tx);
        let oper = sel.select();
        // Dropping it unfinished panics (as crossbeam's) ...
        let dropped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(oper)));
        assert!(dropped.is_err());
        // ... and the receiver waits again: a later send reaches it.
        tx.send(3).unwrap();
        assert_eq!(r.join().unwrap(), Ok(3));
    });
}

#[test]
fn select_ready_sees_a_blocked_peer_without_taking_its_value() {
    within("ready", LIMIT, || {
        let (tx, rx) = bounded(0);
        let mut sel = Select::new();
        let i = sel.recv(&rx);
        assert!(sel.try_ready().is_err());
        let s = thread::spawn(move || tx.send(4));
        assert_eq!(sel.ready(), i);
        assert_eq!(rx.recv(), Ok(4)); // still there
        s.join().unwrap().unwrap();
    });
}

#[test]
fn a_cancelled_recv_async_never_destroys_a_value() {
    let n = rounds(20_000, 3_000, 30);
    let got = within("cancelled recv_async", LIMIT, move || {
        let (tx, rx) = bounded::<usize>(0);
        let s = thread::spawn(move || {
            for i in 0..n {
                tx.send(i).unwrap();
            }
        });
        let mut got = Vec::with_capacity(n);
        let mut cx = Context::from_waker(Waker::noop());
        let mut seed = 0x9e37_79b9_u32;
        let mut cancelled = 0;
        while got.len() < n {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            let mut fut = Box::pin(rx.recv_async());
            // Poll a random number of times (0: dropped before its first
            // poll), with a random pause for the sender to pick it.
            let polls = seed % 4;
            let mut done = false;
            for _ in 0..polls {
                if let Poll::Ready(v) = fut.as_mut().poll(&mut cx) {
                    got.push(v.expect("the sender is still there"));
                    done = true;
                    break;
                }
                for _ in 0..(seed >> 8) % 64 {
                    std::hint::spin_loop();
                }
                if seed & 16 != 0 {
                    thread::yield_now();
                }
            }
            if !done {
                cancelled += 1;
                drop(fut); // mid hand-off, often: the value must come back
            }
        }
        s.join().unwrap();
        assert_eq!(
            rx.try_recv(),
            Err(TryRecvError::Disconnected),
            "a value left over"
        );
        assert!(cancelled > 0);
        got
    });
    assert_eq!(got.len(), n);
    let unique: HashSet<_> = got.iter().copied().collect();
    assert_eq!(unique.len(), n, "a value was received twice");
}

#[test]
fn send_async_completes_only_once_a_receiver_has_taken_the_value() {
    within("send_async", LIMIT, || {
        let (tx, rx) = bounded(0);
        let mut cx = Context::from_waker(Waker::noop());
        let mut fut = pin!(tx.send_async(1));
        assert_eq!(fut.as_mut().poll(&mut cx), Poll::Pending);
        assert_eq!(fut.as_mut().poll(&mut cx), Poll::Pending); // nobody took it
        assert_eq!(rx.try_recv(), Ok(1));
        assert_eq!(fut.as_mut().poll(&mut cx), Poll::Ready(Ok(())));
        // Against a blocked receiver: completes on the first poll.
        let r = thread::spawn({
            let rx = rx.clone();
            move || rx.recv()
        });
        until_a_receiver_waits(&tx);
        assert_eq!(block_on(tx.send_async(2)), Ok(()));
        assert_eq!(r.join().unwrap(), Ok(2));
        // A cancelled send_async withdraws its value.
        {
            let mut fut = pin!(tx.send_async(3));
            assert_eq!(fut.as_mut().poll(&mut cx), Poll::Pending);
        }
        assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
        drop(rx);
        assert_eq!(block_on(tx.send_async(4)), Err(SendError(4)));
    });
}

#[test]
fn async_senders_and_receivers_hand_over_every_item_exactly_once() {
    let n = rounds(20_000, 3_000, 30);
    let got = within("async rendezvous", LIMIT, move || {
        let (tx, rx) = bounded::<usize>(0);
        let s = thread::spawn(move || {
            for i in 0..n {
                block_on(tx.send_async(i)).unwrap();
            }
        });
        let mut got = Vec::new();
        while let Ok(v) = block_on(rx.recv_async()) {
            got.push(v);
        }
        s.join().unwrap();
        got
    });
    assert_eq!(got, (0..n).collect::<Vec<_>>());
}

#[test]
fn a_blocked_sender_counts_its_value_out_exactly_once_under_timeouts() {
    // Senders with short timeouts against receivers with short timeouts:
    // every `Ok` send is received once, every timed-out one never.
    let per = rounds(5_000, 1_000, 20);
    within("timeouts on both sides", LIMIT, move || {
        let (tx, rx) = bounded::<usize>(0);
        let sent = Arc::new(Mutex::new(Vec::new()));
        let received = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let senders: Vec<_> = (0..2)
            .map(|p| {
                let (tx, sent) = (tx.clone(), Arc::clone(&sent));
                thread::spawn(move || {
                    for i in 0..per {
                        let v = p * per + i;
                        if tx.send_timeout(v, Duration::from_micros(30)).is_ok() {
                            sent.lock().unwrap().push(v);
                        }
                    }
                })
            })
            .collect();
        let receivers: Vec<_> = (0..2)
            .map(|_| {
                let (rx, received, stop) = (rx.clone(), Arc::clone(&received), Arc::clone(&stop));
                thread::spawn(move || {
                    let mut got = Vec::new();
                    while !stop.load(Ordering::SeqCst) {
                        if let Ok(v) = rx.recv_timeout(Duration::from_micros(30)) {
                            got.push(v);
                            received.fetch_add(1, Ordering::SeqCst);
                        }
                    }
                    got
                })
            })
            .collect();
        senders.into_iter().for_each(|s| s.join().unwrap());
        stop.store(true, Ordering::SeqCst);
        let mut got: Vec<usize> = receivers
            .into_iter()
            .flat_map(|r| r.join().unwrap())
            .collect();
        let mut sent = sent.lock().unwrap().clone();
        got.sort_unstable();
        sent.sort_unstable();
        assert_eq!(got, sent, "received ≠ sent successfully");
        drop(tx);
    });
}

#[test]
fn iterators_end_at_the_disconnection() {
    within("iter", LIMIT, || {
        let (tx, rx) = bounded(0);
        let s = thread::spawn(move || (0..10).for_each(|i| tx.send(i).unwrap()));
        assert_eq!(rx.iter().collect::<Vec<_>>(), (0..10).collect::<Vec<_>>());
        s.join().unwrap();
        assert_eq!(rx.try_iter().count(), 0);
    });
}

// Batch calls: a rendezvous channel has no queue to claim a batch in, so
// each batch call is its single call once per item (a `Vec` in, a `Vec`
// out), and says what the single call says: never "disconnected" while a
// receiver lives (the closed queue used to answer for the channel), never
// blind to a blocked sender.

#[test]
fn batch_sends_hand_each_item_to_a_receiver_in_order() {
    within("send_many to receivers", LIMIT, || {
        let (tx, rx) = bounded(0);
        let r = thread::spawn(move || (0..5).map(|_| rx.recv()).collect::<Vec<_>>());
        let mut items = vec![1, 2, 3, 4, 5];
        assert_eq!(tx.send_many(&mut items), Ok(()));
        assert!(items.is_empty());
        assert_eq!(r.join().unwrap(), [1, 2, 3, 4, 5].map(Ok));
    });
}

#[test]
fn try_send_many_hands_over_while_a_receiver_waits_and_keeps_the_rest_in_order() {
    within("try_send_many", LIMIT, || {
        let (tx, rx) = bounded(0);
        let mut items = vec!['a', 'b', 'c'];
        // Nobody waits: full, not disconnected, and nothing taken.
        assert_eq!(tx.try_send_many(&mut items), Err(TrySendError::Full(())));
        assert_eq!(items, ['a', 'b', 'c']);
        let r = thread::spawn(move || (rx.recv(), rx));
        until_a_receiver_waits(&tx);
        assert_eq!(tx.try_send_many(&mut items), Ok(1));
        assert_eq!(items, ['b', 'c']);
        let (got, rx) = r.join().unwrap();
        assert_eq!(got, Ok('a'));
        drop(rx);
        assert_eq!(
            tx.try_send_many(&mut items),
            Err(TrySendError::Disconnected(()))
        );
        assert_eq!(items, ['b', 'c']);
    });
}

#[test]
fn a_timed_batch_send_with_no_receiver_times_out_keeping_every_item() {
    let (tx, rx) = bounded(0);
    let mut items = vec![1, 2];
    let start = Instant::now();
    let timeout = Duration::from_millis(20);
    assert_eq!(
        tx.send_many_timeout(&mut items, timeout),
        Err(SendTimeoutError::Timeout(()))
    );
    assert!(start.elapsed() >= timeout, "timed out early");
    assert_eq!(items, [1, 2]);
    drop(rx);
    assert_eq!(
        tx.send_many(&mut items),
        Err(SendError(())),
        "no receiver: disconnected, items kept"
    );
    assert_eq!(items, [1, 2]);
}

#[test]
fn batch_receives_take_from_blocked_senders() {
    within("recv_many from blocked senders", LIMIT, || {
        for round in 0..scaled(50, 3) {
            let (tx, rx) = bounded(0);
            let mut buf = Vec::new();
            assert_eq!(rx.try_recv_many(&mut buf, 4), Err(TryRecvError::Empty));
            let s = thread::spawn({
                let tx = tx.clone();
                move || tx.send(round)
            });
            until_a_sender_waits(&rx);
            let_it_park(round);
            assert_eq!(rx.try_recv_many(&mut buf, 4), Ok(1));
            assert_eq!(s.join().unwrap(), Ok(()));
            // The blocking forms wait for the next sender.
            let s = thread::spawn(move || (tx.send(round + 1), tx.send(round + 2)));
            assert_eq!(rx.recv_many(&mut buf, 4).map(|n| n >= 1), Ok(true));
            while buf.len() < 3 {
                let more = rx.recv_many_timeout(&mut buf, 4, LIMIT);
                assert!(more.is_ok_and(|n| n >= 1), "{more:?}");
            }
            assert_eq!(buf, [round, round + 1, round + 2]);
            assert_eq!(s.join().unwrap(), (Ok(()), Ok(())));
            assert_eq!(rx.recv_many(&mut buf, 4), Err(RecvError));
        }
    });
}

#[test]
fn recv_many_async_takes_a_blocked_senders_value() {
    within("recv_many_async", LIMIT, || {
        let (tx, rx) = bounded(0);
        let mut buf = Vec::new();
        let mut cx = Context::from_waker(Waker::noop());
        {
            let mut batch = pin!(rx.recv_many_async(&mut buf, 8));
            assert_eq!(batch.as_mut().poll(&mut cx), Poll::Pending);
            let s = thread::spawn(move || tx.send(9));
            assert_eq!(block_on(batch), Ok(1));
            assert_eq!(s.join().unwrap(), Ok(()));
        }
        assert_eq!(buf, [9]);
        assert_eq!(block_on(rx.recv_many_async(&mut buf, 8)), Err(RecvError));
    });
}

/// A reserve on a rendezvous channel: the panic `try_reserve` documents,
/// from every form (each of which used to spin forever on the channel's
/// closed queue, at 100 % of a core).
#[test]
fn every_reserve_on_a_rendezvous_channel_panics_saying_there_is_no_slot() {
    fn panics_saying_no_slot(what: &str, call: impl FnOnce() + Send + 'static) {
        let message = within(what, LIMIT, move || {
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(call));
            let payload = caught.expect_err("a reserve on a rendezvous channel returned");
            payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default()
        });
        assert!(
            message.contains("rendezvous channel") && message.contains("no slot"),
            "{what}: {message}"
        );
    }
    let (tx, rx) = bounded::<u8>(0);
    let r = thread::spawn(move || rx.recv_timeout(LIMIT));
    until_a_receiver_waits(&tx);
    // Even with a receiver waiting: a permit cannot hold it.
    let t = tx.clone();
    panics_saying_no_slot("try_reserve", move || drop(t.try_reserve()));
    let t = tx.clone();
    panics_saying_no_slot("reserve", move || drop(t.reserve()));
    let t = tx.clone();
    panics_saying_no_slot("reserve_timeout", move || {
        drop(t.reserve_timeout(Duration::from_millis(1)))
    });
    let t = tx.clone();
    panics_saying_no_slot("reserve_deadline", move || {
        drop(t.reserve_deadline(Instant::now()))
    });
    let t = tx.clone();
    panics_saying_no_slot("reserve_async", move || drop(block_on(t.reserve_async())));
    // The channel still works.
    assert_eq!(tx.send(1), Ok(()));
    assert_eq!(r.join().unwrap(), Ok(1));
}
