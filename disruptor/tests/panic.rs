//! Fault isolation: a handler that panics halts the disruptor (the
//! default) and every producer, blocked or not, gets `Halted` instead of
//! spinning forever (disruptor-rs 4.4 leaves them spinning); `shutdown`
//! reports the panic; nothing hangs and `Drop` never panics. The opt-in
//! skip policy skips the event and goes on. A panic inside the producer's
//! own `publish` closure leaves no hole the consumers would wait on.
//!
//! Every test runs the disruptor on a helper thread and waits for it with
//! a timeout ([`hotq_testkit::within`]): a hang fails the test.
mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::time::Duration;

use common::{Log, payload};
use hotq_disruptor::wait::{Blocking, Yielding};
use hotq_disruptor::{Disruptor, PanicPolicy, PublishError, Sequence, ShutdownError};
use hotq_testkit::{DEADLINE, bound, scaled, wait_for, within};

#[derive(Debug, Default)]
struct Event {
    value: u64,
}

/// How long a blocked producer may take to notice the halt before the
/// test fails.
const HALT_NOTICED: Duration = bound(Duration::from_secs(10));

/// The handler panics on sequence `at`, after waiting for the test's go:
/// the producers first fill the ring, then block.
fn panicking_handler(
    at: Sequence,
) -> (
    impl FnMut(&Event, Sequence, bool) + Send + 'static,
    mpsc::Sender<()>,
) {
    let (go, wait) = mpsc::channel::<()>();
    let handler = move |_: &Event, seq: Sequence, _| {
        if seq == at {
            let _ = wait.recv_timeout(DEADLINE);
            panic!("handler panics on sequence {seq}, as the test asks");
        }
    };
    (handler, go)
}

fn assert_reports_the_panic(what: &str, result: Result<(), ShutdownError>) {
    match result {
        Err(ShutdownError::Panicked(p)) => assert!(
            p.message().contains("handler panics on sequence"),
            "{what}: shutdown's error does not carry the panic message: {p}"
        ),
        other => panic!("{what}: shutdown after a handler panic returned {other:?}"),
    }
}

#[test]
fn a_producer_blocked_on_a_full_ring_gets_halted_when_a_handler_panics() {
    for wait in ["Yielding", "Blocking"] {
        let what = format!("single producer, {wait}");
        let w = what.clone();
        within(&what, DEADLINE, move || {
            let size = 4;
            let (handler, go) = panicking_handler(0);
            let builder = Disruptor::builder(size, Event::default);
            let builder = if wait == "Blocking" {
                builder.wait_strategy(Blocking)
            } else {
                builder.wait_strategy(Yielding)
            };
            let mut producer = builder
                .handle_events_with(handler)
                .build_single_producer()
                .unwrap();
            // The handler holds sequence 0: the ring is full after `size`.
            for s in 0..size as Sequence {
                producer.publish(|e| e.value = payload(s)).unwrap();
            }
            assert_eq!(producer.remaining_capacity(), 0);
            let (result, blocked) = mpsc::channel();
            let publisher = std::thread::spawn(move || {
                // Blocks: the ring is full and the handler is stuck.
                let r = producer.publish(|e| e.value = 99);
                let _ = result.send(r.map_err(|e| e.to_string()));
                producer
            });
            // Give the publisher time to block (the test holds either way:
            // it may also find the halt before blocking).
            std::thread::sleep(Duration::from_millis(50));
            go.send(()).unwrap();
            let r = blocked.recv_timeout(HALT_NOTICED).unwrap_or_else(|_| {
                panic!("{w}: the blocked publish never returned after the panic")
            });
            assert!(r.is_err(), "{w}: publish on a halted, full ring succeeded");
            let mut producer = publisher.join().unwrap();
            // Later calls: Halted at once, never Full, never a wait.
            assert!(matches!(
                producer.publish(|_| {}),
                Err(PublishError::Halted)
            ));
            assert!(matches!(
                producer.try_publish(|_| {}),
                Err(PublishError::Halted)
            ));
            assert!(matches!(
                producer.batch_publish(1, |_| {}),
                Err(PublishError::Halted)
            ));
            assert_reports_the_panic(&w, producer.shutdown());
        });
    }
}

