//! `Select`, `select!` and `select_biased!` on real threads:
//! crossbeam-channel's select scenario families in our words (both arms
//! ready, disconnected arms, send arms to full channels, `default` and
//! `default(timeout)`, the same channel twice, a select in a loop against
//! many threads, `ready` taking nothing), and the wake-up hand-over
//! between a select and the other waiters of its channels. Every wait is
//! bounded: a lost wake-up fails the test instead of hanging it.

use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use hotq_mpmc::{
    ReadyTimeoutError, RecvError, RecvTimeoutError, Select, SelectTimeoutError, SendError,
    TryReadyError, TrySelectError, bounded, select, select_biased,
};
use hotq_testkit::{bound, scaled, within};

/// A limit for one test body: far beyond any healthy run, so only a hang
/// (a lost wake-up) reaches it.
const LIMIT: Duration = bound(Duration::from_secs(60));

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn with_both_arms_ready_select_takes_each_about_half_the_time() {
    let (tx1, rx1) = bounded(1);
    let (tx2, rx2) = bounded(1);
    let rounds = scaled(10_000, 200);
    let mut first = 0;
    for _ in 0..rounds {
        tx1.try_send(1).ok();
        tx2.try_send(2).ok();
        let got = select! {
            recv(rx1) -> v => v.unwrap(),
            recv(rx2) -> v => v.unwrap(),
        };
        if got == 1 {
            first += 1;
        }
    }
    // A fair coin stays within 35–65 % over 200 rounds with probability
    // above 1 - 1e-4, and far closer over 10,000.
    let share = first as f64 / rounds as f64;
    assert!((0.35..=0.65).contains(&share), "first arm won {share:.3}");
}

#[test]
fn select_biased_takes_the_first_listed_ready_arm_every_time() {
    let (tx1, rx1) = bounded(1);
    let (tx2, rx2) = bounded(1);
    tx2.send(2).unwrap();
    for _ in 0..1000 {
        tx1.send(1).unwrap();
        let got = select_biased! {
            recv(rx1) -> v => v.unwrap(),
            recv(rx2) -> v => v.unwrap(),
        };
        assert_eq!(got, 1);
    }
    // Only the second ready: the second.
    let got = select_biased! { recv(rx1) -> v => v.unwrap(), recv(rx2) -> v => v.unwrap() };
    assert_eq!(got, 2);
}

#[test]
fn the_biased_select_type_prefers_the_first_added_send_too() {
    let (tx1, rx1) = bounded(4);
    let (tx2, rx2) = bounded(4);
    let mut sel = Select::new_biased();
    let a = sel.send(&tx1);
    let _b = sel.send(&tx2);
    for i in 0..4 {
        let oper = sel.select();
        assert_eq!(oper.index(), a);
        oper.send(&tx1, i).unwrap();
    }
    // The first is full now: the second.
    let oper = sel.select();
    assert_ne!(oper.index(), a);
    oper.send(&tx2, 9).unwrap();
    assert_eq!(rx1.try_iter().collect::<Vec<_>>(), [0, 1, 2, 3]);
    assert_eq!(rx2.try_recv(), Ok(9));
}

#[test]
fn a_disconnected_channel_is_a_ready_arm_that_reports_its_error() {
    let (tx1, rx1) = bounded::<i32>(1);
    let (_tx2, rx2) = bounded::<i32>(1);
    drop(tx1);
    within("disconnected recv arm", LIMIT, move || {
        for _ in 0..100 {
            select! {
                recv(rx1) -> v => assert_eq!(v, Err(RecvError)),
                recv(rx2) -> _v => panic!("nothing was sent on the second channel"),
            }
        }
    });
    let (tx3, rx3) = bounded::<i32>(1);
    let (tx4, _rx4) = bounded::<i32>(1);
    tx4.send(0).unwrap(); // full: not ready
    drop(rx3);
    within("disconnected send arm", LIMIT, move || {
        for i in 0..100 {
            select! {
                send(tx3, i) -> res => assert_eq!(res, Err(SendError(i))),
                send(tx4, i) -> _res => panic!("the second channel is full"),
            }
        }
    });
}

