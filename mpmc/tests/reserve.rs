//! `Sender::reserve` and `Permit` (issue 39): tokio's `sync_mpsc.rs`
//! scenario families for reservations, in our words, on real threads;
//! and a select's send arm dropped unsent (issue 38). Each wait of a test
//! is bounded (`within`), so a lost wake-up fails the test instead of
//! hanging it; threads meet at barriers, never after sleeps.

use std::future::Future;
use std::pin::pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::task::{Context, Poll, Wake, Waker};
use std::thread;
use std::time::{Duration, Instant};

use hotq_mpmc::{
    RecvError, RecvTimeoutError, Select, SendError, SendTimeoutError, TryRecvError, TrySendError,
    bounded,
};
use hotq_testkit::{
    DropCounter, Item, Rng, assert_exactly_once_in_order, block_on, bound, scaled, within,
};

/// A limit for one test body: far beyond any healthy run, so only a hang
/// (a lost wake-up) reaches it.
const LIMIT: Duration = bound(Duration::from_secs(60));

/// A waker that unparks a thread.
struct Unpark(thread::Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }
}

// ---- reserve, then send ----

#[test]
fn a_reserved_slot_takes_the_permits_value() {
    let (tx, rx) = bounded(2);
    let permit = tx.reserve().unwrap();
    assert_eq!(rx.try_recv(), Err(TryRecvError::Empty), "nothing sent yet");
    permit.send("a");
    assert_eq!(rx.recv(), Ok("a"));
    tx.try_reserve().unwrap().send("b");
    assert_eq!(rx.recv(), Ok("b"));
}

#[test]
fn try_reserve_on_a_full_channel_is_full_and_permits_count_against_capacity() {
    let (tx, rx) = bounded(3);
    tx.send(1).unwrap();
    let a = tx.try_reserve().unwrap();
    let b = tx.try_reserve().unwrap();
    // One item and two permits: full, for reserves and sends alike.
    assert_eq!(tx.try_reserve().unwrap_err(), TrySendError::Full(()));
    assert_eq!(tx.try_send(9), Err(TrySendError::Full(9)));
    assert!(tx.is_full());
    // `len` counts items only: len + permits never exceeds the capacity.
    assert_eq!(rx.len(), 1);
    assert!(rx.len() + 2 <= rx.capacity());
    a.send(2);
    assert_eq!(rx.len(), 2);
    drop(b);
    assert_eq!(rx.len(), 2);
    assert_eq!(rx.try_recv(), Ok(1));
    assert_eq!(rx.try_recv(), Ok(2));
    // The dropped permit's slot came back: three sends fit again.
    (3..6).for_each(|i| tx.try_send(i).unwrap());
    assert_eq!(rx.len(), 3);
}

#[test]
fn len_and_is_empty_leave_out_held_slots_and_tombstones_on_every_lap() {
    // Capacity 3, over several laps: the held slots sit at each index in
    // turn, in front of items, behind them, and alone.
    let (tx, rx) = bounded(3);
    for lap in 0..5 {
        let front = tx.try_reserve().unwrap();
        assert!(rx.is_empty(), "lap {lap}: a permit alone is no item");
        assert_eq!(rx.len(), 0);
        tx.send(lap).unwrap();
        assert!(!rx.is_empty(), "lap {lap}: an item behind a permit");
        assert_eq!(rx.len(), 1);
        let back = tx.try_reserve().unwrap();
        assert_eq!((rx.len(), tx.is_full()), (1, true));
        drop(back); // a tombstone behind the item
        assert_eq!(rx.len(), 1);
        drop(front); // the oldest: skipped at once
        assert_eq!(rx.len(), 1);
        assert_eq!(rx.try_recv(), Ok(lap));
        assert!(rx.is_empty(), "lap {lap}: only a tombstone left");
        assert_eq!(rx.len(), 0);
    }
}

#[test]
fn a_permit_keeps_its_place_in_the_fifo_order() {
    let (tx, rx) = bounded(4);
    tx.send(1).unwrap();
    let second = tx.reserve().unwrap();
    tx.send(3).unwrap();
    second.send(2);
    tx.send(4).unwrap();
    let got: Vec<_> = (0..4).map(|_| rx.recv().unwrap()).collect();
    assert_eq!(got, [1, 2, 3, 4]);
}

