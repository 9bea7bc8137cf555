//! The stamped ring's blocking and async calls on real threads: every
//! item handed over in order whichever side waits, each side (a parked
//! thread or a pending future) woken by the other's publish (a stamp, or
//! `head` once a line) and by its drop, deadlines honoured, no CPU burnt
//! while parked, cancelled futures moving nothing. Three item sizes,
//! because the producer's wake-up comes from `head`, which the consumer
//! stores once a line: seven `u64`s to a line, two `[u64; 3]`s, one
//! `[u64; 8]`. Every test runs under a time limit, so a lost wake-up fails
//! instead of hanging.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::task::{Context, Poll, Wake, Waker};
use std::thread;
use std::time::{Duration, Instant};

use hotq_spsc::stamped::{Producer, RingBuffer};
use hotq_spsc::{PopAsyncError, PopTimeoutError, PushAsyncError, PushTimeoutError};
use hotq_testkit::{DropCounter, block_on, within};

/// The limit on any one test: far beyond what it needs, short enough that
/// a lost wake-up fails the run.
const LIMIT: Duration = Duration::from_secs(120);

/// A wait that should never time out in a passing test.
const LONG: Duration = Duration::from_secs(60);

/// How late a timed wait may return on a loaded 2-core machine; a wait that
/// returns earlier than its timeout is always a failure.
const SLACK: Duration = Duration::from_millis(500);

/// Items per FIFO case: a million in release builds, as `./test.sh` runs
/// them.
const ITEMS: u64 = if cfg!(miri) {
    300
} else if cfg!(debug_assertions) {
    50_000
} else {
    1_000_000
};

/// How often the side that does not block pauses for a millisecond, so
/// that the blocking side parks (and only a wake-up brings it back).
const PAUSE_EVERY: u64 = ITEMS / 20;

/// An item that carries its number, whatever its size.
trait Numbered: Send + 'static {
    fn numbered(i: u64) -> Self;
    fn number(&self) -> u64;
}

impl Numbered for u64 {
    fn numbered(i: u64) -> Self {
        i
    }
    fn number(&self) -> u64 {
        *self
    }
}

impl<const N: usize> Numbered for [u64; N] {
    fn numbered(i: u64) -> Self {
        [i; N]
    }
    fn number(&self) -> u64 {
        assert!(self.iter().all(|&x| x == self[0]), "a torn item: {self:?}");
        self[0]
    }
}

/// Pushes items `0..ITEMS` in order with `push_timeout`, then drops the
/// producer.
fn push_all_blocking<T: Numbered>(mut tx: Producer<T, true>) {
    for i in 0..ITEMS {
        tx.push_timeout(T::numbered(i), LONG)
            .unwrap_or_else(|_| panic!("push {i} failed"));
    }
}

/// Both sides blocking, strict FIFO, and the consumer then sees the
/// producer gone.
fn fifo_both_blocking<T: Numbered>(capacity: usize) {
    let what = format!(
        "blocking FIFO of {} at capacity {capacity}",
        std::any::type_name::<T>()
    );
    within(&what.clone(), LIMIT, move || {
        let (tx, mut rx) = RingBuffer::<T>::with_waits(capacity);
        let producer = thread::spawn(move || push_all_blocking(tx));
        for expected in 0..ITEMS {
            match rx.pop_timeout(LONG) {
                Ok(item) => assert_eq!(item.number(), expected, "{what}"),
                Err(e) => panic!("{what}: item {expected}: {e:?}"),
            }
        }
        assert!(matches!(
            rx.pop_timeout(LONG),
            Err(PopTimeoutError::Abandoned)
        ));
        producer.join().unwrap();
    });
}

#[test]
fn blocking_fifo_of_seven_to_a_line() {
    for capacity in [1, 2, 16] {
        fifo_both_blocking::<u64>(capacity);
    }
}

#[test]
fn blocking_fifo_of_two_to_a_line() {
    for capacity in [1, 2, 3] {
        fifo_both_blocking::<[u64; 3]>(capacity);
    }
}

#[test]
fn blocking_fifo_of_one_to_a_line() {
    for capacity in [1, 2] {
        fifo_both_blocking::<[u64; 8]>(capacity);
    }
}