#[test]
fn items_sent_before_the_disconnection_are_selected_before_the_error() {
    let (tx, rx) = bounded(3);
    for i in 0..3 {
        tx.send(i).unwrap();
    }
    drop(tx);
    let mut got = Vec::new();
    loop {
        select! {
            recv(rx) -> v => match v {
                Ok(v) => got.push(v),
                Err(RecvError) => break,
            },
        }
    }
    assert_eq!(got, [0, 1, 2]);
}

#[test]
fn a_send_arm_to_a_full_channel_waits_until_a_receive_makes_room() {
    within("send arm to a full channel", LIMIT, || {
        let (tx, rx) = bounded(1);
        tx.send(1).unwrap();
        let start = Arc::new(Barrier::new(2));
        let s = {
            let start = Arc::clone(&start);
            thread::spawn(move || {
                start.wait();
                select! {
                    send(tx, 2) -> res => res.unwrap(),
                    default(LIMIT) => panic!("the send arm was not woken"),
                }
            })
        };
        start.wait();
        // Full until this receive, whenever the select got there.
        assert_eq!(rx.recv(), Ok(1));
        assert_eq!(rx.recv_timeout(LIMIT), Ok(2));
        s.join().unwrap();
    });
}

#[test]
fn default_runs_only_when_no_arm_can_go_ahead() {
    let (tx, rx) = bounded::<i32>(1);
    let ran_default = select! { recv(rx) -> _v => false, default => true };
    assert!(ran_default);
    tx.send(1).unwrap();
    let got = select! { recv(rx) -> v => v, default => Ok(-1) };
    assert_eq!(got, Ok(1));
    // No arm at all: default.
    assert_eq!(select! { default => 7 }, 7);
    // And the `Select` form.
    let mut sel = Select::new();
    sel.recv(&rx);
    assert_eq!(sel.try_select().unwrap_err(), TrySelectError);
    assert_eq!(sel.try_ready(), Err(TryReadyError));
}

#[test]
#[cfg_attr(miri, ignore = "timing: miri's isolated clock")]
fn default_timeout_waits_the_timeout_and_no_less() {
    let (_tx, rx) = bounded::<i32>(1);
    for timeout in [ms(0), ms(1), ms(20)] {
        let t0 = Instant::now();
        let timed_out = select! {
            recv(rx) -> _v => false,
            default(timeout) => true,
        };
        let waited = t0.elapsed();
        assert!(timed_out);
        assert!(waited >= timeout, "{waited:?} < {timeout:?}");
        // Late only by scheduling slack.
        assert!(waited < timeout + Duration::from_secs(5), "{waited:?}");
    }
    let mut sel = Select::new();
    sel.recv(&rx);
    let t0 = Instant::now();
    assert_eq!(sel.select_timeout(ms(10)).unwrap_err(), SelectTimeoutError);
    assert_eq!(sel.ready_timeout(ms(10)), Err(ReadyTimeoutError));
    assert!(t0.elapsed() >= ms(20));
}

#[test]
fn default_timeout_ends_early_when_an_arm_becomes_ready() {
    within("default(timeout) woken by a send", LIMIT, || {
        let (tx, rx) = bounded(1);
        let start = Arc::new(Barrier::new(2));
        let t = {
            let start = Arc::clone(&start);
            thread::spawn(move || {
                start.wait();
                tx.send(5).unwrap();
            })
        };
        start.wait();
        let got = select! {
            recv(rx) -> v => v,
            default(LIMIT) => panic!("not woken by the send"),
        };
        assert_eq!(got, Ok(5));
        t.join().unwrap();
    });
}