// ---- a held permit blocks nobody it should not ----

#[test]
fn a_held_permit_lets_receivers_take_earlier_items_and_senders_use_free_slots() {
    within("held permit", LIMIT, || {
        let (tx, rx) = bounded(3);
        tx.send(1).unwrap();
        let held = tx.reserve().unwrap();
        // Another sender uses the last free slot.
        let other = tx.clone();
        thread::spawn(move || other.send(3).unwrap())
            .join()
            .unwrap();
        assert_eq!(rx.recv(), Ok(1), "the item sent before the permit");
        held.send(2);
        assert_eq!(rx.recv(), Ok(2));
        assert_eq!(rx.recv(), Ok(3));
    });
}

#[test]
fn try_recv_behind_a_held_permit_returns_empty_at_once() {
    // Bounded: receivers once spun behind a claimed slot until it was
    // written (a permit may be held across an `.await`).
    within("try_recv behind a permit", LIMIT, || {
        let (tx, rx) = bounded(2);
        let held = tx.reserve().unwrap();
        tx.send(2).unwrap();
        for _ in 0..scaled(1000, 10) {
            assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
        }
        assert_eq!(
            rx.recv_timeout(Duration::from_millis(1)),
            Err(RecvTimeoutError::Timeout)
        );
        assert!(rx.try_iter().next().is_none());
        held.send(1);
        assert_eq!(rx.try_recv(), Ok(1));
        assert_eq!(rx.try_recv(), Ok(2));
    });
}

#[test]
fn a_permit_dropped_behind_items_is_skipped_by_the_receivers() {
    within("tombstone behind items", LIMIT, || {
        let (tx, rx) = bounded(3);
        tx.send(1).unwrap();
        drop(tx.reserve().unwrap());
        tx.send(3).unwrap();
        assert_eq!(rx.recv(), Ok(1));
        assert_eq!(rx.recv(), Ok(3), "the dropped permit's slot is skipped");
        assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
        // Its slot is free again: three items fit.
        (4..7).for_each(|i| tx.try_send(i).unwrap());
        assert_eq!(rx.try_iter().collect::<Vec<_>>(), [4, 5, 6]);
    });
}

// ---- wake-ups ----

#[test]
fn a_permit_dropped_unsent_wakes_a_blocked_reserver() {
    within("dropped permit wakes a reserver", LIMIT, || {
        let (tx, rx) = bounded::<u32>(1);
        let tx2 = tx.clone();
        let held = tx.reserve().unwrap();
        let start = Arc::new(Barrier::new(2));
        let go = Arc::clone(&start);
        let reserver = thread::spawn(move || {
            go.wait();
            tx2.reserve().map(|p| p.send(7))
        });
        start.wait();
        // Whether the reserver is parked yet or not, the drop's wake-up
        // (or its own re-try) lets it in.
        drop(held);
        assert_eq!(reserver.join().unwrap(), Ok(()));
        assert_eq!(rx.recv(), Ok(7));
    });
}

#[test]
fn a_permit_dropped_unsent_wakes_a_blocked_sender() {
    within("dropped permit wakes a sender", LIMIT, || {
        let (tx, rx) = bounded::<u32>(1);
        let tx2 = tx.clone();
        let held = tx.reserve().unwrap();
        let start = Arc::new(Barrier::new(2));
        let go = Arc::clone(&start);
        let sender = thread::spawn(move || {
            go.wait();
            tx2.send(8)
        });
        start.wait();
        drop(held);
        assert_eq!(sender.join().unwrap(), Ok(()));
        assert_eq!(rx.recv(), Ok(8));
    });
}

#[test]
fn permit_send_wakes_a_receiver_blocked_on_its_slot() {
    within("permit send wakes a receiver", LIMIT, || {
        let (tx, rx) = bounded::<u32>(2);
        let held = tx.reserve().unwrap();
        let start = Arc::new(Barrier::new(2));
        let go = Arc::clone(&start);
        let receiver = thread::spawn(move || {
            go.wait();
            rx.recv()
        });
        start.wait();
        held.send(5);
        assert_eq!(receiver.join().unwrap(), Ok(5));
    });
}

