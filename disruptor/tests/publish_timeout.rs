//! Publishes with a deadline: behind a stuck handler (one that blocks, not
//! one that panics) on a full ring, `publish_timeout` and
//! `batch_publish_timeout` return `Timeout` within their timeout plus
//! slack, claim nothing (the closure never runs, and the next publish gets
//! the next sequence: no hole for the consumers to wait on), and a halt
//! while they wait still wins over the timeout.
mod common;

use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::{Log, assert_all_in_order, payload};
use hotq_disruptor::{Disruptor, Producer, PublishError, Sequence};
use hotq_testkit::{DEADLINE, bound, within};

const TIMEOUT: Duration = Duration::from_millis(50);

/// Generous for a loaded 2-core machine (and 10× under miri); a timing
/// bound on a wake-up is a contract here, not a benchmark.
const SLACK: Duration = bound(Duration::from_secs(5));

/// A handler that blocks on `hold` before event 0, then logs everything.
fn stuck_handler(
    hold: mpsc::Receiver<()>,
    log: Log,
) -> impl FnMut(&u64, Sequence, bool) + Send + 'static {
    move |e: &u64, seq, eob| {
        if seq == 0 {
            hold.recv().unwrap();
        }
        log.record(seq, *e, eob);
    }
}

/// Times one call that must time out, and checks it claimed nothing.
fn times_out(what: &str, call: impl FnOnce(&mut bool) -> Result<Sequence, PublishError>) {
    let mut ran = false;
    let start = Instant::now();
    let result = call(&mut ran);
    let took = start.elapsed();
    assert_eq!(result, Err(PublishError::Timeout), "{what}");
    assert!(!ran, "{what}: the closure ran although nothing was claimed");
    assert!(
        took >= TIMEOUT,
        "{what}: gave up after {took:?}, before its timeout"
    );
    assert!(
        took < TIMEOUT + SLACK,
        "{what}: took {took:?} for a timeout of {TIMEOUT:?}"
    );
}

/// Fills a ring of 4 behind the stuck handler, times out with each kind of
/// publish, releases the handler, and checks that the next publishes get
/// the next sequences and the handler sees 0..8 with no hole.
fn timeout_claims_nothing<P: Producer<u64>>(build: impl FnOnce(Log, mpsc::Receiver<()>) -> P) {
    let log = Log::new();
    let (go, hold) = mpsc::channel();
    let mut p = build(log.clone(), hold);
    for i in 0..4 {
        assert_eq!(p.publish_timeout(TIMEOUT, |e| *e = payload(i)), Ok(i));
    }
    times_out("publish_timeout", |ran| {
        p.publish_timeout(TIMEOUT, |_| *ran = true)
    });
    times_out("batch_publish_timeout", |ran| {
        p.batch_publish_timeout(2, TIMEOUT, |_| *ran = true)
    });
    // A zero timeout on a full ring gives up at once, as a try would.
    assert_eq!(
        p.publish_timeout(Duration::ZERO, |_| {}),
        Err(PublishError::Timeout)
    );
    go.send(()).unwrap();
    // The next publishes get the next sequences: 4, then 5..=7.
    assert_eq!(p.publish_timeout(DEADLINE, |e| *e = payload(4)), Ok(4));
    assert_eq!(
        p.batch_publish_timeout(3, DEADLINE, |events| {
            for (i, e) in events.enumerate() {
                *e = payload(5 + i as Sequence);
            }
        }),
        Ok(7)
    );
    p.shutdown().unwrap();
    assert_all_in_order("behind the stuck handler", &log.take(), 8, payload);
}

#[test]
fn publish_timeout_behind_a_stuck_handler_claims_nothing_single() {
    within("timeouts, single producer", DEADLINE, || {
        timeout_claims_nothing(|log, hold| {
            Disruptor::builder(4, || 0u64)
                .handle_events_with(stuck_handler(hold, log))
                .build_single_producer()
                .unwrap()
        })
    });
}

#[test]
fn publish_timeout_behind_a_stuck_handler_claims_nothing_multi() {
    within("timeouts, multi producer", DEADLINE, || {
        timeout_claims_nothing(|log, hold| {
            Disruptor::builder(4, || 0u64)
                .handle_events_with(stuck_handler(hold, log))
                .build_multi_producer()
                .unwrap()
        })
    });
}

/// Two clones time out together behind the stuck handler; neither leaves
/// a hole, so once it is released the other clone's publish is the next
/// sequence and the handler sees every event.
#[test]
fn clones_timing_out_together_leave_no_hole() {
    within("clones time out", DEADLINE, || {
        let log = Log::new();
        let (go, hold) = mpsc::channel();
        let mut a = Disruptor::builder(2, || 0u64)
            .handle_events_with(stuck_handler(hold, log.clone()))
            .build_multi_producer()
            .unwrap();
        for i in 0..2 {
            a.publish(|e| *e = payload(i)).unwrap();
        }
        let mut b = a.clone();
        let t = std::thread::spawn(move || {
            let r = b.publish_timeout(TIMEOUT, |_| {});
            (r, b)
        });
        assert_eq!(
            a.publish_timeout(TIMEOUT, |_| {}),
            Err(PublishError::Timeout)
        );
        let (r, mut b) = t.join().unwrap();
        assert_eq!(r, Err(PublishError::Timeout));
        go.send(()).unwrap();
        assert_eq!(b.publish_timeout(DEADLINE, |e| *e = payload(2)), Ok(2));
        drop(b);
        a.shutdown().unwrap();
        assert_all_in_order("after two timeouts", &log.take(), 3, payload);
    });
}

/// A halt while a publish waits for room ends the wait with `Halted`
/// before the (long) timeout.
#[test]
fn a_halt_ends_a_timed_wait_with_halted() {
    within("halt during a timed wait", DEADLINE, || {
        let (go, hold) = mpsc::channel::<()>();
        let mut p = Disruptor::builder(1, || 0u64)
            .handle_events_with(stuck_handler(hold, Log::new()))
            .build_multi_producer()
            .unwrap();
        p.publish(|e| *e = 1).unwrap();
        let halter = p.clone();
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            halter.halt();
            halter
        });
        let start = Instant::now();
        assert_eq!(
            p.publish_timeout(Duration::from_secs(3600), |_| {}),
            Err(PublishError::Halted)
        );
        assert!(start.elapsed() < SLACK);
        drop(t.join().unwrap());
        // Release the handler, so that the shutdown can join it.
        go.send(()).unwrap();
        p.shutdown().unwrap();
    });
}

/// A timeout too large to add to the clock waits as `publish` does.
#[test]
fn a_huge_timeout_is_not_an_overflow() {
    let mut p = Disruptor::builder(2, || 0u64)
        .handle_events_with(|_e: &u64, _seq, _eob| {})
        .build_single_producer()
        .unwrap();
    for i in 0..10 {
        assert_eq!(p.publish_timeout(Duration::MAX, |e| *e = 1), Ok(i));
    }
    p.shutdown().unwrap();
}
