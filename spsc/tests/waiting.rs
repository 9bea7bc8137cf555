//! The waiting layer on real threads: blocking and async waits hand every
//! item over in order, wake on time, sleep without burning CPU, honour
//! their deadlines and see the other half leave. Every test runs under a
//! time limit, so a lost wake-up fails instead of hanging.

use std::future::Future;
use std::pin::pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier};
use std::task::{Context, Poll, Wake, Waker};
use std::thread;
use std::time::{Duration, Instant};

use hotq_spsc::{
    PopAsyncError, PopTimeoutError, PushAsyncError, PushTimeoutError, RingBuffer, WaitError,
};
use hotq_testkit::{block_on, within};

/// The limit on any one test: far beyond what it needs, short enough that
/// a lost wake-up fails the run.
const LIMIT: Duration = Duration::from_secs(120);

/// A wait that should never time out in a passing test.
const LONG: Duration = Duration::from_secs(60);

/// How late a timed wait may return on a loaded 2-core machine; a wait that
/// returns earlier than its timeout is always a failure.
const SLACK: Duration = Duration::from_millis(500);

/// Items per FIFO case: millions in release builds, as `./test.sh` runs
/// them.
const ITEMS: u64 = if cfg!(miri) {
    300
} else if cfg!(debug_assertions) {
    50_000
} else {
    1_000_000
};

/// How often the real-time side pauses for a millisecond, so that the
/// waiting side parks (and only a wake-up brings it back).
const PAUSE_EVERY: u64 = ITEMS / 20;

/// Both sides blocking, strict FIFO, at capacities that make each side
/// wait for the other all the time.
fn fifo_both_blocking(capacity: usize) {
    within(
        &format!("blocking FIFO at capacity {capacity}"),
        LIMIT,
        move || {
            let (mut tx, mut rx) = RingBuffer::<u64>::new(capacity);
            let producer = thread::spawn(move || {
                for i in 0..ITEMS {
                    tx.push_timeout(i, LONG).unwrap();
                }
            });
            for expected in 0..ITEMS {
                assert_eq!(rx.pop_timeout(LONG), Ok(expected), "capacity {capacity}");
            }
            assert_eq!(rx.pop_timeout(LONG), Err(PopTimeoutError::Abandoned));
            producer.join().unwrap();
        },
    );
}

#[test]
fn blocking_fifo_capacity_1() {
    fifo_both_blocking(1);
}

#[test]
fn blocking_fifo_capacity_2() {
    fifo_both_blocking(2);
}

#[test]
fn blocking_fifo_capacity_3() {
    fifo_both_blocking(3);
}

#[test]
fn blocking_fifo_capacity_16() {
    fifo_both_blocking(16);
}

/// The fenced protocol (what rings use where `membarrier` is missing) on
/// real threads where it is not: both sides wait for each other at
/// capacity 1, every push and pop taking the fenced slow path. A tenth of
/// the items: the protocol is the same as on every other fenced system,
/// only the barrier differs.
#[cfg(feature = "test-hooks")]
#[test]
fn a_fenced_ring_hands_over_in_order_both_ways() {
    within("blocking FIFO on a fenced ring", LIMIT, || {
        let (mut tx, mut rx) = RingBuffer::<u64>::fenced(1).unwrap();
        let producer = thread::spawn(move || {
            for i in 0..ITEMS / 10 {
                tx.push_timeout(i, LONG).unwrap();
            }
        });
        for expected in 0..ITEMS / 10 {
            assert_eq!(rx.pop_timeout(LONG), Ok(expected));
        }
        assert_eq!(rx.pop_timeout(LONG), Err(PopTimeoutError::Abandoned));
        producer.join().unwrap();
    });
}

/// The shape the waiting layer is for: a real-time producer that only
/// calls the non-blocking `push` (and yields when full), and a consumer
/// that parks until there is work.
#[test]
fn real_time_producer_wakes_a_parking_consumer() {
    within("real-time producer, parking consumer", LIMIT, || {
        let (mut tx, mut rx) = RingBuffer::<u64>::new(8);
        let producer = thread::spawn(move || {
            for i in 0..ITEMS {
                // Now and then a pause longer than the consumer's spin, so
                // that it parks and only the push can wake it: without it a
                // busy producer keeps the consumer inside its spin, and a
                // lost wake-up of a parked consumer would go unseen.
                if i % PAUSE_EVERY == 0 {
                    thread::sleep(Duration::from_millis(1));
                }
                let mut item = i;
                while let Err(full) = tx.push(item) {
                    item = full.into_inner();
                    thread::yield_now();
                }
            }
        });
        for expected in 0..ITEMS {
            assert_eq!(rx.pop_timeout(LONG), Ok(expected));
        }
        producer.join().unwrap();
    });
}

