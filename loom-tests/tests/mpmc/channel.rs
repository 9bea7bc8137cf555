//! Loom models of `hotq-mpmc`'s channels: the wake-up protocol of
//! `mpmc/src/channel/waiters.rs`. A lost wake-up leaves a thread parked
//! forever, which loom reports as a deadlock; every model also checks
//! what each thread received.
//!
//! Under loom a timed wait yields once and then times out (loom has no
//! clock), so every timed call races its own timeout.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use hotq_loom_tests::model;
use hotq_mpmc::{RecvTimeoutError, SendTimeoutError, TryRecvError, bounded};
use loom::thread;

/// A receiver parked on an empty channel of capacity 1 is woken by one
/// send.
#[test]
fn blocked_receiver_woken_by_send_capacity_1() {
    model("blocked_receiver_woken_by_send_capacity_1", 3, || {
        let (tx, rx) = bounded(1);
        let r = thread::spawn(move || rx.recv());
        tx.send(7).unwrap();
        assert_eq!(r.join().unwrap(), Ok(7));
    });
}

/// Two receivers parked on a channel of capacity 2, two sends: both wake,
/// each item goes to exactly one of them.
#[test]
fn two_blocked_receivers_woken_by_two_sends_capacity_2() {
    model(
        "two_blocked_receivers_woken_by_two_sends_capacity_2",
        2,
        || {
            let (tx, rx) = bounded(2);
            let rx2 = rx.clone();
            let r1 = thread::spawn(move || rx.recv().unwrap());
            let r2 = thread::spawn(move || rx2.recv().unwrap());
            tx.send(1).unwrap();
            tx.send(2).unwrap();
            let mut got = [r1.join().unwrap(), r2.join().unwrap()];
            got.sort();
            assert_eq!(got, [1, 2]);
        },
    );
}

/// A sender parked on a full channel of capacity 1 is woken by a receive,
/// and its item follows the first.
#[test]
fn blocked_sender_woken_by_recv() {
    model("blocked_sender_woken_by_recv", 3, || {
        let (tx, rx) = bounded(1);
        tx.send(1).unwrap();
        let s = thread::spawn(move || tx.send(2));
        assert_eq!(rx.recv(), Ok(1));
        assert_eq!(rx.recv(), Ok(2));
        s.join().unwrap().unwrap();
    });
}

/// Two senders each send one item and leave while the receiver drains
/// with `recv`: it gets both items before `Disconnected` (the last
/// sender's drop publishes the other sender's send too), and a receiver
/// parked when the last sender leaves is woken.
#[test]
fn last_sender_drop_races_a_parked_receiver() {
    model("last_sender_drop_races_a_parked_receiver", 2, || {
        let (tx, rx) = bounded(2);
        let tx2 = tx.clone();
        let s = thread::spawn(move || {
            tx2.send(2).unwrap();
        });
        let r = thread::spawn(move || {
            let mut got = Vec::new();
            while let Ok(v) = rx.recv() {
                got.push(v);
            }
            assert_eq!(rx.try_recv(), Err(TryRecvError::Disconnected));
            got
        });
        tx.send(1).unwrap();
        drop(tx);
        s.join().unwrap();
        let mut got = r.join().unwrap();
        got.sort();
        assert_eq!(
            got,
            [1, 2],
            "an item sent before the last sender left was lost"
        );
    });
}

/// The last receiver's drop wakes a sender parked on a full channel, which
/// gets its value back.
#[test]
fn last_receiver_drop_wakes_a_parked_sender() {
    model("last_receiver_drop_wakes_a_parked_sender", 3, || {
        let (tx, rx) = bounded(1);
        tx.send(1).unwrap();
        let s = thread::spawn(move || tx.send(2));
        drop(rx);
        let back = s.join().unwrap();
        assert!(matches!(back, Ok(()) | Err(hotq_mpmc::SendError(2))));
    });
}

/// A `recv_async` future registers, may be the waiter a send notifies,
/// and is dropped without polling again: the wake-up must pass on to the
/// receiver parked behind it, or that receiver sleeps with the item in the
/// channel (a deadlock).
#[test]
fn dropped_notified_async_receiver_passes_the_wake_on() {
    model(
        "dropped_notified_async_receiver_passes_the_wake_on",
        3,
        || {
            let (tx, rx) = bounded(2);
            let rx2 = rx.clone();
            let r1 = thread::spawn(move || {
                let mut cx = Context::from_waker(Waker::noop());
                let mut fut = pin!(rx.recv_async());
                let polled = fut.as_mut().poll(&mut cx);
                // Dropped here, notified or not.
                match polled {
                    Poll::Ready(got) => Some(got.unwrap()),
                    Poll::Pending => None,
                }
            });
            let r2 = thread::spawn(move || rx2.recv().unwrap());
            tx.send(1).unwrap();
            let first = r1.join().unwrap();
            if first.is_some() {
                tx.send(2).unwrap();
            }
            let second = r2.join().unwrap();
            match first {
                Some(v) => assert_eq!((v, second), (1, 2)),
                None => assert_eq!(second, 1),
            }
        },
    );
}