/// One permit at a time, each sent while the receiver may be going to
/// sleep on its slot: the receiver acknowledges every item, so each one is
/// the last in the channel and a send that misses a sleeping receiver
/// hangs the test. The async receive registers at its first failed look
/// (no spin first), and the sender pauses a random while between reserve
/// and send, so the registration lands before, during and after the send
/// (from the second permit on, the asymmetric barrier of
/// `fill_barrier.rs` where `membarrier` works: the channel is big enough
/// to use it, though it never holds more than one item).
#[test]
fn every_permit_send_reaches_a_receive_going_to_sleep_on_its_slot() {
    within("permit sends against sleeping receives", LIMIT, || {
        const ROUNDS: u32 = scaled(20_000, 50) as u32;
        let (tx, rx) = bounded::<u32>(256);
        let (ack_tx, ack_rx) = bounded::<u32>(1);
        let receiver = thread::spawn(move || {
            for i in 0..ROUNDS {
                assert_eq!(block_on(rx.recv_async()), Ok(i));
                ack_tx.send(i).unwrap();
            }
        });
        let mut rng = Rng::new(39);
        for i in 0..ROUNDS {
            let permit = tx.reserve().unwrap();
            rng.pause(2_000);
            permit.send(i);
            assert_eq!(ack_rx.recv(), Ok(i));
        }
        receiver.join().unwrap();
    });
}

/// A waker that records that it was woken.
#[derive(Default)]
struct Flag(AtomicUsize);