/// A producer that only calls `push` (and yields when full), pausing now
/// and then, and a consumer that parks until an item comes: only the
/// stamp's wake-up brings it back.
fn try_producer_wakes_a_parking_consumer<T: Numbered>(capacity: usize) {
    within("try producer, parking consumer", LIMIT, move || {
        let (mut tx, mut rx) = RingBuffer::<T>::with_waits(capacity);
        let producer = thread::spawn(move || {
            for i in 0..ITEMS {
                if i % PAUSE_EVERY == 0 {
                    thread::sleep(Duration::from_millis(1));
                }
                let mut item = T::numbered(i);
                while let Err(full) = tx.push(item) {
                    item = full.into_inner();
                    thread::yield_now();
                }
            }
        });
        for expected in 0..ITEMS {
            match rx.pop_timeout(LONG) {
                Ok(item) => assert_eq!(item.number(), expected),
                Err(e) => panic!("item {expected}: {e:?}"),
            }
        }
        producer.join().unwrap();
    });
}

#[test]
fn a_push_wakes_a_parked_consumer() {
    try_producer_wakes_a_parking_consumer::<u64>(8);
    try_producer_wakes_a_parking_consumer::<[u64; 8]>(1);
}

/// The mirror: a producer that parks on a full ring, and a consumer that
/// only calls `pop`, pausing now and then: only the store of `head`, once
/// a line, wakes the producer.
fn try_consumer_wakes_a_parking_producer<T: Numbered>(capacity: usize) {
    within("parking producer, try consumer", LIMIT, move || {
        let (tx, mut rx) = RingBuffer::<T>::with_waits(capacity);
        let producer = thread::spawn(move || push_all_blocking(tx));
        for expected in 0..ITEMS {
            if expected % PAUSE_EVERY == 0 {
                thread::sleep(Duration::from_millis(1)); // the producer parks
            }
            let got = loop {
                match rx.pop() {
                    Ok(v) => break v,
                    Err(_) => thread::yield_now(),
                }
            };
            assert_eq!(got.number(), expected);
        }
        producer.join().unwrap();
    });
}

#[test]
fn a_pop_that_leaves_a_line_wakes_a_parked_producer() {
    try_consumer_wakes_a_parking_producer::<u64>(8);
    try_consumer_wakes_a_parking_producer::<[u64; 3]>(1);
    try_consumer_wakes_a_parking_producer::<[u64; 8]>(1);
}

/// Timed waits return no earlier than their timeout (or deadline), and
/// not much later, on both sides; a deadline already past is a try.
#[test]
fn timeouts_are_neither_early_nor_late_and_a_past_deadline_is_a_try() {
    within("timeouts", LIMIT, || {
        for timeout in [
            Duration::from_micros(300), // counted from the failed try
            Duration::from_millis(if cfg!(miri) { 5 } else { 50 }), // after the spin hints
        ] {
            let (mut tx, mut rx) = RingBuffer::<[u64; 8]>::with_waits(1);
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
            tx.push([1; 8]).unwrap();
            let start = Instant::now();
            assert_eq!(
                tx.push_timeout([2; 8], timeout),
                Err(PushTimeoutError::Timeout([2; 8]))
            );
            check("push_timeout", start);
            let start = Instant::now();
            assert_eq!(
                tx.push_deadline([3; 8], start + timeout),
                Err(PushTimeoutError::Timeout([3; 8]))
            );
            check("push_deadline", start);
        }
    });
    within("past deadlines", LIMIT, || {
        let (mut tx, mut rx) = RingBuffer::<[u64; 8]>::with_waits(1);
        let past = Instant::now();
        let start = Instant::now();
        assert_eq!(rx.pop_deadline(past), Err(PopTimeoutError::Timeout));
        assert_eq!(tx.push_deadline([1; 8], past), Ok(()));
        assert_eq!(
            tx.push_deadline([2; 8], past),
            Err(PushTimeoutError::Timeout([2; 8]))
        );
        assert_eq!(
            tx.push_timeout([2; 8], Duration::ZERO),
            Err(PushTimeoutError::Timeout([2; 8]))
        );
        assert_eq!(rx.pop_deadline(past), Ok([1; 8]));
        assert_eq!(
            rx.pop_timeout(Duration::ZERO),
            Err(PopTimeoutError::Timeout)
        );
        assert!(start.elapsed() < SLACK);
    });
}