/// The mirror: a blocking producer filling a ring that a real-time
/// consumer drains with `pop` only.
#[test]
fn real_time_consumer_wakes_a_parking_producer() {
    within("parking producer, real-time consumer", LIMIT, || {
        let (mut tx, mut rx) = RingBuffer::<u64>::new(8);
        let producer = thread::spawn(move || {
            for i in 0..ITEMS {
                tx.push_timeout(i, LONG).unwrap();
            }
        });
        for expected in 0..ITEMS {
            if expected % PAUSE_EVERY == 0 {
                thread::sleep(Duration::from_millis(1)); // the producer parks (see above)
            }
            let got = loop {
                match rx.pop() {
                    Ok(v) => break v,
                    Err(_) => thread::yield_now(),
                }
            };
            assert_eq!(got, expected);
        }
        producer.join().unwrap();
    });
}

/// The consumer's own CPU time (its thread's clock), so that a wait that
/// spins instead of parking shows up whatever the machine's load.
#[cfg(target_os = "linux")]
fn thread_cpu_time() -> Duration {
    hotq_testkit::thread_cpu_time().expect("Linux has a thread CPU clock")
}

/// A thread blocked for a second on an empty ring uses (almost) no CPU:
/// it parks. Spinning for that second would use most of a second.
#[cfg(target_os = "linux")]
#[cfg_attr(miri, ignore = "miri has no thread CPU clock")]
#[test]
fn a_blocked_thread_uses_no_cpu() {
    within("blocked thread's CPU time", LIMIT, || {
        let (tx, mut rx) = RingBuffer::<u64>::new(4);
        let before = thread_cpu_time();
        assert_eq!(
            rx.pop_timeout(Duration::from_secs(1)),
            Err(PopTimeoutError::Timeout)
        );
        let used = thread_cpu_time() - before;
        assert!(
            used < Duration::from_millis(20),
            "blocked for 1 s, used {used:?} of CPU"
        );
        let (mut full, _rx) = RingBuffer::<u64>::new(1);
        full.push(0).unwrap();
        let before = thread_cpu_time();
        assert!(full.push_timeout(1, Duration::from_secs(1)).is_err());
        let used = thread_cpu_time() - before;
        assert!(
            used < Duration::from_millis(20),
            "blocked for 1 s, used {used:?} of CPU"
        );
        drop(tx);
    });
}

/// A parked consumer is woken promptly by a push: the time from the push
/// to the pop's return, over a few hand-offs (each after the consumer has
/// had time to park). A generous bound: a contract, not a benchmark.
#[test]
fn a_parked_consumer_wakes_promptly() {
    within("wake-up latency", LIMIT, || {
        const ROUNDS: usize = if cfg!(miri) { 2 } else { 20 };
        let (mut tx, mut rx) = RingBuffer::<Instant>::new(1);
        // A barrier per round (a start gate opens only once).
        let gate = Arc::new(Barrier::new(2));
        let producer_gate = Arc::clone(&gate);
        let producer = thread::spawn(move || {
            for _ in 0..ROUNDS {
                producer_gate.wait();
                // Long enough for the consumer to be parked, not just spinning.
                thread::sleep(Duration::from_millis(5));
                tx.push(Instant::now()).unwrap();
            }
        });
        let mut latencies = Vec::new();
        for _ in 0..ROUNDS {
            gate.wait();
            let pushed_at = rx.pop_timeout(LONG).unwrap();
            latencies.push(pushed_at.elapsed());
        }
        producer.join().unwrap();
        latencies.sort();
        let median = latencies[latencies.len() / 2];
        eprintln!(
            "wake-up latency of a parked consumer: median {median:?}, max {:?}",
            latencies.last().unwrap()
        );
        assert!(
            median < Duration::from_millis(50),
            "median wake-up {median:?}"
        );
    });
}

