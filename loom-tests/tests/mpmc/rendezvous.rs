//! Loom models of `hotq-mpmc`'s rendezvous channels, `bounded(0)`
//! (`mpmc/src/channel/zero.rs`): a hand-off racing a receiver's timeout,
//! a cancelled async receive during a hand-off, and a select's receive arm
//! woken by a sender. A value handed over is received exactly once or
//! stays with its sender; a lost wake-up leaves a thread parked forever
//! (loom reports a deadlock). Under loom a timed wait yields once and
//! times out, so every timed wait races its own timeout.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use hotq_loom_tests::model;
use hotq_mpmc::{RecvTimeoutError, SendTimeoutError, TryRecvError, TrySendError, bounded, select};
use loom::thread;

/// A receive with a timeout against a `try_send`: the send succeeds only
/// if the receiver was waiting, and then the receiver has the value,
/// whether or not its timeout fired meanwhile; a refused send leaves the
/// receiver with nothing. Never lost, never both.
#[test]
fn handoff_races_a_receivers_timeout() {
    model("handoff_races_a_receivers_timeout", 3, || {
        let (tx, rx) = bounded::<u8>(0);
        let r = thread::spawn(move || rx.recv_timeout(Duration::from_millis(1)));
        let sent = tx.try_send(7);
        match (sent, r.join().unwrap()) {
            (Ok(()), got) => assert_eq!(got, Ok(7), "a handed-over value was lost"),
            (Err(TrySendError::Full(7)), got) => {
                assert_eq!(
                    got,
                    Err(RecvTimeoutError::Timeout),
                    "received a refused value"
                )
            }
            other => panic!("{other:?}"),
        }
    });
}

/// A timed send against a timed receive: both may time out, but a send
/// that reports `Ok` was received, and one that timed out was not.
#[test]
fn timed_send_races_a_timed_receive() {
    model("timed_send_races_a_timed_receive", 3, || {
        let (tx, rx) = bounded::<u8>(0);
        let r = thread::spawn(move || rx.recv_timeout(Duration::from_millis(1)));
        let sent = tx.send_timeout(5, Duration::from_millis(1));
        let got = r.join().unwrap();
        match sent {
            Ok(()) => assert_eq!(got, Ok(5), "a sent value was lost"),
            Err(SendTimeoutError::Timeout(5)) => {
                assert_eq!(
                    got,
                    Err(RecvTimeoutError::Timeout),
                    "a timed-out value was received"
                )
            }
            Err(e) => panic!("{e:?}"),
        }
        drop(tx);
    });
}

/// A `recv_async` future polled once (so it waits as a receiver) and then
/// dropped, while a `try_send` hands it a value: the value is not
/// destroyed (kanal #24), it goes back into the channel for the next
/// receive; a refused send leaves nothing there.
#[test]
fn cancelled_async_receive_during_a_handoff_keeps_the_value() {
    model(
        "cancelled_async_receive_during_a_handoff_keeps_the_value",
        3,
        || {
            let (tx, rx) = bounded::<u8>(0);
            let rx2 = rx.clone();
            let r = thread::spawn(move || {
                let mut cx = Context::from_waker(Waker::noop());
                let mut fut = pin!(rx2.recv_async());
                // Pending (nothing sent yet) or Ready (the hand-off came first).
                match fut.as_mut().poll(&mut cx) {
                    Poll::Ready(v) => Some(v.unwrap()),
                    Poll::Pending => None, // dropped here, mid hand-off or not
                }
            });
            let sent = tx.try_send(9);
            let polled = r.join().unwrap();
            let left = rx.try_recv();
            match (sent, polled) {
                (Ok(()), Some(v)) => {
                    assert_eq!(v, 9);
                    assert_eq!(left, Err(TryRecvError::Empty));
                }
                (Ok(()), None) => {
                    assert_eq!(left, Ok(9), "the cancelled receive destroyed the value")
                }
                (Err(TrySendError::Full(9)), None) => assert_eq!(left, Err(TryRecvError::Empty)),
                other => panic!("{other:?} / {left:?}"),
            }
        },
    );
}

/// The same with a second, blocked receiver (timed): the value a cancelled
/// receive was handed goes to it, or back into the channel; in all, a
/// value sent is received exactly once, and a refused one never.
#[test]
fn cancelled_async_receive_passes_the_value_on() {
    model("cancelled_async_receive_passes_the_value_on", 2, || {
        let (tx, rx) = bounded::<u8>(0);
        let (rx2, rx3) = (rx.clone(), rx.clone());
        let a = thread::spawn(move || {
            let mut cx = Context::from_waker(Waker::noop());
            let mut fut = pin!(rx2.recv_async());
            match fut.as_mut().poll(&mut cx) {
                Poll::Ready(v) => Some(v.unwrap()),
                Poll::Pending => None,
            }
        });
        let b = thread::spawn(move || rx3.recv_timeout(Duration::from_millis(1)).ok());
        let sent = tx.try_send(9).is_ok();
        let got: Vec<u8> = [a.join().unwrap(), b.join().unwrap(), rx.try_recv().ok()]
            .into_iter()
            .flatten()
            .collect();
        if sent {
            assert_eq!(got, [9], "sent once, received {got:?}");
        } else {
            assert!(got.is_empty(), "refused, yet received {got:?}");
        }
    });
}

/// A select waiting on a rendezvous channel and on an empty ordinary one
/// is woken by a blocking send on the rendezvous channel, which returns
/// once the select has the value: no lost wake-up between the select's
/// registration and the sender's look at the waiting receivers.
#[test]
fn select_recv_arm_woken_by_a_rendezvous_sender() {
    model("select_recv_arm_woken_by_a_rendezvous_sender", 2, || {
        let (tx, rx) = bounded::<u8>(0);
        let (other_tx, other_rx) = bounded::<u8>(1);
        let s = thread::spawn(move || {
            select! {
                recv(rx) -> v => v.unwrap(),
                recv(other_rx) -> v => v.unwrap() + 100,
            }
        });
        tx.send(3).unwrap();
        assert_eq!(s.join().unwrap(), 3);
        drop(other_tx);
    });
}

/// A blocking send against a blocking receive: whichever comes first
/// waits, and the other completes the hand-off and wakes it.
#[test]
fn blocking_send_meets_blocking_receive() {
    model("blocking_send_meets_blocking_receive", 3, || {
        let (tx, rx) = bounded::<u8>(0);
        let r = thread::spawn(move || rx.recv());
        tx.send(1).unwrap();
        assert_eq!(r.join().unwrap(), Ok(1));
    });
}