#[test]
fn the_same_receiver_twice_yields_each_item_once() {
    let (tx, rx) = bounded(2);
    tx.send(1).unwrap();
    let mut got = Vec::new();
    for _ in 0..3 {
        select! {
            recv(rx) -> v => got.push(v.unwrap()),
            recv(&rx) -> v => got.push(v.unwrap() + 100),
            default => got.push(0),
        }
    }
    // One item, received by one of the two arms; then nothing.
    assert_eq!(got.iter().filter(|&&v| v == 1 || v == 101).count(), 1);
    assert_eq!(got.iter().filter(|&&v| v == 0).count(), 2);
}

#[test]
fn a_send_and_a_receive_on_the_same_channel_in_one_select() {
    within("send and recv on one channel", LIMIT, || {
        let (tx, rx) = bounded(1);
        // Empty: only the send can go ahead.
        select! {
            send(tx, 1) -> res => res.unwrap(),
            recv(rx) -> _v => panic!("empty"),
        }
        // Full: only the receive.
        select! {
            send(tx, 2) -> _res => panic!("full"),
            recv(rx) -> v => assert_eq!(v, Ok(1)),
        }
    });
}

#[test]
fn blocked_selects_on_the_same_channel_twice_are_woken_for_every_item() {
    within("duplicate arms, blocking", LIMIT, || {
        let (tx, rx) = bounded(1);
        let items = scaled(2_000, 50);
        let r = thread::spawn(move || {
            let mut sum = 0;
            for _ in 0..items {
                sum += select! {
                    recv(rx) -> v => v.unwrap(),
                    recv(rx) -> v => v.unwrap(),
                };
            }
            sum
        });
        for i in 0..items {
            tx.send(i).unwrap();
        }
        assert_eq!(r.join().unwrap(), (0..items).sum::<usize>());
    });
}

/// Four producers, one per channel, and two consumers: one selecting over
/// all four, one receiving from the first with plain `recv`. Every item
/// arrives exactly once, and each producer's in order.
#[test]
fn a_select_in_a_loop_against_many_threads_gets_every_item_once_in_order() {
    within("select loop against 5 threads", LIMIT, || {
        let per = scaled(20_000, 100);
        let chans: Vec<_> = (0..4).map(|_| bounded::<usize>(4)).collect();
        let producers: Vec<_> = chans
            .iter()
            .enumerate()
            .map(|(p, (tx, _))| {
                let tx = tx.clone();
                thread::spawn(move || {
                    for i in 0..per {
                        tx.send(p * per + i).unwrap();
                    }
                })
            })
            .collect();
        let plain = {
            let rx = chans[0].1.clone();
            thread::spawn(move || rx.iter().collect::<Vec<_>>())
        };
        let rxs: Vec<_> = chans.iter().map(|(_, rx)| rx.clone()).collect();
        drop(chans);
        let mut got: Vec<Vec<usize>> = vec![Vec::new(); 4];
        let mut sel = Select::new();
        let indices: Vec<usize> = rxs.iter().map(|rx| sel.recv(rx)).collect();
        let mut open = 4;
        while open > 0 {
            let oper = sel.select();
            let index = oper.index();
            let k = indices.iter().position(|&i| i == index).unwrap();
            match oper.recv(&rxs[k]) {
                Ok(v) => got[v / per].push(v),
                Err(RecvError) => {
                    // Disconnected and empty: ready for ever, so out.
                    sel.remove(index);
                    open -= 1;
                }
            }
        }
        for p in producers {
            p.join().unwrap();
        }
        let mut plain_got = plain.join().unwrap();
        // The plain receiver's share of channel 0, in order too.
        assert!(plain_got.windows(2).all(|w| w[0] < w[1]));
        got[0].append(&mut plain_got);
        for (p, items) in got.iter_mut().enumerate() {
            if p != 0 {
                assert!(
                    items.windows(2).all(|w| w[0] < w[1]),
                    "producer {p} reordered"
                );
            }
            items.sort_unstable();
            assert_eq!(*items, (p * per..(p + 1) * per).collect::<Vec<_>>());
        }
    });
}

