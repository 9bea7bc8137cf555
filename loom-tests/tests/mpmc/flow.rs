//! Loom models of `hotq-mpmc`'s flow control (issue 39): a weak sender's
//! upgrade racing the last sender's drop, `force_send` racing `recv`,
//! `disconnected_async` racing the last receiver's drop; and the async
//! senders (`send_async`, `reserve_async`) woken by a receive.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use hotq_loom_tests::model;
use hotq_mpmc::bounded;
use loom::thread;

/// Polls `fut` to completion on this loom thread, parking between polls:
/// a lost wake-up leaves it parked, which loom reports as a deadlock.
fn block_on<F: Future>(fut: F) -> F::Output {
    struct Unpark(thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unpark(thread::current())));
    let mut cx = Context::from_waker(&waker);
    let mut fut = pin!(fut);
    loop {
        if let Poll::Ready(v) = fut.as_mut().poll(&mut cx) {
            return v;
        }
        thread::park();
    }
}

/// The last `Sender`'s drop races `WeakSender::upgrade`: if the upgrade
/// wins, its sender's item is received before the channel disconnects;
/// if it loses, the receiver sees the channel disconnected with nothing
/// in it. A count resurrected from 0 would let the upgraded sender send
/// into a channel whose receiver was already told it is disconnected.
#[test]
fn upgrade_races_the_last_sender_drop() {
    model("upgrade_races_the_last_sender_drop", 3, || {
        let (tx, rx) = bounded(1);
        let weak = tx.downgrade();
        let d = thread::spawn(move || drop(tx));
        let r = thread::spawn(move || {
            let mut got = Vec::new();
            while let Ok(v) = rx.recv() {
                got.push(v);
            }
            got
        });
        let sent = weak.upgrade().map(|s| s.send(7));
        d.join().unwrap();
        let got = r.join().unwrap();
        match sent {
            Some(r) => {
                assert_eq!(r, Ok(()));
                assert_eq!(got, [7], "the upgraded sender's item was lost");
            }
            None => assert!(got.is_empty()),
        }
        assert!(weak.upgrade().is_none());
    });
}

/// `force_send` on a full channel of capacity 1 races a receiver that
/// drains until disconnected: each of the two items is either received
/// or handed back by the eviction, exactly once, and a receiver parked on
/// the channel emptied by its first `recv` is woken.
#[test]
fn force_send_races_recv() {
    model("force_send_races_recv", 3, || {
        let (tx, rx) = bounded(1);
        tx.send(1).unwrap();
        let r = thread::spawn(move || {
            let mut got = Vec::new();
            while let Ok(v) = rx.recv() {
                got.push(v);
            }
            got
        });
        let evicted = tx.force_send(2).unwrap();
        drop(tx);
        let got = r.join().unwrap();
        match evicted {
            Some(old) => assert_eq!((old, got), (1, vec![2])),
            None => assert_eq!(got, [1, 2]),
        }
    });
}

/// A receiver parked on an empty channel is woken by a `force_send` (the
/// sender stays alive: no disconnection wakes it instead).
#[test]
fn force_send_wakes_a_parked_receiver() {
    model("force_send_wakes_a_parked_receiver", 3, || {
        let (tx, rx) = bounded(1);
        let r = thread::spawn(move || rx.recv());
        assert_eq!(tx.force_send(5), Ok(None));
        assert_eq!(r.join().unwrap(), Ok(5));
        drop(tx);
    });
}

/// A `disconnected_async` future polled (and re-polled on its wake-up)
/// while the last receiver leaves completes: the disconnection sees it on
/// its list, or it sees the flag.
#[test]
fn disconnected_async_races_the_last_receiver_drop() {
    model("disconnected_async_races_the_last_receiver_drop", 3, || {
        let (tx, rx) = bounded::<u8>(1);
        let d = thread::spawn(move || drop(rx));
        block_on(tx.disconnected_async());
        assert!(tx.is_disconnected());
        assert_eq!(tx.send(1), Err(hotq_mpmc::SendError(1)));
        d.join().unwrap();
        let mut cx = Context::from_waker(Waker::noop());
        assert_eq!(pin!(tx.disconnected_async()).poll(&mut cx), Poll::Ready(()));
    });
}

/// A `send_async` on a full channel of one, polled (and re-polled on its
/// wake-up) while a receiver takes the item in the way: the receive's
/// notification finds the future on the senders' list, or the future's
/// re-try after its registration finds the room (`Waiters::poll_wait`).
/// A lost wake-up leaves the sender parked (loom reports a deadlock).
#[test]
fn async_send_on_a_full_channel_is_woken_by_a_receive() {
    model(
        "async_send_on_a_full_channel_is_woken_by_a_receive",
        3,
        || {
            let (tx, rx) = bounded::<u8>(1);
            tx.send(1).unwrap();
            let s = thread::spawn(move || block_on(tx.send_async(2)));
            assert_eq!(rx.recv(), Ok(1));
            assert_eq!(rx.recv(), Ok(2));
            assert_eq!(s.join().unwrap(), Ok(()));
        },
    );
}