/// A ring of capacity 0 is always full and always empty: both waits time
/// out (never early), and end with `Abandoned` once the other half goes.
#[test]
fn waits_on_a_ring_of_capacity_zero_time_out_or_see_the_other_half_gone() {
    within("waits on a ring of capacity 0", LIMIT, || {
        let short = Duration::from_millis(10);
        let (mut tx, mut rx) = RingBuffer::<u64>::with_waits(0);
        let start = Instant::now();
        assert_eq!(tx.push_timeout(7, short), Err(PushTimeoutError::Timeout(7)));
        assert!(start.elapsed() >= short, "timed out early");
        let start = Instant::now();
        assert_eq!(rx.pop_timeout(short), Err(PopTimeoutError::Timeout));
        assert!(start.elapsed() >= short, "timed out early");
        drop(rx);
        let start = Instant::now();
        assert_eq!(
            tx.push_timeout(8, LONG),
            Err(PushTimeoutError::Abandoned(8))
        );
        let (tx, mut rx) = RingBuffer::<u64>::with_waits(0);
        drop(tx);
        assert_eq!(rx.pop_timeout(LONG), Err(PopTimeoutError::Abandoned));
        assert!(start.elapsed() < SLACK, "waited {:?}", start.elapsed());
    });
}

/// Dropping the producer wakes a consumer parked on an empty ring (with
/// `Abandoned`, after every item pushed before the drop).
#[test]
fn dropping_the_producer_wakes_a_parked_consumer() {
    within("producer dropped while the consumer parks", LIMIT, || {
        let (mut tx, mut rx) = RingBuffer::<u64>::with_waits(4);
        let popped = Barrier::new(2);
        thread::scope(|s| {
            s.spawn(|| {
                tx.push(1).unwrap();
                popped.wait();
                thread::sleep(Duration::from_millis(20)); // let it park
                drop(tx);
            });
            assert_eq!(rx.pop_timeout(LONG), Ok(1));
            popped.wait();
            let start = Instant::now();
            assert_eq!(rx.pop_timeout(LONG), Err(PopTimeoutError::Abandoned));
            assert!(start.elapsed() < Duration::from_secs(10), "woken late");
        });
    });
}

/// Dropping the consumer wakes a producer parked on a full ring, and the
/// value comes back.
#[test]
fn dropping_the_consumer_wakes_a_parked_producer() {
    within("consumer dropped while the producer parks", LIMIT, || {
        let (mut tx, rx) = RingBuffer::<[u64; 8]>::with_waits(1);
        tx.push([1; 8]).unwrap();
        let dropper = thread::spawn(move || {
            thread::sleep(Duration::from_millis(20)); // let it park
            drop(rx);
        });
        let start = Instant::now();
        assert_eq!(
            tx.push_timeout([2; 8], LONG),
            Err(PushTimeoutError::Abandoned([2; 8]))
        );
        assert!(start.elapsed() < Duration::from_secs(10), "woken late");
        dropper.join().unwrap();
    });
}

/// A thread blocked for a second, on an empty ring or a full one, uses
/// (almost) no CPU: it parks. Spinning would use most of the second.
#[cfg(target_os = "linux")]
#[cfg_attr(miri, ignore = "miri has no thread CPU clock")]
#[test]
fn a_blocked_thread_uses_no_cpu() {
    within("blocked thread's CPU time", LIMIT, || {
        let cpu = || hotq_testkit::thread_cpu_time().expect("Linux has a thread CPU clock");
        let (_tx, mut rx) = RingBuffer::<u64>::with_waits(4);
        let before = cpu();
        assert_eq!(
            rx.pop_timeout(Duration::from_secs(1)),
            Err(PopTimeoutError::Timeout)
        );
        let used = cpu() - before;
        assert!(
            used < Duration::from_millis(20),
            "blocked for 1 s, used {used:?}"
        );
        let (mut tx, _rx) = RingBuffer::<[u64; 8]>::with_waits(1);
        tx.push([0; 8]).unwrap();
        let before = cpu();
        assert!(tx.push_timeout([1; 8], Duration::from_secs(1)).is_err());
        let used = cpu() - before;
        assert!(
            used < Duration::from_millis(20),
            "blocked for 1 s, used {used:?}"
        );
    });
}

// ---- the async calls (`spsc/src/stamped/future.rs`) ----------------------