/// Selecting senders against selecting receivers: two threads each
/// select a send over two channels, two threads each select a receive
/// over both; every item arrives exactly once.
#[test]
fn selecting_senders_and_selecting_receivers_hand_over_every_item_once() {
    within("send arms against recv arms", LIMIT, || {
        let per = scaled(20_000, 100);
        let (tx1, rx1) = bounded::<usize>(1);
        let (tx2, rx2) = bounded::<usize>(1);
        let senders: Vec<_> = (0..2)
            .map(|p| {
                let (tx1, tx2) = (tx1.clone(), tx2.clone());
                thread::spawn(move || {
                    for i in 0..per {
                        let v = p * per + i;
                        select! {
                            send(tx1, v) -> res => res.unwrap(),
                            send(tx2, v) -> res => res.unwrap(),
                        }
                    }
                })
            })
            .collect();
        drop((tx1, tx2));
        let receivers: Vec<_> = (0..2)
            .map(|_| {
                let (rx1, rx2) = (rx1.clone(), rx2.clone());
                thread::spawn(move || {
                    let mut got = Vec::new();
                    let mut open = [true, true];
                    while open[0] || open[1] {
                        let mut sel = Select::new();
                        let i1 = open[0].then(|| sel.recv(&rx1));
                        let i2 = open[1].then(|| sel.recv(&rx2));
                        let oper = sel.select();
                        let (rx, which) = if Some(oper.index()) == i1 {
                            (&rx1, 0)
                        } else {
                            (&rx2, 1)
                        };
                        let _ = i2;
                        match oper.recv(rx) {
                            Ok(v) => got.push(v),
                            Err(RecvError) => open[which] = false,
                        }
                    }
                    got
                })
            })
            .collect();
        drop((rx1, rx2));
        for s in senders {
            s.join().unwrap();
        }
        let mut all: Vec<_> = receivers
            .into_iter()
            .flat_map(|r| r.join().unwrap())
            .collect();
        all.sort_unstable();
        assert_eq!(all, (0..2 * per).collect::<Vec<_>>());
    });
}

/// A select parked on A and B, and a plain receiver parked on B. Sends on
/// A and B race: whichever the select takes, the other item must reach
/// someone. If a notifier of B dropped its notification on finding the
/// select already woken by A (instead of passing it to the plain
/// receiver), the plain receiver would sleep with B's item in the channel.
#[test]
fn a_select_woken_by_one_channel_never_swallows_the_other_channels_wake_up() {
    within("pass-on between lists", LIMIT, || {
        for _ in 0..scaled(500, 20) {
            let (txa, rxa) = bounded::<u8>(1);
            let (txb, rxb) = bounded::<u8>(1);
            let start = Arc::new(Barrier::new(3));
            let sel = {
                let (rxa, rxb, start) = (rxa.clone(), rxb.clone(), Arc::clone(&start));
                thread::spawn(move || {
                    start.wait();
                    select! {
                        recv(rxa) -> v => v.unwrap(),
                        recv(rxb) -> v => v.unwrap(),
                    }
                })
            };
            let plain = {
                let (rxb, start) = (rxb.clone(), Arc::clone(&start));
                thread::spawn(move || {
                    start.wait();
                    rxb.recv_timeout(bound(Duration::from_secs(10)))
                })
            };
            start.wait();
            // Not for correctness: most rounds should find both waiters
            // parked (the case that needs the hand-over), not spinning.
            thread::sleep(Duration::from_micros(500));
            txa.send(b'a').unwrap();
            txb.send(b'b').unwrap();
            let by_select = sel.join().unwrap();
            match by_select {
                // B's item went to the plain receiver, or waits in B for it.
                b'a' => assert_eq!(plain.join().unwrap(), Ok(b'b')),
                // The select took B's: the plain receiver still waits; A's
                // item stays in A.
                _ => {
                    txb.send(b'c').unwrap();
                    assert_eq!(plain.join().unwrap(), Ok(b'c'));
                    assert_eq!(rxa.try_recv(), Ok(b'a'));
                }
            }
        }
    });
}