/// Timed waits return no earlier than their timeout (or deadline), and not
/// much later, on either side and for chunks. A timeout under 1 ms is
/// counted from the failed try, a longer one only after the spin hints:
/// both kinds are timed, and neither may end early.
#[test]
fn timeouts_are_neither_early_nor_late() {
    within("short timeouts", LIMIT, || {
        let timeout = Duration::from_micros(300);
        let (mut tx, mut rx) = RingBuffer::<u64>::new(1);
        let start = Instant::now();
        assert_eq!(rx.pop_timeout(timeout), Err(PopTimeoutError::Timeout));
        let took = start.elapsed();
        assert!(took >= timeout, "pop_timeout returned early: {took:?}");
        tx.push(1).unwrap();
        let start = Instant::now();
        assert_eq!(
            tx.push_timeout(2, timeout),
            Err(PushTimeoutError::Timeout(2))
        );
        let took = start.elapsed();
        assert!(took >= timeout, "push_timeout returned early: {took:?}");
    });
    within("timeouts", LIMIT, || {
        let timeout = Duration::from_millis(if cfg!(miri) { 5 } else { 50 });
        let (mut tx, mut rx) = RingBuffer::<u64>::new(2);
        let check = |what: &str, start: Instant| {
            let took = start.elapsed();
            assert!(
                took >= timeout,
                "{what} returned early: {took:?} < {timeout:?}"
            );
            assert!(took < timeout + SLACK, "{what} returned late: {took:?}");
        };
        let start = Instant::now();
        assert_eq!(rx.pop_timeout(timeout), Err(PopTimeoutError::Timeout));
        check("pop_timeout", start);
        let start = Instant::now();
        assert_eq!(
            rx.pop_deadline(start + timeout),
            Err(PopTimeoutError::Timeout)
        );
        check("pop_deadline", start);
        assert_eq!(tx.push_slice(&[1, 2]), 2);
        let start = Instant::now();
        assert_eq!(
            tx.push_timeout(3, timeout),
            Err(PushTimeoutError::Timeout(3))
        );
        check("push_timeout", start);
        let start = Instant::now();
        assert_eq!(
            tx.push_deadline(3, start + timeout),
            Err(PushTimeoutError::Timeout(3))
        );
        check("push_deadline", start);
        let start = Instant::now();
        assert_eq!(tx.wait_slots(1, start + timeout), Err(WaitError::Timeout));
        check("wait_slots", start);
        let start = Instant::now();
        assert_eq!(rx.wait_items(2, start + timeout), Ok(2));
        assert!(
            start.elapsed() < SLACK,
            "wait_items with the items there waited"
        );
        rx.pop().unwrap();
        let start = Instant::now();
        assert_eq!(rx.wait_items(2, start + timeout), Err(WaitError::Timeout));
        check("wait_items", start);
    });
}

/// A deadline already past never blocks, even with the ring empty or full:
/// it is the try operation, with the timed error.
#[test]
fn a_past_deadline_is_a_try() {
    within("past deadlines", LIMIT, || {
        let (mut tx, mut rx) = RingBuffer::<u64>::new(1);
        let past = Instant::now(); // already past when the calls below look
        let start = Instant::now();
        assert_eq!(rx.pop_deadline(past), Err(PopTimeoutError::Timeout));
        assert_eq!(tx.push_deadline(1, past), Ok(()));
        assert_eq!(tx.push_deadline(2, past), Err(PushTimeoutError::Timeout(2)));
        assert_eq!(tx.wait_slots(1, past), Err(WaitError::Timeout));
        assert_eq!(rx.wait_items(1, past), Ok(1));
        assert_eq!(rx.pop_timeout(Duration::ZERO), Ok(1));
        assert_eq!(
            rx.pop_timeout(Duration::ZERO),
            Err(PopTimeoutError::Timeout)
        );
        assert!(start.elapsed() < SLACK);
    });
}

