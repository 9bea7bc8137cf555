//! hotq-spsc's halves as select arms (feature `spsc`): one thread waits
//! on a ring and on channels at once, is woken by either, and takes every
//! item exactly once and in order; a ring half whose other half is gone is
//! ready; a select that only looks (`try_select`, `ready`) takes nothing.
//! Every wait has a deadline, so a lost wake-up fails instead of hanging.

use std::sync::Barrier;
use std::thread;
use std::time::Duration;

use hotq_mpmc::{Select, TryRecvError, bounded};
use hotq_spsc::{PopError, PushError, RingBuffer};
use hotq_testkit::{bound, within};

const LIMIT: Duration = bound(Duration::from_secs(120));
/// A select that should never time out in a passing test.
const LONG: Duration = Duration::from_secs(30);

const ITEMS: u64 = if cfg!(miri) {
    200
} else if cfg!(debug_assertions) {
    20_000
} else {
    200_000
};

/// Pauses now and then, long enough that the selecting thread parks and
/// only a wake-up brings it back.
fn pause_sometimes(i: u64) {
    if i % (ITEMS / 8) == ITEMS / 16 {
        thread::sleep(Duration::from_millis(2));
    }
}

/// A ring feed and a channel, each from its own thread, into one thread
/// that selects over both (a fresh `Select` per item, as the docs say)
/// until both are done: every item of each arrives once, in its source's
/// order, and no select waits out its deadline.
#[test]
fn a_select_over_a_ring_and_a_channel_takes_every_item_of_both_once_in_order() {
    within("ring and channel", LIMIT, || {
        let (mut feed, mut rx) = RingBuffer::<u64>::new(16);
        let (tx, chan) = bounded::<u64>(4);
        let ring_source = thread::spawn(move || {
            for i in 0..ITEMS {
                let mut v = i;
                while let Err(PushError::Full(back)) = feed.push(v) {
                    v = back;
                    thread::yield_now();
                }
                pause_sometimes(i);
            }
        });
        let chan_source = thread::spawn(move || {
            for i in 0..ITEMS / 4 {
                tx.send(i).unwrap();
                pause_sometimes(i * 4 + 1);
            }
        });
        let (mut next_ring, mut next_chan) = (0, 0);
        let (mut ring_open, mut chan_open) = (true, true);
        while ring_open || chan_open {
            let mut sel = Select::new();
            let ring_arm = ring_open.then(|| sel.recv_spsc(&rx));
            let chan_arm = chan_open.then(|| sel.recv(&chan));
            let oper = sel
                .select_timeout(LONG)
                .expect("a select waited out its deadline: a lost wake-up");
            if Some(oper.index()) == ring_arm {
                drop(oper);
                match rx.pop() {
                    Ok(v) => {
                        assert_eq!(v, next_ring, "ring items out of order");
                        next_ring += 1;
                    }
                    Err(PopError::Empty) => {
                        assert!(
                            rx.is_abandoned(),
                            "selected an empty ring whose producer lives"
                        );
                        ring_open = false;
                    }
                }
            } else {
                assert_eq!(Some(oper.index()), chan_arm);
                match oper.recv(&chan) {
                    Ok(v) => {
                        assert_eq!(v, next_chan, "channel items out of order");
                        next_chan += 1;
                    }
                    Err(_) => chan_open = false,
                }
            }
        }
        assert_eq!((next_ring, next_chan), (ITEMS, ITEMS / 4));
        ring_source.join().unwrap();
        chan_source.join().unwrap();
    });
}