#[test]
fn ready_reports_an_operation_and_takes_nothing() {
    within("ready", LIMIT, || {
        let (tx, rx) = bounded(1);
        let (tx2, _rx2) = bounded::<i32>(1);
        tx2.send(0).unwrap(); // full: never ready
        let mut sel = Select::new();
        let r = sel.recv(&rx);
        sel.send(&tx2);
        let start = Arc::new(Barrier::new(2));
        let t = {
            let start = Arc::clone(&start);
            thread::spawn(move || {
                start.wait();
                tx.send(3).unwrap();
            })
        };
        start.wait();
        assert_eq!(sel.ready_timeout(LIMIT), Ok(r));
        for _ in 0..10 {
            assert_eq!(sel.ready(), r);
        }
        assert_eq!(rx.len(), 1);
        assert_eq!(rx.try_recv(), Ok(3));
        t.join().unwrap();
        assert_eq!(sel.try_ready(), Ok(r)); // the sender is gone: ready
    });
}

#[test]
fn removed_operations_are_not_selected_and_the_rest_keep_their_indices() {
    let (tx1, rx1) = bounded(1);
    let (tx2, rx2) = bounded(1);
    tx1.send(1).unwrap();
    tx2.send(2).unwrap();
    let mut sel = Select::new();
    let a = sel.recv(&rx1);
    let b = sel.recv(&rx2);
    sel.remove(a);
    let oper = sel.select();
    assert_eq!(oper.index(), b);
    assert_eq!(oper.recv(&rx2), Ok(2));
    assert_eq!(sel.try_ready(), Err(TryReadyError));
    assert_eq!(rx1.try_recv(), Ok(1));
}

#[test]
#[should_panic(expected = "without completing")]
fn a_selected_operation_dropped_uncompleted_panics() {
    let (tx, rx) = bounded(1);
    tx.send(1).unwrap();
    let mut sel = Select::new();
    sel.recv(&rx);
    let _ = sel.select();
}

#[test]
#[should_panic(expected = "not selected")]
fn completing_with_another_channels_receiver_panics() {
    let (tx, rx) = bounded(1);
    let (_tx2, rx2) = bounded::<i32>(1);
    tx.send(1).unwrap();
    let mut sel = Select::new();
    sel.recv(&rx);
    let _ = sel.select().recv(&rx2);
}

#[test]
fn a_received_item_is_dropped_once_whatever_happens_to_it() {
    let item = Arc::new(());
    let (tx, rx) = bounded(1);
    tx.send(Arc::clone(&item)).unwrap();
    let got = select! { recv(rx) -> v => v.unwrap() };
    assert_eq!(Arc::strong_count(&item), 2);
    drop(got);
    assert_eq!(Arc::strong_count(&item), 1);
    // The last receiver's drop, after a select sent: nothing kept.
    tx.send(Arc::clone(&item)).unwrap();
    drop(rx);
    assert_eq!(Arc::strong_count(&item), 1);
}

#[test]
fn the_macro_accepts_blocks_commas_and_references() {
    let (tx, rx) = bounded(2);
    let txr = &tx;
    let n = select! {
        send(txr, 1) -> res => {
            res.unwrap();
            1
        }
        recv(rx) -> _v => { 2 }
    };
    assert_eq!(n, 1);
    let n = select! {
        recv(&rx) -> v => v.unwrap(),
        default(ms(10)) => 0,
    };
    assert_eq!(n, 1);
    let mut waited = false;
    select! {
        recv(rx) -> _v => {}
        default(ms(1)) => { waited = true; }
    }
    assert!(waited);
    // A send's value is evaluated only when its arm is chosen.
    let (full_tx, _full_rx) = bounded(1);
    full_tx.send(0).unwrap();
    let mut evaluated = false;
    select! {
        send(full_tx, { evaluated = true; 1 }) -> _res => {},
        default => {},
    }
    assert!(!evaluated);
    let _ = RecvTimeoutError::Timeout;
}

