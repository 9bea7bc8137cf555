//! The control plane: `shutdown` drains every published event through
//! every handler (also events published before the processors' threads
//! ran: LMAX's open #517 loses those), `Drop` does the same, `halt`
//! returns promptly with a full ring and a blocked producer (without
//! draining), and `shutdown_timeout` returns an error instead of waiting
//! past its timeout on a stuck handler.
mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::{Log, assert_all_in_order, payload};
use hotq_disruptor::wait::{Blocking, Yielding};
use hotq_disruptor::{Disruptor, EventHandler, PublishError, Sequence};
use hotq_testkit::{DEADLINE, bound, wait_for, within};

#[derive(Debug, Default)]
struct Event {
    value: u64,
}

/// Publish, then shut down at once, a few hundred times: the processors'
/// threads are often not running yet when `shutdown` is called, and the
/// events must still go through all three stages.
#[test]
fn shutdown_drains_events_published_before_the_processors_ran() {
    // Under miri each of the eight event counts once.
    let rounds = if cfg!(miri) {
        8
    } else if cfg!(debug_assertions) {
        200
    } else {
        1000
    };
    for round in 0..rounds {
        let what = format!("round {round}");
        let logs = [Log::new(), Log::new(), Log::new()];
        let [a, b, c] = logs.clone();
        let events = (round % 8 + 1) as u64;
        within(&what, DEADLINE, move || {
            let mut producer = Disruptor::builder(8, Event::default)
                .wait_strategy(Blocking)
                .handle_events_with(move |e: &Event, seq, eob| a.record(seq, e.value, eob))
                .handle_events_with(move |e: &Event, seq, eob| b.record(seq, e.value, eob))
                .then()
                .handle_events_with(move |e: &Event, seq, eob| c.record(seq, e.value, eob))
                .build_single_producer()
                .unwrap();
            for s in 0..events as Sequence {
                producer.publish(|e| e.value = payload(s)).unwrap();
            }
            producer.shutdown().unwrap();
        });
        for log in &logs {
            assert_all_in_order(&what, &log.take(), events, payload);
        }
    }
}

/// The same, made certain: the handler's `on_start` is held until after
/// `shutdown` was called (released from another thread), so the
/// processor starts its loop only after the shutdown request.
#[test]
fn shutdown_drains_when_the_processor_starts_after_the_request() {
    struct LateStart {
        log: Log,
        go: mpsc::Receiver<()>,
    }
    impl EventHandler<Event> for LateStart {
        fn on_start(&mut self) {
            let _ = self.go.recv_timeout(DEADLINE);
        }
        fn on_event(&mut self, e: &Event, seq: Sequence, eob: bool) {
            self.log.record(seq, e.value, eob);
        }
    }
    let log = Log::new();
    let (go, held) = mpsc::channel();
    let handler = LateStart {
        log: log.clone(),
        go: held,
    };
    within("late start", DEADLINE, move || {
        let mut producer = Disruptor::builder(16, Event::default)
            .handle_events_with_handler(handler)
            .build_multi_producer()
            .unwrap();
        for s in 0..16 {
            producer.publish(|e| e.value = payload(s)).unwrap();
        }
        let release = std::thread::spawn(move || {
            // `shutdown` below is (almost certainly) waiting by then; the
            // test holds either way.
            std::thread::sleep(Duration::from_millis(50));
            go.send(()).unwrap();
        });
        producer.shutdown().unwrap();
        release.join().unwrap();
    });
    assert_all_in_order("late start", &log.take(), 16, payload);
}

/// Dropping the producer drains and joins, as `shutdown` does.
#[test]
fn drop_drains_every_published_event() {
    let log = Log::new();
    let l = log.clone();
    within("drop", DEADLINE, move || {
        let mut producer = Disruptor::builder(4, Event::default)
            .wait_strategy(Yielding)
            .handle_events_with(move |e: &Event, seq, eob| {
                std::thread::yield_now();
                l.record(seq, e.value, eob);
            })
            .build_single_producer()
            .unwrap();
        for s in 0..100 {
            producer.publish(|e| e.value = payload(s)).unwrap();
        }
        drop(producer);
    });
    assert_all_in_order("drop", &log.take(), 100, payload);
}