impl Wake for Flag {
    fn wake(self: Arc<Self>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

impl Flag {
    /// Whether it was woken since the last call.
    fn take(&self) -> bool {
        self.0.swap(0, Ordering::SeqCst) > 0
    }
}

/// The same, deterministic: an async receive registered on the held slot
/// is woken by the permit's send.
#[test]
fn permit_send_wakes_a_receive_waiting_on_its_slot() {
    let (tx, rx) = bounded::<u32>(2);
    let held = tx.reserve().unwrap();
    let flag = Arc::new(Flag::default());
    let waker = Waker::from(Arc::clone(&flag));
    let mut cx = Context::from_waker(&waker);
    let mut next = pin!(rx.recv_async());
    assert!(next.as_mut().poll(&mut cx).is_pending());
    held.send(5);
    assert!(flag.take(), "the waiting receive was not woken");
    assert_eq!(next.as_mut().poll(&mut cx), Poll::Ready(Ok(5)));
}

/// Receives waiting behind a held permit: the sends behind it wake them
/// one each, and each finds the held slot and waits again. When the
/// permit sends, all of them must be woken: each has an item now.
/// Deterministic (futures polled by hand), so a wake-up of one only
/// fails every run.
#[test]
fn receives_waiting_behind_a_held_permit_are_all_woken_when_it_sends() {
    const RECEIVES: usize = 3;
    let (tx, rx) = bounded::<usize>(RECEIVES + 1);
    let held = tx.reserve().unwrap();
    let flags: Vec<Arc<Flag>> = (0..RECEIVES).map(|_| Arc::default()).collect();
    let wakers: Vec<Waker> = flags.iter().map(|f| Waker::from(Arc::clone(f))).collect();
    let mut receives: Vec<_> = (0..RECEIVES).map(|_| Box::pin(rx.recv_async())).collect();
    for (fut, waker) in receives.iter_mut().zip(&wakers) {
        let mut cx = Context::from_waker(waker);
        assert!(fut.as_mut().poll(&mut cx).is_pending());
    }
    for i in 1..RECEIVES {
        tx.send(i).unwrap();
    }
    // The woken ones look again: the held slot is still first.
    for ((fut, waker), flag) in receives.iter_mut().zip(&wakers).zip(&flags) {
        if flag.take() {
            let mut cx = Context::from_waker(waker);
            assert!(
                fut.as_mut().poll(&mut cx).is_pending(),
                "behind a held slot"
            );
        }
    }
    held.send(0);
    let woken = flags.iter().filter(|f| f.take()).count();
    assert_eq!(woken, RECEIVES, "every waiting receive has an item now");
    let mut got: Vec<usize> = receives
        .iter_mut()
        .zip(&wakers)
        .map(
            |(fut, waker)| match fut.as_mut().poll(&mut Context::from_waker(waker)) {
                Poll::Ready(Ok(v)) => v,
                other => panic!("woken, but {other:?}"),
            },
        )
        .collect();
    got.sort();
    assert_eq!(got, (0..RECEIVES).collect::<Vec<_>>());
}

/// Receivers woken by sends behind a held permit find the permit's slot
/// and sleep again; when the permit sends, every item must find a
/// receiver: a wake-up of one receiver only would leave the others asleep
/// beside the items sent behind the permit.
#[test]
fn receivers_parked_behind_a_held_permit_all_wake_when_it_sends() {
    within("receivers behind a permit", LIMIT, || {
        const RECEIVERS: usize = 3;
        let (tx, rx) = bounded::<usize>(RECEIVERS + 1);
        let held = tx.reserve().unwrap();
        let start = Arc::new(Barrier::new(RECEIVERS + 1));
        let receivers: Vec<_> = (0..RECEIVERS)
            .map(|_| {
                let (rx, go) = (rx.clone(), Arc::clone(&start));
                thread::spawn(move || {
                    go.wait();
                    rx.recv()
                })
            })
            .collect();
        start.wait();
        // Behind the permit: each send wakes a receiver, which finds the
        // permit's slot first.
        (1..RECEIVERS).for_each(|i| tx.send(i).unwrap());
        held.send(0);
        let mut got: Vec<_> = receivers
            .into_iter()
            .map(|r| r.join().unwrap().unwrap())
            .collect();
        got.sort();
        assert_eq!(got, (0..RECEIVERS).collect::<Vec<_>>());
    });
}

/// Capacity 1, a held permit, and reservers blocked behind it: each
/// dropped or sent permit lets exactly one reserver in at a time (a
/// reserver holding its permit is alone), and every reserver gets in.
#[test]
fn many_reservers_and_one_free_slot_take_it_one_at_a_time() {
    within("many reservers", LIMIT, || {
        const RESERVERS: usize = 6;
        let rounds = scaled(200, 5);
        for _ in 0..rounds {
            let (tx, rx) = bounded::<usize>(1);
            let holding = Arc::new(AtomicUsize::new(0));
            let held = tx.reserve().unwrap();
            let start = Arc::new(Barrier::new(RESERVERS + 1));
            let reservers: Vec<_> = (0..RESERVERS)
                .map(|id| {
                    let (tx, go, holding) = (tx.clone(), Arc::clone(&start), Arc::clone(&holding));
                    thread::spawn(move || {
                        go.wait();
                        let permit = tx.reserve().unwrap();
                        let was = holding.fetch_add(1, Ordering::SeqCst);
                        assert_eq!(was, 0, "two permits on a channel of capacity 1");
                        holding.fetch_sub(1, Ordering::SeqCst);
                        permit.send(id);
                    })
                })
                .collect();
            start.wait();
            drop(held);
            let mut got: Vec<_> = (0..RESERVERS).map(|_| rx.recv().unwrap()).collect();
            reservers.into_iter().for_each(|r| r.join().unwrap());
            got.sort();
            assert_eq!(got, (0..RESERVERS).collect::<Vec<_>>());
            assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
        }
    });
}

// ---- closed and disconnected channels ----

#[test]
fn reserve_fails_on_a_closed_channel_and_held_permits_are_delivered() {
    within("reserve after close", LIMIT, || {
        let (tx, rx) = bounded(4);
        tx.send(1).unwrap();
        let held = tx.reserve().unwrap();
        rx.close();
        assert_eq!(
            tx.try_reserve().unwrap_err(),
            TrySendError::Disconnected(())
        );
        assert_eq!(tx.reserve().unwrap_err(), SendError(()));
        assert_eq!(
            tx.reserve_timeout(Duration::from_secs(1)).unwrap_err(),
            SendTimeoutError::Disconnected(())
        );
        assert_eq!(block_on(tx.reserve_async()).unwrap_err(), SendError(()));
        assert_eq!(rx.recv(), Ok(1));
        // The permit is still out: not drained yet.
        assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
        held.send(2);
        assert_eq!(rx.recv(), Ok(2), "a permit held before the close");
        assert_eq!(rx.recv(), Err(RecvError));
    });
}

#[test]
fn a_receiver_blocked_on_a_closed_channel_waits_for_a_held_permit() {
    within("closed channel, held permit", LIMIT, || {
        let (tx, rx) = bounded::<u32>(2);
        let held = tx.reserve().unwrap();
        rx.close();
        let start = Arc::new(Barrier::new(2));
        let go = Arc::clone(&start);
        let receiver = thread::spawn(move || {
            go.wait();
            (rx.recv(), rx.recv())
        });
        start.wait();
        held.send(3);
        assert_eq!(receiver.join().unwrap(), (Ok(3), Err(RecvError)));
    });
}

#[test]
fn reserve_fails_once_every_receiver_is_gone() {
    let (tx, rx) = bounded::<u8>(1);
    drop(rx);
    assert_eq!(
        tx.try_reserve().unwrap_err(),
        TrySendError::Disconnected(())
    );
    assert_eq!(tx.reserve().unwrap_err(), SendError(()));
    assert_eq!(
        tx.reserve_deadline(Instant::now()).unwrap_err(),
        SendTimeoutError::Disconnected(())
    );
    assert_eq!(block_on(tx.reserve_async()).unwrap_err(), SendError(()));
}

#[test]
fn a_blocked_reserver_wakes_with_an_error_when_the_receivers_go() {
    within("reserver and disconnection", LIMIT, || {
        let (tx, rx) = bounded::<u8>(1);
        tx.send(1).unwrap();
        let start = Arc::new(Barrier::new(2));
        let go = Arc::clone(&start);
        let reserver = thread::spawn(move || {
            go.wait();
            tx.reserve().map(|p| p.send(2))
        });
        start.wait();
        drop(rx);
        assert_eq!(reserver.join().unwrap(), Err(SendError(())));
    });
}

#[test]
fn permit_send_with_no_receiver_left_drops_the_value_once() {
    let drops = DropCounter::new();
    {
        let (tx, rx) = bounded(2);
        tx.send(drops.item(0)).unwrap();
        let late = tx.reserve().unwrap();
        drop(rx);
        assert_eq!(drops.drops_of(0), 1, "the receiver's drop took item 0");
        late.send(drops.item(1));
        assert_eq!(drops.drops_of(1), 1, "dropped by the send, not kept");
    }
    drops.assert_each_dropped_once(2);
}

#[test]
fn items_behind_a_permit_are_dropped_once_when_the_receivers_are_gone() {
    let drops = DropCounter::new();
    for send in [true, false] {
        let (tx, rx) = bounded(3);
        let held = tx.reserve().unwrap();
        tx.send(drops.fresh()).unwrap();
        drop(rx); // its drain stops at the held slot
        if send {
            held.send(drops.fresh());
        } else {
            drop(held);
        }
        drop(tx);
    }
    drops.assert_each_dropped_once(drops.issued());
}

// ---- timeouts ----

#[test]
fn reserve_timeout_and_deadline_time_out_on_a_full_channel() {
    let (tx, rx) = bounded::<u8>(1);
    let held = tx.reserve().unwrap();
    let before = Instant::now();
    assert_eq!(
        tx.reserve_timeout(Duration::from_millis(20)).unwrap_err(),
        SendTimeoutError::Timeout(())
    );
    assert!(before.elapsed() >= Duration::from_millis(20), "not early");
    assert_eq!(
        tx.reserve_deadline(Instant::now()).unwrap_err(),
        SendTimeoutError::Timeout(()),
        "a past deadline tries once"
    );
    drop(held);
    tx.reserve_deadline(Instant::now()).unwrap().send(1);
    assert_eq!(rx.recv(), Ok(1));
}

#[test]
fn reserve_timeout_succeeds_when_room_comes_in_time() {
    within("reserve_timeout in time", LIMIT, || {
        let (tx, rx) = bounded::<u8>(1);
        tx.send(1).unwrap();
        let start = Arc::new(Barrier::new(2));
        let go = Arc::clone(&start);
        let reserver = thread::spawn(move || {
            go.wait();
            tx.reserve_timeout(LIMIT).map(|p| p.send(2))
        });
        start.wait();
        assert_eq!(rx.recv(), Ok(1));
        assert_eq!(reserver.join().unwrap(), Ok(()));
        assert_eq!(rx.recv(), Ok(2));
    });
}

// ---- async: cancellation keeps every value ----

#[test]
fn a_pending_reserve_async_dropped_takes_no_slot_and_passes_its_wake_up_on() {
    let (tx, rx) = bounded::<u8>(1);
    tx.send(1).unwrap();
    let flags: [Arc<Flag>; 2] = Default::default();
    let wakers = flags.clone().map(Waker::from);
    let mut first = Box::pin(tx.reserve_async());
    let mut second = Box::pin(tx.reserve_async());
    assert!(
        first
            .as_mut()
            .poll(&mut Context::from_waker(&wakers[0]))
            .is_pending()
    );
    assert!(
        second
            .as_mut()
            .poll(&mut Context::from_waker(&wakers[1]))
            .is_pending()
    );
    assert_eq!(rx.recv(), Ok(1)); // room: the oldest waiter, `first`, is told
    assert!(flags[0].take() && !flags[1].take());
    drop(first); // never polled again: took no slot, its wake-up goes on
    assert!(flags[1].take(), "the wake-up was not passed on");
    let Poll::Ready(Ok(permit)) = second.as_mut().poll(&mut Context::from_waker(&wakers[1])) else {
        panic!("the slot the dropped future was told about is free");
    };
    permit.send(2);
    assert_eq!(rx.recv(), Ok(2));
}

/// A send with a timeout that keeps its value: producers reserve with
/// `reserve_async` and give up at random (the future dropped pending, as a
/// timeout or a `select!` would), keeping the value for the next try; a
/// consumer receives everything. Every item arrives exactly once, each
/// producer's in order: no cancellation lost or duplicated one.
#[test]
fn random_cancellations_of_reserve_async_lose_and_duplicate_nothing() {
    const PRODUCERS: usize = 2;
    let cancellations = scaled(100_000, 300);
    let per_producer = scaled(20_000, 60) as u32;
    let cancelled = Arc::new(AtomicUsize::new(0));
    let c = Arc::clone(&cancelled);
    let got = within("reserve_async cancellations", LIMIT, move || {
        let (tx, rx) = bounded::<Item>(4);
        let start = Arc::new(Barrier::new(PRODUCERS + 1));
        let producers: Vec<_> = (0..PRODUCERS)
            .map(|p| {
                let (tx, go, cancelled) = (tx.clone(), Arc::clone(&start), Arc::clone(&c));
                thread::spawn(move || {
                    let mut rng = Rng::for_thread(39, p);
                    let waker = Waker::from(Arc::new(Unpark(thread::current())));
                    let mut cx = Context::from_waker(&waker);
                    go.wait();
                    for seq in 0..per_producer {
                        let item = Item {
                            producer: p as u32,
                            seq,
                        };
                        // Until a reservation goes through, give up after
                        // a random number of pending polls.
                        loop {
                            let mut fut = pin!(tx.reserve_async());
                            let polls = rng.below(3);
                            let mut permit = None;
                            for _ in 0..=polls {
                                if let Poll::Ready(r) = fut.as_mut().poll(&mut cx) {
                                    permit = Some(r.unwrap());
                                    break;
                                }
                                thread::yield_now();
                            }
                            match permit {
                                Some(permit) => {
                                    // Until enough cancellations have happened,
                                    // mostly drop the permit itself and reserve
                                    // again.
                                    if rng.below(4) != 0
                                        && cancelled.load(Ordering::Relaxed) < cancellations
                                    {
                                        drop(permit);
                                        cancelled.fetch_add(1, Ordering::Relaxed);
                                        continue;
                                    }
                                    permit.send(item);
                                    break;
                                }
                                None => {
                                    cancelled.fetch_add(1, Ordering::Relaxed);
                                }
                            }
                        }
                    }
                })
            })
            .collect();
        drop(tx);
        start.wait();
        let mut got = Vec::new();
        while let Ok(item) = rx.recv() {
            got.push(item);
        }
        producers.into_iter().for_each(|p| p.join().unwrap());
        got
    });
    assert_exactly_once_in_order(
        "reserve_async cancellations",
        PRODUCERS,
        per_producer,
        &[("consumer".to_string(), &got)],
    );
    let cancelled = cancelled.load(Ordering::Relaxed);
    assert!(
        cancelled >= cancellations,
        "{cancelled} cancellations, fewer than the {cancellations} asked for"
    );
}

// ---- force_send and permits ----

#[test]
fn force_send_evicts_items_but_waits_for_a_held_oldest_slot() {
    within("force_send and a permit", LIMIT, || {
        let (tx, rx) = bounded(2);
        tx.send(1).unwrap();
        let held = tx.reserve().unwrap();
        assert_eq!(tx.force_send(3), Ok(Some(1)), "the oldest item goes");
        // Now the oldest slot is the permit's: the next force_send waits.
        let tx2 = tx.clone();
        let start = Arc::new(Barrier::new(2));
        let go = Arc::clone(&start);
        let forcer = thread::spawn(move || {
            go.wait();
            tx2.force_send(4)
        });
        start.wait();
        held.send(2);
        assert_eq!(forcer.join().unwrap(), Ok(Some(2)));
        assert_eq!((rx.recv(), rx.recv()), (Ok(3), Ok(4)));
    });
}

#[test]
fn force_send_skips_a_dropped_permit_at_the_head() {
    let (tx, rx) = bounded(2);
    let held = tx.reserve().unwrap();
    tx.send(2).unwrap();
    // Full: the permit's slot then item 2. Dropped with `head` on it, the
    // permit frees its slot itself.
    drop(held);
    assert_eq!(tx.force_send(3), Ok(None));
    assert_eq!(tx.force_send(4), Ok(Some(2)));
    assert_eq!(rx.try_iter().collect::<Vec<_>>(), [3, 4]);
}

// ---- a select's send arm dropped unsent (issue 38) ----

#[test]
fn a_send_arm_dropped_unsent_gives_its_slot_back_before_it_panics() {
    within("dropped send arm", LIMIT, || {
        let (tx, rx) = bounded(2);
        let dropped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut sel = Select::new();
            sel.send(&tx);
            let oper = sel.select();
            drop(oper); // panics: the send was not completed
        }));
        assert!(dropped.is_err(), "dropping it panics, as crossbeam's does");
        // The receivers go on to the next items instead of waiting for the
        // abandoned slot for ever, and its capacity comes back.
        tx.send(1).unwrap();
        tx.send(2).unwrap();
        assert_eq!(rx.recv(), Ok(1));
        assert_eq!(rx.recv(), Ok(2));
        assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
    });
}

