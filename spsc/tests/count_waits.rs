//! The async waits for a count, `wait_slots_async` and `wait_items_async`,
//! on real threads: a wait that says `n` means the next `n` try calls
//! succeed, the other half's publish or departure wakes it, and a wait
//! cancelled at any point keeps every value and every item where it was.
//! Every test runs under a time limit, so a lost wake-up fails it.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Waker};
use std::thread;
use std::time::Duration;

use hotq_spsc::{RingBuffer, WaitError};
use hotq_testkit::{block_on, within};

/// The limit on any one test: far beyond what it needs.
const LIMIT: Duration = Duration::from_secs(120);

/// Items per case (fewer where every instruction is interpreted).
const ITEMS: u64 = if cfg!(miri) {
    200
} else if cfg!(debug_assertions) {
    50_000
} else {
    1_000_000
};

/// A small deterministic generator for chunk sizes and cancel points.
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// Both sides move chunks of random sizes, each behind a count wait: the
/// count a wait returns is at least what it asked for, and every push and
/// pop after it succeeds; the items arrive once each, in order.
#[test]
fn count_waits_make_the_next_try_calls_succeed_and_keep_fifo() {
    within("count waits FIFO", LIMIT, || {
        const CAPACITY: usize = 8;
        // Each side asks for at most half the ring: a producer waiting for
        // `p` slots and a consumer for `c` items with `p + c > capacity +
        // 1` could wait for each other for ever, by the test's design.
        const HALF: u64 = CAPACITY as u64 / 2;
        let (mut tx, mut rx) = RingBuffer::<u64>::new(CAPACITY);
        let producer = thread::spawn(move || {
            let mut sizes = Lcg(1);
            let mut next = 0;
            while next < ITEMS {
                let n = (1 + sizes.below(HALF)).min(ITEMS - next) as usize;
                let free = block_on(tx.wait_slots_async(n)).unwrap();
                assert!(free >= n, "wait_slots_async({n}) returned {free}");
                for _ in 0..n {
                    tx.push(next).expect("a slot the wait counted was not free");
                    next += 1;
                }
            }
        });
        let mut sizes = Lcg(2);
        let mut expected = 0;
        while expected < ITEMS {
            let n = (1 + sizes.below(HALF)).min(ITEMS - expected) as usize;
            let ready = block_on(rx.wait_items_async(n)).unwrap();
            assert!(ready >= n, "wait_items_async({n}) returned {ready}");
            for _ in 0..n {
                assert_eq!(rx.pop(), Ok(expected), "an item the wait counted");
                expected += 1;
            }
        }
        producer.join().unwrap();
        assert_eq!(block_on(rx.wait_items_async(1)), Err(WaitError::Abandoned));
    });
}

/// The value-keeping async push: the producer's wait is cancelled at
/// random (as a timeout or a `select!` would drop it), before or after it
/// registered; the value stays with the caller, is pushed after a later
/// wait, and the consumer gets every value exactly once, in order.
#[test]
fn a_value_behind_cancelled_slot_waits_is_never_lost() {
    within("cancelled slot waits", LIMIT, || {
        let (mut tx, mut rx) = RingBuffer::<Box<u64>>::new(2);
        let producer = thread::spawn(move || {
            let mut cancel_after = Lcg(3);
            let mut cancelled = 0u64;
            let waker = Waker::noop();
            let mut cx = Context::from_waker(waker);
            for i in 0..ITEMS {
                let value = Box::new(i); // the caller's, whatever happens
                loop {
                    let polls = cancel_after.below(4);
                    let mut wait = pin!(tx.wait_slots_async(1));
                    let ready = (0..=polls).any(|_| wait.as_mut().poll(&mut cx).is_ready());
                    if ready {
                        break;
                    }
                    cancelled += 1; // dropped here, pending
                    thread::yield_now();
                }
                tx.push(value).expect("the wait saw a free slot");
            }
            cancelled
        });
        for expected in 0..ITEMS {
            let got = loop {
                match rx.pop() {
                    Ok(v) => break v,
                    Err(_) => thread::yield_now(),
                }
            };
            assert_eq!(*got, expected);
        }
        let cancelled = producer.join().unwrap();
        assert!(rx.pop().is_err(), "an item too many");
        // The test is only worth something if waits were cancelled.
        assert!(cancelled > 0, "no wait was ever cancelled");
    });
}

/// A consumer waiting for more items than will ever come is woken by the
/// producer's departure and told so; the items that did come stay.
#[test]
fn a_departing_producer_wakes_a_pending_item_wait() {
    within("producer departs", LIMIT, || {
        let (mut tx, mut rx) = RingBuffer::<u32>::new(4);
        let (parked, wait_parked) = std::sync::mpsc::channel();
        let consumer = thread::spawn(move || {
            let result = block_on(async {
                parked.send(()).unwrap();
                rx.wait_items_async(3).await
            });
            (result, rx)
        });
        wait_parked.recv().unwrap();
        tx.push(1).unwrap();
        tx.push(2).unwrap();
        drop(tx);
        let (result, mut rx) = consumer.join().unwrap();
        assert_eq!(result, Err(WaitError::Abandoned));
        assert_eq!((rx.pop(), rx.pop()), (Ok(1), Ok(2)));
    });
}

/// A producer waiting for room is woken by the consumer's pops (one
/// wake-up per publish is enough) and, on a full ring, by its departure.
#[test]
fn pops_and_a_departing_consumer_wake_a_pending_slot_wait() {
    within("consumer pops, then departs", LIMIT, || {
        let (mut tx, mut rx) = RingBuffer::<u32>::new(4);
        assert_eq!(tx.push_slice(&[1, 2, 3, 4]), 4);
        let producer = thread::spawn(move || {
            let first = block_on(tx.wait_slots_async(2));
            assert_eq!(tx.push_slice(&[5, 6]), 2);
            let second = block_on(tx.wait_slots_async(1));
            (first, second)
        });
        assert_eq!(block_on(rx.wait_items_async(4)), Ok(4));
        assert_eq!(rx.pop(), Ok(1));
        assert_eq!(rx.pop(), Ok(2));
        // Now full again once the producer pushes 5 and 6; then it waits
        // for a slot that only our departure can answer.
        assert_eq!(block_on(rx.wait_items_async(4)), Ok(4));
        drop(rx);
        let (first, second) = producer.join().unwrap();
        assert!(matches!(first, Ok(n) if n >= 2), "{first:?}");
        assert_eq!(second, Err(WaitError::Abandoned));
    });
}

/// Zero is satisfied at once; more than the capacity is refused at once,
/// on both sides, whatever the ring holds.
#[test]
fn count_waits_for_zero_or_more_than_the_capacity_answer_at_once() {
    let (mut tx, mut rx) = RingBuffer::<u8>::new(3);
    assert_eq!(block_on(tx.wait_slots_async(0)), Ok(3));
    assert_eq!(block_on(rx.wait_items_async(0)), Ok(0));
    for n in [4, usize::MAX] {
        let refused = Err(WaitError::ExceedsCapacity {
            requested: n,
            capacity: 3,
        });
        assert_eq!(block_on(tx.wait_slots_async(n)), refused);
        assert_eq!(block_on(rx.wait_items_async(n)), refused);
    }
}
