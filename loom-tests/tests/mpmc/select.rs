//! Loom models of `hotq-mpmc`'s select (`mpmc/src/channel/select.rs`,
//! `context.rs`): a select waits on several lists with one wake-once
//! token. A lost wake-up leaves a thread parked forever (loom reports a
//! deadlock); a swallowed one too (the waiter the notification was for
//! sleeps with the item in the channel).

use hotq_loom_tests::model;
use hotq_mpmc::{Select, bounded, select};
use loom::thread;

/// A select parked on two empty channels is woken by a send on the
/// second: no lost wake-up between its registration on each list and
/// the send's claim.
#[test]
fn select_over_two_channels_woken_by_a_send_on_either() {
    model(
        "select_over_two_channels_woken_by_a_send_on_either",
        3,
        || {
            let (txa, rxa) = bounded::<u8>(1);
            let (txb, rxb) = bounded::<u8>(1);
            let s = thread::spawn(move || {
                select! {
                    recv(rxa) -> v => (0, v.unwrap()),
                    recv(rxb) -> v => (1, v.unwrap()),
                }
            });
            txb.send(7).unwrap();
            assert_eq!(s.join().unwrap(), (1, 7));
            drop(txa);
        },
    );
}

/// A select on A and B, a plain receiver on B, sends on A and on B at
/// once. Exactly one of the select's operations completes; the other item
/// stays in its channel or goes to the plain receiver: if B's notifier
/// found the select already picked by A's and dropped its notification
/// instead of passing it to the plain receiver, that receiver would sleep
/// with B's item in the channel.
#[test]
fn select_woken_by_a_while_bs_sender_picks_it_too() {
    model("select_woken_by_a_while_bs_sender_picks_it_too", 2, || {
        let (txa, rxa) = bounded::<u8>(1);
        let (txb, rxb) = bounded::<u8>(1);
        let (rxa2, rxb2) = (rxa.clone(), rxb.clone());
        let s = thread::spawn(move || {
            select! {
                recv(rxa2) -> v => v.unwrap(),
                recv(rxb) -> v => v.unwrap(),
            }
        });
        let r = thread::spawn(move || rxb2.recv().unwrap());
        let a = thread::spawn(move || txa.send(b'a').unwrap());
        txb.send(b'b').unwrap();
        a.join().unwrap();
        match s.join().unwrap() {
            b'a' => assert_eq!(r.join().unwrap(), b'b'),
            _ => {
                // B's item went to the select: A's stays in A, and the
                // plain receiver needs one more.
                txb.send(b'c').unwrap();
                assert_eq!(r.join().unwrap(), b'c');
                assert_eq!(rxa.try_recv(), Ok(b'a'));
            }
        }
    });
}

/// A select whose send arm waits on a full channel is woken by a
/// receive; its value follows the first item.
#[test]
fn select_send_arm_woken_by_a_receive() {
    model("select_send_arm_woken_by_a_receive", 3, || {
        let (tx, rx) = bounded::<u8>(1);
        tx.send(1).unwrap();
        let s = thread::spawn(move || {
            select! {
                send(tx, 2) -> res => res.unwrap(),
            }
        });
        assert_eq!(rx.recv(), Ok(1));
        assert_eq!(rx.recv(), Ok(2));
        s.join().unwrap();
    });
}

/// `ready` parked on an empty channel is woken by a send, and leaves the
/// item in the channel.
#[test]
fn ready_woken_by_a_send_takes_nothing() {
    model("ready_woken_by_a_send_takes_nothing", 3, || {
        let (tx, rx) = bounded::<u8>(1);
        let (_tx2, rx2) = bounded::<u8>(1);
        let s = thread::spawn(move || {
            let mut sel = Select::new();
            let i = sel.recv(&rx);
            sel.recv(&rx2);
            assert_eq!(sel.ready(), i);
            rx.try_recv()
        });
        tx.send(4).unwrap();
        assert_eq!(s.join().unwrap(), Ok(4));
    });
}

/// A select on A and B whose re-try (after registering, before parking)
/// takes A's item while B's send has already picked it: B's notification
/// is one the select does not use, and it must go on to the plain
/// receiver parked behind the select on B, or that receiver sleeps with
/// B's item in the channel. (One thread sends on A, then on B.)
#[test]
fn select_completing_in_its_retry_passes_on_a_pick_it_did_not_use() {
    model(
        "select_completing_in_its_retry_passes_on_a_pick_it_did_not_use",
        3,
        || {
            let (txa, rxa) = bounded::<u8>(1);
            let (txb, rxb) = bounded::<u8>(1);
            let (rxa2, rxb2) = (rxa.clone(), rxb.clone());
            let s = thread::spawn(move || {
                select! {
                    recv(rxa2) -> v => v.unwrap(),
                    recv(rxb2) -> v => v.unwrap(),
                }
            });
            let r = thread::spawn(move || rxb.recv().unwrap());
            txa.send(b'a').unwrap();
            txb.send(b'b').unwrap();
            match s.join().unwrap() {
                b'a' => assert_eq!(r.join().unwrap(), b'b'),
                _ => {
                    txb.send(b'c').unwrap();
                    assert_eq!(r.join().unwrap(), b'c');
                    assert_eq!(rxa.try_recv(), Ok(b'a'));
                }
            }
        },
    );
}

/// A timed select (which, under loom, times out after one yield) races a
/// send, with a plain receiver parked on the same channel: if the send's
/// notification picked the select just as it timed out, the select uses
/// it (takes the item) or the plain receiver gets the item; the wake-up
/// is never lost between the two.
#[test]
fn select_timeout_races_a_send_and_a_parked_receiver() {
    model(
        "select_timeout_races_a_send_and_a_parked_receiver",
        3,
        || {
            let (tx, rx) = bounded::<u8>(1);
            let rx2 = rx.clone();
            let s = thread::spawn(move || {
                let mut sel = Select::new();
                sel.recv(&rx);
                match sel.select_timeout(std::time::Duration::from_secs(60)) {
                    Ok(oper) => Some(oper.recv(&rx).unwrap()),
                    Err(_) => None,
                }
            });
            let r = thread::spawn(move || rx2.recv().unwrap());
            tx.send(1).unwrap();
            let first = s.join().unwrap();
            if first.is_some() {
                tx.send(2).unwrap();
            }
            let second = r.join().unwrap();
            match first {
                Some(v) => assert_eq!((v, second), (1, 2)),
                None => assert_eq!(second, 1),
            }
        },
    );
}