/// A timed receive (which, under loom, times out after one yield) races a
/// send and a blocking receiver: if it times out, the item it may have
/// been notified of is still received by the other receiver.
#[test]
fn recv_timeout_races_a_send() {
    model("recv_timeout_races_a_send", 3, || {
        let (tx, rx) = bounded(1);
        let rx2 = rx.clone();
        let r1 = thread::spawn(move || rx.recv_timeout(Duration::from_secs(60)));
        let r2 = thread::spawn(move || rx2.recv().unwrap());
        tx.send(1).unwrap();
        let first = r1.join().unwrap();
        if first.is_ok() {
            tx.send(2).unwrap();
        }
        let second = r2.join().unwrap();
        match first {
            Ok(v) => assert_eq!((v, second), (1, 2)),
            Err(e) => assert_eq!((e, second), (RecvTimeoutError::Timeout, 1)),
        }
    });
}

/// A timed send on a full channel races a receive: it either sends (and
/// its item follows) or times out with its value back; a blocking sender
/// behind it is not left parked.
#[test]
fn send_timeout_races_a_recv() {
    model("send_timeout_races_a_recv", 2, || {
        let (tx, rx) = bounded(1);
        tx.send(0).unwrap();
        let tx2 = tx.clone();
        let s1 = thread::spawn(move || tx.send_timeout(1, Duration::from_secs(60)));
        let s2 = thread::spawn(move || tx2.send(2).unwrap());
        assert_eq!(rx.recv(), Ok(0));
        let first = s1.join().unwrap();
        let mut got = vec![rx.recv().unwrap()];
        if first.is_ok() {
            got.push(rx.recv().unwrap());
        } else {
            assert_eq!(first, Err(SendTimeoutError::Timeout(1)));
        }
        s2.join().unwrap();
        got.sort();
        let want: &[i32] = if first.is_ok() { &[1, 2] } else { &[2] };
        assert_eq!(got, want);
    });
}

/// Two senders each send one item and leave while the receiver polls with
/// `try_recv` only (no lock taken anywhere on its side): once it sees
/// `Disconnected` it has received both items. Only the `disconnected`
/// flag's Release/Acquire and the senders' count (AcqRel) order the
/// other sender's send before that: no thread blocks, so the model runs
/// without the loom build's stand-in fence for the wake-up order (which
/// would order them too, as the `std` build does not).
#[test]
fn try_recv_sees_every_send_made_before_disconnection() {
    model(
        "try_recv_sees_every_send_made_before_disconnection",
        3,
        || {
            hotq_mpmc::try_only_model();
            let (tx, rx) = bounded(2);
            let tx2 = tx.clone();
            let s = thread::spawn(move || {
                tx2.try_send(2).unwrap();
            });
            let r = thread::spawn(move || {
                let mut got = Vec::new();
                let mut spin = hotq_loom_tests::Spin::new();
                loop {
                    match rx.try_recv() {
                        Ok(v) => got.push(v),
                        Err(TryRecvError::Empty) => spin.wait(),
                        Err(TryRecvError::Disconnected) => return got,
                    }
                }
            });
            tx.try_send(1).unwrap();
            drop(tx);
            s.join().unwrap();
            let mut got = r.join().unwrap();
            got.sort();
            assert_eq!(
                got,
                [1, 2],
                "an item sent before the last sender left was lost"
            );
        },
    );
}

/// A `try_send` racing the last receiver's drop: once both are done (the
/// sender still alive), the item has been dropped exactly once — by the
/// drain, by the sender itself when the drain missed it, or with the error
/// that gave it back — never left inside the channel.
#[test]
fn send_racing_the_last_receiver_drop_leaves_nothing_inside() {
    model(
        "send_racing_the_last_receiver_drop_leaves_nothing_inside",
        3,
        || {
            let log = hotq_loom_tests::DropLog::new(2);
            let (tx, rx) = bounded(1);
            tx.try_send(log.item(0)).unwrap();
            let r = thread::spawn(move || drop(rx));
            // Full (item 0 still there) or sent (the drain took item 0) or
            // disconnected: whichever, item 1 is gone once both are done.
            let _ = tx.try_send(log.item(1));
            r.join().unwrap();
            log.assert_each_dropped_once();
            drop(tx);
        },
    );
}

/// A full channel (capacity 1, one item) and its last receiver dropped
/// while a sender tries to send: the drop's drain frees the slot only
/// after it has marked the channel disconnected, so the send fails (full
/// before the drop, disconnected after) and its value comes back; it is
/// never taken in and dropped unseen.
#[test]
fn a_send_racing_the_last_receivers_drop_never_takes_the_drained_room() {
    model(
        "a_send_racing_the_last_receivers_drop_never_takes_the_drained_room",
        3,
        || {
            let (tx, rx) = bounded::<u8>(1);
            tx.try_send(1).unwrap();
            let sender = thread::spawn(move || tx.try_send(2).map_err(|e| e.into_inner()));
            drop(rx);
            assert_eq!(sender.join().unwrap(), Err(2), "the value comes back");
        },
    );
}