/// `n` beyond the capacity is an error at once, never a wait.
#[test]
fn waiting_for_more_than_the_capacity_is_an_error() {
    let (mut tx, mut rx) = RingBuffer::<u64>::new(3);
    let later = Instant::now() + LONG;
    let start = Instant::now();
    let exceeds = Err(WaitError::ExceedsCapacity {
        requested: 4,
        capacity: 3,
    });
    assert_eq!(tx.wait_slots(4, later), exceeds);
    assert_eq!(rx.wait_items(4, later), exceeds);
    assert_eq!(tx.wait_slots(3, later), Ok(3));
    assert!(start.elapsed() < SLACK);
}

/// A ring of capacity 0 (allowed, as in rtrb) can never free a slot nor
/// hold an item: a wait for `n >= 1` of them is refused at once with
/// `ExceedsCapacity` (never a hang), a wait for 0 is granted at once, and
/// the single-item waits are waits on a ring that stays full (empty):
/// they time out when their timeout passes (never earlier), and end with
/// `Abandoned` as soon as the other half is gone, blocking or async.
#[test]
fn waits_on_a_ring_of_capacity_zero_are_refused_or_end_never_hang() {
    within("waits on a ring of capacity 0", LIMIT, || {
        let (mut tx, mut rx) = RingBuffer::<u64>::new(0);
        let later = Instant::now() + LONG;
        let start = Instant::now();
        let exceeds = Err(WaitError::ExceedsCapacity {
            requested: 1,
            capacity: 0,
        });
        assert_eq!(tx.wait_slots(1, later), exceeds);
        assert_eq!(rx.wait_items(1, later), exceeds);
        assert_eq!(tx.wait_slots(0, later), Ok(0));
        assert_eq!(rx.wait_items(0, later), Ok(0));
        assert!(start.elapsed() < SLACK, "waited {:?}", start.elapsed());

        let short = Duration::from_millis(10);
        let start = Instant::now();
        assert_eq!(tx.push_timeout(7, short), Err(PushTimeoutError::Timeout(7)));
        assert!(start.elapsed() >= short, "timed out early");
        let start = Instant::now();
        assert_eq!(rx.pop_timeout(short), Err(PopTimeoutError::Timeout));
        assert!(start.elapsed() >= short, "timed out early");

        // The other half gone: `Abandoned`, not a wait for the timeout.
        let (mut tx2, rx2) = RingBuffer::<u64>::new(0);
        drop(rx);
        drop(rx2);
        let start = Instant::now();
        assert_eq!(
            tx.push_timeout(8, LONG),
            Err(PushTimeoutError::Abandoned(8))
        );
        assert_eq!(
            block_on(tx2.push_async(9)),
            Err(PushAsyncError::Abandoned(9))
        );
        let (tx3, mut rx3) = RingBuffer::<u64>::new(0);
        drop(tx3);
        assert_eq!(block_on(rx3.pop_async()), Err(PopAsyncError::Abandoned));
        assert_eq!(rx3.pop_timeout(LONG), Err(PopTimeoutError::Abandoned));
        assert!(start.elapsed() < SLACK, "waited {:?}", start.elapsed());
    });
}

/// Dropping the producer wakes a consumer parked on an empty ring at once
/// (with `Abandoned`, after every item pushed before the drop).
#[test]
fn dropping_the_producer_wakes_a_parked_consumer() {
    within("producer dropped while the consumer parks", LIMIT, || {
        let (mut tx, mut rx) = RingBuffer::<u64>::new(4);
        let parked = Arc::new(AtomicBool::new(false));
        let dropper = {
            let parked = Arc::clone(&parked);
            thread::spawn(move || {
                tx.push(1).unwrap();
                while !parked.load(Ordering::Acquire) {
                    thread::yield_now();
                }
                thread::sleep(Duration::from_millis(20)); // let it park
                drop(tx);
            })
        };
        assert_eq!(rx.pop_timeout(LONG), Ok(1));
        parked.store(true, Ordering::Release);
        let start = Instant::now();
        assert_eq!(rx.pop_timeout(LONG), Err(PopTimeoutError::Abandoned));
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "woken late: {:?}",
            start.elapsed()
        );
        assert_eq!(
            rx.wait_items(1, Instant::now() + LONG),
            Err(WaitError::Abandoned)
        );
        dropper.join().unwrap();
    });
}