/// The producer's side: a select over the ring's free room and a control
/// channel is woken by the consumer's pops, and the push after it never
/// fails; the consumer gets every item in order.
#[test]
fn a_ring_send_arm_is_woken_by_the_consumers_pops_and_its_push_succeeds() {
    within("ring send arm", LIMIT, || {
        let (mut tx, mut rx) = RingBuffer::<u64>::new(4);
        let (_ctl_tx, ctl_rx) = bounded::<()>(1);
        let consumer = thread::spawn(move || {
            for i in 0..ITEMS {
                let v = loop {
                    match rx.pop() {
                        Ok(v) => break v,
                        Err(_) => thread::yield_now(),
                    }
                };
                assert_eq!(v, i);
                pause_sometimes(i);
            }
        });
        for i in 0..ITEMS {
            let mut sel = Select::new();
            let room = sel.send_spsc(&tx);
            sel.recv(&ctl_rx);
            let oper = sel.select_timeout(LONG).expect("a lost wake-up");
            assert_eq!(oper.index(), room, "the control channel never sends");
            drop(oper);
            tx.push(i).expect("the select saw a free slot");
        }
        consumer.join().unwrap();
    });
}

/// A select blocked on a ring arm is woken when the other half goes, both
/// ways, and the arm is ready from then on.
#[test]
fn a_ring_arm_is_ready_once_the_other_half_is_gone() {
    within("other half gone", LIMIT, || {
        let (tx, rx) = RingBuffer::<u8>::new(1);
        let (_ctl_tx, ctl_rx) = bounded::<()>(1);
        let barrier = Barrier::new(2);
        thread::scope(|s| {
            s.spawn(|| {
                barrier.wait();
                thread::sleep(Duration::from_millis(5)); // let it park
                drop(tx);
            });
            let mut sel = Select::new();
            let arm = sel.recv_spsc(&rx);
            sel.recv(&ctl_rx);
            barrier.wait();
            assert_eq!(sel.select_timeout(LONG).map(|o| o.index()).ok(), Some(arm));
        });
        assert!(rx.is_abandoned());

        let (mut tx, rx) = RingBuffer::<u8>::new(1);
        tx.push(0).unwrap(); // full
        thread::scope(|s| {
            s.spawn(|| {
                barrier.wait();
                thread::sleep(Duration::from_millis(5));
                drop(rx);
            });
            let mut sel = Select::new();
            let arm = sel.send_spsc(&tx);
            sel.recv(&ctl_rx);
            barrier.wait();
            assert_eq!(sel.select_timeout(LONG).map(|o| o.index()).ok(), Some(arm));
        });
        assert!(tx.is_abandoned());
    });
}

/// `try_select`, `ready` and a channel arm chosen over a ring arm take
/// nothing from the ring, and leave no waker behind that a later push
/// could trip over.
#[test]
fn looking_at_a_ring_arm_takes_nothing_from_it() {
    let (mut tx, mut rx) = RingBuffer::<u8>::new(2);
    let (ctl_tx, ctl_rx) = bounded::<u8>(1);
    {
        let mut sel = Select::new();
        sel.recv_spsc(&rx);
        sel.recv(&ctl_rx);
        assert!(sel.try_select().is_err(), "nothing is ready");
        assert!(sel.ready_timeout(Duration::from_millis(5)).is_err());
    }
    tx.push(1).unwrap();
    {
        let mut sel = Select::new();
        let arm = sel.recv_spsc(&rx);
        assert_eq!(sel.ready(), arm);
        assert_eq!(sel.try_ready(), Ok(arm));
    }
    assert_eq!(rx.slots(), 1, "looking took an item");
    // Only the channel is chosen while the ring is empty.
    assert_eq!(rx.pop(), Ok(1));
    ctl_tx.send(9).unwrap();
    {
        let mut sel = Select::new();
        sel.recv_spsc(&rx);
        let chan = sel.recv(&ctl_rx);
        let oper = sel.select_timeout(LONG).unwrap();
        assert_eq!(oper.index(), chan);
        assert_eq!(oper.recv(&ctl_rx), Ok(9));
    }
    tx.push(2).unwrap();
    assert_eq!(rx.pop(), Ok(2));
    assert_eq!(ctl_rx.try_recv(), Err(TryRecvError::Empty));
}