#[test]
fn every_multi_producer_clone_gets_halted_when_a_handler_panics() {
    within("multi producer", DEADLINE, || {
        let size = 2;
        let (handler, go) = panicking_handler(1);
        let producer = Disruptor::builder(size, Event::default)
            .handle_events_with(handler)
            .build_multi_producer()
            .unwrap();
        let (results, blocked) = mpsc::channel();
        let publishers: Vec<_> = (0..3)
            .map(|_| {
                let mut p = producer.clone();
                let results = results.clone();
                std::thread::spawn(move || {
                    // Publish until halted: the first ones fill the ring,
                    // the rest block until the panic.
                    loop {
                        if let Err(e) = p.publish(|e| e.value = 1) {
                            let _ = results.send(matches!(e, PublishError::Halted));
                            return;
                        }
                    }
                })
            })
            .collect();
        std::thread::sleep(Duration::from_millis(50));
        go.send(()).unwrap();
        for i in 0..3 {
            let halted = blocked
                .recv_timeout(HALT_NOTICED)
                .unwrap_or_else(|_| panic!("producer {i} never returned after the panic"));
            assert!(halted, "a producer got an error other than Halted");
        }
        publishers.into_iter().for_each(|t| t.join().unwrap());
        assert_reports_the_panic("multi producer", producer.shutdown());
    });
}

/// `Drop` after a handler panic shuts down without panicking (a panic in
/// drop during another unwind would abort the process), and returns.
#[test]
fn dropping_the_producer_after_a_handler_panic_never_panics() {
    within("drop after a panic", DEADLINE, || {
        let (handler, go) = panicking_handler(0);
        go.send(()).unwrap();
        let mut producer = Disruptor::builder(4, Event::default)
            .handle_events_with(handler)
            .build_single_producer()
            .unwrap();
        let _ = producer.publish(|_| {});
        // Wait until the halt is visible to the producer.
        wait_for("the halt", || {
            producer
                .try_publish(|_| {})
                .err()
                .filter(|e| matches!(e, PublishError::Halted))
        });
        let dropped = catch_unwind(AssertUnwindSafe(move || drop(producer)));
        assert!(dropped.is_ok(), "Drop panicked after a handler panic");
    });
}

/// The opt-in policy: a panicking event is skipped and the handler goes
/// on with the next; producers never see `Halted`; shutdown succeeds.
#[test]
fn the_skip_policy_skips_the_panicking_event_and_goes_on() {
    let log = Log::new();
    let l = log.clone();
    // 125 laps of the ring of 8; under miri 5.
    let events = scaled(1000, 40) as u64;
    within("skip policy", DEADLINE, move || {
        let mut producer = Disruptor::builder(8, Event::default)
            .on_panic(PanicPolicy::LogAndSkip)
            .handle_events_with(move |e: &Event, seq: Sequence, eob| {
                if seq % 7 == 3 {
                    panic!("handler panics on sequence {seq}, as the test asks");
                }
                l.record(seq, e.value, eob);
            })
            .build_single_producer()
            .unwrap();
        for s in 0..events as Sequence {
            producer.publish(|e| e.value = payload(s)).unwrap();
        }
        producer.shutdown().unwrap();
    });
    let seen = log.take();
    let expected: Vec<Sequence> = (0..events as Sequence).filter(|s| s % 7 != 3).collect();
    let got: Vec<Sequence> = seen.iter().map(|s| s.seq).collect();
    assert_eq!(got, expected, "the events after each panic, in order");
    assert!(seen.iter().all(|s| s.value == payload(s.seq)));
}