#[test]
fn a_send_arm_dropped_behind_items_is_skipped_by_a_blocked_receiver() {
    within("dropped send arm behind items", LIMIT, || {
        let (tx, rx) = bounded(3);
        tx.send(1).unwrap();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut sel = Select::new();
            sel.send(&tx);
            drop(sel.select());
        }));
        assert!(r.is_err());
        let receiver = thread::spawn(move || (rx.recv(), rx.recv()));
        tx.send(3).unwrap();
        assert_eq!(receiver.join().unwrap(), (Ok(1), Ok(3)));
    });
}

// ---- panicking destructors ----

/// The last receiver's drop panics on an item's destructor; the items
/// left are leaked, the ones behind a dropped permit's tombstone too, so
/// the unwind that then drops the channel drops none of them (a second
/// panicking destructor while unwinding would abort the process).
#[test]
fn a_panicking_drop_leaks_the_items_behind_a_tombstone_instead_of_aborting() {
    let drops = DropCounter::leaked();
    let dropped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let (tx, rx) = bounded(3);
        tx.send(drops.item_panicking_on_drop(0)).unwrap();
        drop(tx.reserve().unwrap()); // not the oldest: a tombstone
        tx.send(drops.item_panicking_on_drop(1)).unwrap();
        drop(rx); // panics on item 0; the unwind drops `tx`, the last handle
    }));
    assert!(dropped.is_err());
    assert_eq!((drops.drops_of(0), drops.drops_of(1)), (1, 0));
}