/// `Receiver::close` (flow control) meets a select: a send arm to a
/// closed channel completes at once with its value back, and a select
/// blocked on a receive arm of a channel that gets closed wakes and sees
/// it disconnected once drained.
#[test]
fn a_closed_channel_fails_a_send_arm_and_wakes_a_blocked_receive_arm() {
    let (tx, rx) = bounded::<u32>(2);
    rx.close();
    hotq_mpmc::select! {
        send(tx, 7) -> res => assert_eq!(res, Err(hotq_mpmc::SendError(7))),
        default(Duration::from_secs(30)) => panic!("a send arm to a closed channel waited"),
    }

    let (tx, rx) = bounded::<u32>(2);
    let (_other_tx, other_rx) = bounded::<u32>(2);
    let started = Barrier::new(2);
    thread::scope(|s| {
        let closer = s.spawn(|| {
            started.wait();
            thread::sleep(ms(20));
            rx.close();
        });
        started.wait();
        let t0 = Instant::now();
        hotq_mpmc::select! {
            recv(rx) -> v => assert_eq!(v, Err(hotq_mpmc::RecvError)),
            recv(other_rx) -> v => panic!("nothing was sent there: {v:?}"),
            default(LIMIT) => panic!("close did not wake the select"),
        }
        // Woken by the close, not by the select's own deadline (its last
        // try would also see the channel closed, a minute late).
        let woke = t0.elapsed();
        assert!(woke < LIMIT / 3, "the select slept {woke:?} past the close");
        closer.join().unwrap();
    });
    drop(tx);
}

/// A `Select` holds its first operations in place and the rest apart,
/// and orders its tries on the stack up to a bound (`channel/select.rs`,
/// `Ops`, `first_in_order`): with more arms than either bound, and
/// removals on both sides of the first, each arm keeps its index, a
/// biased select still takes the first added ready arm, and a fair one
/// still takes every ready arm once.
#[test]
fn a_select_over_more_arms_than_it_holds_in_place_keeps_indices_and_order() {
    const ARMS: usize = 20;
    let chans: Vec<_> = (0..ARMS).map(|_| bounded(1)).collect();
    for (i, (tx, _)) in chans.iter().enumerate() {
        tx.send(i).unwrap();
    }
    let mut sel = Select::new_biased();
    let indices: Vec<usize> = chans.iter().map(|(_, rx)| sel.recv(rx)).collect();
    assert_eq!(indices, (0..ARMS).collect::<Vec<_>>());
    // One held in place, one held apart.
    sel.remove(indices[2]);
    sel.remove(indices[9]);
    let mut taken = Vec::new();
    for _ in 0..ARMS - 2 {
        let oper = sel.try_select().expect("a ready arm left out of the tries");
        let i = oper.index();
        assert_eq!(oper.recv(&chans[i].1), Ok(i));
        taken.push(i);
    }
    let expected: Vec<usize> = (0..ARMS).filter(|&i| i != 2 && i != 9).collect();
    assert_eq!(
        taken, expected,
        "biased: the first added ready arm each time"
    );
    assert_eq!(sel.try_ready(), Err(TryReadyError));
    assert_eq!(chans[2].1.try_recv(), Ok(2));
    assert_eq!(chans[9].1.try_recv(), Ok(9));

    // A fair select over all of them: each ready arm once, in some order.
    for (i, (tx, _)) in chans.iter().enumerate() {
        tx.send(i).unwrap();
    }
    let mut fair = Select::new();
    for (_, rx) in &chans {
        fair.recv(rx);
    }
    let mut seen: Vec<usize> = (0..ARMS)
        .map(|_| {
            // Every arm not taken yet is ready: a try must find one.
            let oper = fair
                .try_select()
                .expect("a ready arm left out of the tries");
            let i = oper.index();
            assert_eq!(oper.recv(&chans[i].1), Ok(i));
            i
        })
        .collect();
    seen.sort_unstable();
    assert_eq!(seen, (0..ARMS).collect::<Vec<_>>());
}