/// Dropping the consumer wakes a producer parked on a full ring at once,
/// and the value comes back.
#[test]
fn dropping_the_consumer_wakes_a_parked_producer() {
    within("consumer dropped while the producer parks", LIMIT, || {
        let (mut tx, rx) = RingBuffer::<u64>::new(1);
        tx.push(1).unwrap();
        let dropper = thread::spawn(move || {
            thread::sleep(Duration::from_millis(20)); // let it park
            drop(rx);
        });
        let start = Instant::now();
        assert_eq!(
            tx.push_timeout(2, LONG),
            Err(PushTimeoutError::Abandoned(2))
        );
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "woken late: {:?}",
            start.elapsed()
        );
        assert_eq!(
            tx.wait_slots(1, Instant::now() + LONG),
            Err(WaitError::Abandoned)
        );
        dropper.join().unwrap();
    });
}

/// Async on both sides, each future on its own thread's executor.
#[test]
fn async_fifo_both_sides() {
    within("async FIFO", LIMIT, || {
        let (mut tx, mut rx) = RingBuffer::<u64>::new(4);
        let producer = thread::spawn(move || {
            block_on(async {
                for i in 0..ITEMS {
                    tx.push_async(i).await.unwrap();
                }
            })
        });
        block_on(async {
            for expected in 0..ITEMS {
                assert_eq!(rx.pop_async().await, Ok(expected));
            }
            assert_eq!(rx.pop_async().await, Err(PopAsyncError::Abandoned));
        });
        producer.join().unwrap();
    });
}

/// Async and blocking mixed: each side alternates between its async and
/// its blocking wait, item by item; FIFO holds throughout.
#[test]
fn async_and_blocking_mixed() {
    within("async and blocking mixed", LIMIT, || {
        let (mut tx, mut rx) = RingBuffer::<u64>::new(2);
        let producer = thread::spawn(move || {
            for i in 0..ITEMS {
                if i % 2 == 0 {
                    block_on(tx.push_async(i)).unwrap();
                } else {
                    tx.push_timeout(i, LONG).unwrap();
                }
            }
        });
        for expected in 0..ITEMS {
            let got = if expected % 3 == 0 {
                block_on(rx.pop_async()).unwrap()
            } else {
                rx.pop_timeout(LONG).unwrap()
            };
            assert_eq!(got, expected);
        }
        producer.join().unwrap();
    });
}

/// An async push on a full ring whose consumer is gone gives the value
/// back; dropping a pending push drops its own value only.
#[test]
fn async_push_abandoned_and_cancelled() {
    let (mut tx, rx) = RingBuffer::<String>::new(1);
    tx.push("kept".to_string()).unwrap();
    {
        let mut cx = Context::from_waker(Waker::noop());
        let mut pending = pin!(tx.push_async("cancelled".to_string()));
        assert!(pending.as_mut().poll(&mut cx).is_pending());
    } // dropped while pending: its value goes with it
    let mut rx = rx;
    assert_eq!(rx.pop().as_deref(), Ok("kept"));
    assert!(rx.pop().is_err(), "a cancelled push pushed");
    tx.push("x".to_string()).unwrap();
    drop(rx);
    assert_eq!(
        block_on(tx.push_async("back".to_string())),
        Err(PushAsyncError::Abandoned("back".to_string()))
    );
}

/// Futures complete on their first poll when they can, and are `Send`.
#[test]
fn futures_complete_on_the_first_poll_and_are_send() {
    fn is_send<T: Send>(_: &T) {}
    let (mut tx, mut rx) = RingBuffer::<u64>::new(1);
    let mut cx = Context::from_waker(Waker::noop());
    let push = tx.push_async(1);
    is_send(&push);
    assert_eq!(pin!(push).poll(&mut cx), Poll::Ready(Ok(())));
    let pop = rx.pop_async();
    is_send(&pop);
    assert_eq!(pin!(pop).poll(&mut cx), Poll::Ready(Ok(1)));
}

/// Counts the wake-ups of a waker: a poll that yields wakes its own task
/// before it returns `Pending`, one that registers does not.
struct WakeCount(std::sync::atomic::AtomicUsize);

impl Wake for WakeCount {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }
    fn wake_by_ref(self: &Arc<Self>) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

/// Whether one poll of `pop` on an empty ring yielded (woke its own task)
/// rather than registered.
fn yields_once<F: Future + Unpin>(
    pop: &mut F,
    count: &Arc<WakeCount>,
    cx: &mut Context<'_>,
) -> bool {
    let before = count.0.load(Ordering::Relaxed);
    assert!(
        std::pin::Pin::new(pop).poll(cx).is_pending(),
        "the ring is empty"
    );
    count.0.load(Ordering::Relaxed) > before
}