/// `reserve_async` on a full channel of one, as
/// [`async_send_on_a_full_channel_is_woken_by_a_receive`]: the permit
/// it gets once woken sends into the room the receive made.
#[test]
fn async_reserve_on_a_full_channel_is_woken_by_a_receive() {
    model(
        "async_reserve_on_a_full_channel_is_woken_by_a_receive",
        3,
        || {
            let (tx, rx) = bounded::<u8>(1);
            tx.send(1).unwrap();
            let s = thread::spawn(move || block_on(tx.reserve_async()).map(|p| p.send(2)));
            assert_eq!(rx.recv(), Ok(1));
            assert_eq!(rx.recv(), Ok(2));
            assert_eq!(s.join().unwrap(), Ok(()));
        },
    );
}

/// Drains `rx` until it reports the channel disconnected.
fn drain<T>(rx: &hotq_mpmc::Receiver<T>) -> Vec<T> {
    let mut got = Vec::new();
    while let Ok(v) = rx.recv() {
        got.push(v);
    }
    got
}

/// `close` races a send on an empty channel: the item is either delivered
/// (the send returned `Ok` and the drain after the close gets it) or given
/// back (`Err` with the value, and the drain is empty), never both or
/// neither.
#[test]
fn close_races_a_send() {
    model("close_races_a_send", 3, || {
        let (tx, rx) = bounded(1);
        let s = thread::spawn(move || tx.send(1));
        rx.close();
        let got = drain(&rx);
        match s.join().unwrap() {
            Ok(()) => assert_eq!(got, [1], "an accepted send was not delivered"),
            Err(e) => assert_eq!((e.into_inner(), got), (1, vec![])),
        }
    });
}

/// `close` races a sender blocked on a full channel, and a receiver that
/// drains concurrently: the blocked sender wakes and either gets in
/// (its item follows the first) or gets its value back.
#[test]
fn close_races_a_blocked_sender_and_a_draining_receiver() {
    model(
        "close_races_a_blocked_sender_and_a_draining_receiver",
        2,
        || {
            let (tx, rx) = bounded(1);
            tx.send(1).unwrap();
            let rx2 = rx.clone();
            let s = thread::spawn(move || tx.send(2));
            let r = thread::spawn(move || drain(&rx2));
            rx.close();
            let got = r.join().unwrap();
            match s.join().unwrap() {
                Ok(()) => assert_eq!(got, [1, 2]),
                Err(e) => assert_eq!((e.into_inner(), got), (2, vec![1])),
            }
        },
    );
}

/// `close` races `force_send` on a full channel of capacity 1 (the
/// eviction path, where `force_push` owns the slot when the close moves
/// `tail`): the new item is delivered and the old one evicted, or the new
/// one is given back and the old one delivered; a `try_send` after it is
/// accepted only if it is then received.
#[test]
fn close_races_force_send() {
    model("close_races_force_send", 3, || {
        let (tx, rx) = bounded(1);
        tx.send(1).unwrap();
        // After the `force_send`, a `try_send`: accepted only if the close
        // has not happened yet, and then received.
        let s = thread::spawn(move || (tx.force_send(2), tx.try_send(3)));
        rx.close();
        let mut got = drain(&rx);
        let (forced, tried) = s.join().unwrap();
        if tried.is_ok() {
            assert_eq!(got.pop(), Some(3), "an accepted send was not delivered");
        }
        match forced {
            Ok(evicted) => assert_eq!((evicted, got), (Some(1), vec![2])),
            Err(e) => {
                assert!(tried.is_err(), "accepted after a refusal");
                assert_eq!((e.into_inner(), got), (2, vec![1]));
            }
        }
    });
}

/// A receiver parked on an empty channel is woken by another receiver's
/// `close` (the sender stays alive: only the close can wake it).
#[test]
fn close_wakes_a_parked_receiver() {
    model("close_wakes_a_parked_receiver", 3, || {
        let (tx, rx) = bounded::<u8>(1);
        let rx2 = rx.clone();
        let r = thread::spawn(move || rx2.recv());
        rx.close();
        assert_eq!(r.join().unwrap(), Err(hotq_mpmc::RecvError));
        drop(tx);
    });
}

/// A `recv_many_async` future registers, may be the waiter a send
/// notifies, and is dropped without polling again: the wake-up must pass
/// on to the `recv_many` parked behind it, or that receiver sleeps with
/// the item in the channel (a deadlock). A dropped future took nothing.
#[test]
fn dropped_notified_recv_many_async_passes_the_wake_on() {
    model(
        "dropped_notified_recv_many_async_passes_the_wake_on",
        3,
        || {
            let (tx, rx) = bounded(2);
            let rx2 = rx.clone();
            let r1 = thread::spawn(move || {
                let mut cx = Context::from_waker(Waker::noop());
                let mut buf = Vec::new();
                let polled = pin!(rx.recv_many_async(&mut buf, 2)).poll(&mut cx);
                // Dropped here, notified or not.
                match polled {
                    Poll::Ready(n) => assert_eq!(n, Ok(buf.len())),
                    Poll::Pending => assert!(buf.is_empty(), "a pending future took an item"),
                }
                buf
            });
            let r2 = thread::spawn(move || {
                let mut buf = Vec::new();
                rx2.recv_many(&mut buf, 2).unwrap();
                buf
            });
            tx.send(1).unwrap();
            let first = r1.join().unwrap();
            if !first.is_empty() {
                tx.send(2).unwrap();
            }
            let second = r2.join().unwrap();
            match &first[..] {
                [] => assert_eq!(second, [1]),
                _ => assert_eq!((first, second), (vec![1], vec![2])),
            }
        },
    );
}