/// A received item waits in the selected operation until `recv` takes
/// it: in place when it is small, boxed when it is not
/// (`channel/select.rs`, `Item`). Either way it arrives whole and is
/// dropped exactly once, also when the operation is dropped uncompleted.
#[test]
fn received_items_small_and_large_arrive_whole_and_drop_once() {
    fn round_trip<T: PartialEq + std::fmt::Debug + Clone>(item: T) {
        let (tx, rx) = bounded(1);
        tx.send(item.clone()).unwrap();
        let got = select! { recv(rx) -> v => v.unwrap() };
        assert_eq!(got, item);
    }
    let counted = Arc::new(());
    round_trip(()); // nothing to hold
    round_trip(7u64);
    round_trip(String::from("three words in place"));
    round_trip((Arc::clone(&counted), 1u8));
    round_trip([
        Arc::clone(&counted),
        Arc::clone(&counted),
        Arc::clone(&counted),
        Arc::clone(&counted),
    ]); // boxed
    round_trip((Arc::clone(&counted), [7u64; 16])); // boxed
    round_trip(12u128); // alignment past a word's: boxed
    assert_eq!(
        Arc::strong_count(&counted),
        1,
        "an item dropped twice or never"
    );

    // Dropped uncompleted: the select panics, and the item it held is
    // dropped once.
    let small = (Arc::clone(&counted), 0u8);
    let large = (Arc::clone(&counted), [0u64; 16]);
    let (tx1, rx1) = bounded(1);
    let (tx2, rx2) = bounded(1);
    tx1.send(small).unwrap();
    tx2.send(large).unwrap();
    for _ in 0..2 {
        let uncompleted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut sel = Select::new();
            sel.recv(&rx1);
            sel.recv(&rx2);
            let _ = sel.select();
        }));
        assert!(
            uncompleted.is_err(),
            "a selected operation dropped uncompleted panics"
        );
    }
    assert!(rx1.is_empty() && rx2.is_empty());
    assert_eq!(
        Arc::strong_count(&counted),
        1,
        "an item dropped twice or never"
    );
}

/// A select that finds nothing spins a little before it parks (as a
/// blocking `recv` does, `channel/select.rs`), and the spin ends: blocked
/// for a second, it uses a few milliseconds of CPU at most.
#[cfg(all(target_os = "linux", not(miri)))]
#[test]
fn a_blocked_select_spins_briefly_then_uses_no_cpu() {
    within("cpu while blocked", LIMIT, || {
        let (_tx1, rx1) = bounded::<u8>(1);
        let (_tx2, rx2) = bounded::<u8>(1);
        let used = thread::spawn(move || {
            let before = hotq_testkit::thread_cpu_time().expect("a thread CPU clock");
            // Twice: the second select starts quiet (the first parked
            // for long) and skips the yields.
            for _ in 0..2 {
                select! {
                    recv(rx1) -> _v => panic!("nothing was sent"),
                    recv(rx2) -> _v => panic!("nothing was sent"),
                    default(Duration::from_millis(500)) => {}
                }
            }
            hotq_testkit::thread_cpu_time().unwrap() - before
        })
        .join()
        .unwrap();
        // The spin before parking is microseconds; spinning for the second
        // would use most of it.
        assert!(
            used < Duration::from_millis(50),
            "a select blocked for 1 s used {used:?} of CPU"
        );
    });
}