/// `halt` with a full ring and a producer blocked on it, while the handler
/// is in the middle of an event: the blocked producer gets `Halted` at
/// once (the handler is still stuck), and once the handler returns, its
/// processor stops after the batch it was in. That batch is sequence 0
/// alone (the test published 1..=15 only after the handler held 0), so a
/// processor that went on draining the 15 events in the ring fails here.
#[test]
fn halt_returns_promptly_with_a_full_ring_and_a_blocked_producer() {
    let handled = Arc::new(AtomicU64::new(0));
    let h = handled.clone();
    let entered = Arc::new(AtomicBool::new(false));
    let e = entered.clone();
    let (go, held) = mpsc::channel::<()>();
    let size = 16;
    let blocked_result = within("halt", DEADLINE, move || {
        let mut producer = Disruptor::builder(size, Event::default)
            .wait_strategy(Yielding)
            .handle_events_with(move |_: &Event, seq: Sequence, _| {
                if seq == 0 {
                    // Release: pairs with the test's Acquire below.
                    e.store(true, Ordering::Release);
                    let _ = held.recv_timeout(DEADLINE);
                }
                h.fetch_add(1, Ordering::Relaxed);
            })
            .build_multi_producer()
            .unwrap();
        producer.publish(|_| {}).unwrap();
        wait_for("the handler to hold sequence 0", || {
            entered.load(Ordering::Acquire).then_some(())
        });
        for _ in 1..size {
            producer.publish(|_| {}).unwrap();
        }
        assert_eq!(producer.remaining_capacity(), 0, "the ring is full");
        let mut blocked = producer.clone();
        let (result, got) = mpsc::channel();
        let publisher = std::thread::spawn(move || {
            let _ = result.send(blocked.publish(|_| {}));
        });
        // Give the publisher time to block (the test holds either way).
        std::thread::sleep(Duration::from_millis(50));
        producer.halt();
        let r = got.recv_timeout(bound(Duration::from_secs(10)));
        go.send(()).unwrap();
        publisher.join().unwrap();
        producer.shutdown().unwrap();
        r
    });
    let r = blocked_result.expect("the blocked producer never returned after halt");
    assert_eq!(r, Err(PublishError::Halted));
    assert_eq!(
        handled.load(Ordering::Relaxed),
        1,
        "after halt the processor went on past the batch it was in"
    );
}

/// A handler stuck for good: `shutdown_timeout` gives up with an error
/// after about its timeout, instead of joining forever.
#[test]
fn shutdown_timeout_reports_a_stuck_handler_instead_of_waiting() {
    let stuck = Arc::new(AtomicBool::new(true));
    let s = stuck.clone();
    let timeout = Duration::from_millis(200);
    let (result, took) = within("shutdown_timeout", DEADLINE, move || {
        let mut producer = Disruptor::builder(4, Event::default)
            .handle_events_with(move |_: &Event, _, _| {
                let start = Instant::now();
                while s.load(Ordering::Relaxed) && start.elapsed() < DEADLINE {
                    std::thread::sleep(Duration::from_millis(1));
                }
            })
            .build_single_producer()
            .unwrap();
        producer.publish(|_| {}).unwrap();
        let start = Instant::now();
        let r = producer.shutdown_timeout(timeout);
        (r.map_err(|e| e.to_string()), start.elapsed())
    });
    stuck.store(false, Ordering::Relaxed);
    let err = result.expect_err("shutdown_timeout returned Ok with a stuck handler");
    assert!(!err.is_empty());
    assert!(
        took >= timeout,
        "gave up after {took:?}, before its timeout"
    );
    // Generous: what matters is that it did not wait for the handler.
    assert!(
        took < timeout + bound(Duration::from_secs(10)),
        "took {took:?}"
    );
}

/// With handlers that finish, `shutdown_timeout` drains and succeeds.
#[test]
fn shutdown_timeout_drains_and_succeeds_when_handlers_finish() {
    let log = Log::new();
    let l = log.clone();
    within("shutdown_timeout ok", DEADLINE, move || {
        let mut producer = Disruptor::builder(4, Event::default)
            .handle_events_with(move |e: &Event, seq, eob| l.record(seq, e.value, eob))
            .build_single_producer()
            .unwrap();
        for s in 0..50 {
            producer.publish(|e| e.value = payload(s)).unwrap();
        }
        producer.shutdown_timeout(DEADLINE).unwrap();
    });
    assert_all_in_order("shutdown_timeout ok", &log.take(), 50, payload);
}