/// The async wait's choice between yielding first and registering at once
/// (`wait/future.rs`), through the public futures: a wait that had to
/// register, or whose yields found less than half the ring, makes the next
/// wait register at once, and one whose yields found half the ring keeps
/// yielding, on small rings as on large ones.
#[test]
fn async_waits_yield_first_only_while_yielding_pays() {
    // (capacity, items pushed during the wait's yields, whether the next
    // wait yields first); `None`: the wait ends registered.
    let cases = [
        (1, None, false),
        (1, Some(1), true),
        (8, None, false),
        (8, Some(3), false),
        (8, Some(4), true),
        (64, None, false),
        (1024, None, false),
        (1024, Some(1), false),
        (1024, Some(511), false),
        (1024, Some(512), true),
    ];
    for (capacity, pushed, yields_next) in cases {
        let (mut tx, mut rx) = RingBuffer::<u32>::new(capacity);
        let count = Arc::new(WakeCount(std::sync::atomic::AtomicUsize::new(0)));
        let waker = Waker::from(Arc::clone(&count));
        let mut cx = Context::from_waker(&waker);
        {
            let mut pop = rx.pop_async();
            // A new waiter yields first.
            assert!(
                yields_once(&mut pop, &count, &mut cx),
                "capacity {capacity}: the first poll yields"
            );
            match pushed {
                Some(n) => (0..n).for_each(|i| tx.push(i).unwrap()),
                None => {
                    // Yields until it registers (at most 8 in a row).
                    let mut polls = 1;
                    while yields_once(&mut pop, &count, &mut cx) {
                        polls += 1;
                        assert!(
                            polls <= 8,
                            "capacity {capacity}: more than 8 yields in one wait"
                        );
                    }
                    tx.push(7).unwrap();
                }
            }
            assert!(matches!(
                std::pin::Pin::new(&mut pop).poll(&mut cx),
                Poll::Ready(Ok(_))
            ));
        }
        while rx.pop().is_ok() {}
        let mut pop = rx.pop_async();
        assert_eq!(
            yields_once(&mut pop, &count, &mut cx),
            yields_next,
            "capacity {capacity}, {pushed:?} pushed during the first wait"
        );
    }
}

/// The `Stream` wait makes the same choice as `pop_async`'s: a wait that
/// registered (over several `poll_next` calls) makes the next one register
/// at once, even when half the ring arrived meanwhile. Before the stream
/// kept its registration between polls it counted such a wait as a yield
/// that paid, and the next wait yielded first.
#[cfg(feature = "stream")]
#[test]
fn a_stream_wait_that_registered_makes_the_next_one_register_at_once() {
    use futures_core::Stream;
    let (mut tx, mut rx) = RingBuffer::<u32>::new(8);
    let count = Arc::new(WakeCount(std::sync::atomic::AtomicUsize::new(0)));
    let waker = Waker::from(Arc::clone(&count));
    let mut cx = Context::from_waker(&waker);
    let mut poll = |rx: &mut hotq_spsc::Consumer<u32>| {
        let before = count.0.load(Ordering::Relaxed);
        let p = std::pin::Pin::new(rx).poll_next(&mut cx);
        (p, count.0.load(Ordering::Relaxed) > before)
    };
    // A new waiter yields first, then (at most 8 yields) registers.
    let mut polls = 0;
    loop {
        let (p, yielded) = poll(&mut rx);
        assert!(p.is_pending(), "the ring is empty");
        polls += 1;
        if !yielded {
            break;
        }
        assert!(polls <= 9, "more than 8 yields in one wait");
    }
    // Half the ring arrives while it is registered.
    (0..4).for_each(|i| tx.push(i).unwrap());
    assert_eq!(poll(&mut rx).0, Poll::Ready(Some(0)));
    (1..4).for_each(|i| assert_eq!(rx.pop(), Ok(i)));
    // The next wait registers at once.
    let (p, yielded) = poll(&mut rx);
    assert!(p.is_pending());
    assert!(!yielded, "a wait after a registered one yielded first");
}
