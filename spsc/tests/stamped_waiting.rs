//! The stamped ring's blocking calls on real threads: every item handed
//! over in order whichever side waits, each side woken by the other's
//! publish (a stamp, or `head` once a line) and by its drop, deadlines
//! honoured, no CPU burnt while parked. Three item sizes, because the
//! producer's wake-up comes from `head`, which the consumer stores once a
//! line: seven `u64`s to a line, two `[u64; 3]`s, one `[u64; 8]`. Every
//! test runs under a time limit, so a lost wake-up fails instead of
//! hanging.

use std::sync::Barrier;
use std::thread;
use std::time::{Duration, Instant};

use hotq_spsc::stamped::{Producer, RingBuffer};
use hotq_spsc::{PopTimeoutError, PushTimeoutError};
use hotq_testkit::within;

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