/// Both sides async, each pausing now and then so that the other's future
/// registers and must be woken: every item arrives once, in order, then
/// `Abandoned`.
fn async_fifo<T: Numbered>(capacity: usize) {
    within("stamped async FIFO", LIMIT, move || {
        let (mut tx, mut rx) = RingBuffer::<T>::with_waits(capacity);
        let producer = thread::spawn(move || {
            block_on(async {
                for i in 0..ITEMS {
                    if i % PAUSE_EVERY == PAUSE_EVERY / 2 {
                        thread::sleep(Duration::from_millis(1));
                    }
                    tx.push_async(T::numbered(i)).await.unwrap();
                }
            })
        });
        block_on(async {
            for expected in 0..ITEMS {
                if expected % PAUSE_EVERY == 0 {
                    thread::sleep(Duration::from_millis(1));
                }
                assert_eq!(rx.pop_async().await.unwrap().number(), expected);
            }
            assert_eq!(rx.pop_async().await.err(), Some(PopAsyncError::Abandoned));
        });
        producer.join().unwrap();
    });
}

#[test]
fn async_fifo_of_seven_to_a_line() {
    async_fifo::<u64>(16);
    async_fifo::<u64>(1);
}

#[test]
fn async_fifo_of_two_to_a_line() {
    async_fifo::<[u64; 3]>(4);
}

#[test]
fn async_fifo_of_one_to_a_line() {
    async_fifo::<[u64; 8]>(1);
}

/// Each side alternates between its async and its blocking call: the two
/// kinds of waiter share the slots.
#[test]
fn async_and_blocking_mixed() {
    within("stamped async and blocking mixed", LIMIT, || {
        let (mut tx, mut rx) = RingBuffer::<u64>::with_waits(2);
        let producer = thread::spawn(move || {
            for i in 0..ITEMS / 10 {
                match i % 2 {
                    0 => block_on(tx.push_async(i)).unwrap(),
                    _ => tx.push_timeout(i, LIMIT).unwrap(),
                }
            }
        });
        for expected in 0..ITEMS / 10 {
            let got = match expected % 3 {
                0 => rx.pop_timeout(LIMIT).unwrap(),
                _ => block_on(rx.pop_async()).unwrap(),
            };
            assert_eq!(got, expected);
        }
        producer.join().unwrap();
    });
}

/// Counts the wake-ups of a waker: a poll that yields wakes its own task
/// before it returns `Pending`, one that registers does not.
struct WakeCount(AtomicUsize);

impl WakeCount {
    /// A waker that counts its wake-ups, and the count.
    fn waker() -> (Arc<Self>, Waker) {
        let count = Arc::new(WakeCount(AtomicUsize::new(0)));
        let waker = Waker::from(Arc::clone(&count));
        (count, waker)
    }
}

