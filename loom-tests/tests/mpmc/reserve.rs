//! Loom models of `hotq-mpmc`'s permits (`mpmc/src/channel/reserve.rs`,
//! `mpmc/src/queue/reserve.rs`): a held slot reads "empty for now" to
//! the receivers, a dropped one becomes a tombstone that someone skips.
//! A lost wake-up leaves a thread parked for ever (loom reports a
//! deadlock).

use hotq_loom_tests::model;
use hotq_mpmc::{TryRecvError, bounded};
use loom::thread;

/// Capacity 1, a held permit, a reserver blocked behind it: dropping the
/// permit unsent gives the slot back (the drop skips its own tombstone,
/// `head` being on it) and wakes the reserver, whose item then arrives.
#[test]
fn a_dropped_permit_wakes_a_blocked_reserver() {
    model("a_dropped_permit_wakes_a_blocked_reserver", 3, || {
        let (tx, rx) = bounded::<u8>(1);
        let held = tx.try_reserve().unwrap();
        let tx2 = tx.clone();
        let reserver = thread::spawn(move || tx2.reserve().unwrap().send(7));
        drop(held);
        assert_eq!(rx.recv(), Ok(7));
        reserver.join().unwrap();
        assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
    });
}

/// A permit held at the head with an item behind it, a receiver blocked
/// on it, and the permit dropped: the receiver reads the slot as empty or
/// skips the tombstone, never reads it, and gets the item behind it. The
/// tombstone's store → fence → `head` load and the receiver's `head` →
/// fence → stamp load make one of the two skip it: with neither, the
/// receiver would sleep with the item in the channel. Afterwards both
/// slots are free again.
#[test]
fn a_tombstone_racing_a_blocked_receiver_is_skipped_never_read() {
    model(
        "a_tombstone_racing_a_blocked_receiver_is_skipped_never_read",
        2,
        || {
            let (tx, rx) = bounded::<u8>(2);
            let held = tx.try_reserve().unwrap();
            tx.try_send(2).unwrap();
            let receiver = thread::spawn(move || {
                let got = rx.recv();
                (got, rx)
            });
            drop(held);
            let (got, rx) = receiver.join().unwrap();
            assert_eq!(got, Ok(2), "the item behind the tombstone");
            // The capacity came back: two sends fit, and arrive in order.
            tx.try_send(3).unwrap();
            tx.try_send(4).unwrap();
            assert_eq!((rx.try_recv(), rx.try_recv()), (Ok(3), Ok(4)));
        },
    );
}

/// A receiver blocked on a held slot is woken by the permit's send: the
/// send's stamp store → fence → waiter-flag load against the receiver's
/// flag store → fence → stamp load. And the value it reads is the one
/// written (the stamp's Release/Acquire pair orders the write before the
/// read).
#[test]
fn permit_send_wakes_a_receiver_blocked_on_its_slot() {
    model(
        "permit_send_wakes_a_receiver_blocked_on_its_slot",
        3,
        || {
            let (tx, rx) = bounded::<u8>(1);
            let held = tx.try_reserve().unwrap();
            let receiver = thread::spawn(move || rx.recv());
            held.send(5);
            assert_eq!(receiver.join().unwrap(), Ok(5));
        },
    );
}

/// The permit is not the oldest when it is dropped: a receiver takes the
/// item before it, then reaches the slot while the drop runs. Either the
/// drop's `head` load (after its fence) sees the receiver there and skips
/// the tombstone itself, or the receiver's stamp load (after its fence)
/// sees the tombstone and skips it: the receiver gets the item behind it
/// either way, never the slot's, and never sleeps beside it.
#[test]
fn a_tombstone_behind_an_item_racing_a_receiver_is_skipped() {
    model(
        "a_tombstone_behind_an_item_racing_a_receiver_is_skipped",
        2,
        || {
            let (tx, rx) = bounded::<u8>(3);
            tx.try_send(1).unwrap();
            let held = tx.try_reserve().unwrap();
            tx.try_send(3).unwrap();
            let receiver = thread::spawn(move || (rx.recv(), rx.recv()));
            drop(held);
            assert_eq!(receiver.join().unwrap(), (Ok(1), Ok(3)));
        },
    );
}

/// A full channel (capacity 1, one item) and its last receiver dropped
/// while a sender tries to reserve: the drop's drain frees the slot only
/// after it has marked the channel disconnected, so no reserve can
/// linearize into that room. It fails (full before the drop, disconnected
/// after), never hands out a permit for a value nobody will take. The
/// reserve's check of the flag after its claim is what holds it: the
/// claim's Acquire stamp load read the drain's freeing store, which the
/// flag store precedes.
#[test]
fn a_reserve_racing_the_last_receivers_drop_never_takes_the_drained_room() {
    model(
        "a_reserve_racing_the_last_receivers_drop_never_takes_the_drained_room",
        3,
        || {
            let (tx, rx) = bounded::<u8>(1);
            tx.try_send(1).unwrap();
            let reserver = thread::spawn(move || tx.try_reserve().map(|p| p.send(2)).is_ok());
            drop(rx);
            assert!(
                !reserver.join().unwrap(),
                "a permit from a full, disconnected channel"
            );
        },
    );
}