/// The skip policy reports each panic once on stderr: the panic hook's
/// report alone (it used to be followed by a line of the crate's own).
/// Stderr is a process's, so the test runs itself again as a child, with
/// `--nocapture`: the child (marked by an environment variable) makes
/// `PANICS` handler panics, and the parent counts the reports in its
/// stderr. miri cannot start a process.
#[test]
#[cfg_attr(miri, ignore)]
fn the_skip_policy_reports_each_panic_once_on_stderr() {
    const CHILD: &str = "HOTQ_DISRUPTOR_PANIC_CHILD";
    const PANICS: u64 = 3;
    const NAME: &str = "the_skip_policy_reports_each_panic_once_on_stderr";
    if std::env::var_os(CHILD).is_some() {
        let mut producer = Disruptor::builder(8, Event::default)
            .on_panic(PanicPolicy::LogAndSkip)
            .named("skipper")
            .handle_events_with(|e: &Event, _seq, _eob| {
                assert!(e.value % 2 == 1, "even value {}", e.value);
            })
            .build_single_producer()
            .unwrap();
        for v in 0..2 * PANICS {
            producer.publish(|e| e.value = v).unwrap();
        }
        producer.shutdown().unwrap();
        return;
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([NAME, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .env("RUST_BACKTRACE", "0")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the child failed:\n{stderr}");
    // The hook's report: "thread 'skipper' panicked at <file>:<line>:<column>:"
    // and the message on the next line.
    let reports = stderr.matches("panicked").count();
    let messages = stderr.matches("even value").count();
    assert_eq!(
        (reports, messages),
        (PANICS as usize, PANICS as usize),
        "each of the {PANICS} panics should be reported once; stderr:\n{stderr}"
    );
    // Recent std's add the thread's id: "thread 'skipper' (1234) panicked".
    let named = stderr
        .lines()
        .filter(|l| l.starts_with("thread 'skipper'") && l.contains("panicked"))
        .count();
    assert_eq!(
        named, PANICS as usize,
        "the report names the handler's thread; stderr:\n{stderr}"
    );
}

/// A panic in the producer's closure propagates to the caller, but the
/// claimed slot is still published (or poisoned): the handler goes past
/// it and sees every event published after it, in order.
#[test]
fn a_panic_inside_the_publish_closure_does_not_wedge_the_consumers() {
    for multi in [false, true] {
        let what = format!("multi producer: {multi}");
        let log = Log::new();
        let l = log.clone();
        let w = what.clone();
        within(&what, DEADLINE, move || {
            let builder = Disruptor::builder(4, Event::default)
                .handle_events_with(move |e: &Event, seq, eob| l.record(seq, e.value, eob));
            macro_rules! check {
                ($p:expr) => {{
                    let p = &mut $p;
                    for s in 0..20 as Sequence {
                        if s % 5 == 2 {
                            let r = catch_unwind(AssertUnwindSafe(|| {
                                p.publish(|_| panic!("the publish closure panics"))
                            }));
                            assert!(r.is_err(), "{w}: the closure's panic was swallowed");
                        } else {
                            let got = p.publish(|e| e.value = payload(s)).unwrap();
                            assert_eq!(got, s, "{w}: the panicking claim still took its sequence");
                        }
                    }
                }};
            }
            if multi {
                let mut p = builder.build_multi_producer().unwrap();
                check!(p);
                p.shutdown().unwrap();
            } else {
                let mut p = builder.build_single_producer().unwrap();
                check!(p);
                p.shutdown().unwrap();
            }
        });
        let seen: Vec<Sequence> = log
            .take()
            .into_iter()
            .filter(|s| s.value == payload(s.seq))
            .map(|s| s.seq)
            .collect();
        let expected: Vec<Sequence> = (0..20).filter(|s| s % 5 != 2).collect();
        assert_eq!(seen, expected, "{what}: every good event, in order");
    }
}

/// Two producers; one panics inside its closure while the other keeps
/// publishing: the other's events all arrive (no hole at the panicking
/// producer's sequence holds them back).
#[test]
fn a_panicking_publisher_does_not_hold_back_another_producer() {
    let log = Log::new();
    let l = log.clone();
    within("two producers, one panics", DEADLINE, move || {
        let producer = Disruptor::builder(4, Event::default)
            .handle_events_with(move |e: &Event, seq, eob| l.record(seq, e.value, eob))
            .build_multi_producer()
            .unwrap();
        let mut panicking = producer.clone();
        let r = catch_unwind(AssertUnwindSafe(|| {
            panicking.publish(|_| panic!("the publish closure panics"))
        }));
        assert!(r.is_err());
        let mut other = producer.clone();
        std::thread::spawn(move || {
            for i in 1..=100 {
                other.publish(|e| e.value = i).unwrap();
            }
        })
        .join()
        .unwrap();
        producer.shutdown().unwrap();
    });
    let values: Vec<u64> = log
        .take()
        .into_iter()
        .map(|s| s.value)
        .filter(|&v| v != 0)
        .collect();
    assert_eq!(values, (1..=100).collect::<Vec<u64>>());
}

/// A shutdown's panic is an error whose source is the `HandlerPanic`, so
/// error-reporting crates print the chain.
#[test]
fn the_shutdown_error_has_the_handler_panic_as_its_source() {
    use std::error::Error;
    let mut producer = hotq_disruptor::Disruptor::builder(4, || 0u64)
        .named("risky")
        .handle_events_with(|_e: &u64, _seq, _eob| panic!("bad tick"))
        .build_single_producer()
        .unwrap();
    let _ = producer.publish(|e| *e = 1);
    let err = producer.shutdown().unwrap_err();
    let source = err.source().expect("a source");
    let panic = source
        .downcast_ref::<hotq_disruptor::HandlerPanic>()
        .expect("the HandlerPanic");
    assert_eq!((panic.handler(), panic.message()), ("risky", "bad tick"));
    assert_eq!(source.to_string(), err.to_string());
    assert!(
        hotq_disruptor::ShutdownError::Timeout(std::time::Duration::ZERO)
            .source()
            .is_none()
    );
}