impl Wake for WakeCount {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }
    fn wake_by_ref(self: &Arc<Self>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

/// Polls `future` until it has registered its waker (a poll that returns
/// `Pending` without waking its own task), at most 9 polls (8 yields).
fn poll_until_registered<F: Future + Unpin>(
    future: &mut F,
    count: &Arc<WakeCount>,
    cx: &mut Context<'_>,
) where
    F::Output: std::fmt::Debug,
{
    for _ in 0..9 {
        let before = count.0.load(Ordering::SeqCst);
        let poll = Pin::new(&mut *future).poll(cx);
        assert!(poll.is_pending(), "the wait cannot succeed yet: {poll:?}");
        if count.0.load(Ordering::SeqCst) == before {
            return;
        }
    }
    panic!("more than 8 yields in one wait");
}

/// How long a wake-up may take on a loaded 2-core machine: generous, and
/// short enough that a lost one fails quickly.
const WAKE_LIMIT: Duration = Duration::from_secs(20);

/// Waits (on this thread, with a deadline) until `count` goes above
/// `seen`: the other half's wake-up.
fn wait_for_wake(count: &WakeCount, seen: usize, what: &str) {
    let deadline = Instant::now() + WAKE_LIMIT;
    while count.0.load(Ordering::SeqCst) <= seen {
        assert!(Instant::now() < deadline, "{what}: never woken");
        thread::yield_now();
    }
}

/// A registered `pop_async` is woken by a push on another thread, at
/// every place in a line.
#[test]
fn a_push_wakes_a_pending_pop() {
    within("stamped push wakes a pending pop", LIMIT, || {
        let (tx, mut rx) = RingBuffer::<u64>::with_waits(16);
        let (count, waker) = WakeCount::waker();
        let mut cx = Context::from_waker(&waker);
        let tx = Arc::new(std::sync::Mutex::new(tx));
        for i in 0..20 {
            let mut pop = rx.pop_async();
            poll_until_registered(&mut pop, &count, &mut cx);
            let seen = count.0.load(Ordering::SeqCst);
            let pusher = Arc::clone(&tx);
            let worker = thread::spawn(move || pusher.lock().unwrap().push(i).unwrap());
            wait_for_wake(&count, seen, "a pending pop");
            assert_eq!(Pin::new(&mut pop).poll(&mut cx), Poll::Ready(Ok(i)));
            worker.join().unwrap();
        }
    });
}

/// A registered `push_async` on a full ring is woken when the consumer, on
/// another thread, leaves a line (one item to a line: every pop; seven:
/// the pop that ends the line), and then pushes.
fn a_pop_wakes_a_pending_push<T: Numbered + std::fmt::Debug>(capacity: usize) {
    within("stamped pop wakes a pending push", LIMIT, move || {
        let (mut tx, rx) = RingBuffer::<T>::with_waits(capacity);
        let mut next = 0;
        while tx.push(T::numbered(next)).is_ok() {
            next += 1;
        }
        let (count, waker) = WakeCount::waker();
        let mut cx = Context::from_waker(&waker);
        let rx = Arc::new(std::sync::Mutex::new(rx));
        let mut popped = 0;
        for _ in 0..10 {
            let mut push = tx.push_async(T::numbered(next));
            poll_until_registered(&mut push, &count, &mut cx);
            let seen = count.0.load(Ordering::SeqCst);
            // Pops until the ring has room for the push: up to a line.
            let popper = Arc::clone(&rx);
            let first = popped;
            let worker = thread::spawn(move || {
                // One line's items (seven `u64`s, or one `[u64; 8]` seven
                // times): the pop that leaves a line stores `head`.
                let mut rx = popper.lock().unwrap();
                for n in 0..7 {
                    assert_eq!(rx.pop().unwrap().number(), first + n);
                }
                7
            });
            wait_for_wake(&count, seen, "a pending push");
            popped += worker.join().unwrap();
            assert!(matches!(
                Pin::new(&mut push).poll(&mut cx),
                Poll::Ready(Ok(()))
            ));
            drop(push);
            next += 1;
            while tx.push(T::numbered(next)).is_ok() {
                next += 1;
            }
        }
    });
}

#[test]
fn a_pop_that_leaves_a_line_wakes_a_pending_push() {
    a_pop_wakes_a_pending_push::<u64>(7);
    a_pop_wakes_a_pending_push::<[u64; 8]>(7);
}

/// Dropping the other half wakes a registered future, which then says
/// `Abandoned` (the push giving its value back), after the items pushed
/// before are taken.
#[test]
fn dropping_the_other_half_wakes_a_pending_future() {
    within("stamped drops wake pending futures", LIMIT, || {
        let (count, waker) = WakeCount::waker();
        let mut cx = Context::from_waker(&waker);

        let (tx, mut rx) = RingBuffer::<u64>::with_waits(4);
        let mut pop = rx.pop_async();
        poll_until_registered(&mut pop, &count, &mut cx);
        let seen = count.0.load(Ordering::SeqCst);
        let dropper = thread::spawn(move || drop(tx));
        wait_for_wake(&count, seen, "a pop pending when the producer goes");
        assert_eq!(
            Pin::new(&mut pop).poll(&mut cx),
            Poll::Ready(Err(PopAsyncError::Abandoned))
        );
        dropper.join().unwrap();

        let (mut tx, rx) = RingBuffer::<u64>::with_waits(1);
        while tx.push(1).is_ok() {}
        let mut push = tx.push_async(2);
        poll_until_registered(&mut push, &count, &mut cx);
        let seen = count.0.load(Ordering::SeqCst);
        let dropper = thread::spawn(move || drop(rx));
        wait_for_wake(&count, seen, "a push pending when the consumer goes");
        assert_eq!(
            Pin::new(&mut push).poll(&mut cx),
            Poll::Ready(Err(PushAsyncError::Abandoned(2)))
        );
        dropper.join().unwrap();
    });
}

/// A pending future dropped takes nothing and pushes nothing: the push's
/// value is dropped once, by the future; the items stay in the ring for
/// the next wait, and a wake-up aimed at the dropped future is harmless.
#[test]
fn a_cancelled_future_moves_nothing() {
    let drops = DropCounter::new();
    {
        let (mut tx, mut rx) = RingBuffer::with_waits(1);
        let (count, waker) = WakeCount::waker();
        let mut cx = Context::from_waker(&waker);
        let mut id = 100;
        while let Ok(()) = tx.push(drops.item(id)) {
            id += 1;
        } // the refused item is dropped here, once
        {
            let mut push = tx.push_async(drops.item(1));
            poll_until_registered(&mut push, &count, &mut cx);
        } // cancelled: item 1 dropped with the future, never pushed
        assert_eq!(drops.drops_of(1), 1);
        for expected in 100..id {
            assert_eq!(rx.pop().map(|c| c.id), Ok(expected));
        }
        assert!(rx.pop().is_err(), "the cancelled push pushed nothing");
        {
            let mut pop = rx.pop_async();
            poll_until_registered(&mut pop, &count, &mut cx);
        } // cancelled while registered
        tx.push(drops.item(2)).unwrap(); // its wake-up finds nobody
        assert_eq!(block_on(rx.pop_async()).map(|c| c.id), Ok(2));
        assert_eq!(drops.drops_of(2), 1);
    }
    drops.assert_none_dropped_twice();
    assert_eq!(drops.drops_of(1), 1);
}

/// The futures complete on their first poll when they can, and are `Send`.
#[test]
fn futures_complete_on_the_first_poll_and_are_send() {
    fn is_send<T: Send>(_: &T) {}
    let (mut tx, mut rx) = RingBuffer::<u64>::with_waits(1);
    let mut cx = Context::from_waker(Waker::noop());
    let push = tx.push_async(1);
    is_send(&push);
    assert_eq!(std::pin::pin!(push).poll(&mut cx), Poll::Ready(Ok(())));
    let pop = rx.pop_async();
    is_send(&pop);
    assert_eq!(std::pin::pin!(pop).poll(&mut cx), Poll::Ready(Ok(1)));
}

/// A wait whose yields found half the ring filled keeps yielding first;
/// one that had to register makes the next wait register at once (the
/// consumer's look half a ring ahead, `Consumer::published_ahead`).
#[test]
fn a_pop_yields_first_only_while_yielding_pays() {
    for (capacity, pushed, yields_next) in [
        (64, None, false),
        (64, Some(31), false),
        (64, Some(32), true),
        (8, Some(4), true),
        (8, Some(3), false),
    ] {
        let (mut tx, mut rx) = RingBuffer::<u32>::with_waits(capacity);
        let (count, waker) = WakeCount::waker();
        let mut cx = Context::from_waker(&waker);
        let yields = |pop: &mut hotq_spsc::stamped::PopFuture<'_, u32>, cx: &mut Context<'_>| {
            let before = count.0.load(Ordering::SeqCst);
            assert!(Pin::new(pop).poll(cx).is_pending(), "the ring is empty");
            count.0.load(Ordering::SeqCst) > before
        };
        {
            let mut pop = rx.pop_async();
            assert!(
                yields(&mut pop, &mut cx),
                "{capacity}: a new waiter yields first"
            );
            match pushed {
                Some(n) => (0..n).for_each(|i| tx.push(i).unwrap()),
                None => {
                    while yields(&mut pop, &mut cx) {}
                    tx.push(7).unwrap();
                }
            }
            assert!(matches!(
                Pin::new(&mut pop).poll(&mut cx),
                Poll::Ready(Ok(_))
            ));
        }
        while rx.pop().is_ok() {}
        let mut pop = rx.pop_async();
        assert_eq!(
            yields(&mut pop, &mut cx),
            yields_next,
            "capacity {capacity}, {pushed:?} pushed during the first wait"
        );
    }
}

/// Both halves as tasks of one thread, each waiting on the other: the
/// yields let the other task run, and everything arrives in order.
#[test]
fn two_tasks_on_one_thread_hand_over_in_order() {
    within("stamped tasks on one thread", LIMIT, || {
        let (mut tx, mut rx) = RingBuffer::<u64>::with_waits(8);
        let n = ITEMS / 10;
        let mut producer = std::pin::pin!(async move {
            for i in 0..n {
                tx.push_async(i).await.unwrap();
            }
        });
        let mut consumer = std::pin::pin!(async move {
            for expected in 0..n {
                assert_eq!(rx.pop_async().await, Ok(expected));
            }
        });
        // A tiny executor of the two tasks: poll each until both are done.
        let (_count, waker) = WakeCount::waker();
        let mut cx = Context::from_waker(&waker);
        let (mut p_done, mut c_done) = (false, false);
        while !(p_done && c_done) {
            if !p_done {
                p_done = producer.as_mut().poll(&mut cx).is_ready();
            }
            if !c_done {
                c_done = consumer.as_mut().poll(&mut cx).is_ready();
            }
        }
    });
}
