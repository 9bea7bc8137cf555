//! Handlers with a state of their own that is not `Send`: the state is
//! made by a `Send` closure on the handler's thread, used there, and
//! dropped there when the processor stops (shutdown, drop of the producer,
//! halt), which the tests check by thread id.
mod common;

use std::rc::Rc;
use std::sync::mpsc;
use std::thread::{self, ThreadId};

use common::{Log, assert_all_in_order, payload};
use hotq_disruptor::{Disruptor, PublishError, ShutdownError};
use hotq_testkit::{DEADLINE, within};

/// Where the state was made and dropped, and where each event was handled.
#[derive(Debug, PartialEq)]
enum Seen {
    Made(ThreadId),
    Handled(ThreadId),
    Dropped(ThreadId),
}

/// A state that cannot leave its thread (`Rc`), reporting its life.
struct State {
    _not_send: Rc<()>,
    report: mpsc::Sender<Seen>,
}

impl State {
    fn new(report: mpsc::Sender<Seen>) -> Self {
        report.send(Seen::Made(thread::current().id())).unwrap();
        State {
            _not_send: Rc::new(()),
            report,
        }
    }
}

impl Drop for State {
    fn drop(&mut self) {
        let _ = self.report.send(Seen::Dropped(thread::current().id()));
    }
}

/// The state's whole life happened on one thread, not the test's, with
/// `events` events in between.
fn assert_one_thread(seen: &[Seen], events: usize) {
    let Some(Seen::Made(t)) = seen.first() else {
        panic!("the state was not made first: {seen:?}")
    };
    assert_ne!(*t, thread::current().id(), "made on the builder's thread");
    assert_eq!(seen.len(), events + 2, "{seen:?}");
    assert!(
        seen[1..=events].iter().all(|s| *s == Seen::Handled(*t)),
        "{seen:?}"
    );
    assert_eq!(
        seen.last(),
        Some(&Seen::Dropped(*t)),
        "dropped elsewhere, or not yet"
    );
}

#[test]
fn state_is_made_used_and_dropped_on_the_handler_thread() {
    for how in ["shutdown", "drop", "halt"] {
        within(how, DEADLINE, move || {
            let (tx, rx) = mpsc::channel();
            let log = Log::new();
            let l = log.clone();
            let mut producer = Disruptor::builder(4, || 0u64)
                .handle_events_and_state_with(
                    move |state: &mut State, e: &u64, seq, eob| {
                        state
                            .report
                            .send(Seen::Handled(thread::current().id()))
                            .unwrap();
                        l.record(seq, *e, eob);
                    },
                    move || State::new(tx),
                )
                .build_single_producer()
                .unwrap();
            for i in 0..20 {
                producer.publish(|e| *e = payload(i)).unwrap();
            }
            match how {
                "shutdown" => producer.shutdown().unwrap(),
                "drop" => drop(producer),
                _ => {
                    log.wait_len("all handled before the halt", 20);
                    producer.halt();
                    producer.shutdown().unwrap();
                }
            }
            // Shutdown and drop joined the thread: the drop has happened.
            let seen: Vec<Seen> = rx.try_iter().collect();
            assert_one_thread(&seen, 20);
            assert_all_in_order(how, &log.take(), 20, payload);
        });
    }
}

#[test]
fn a_mutable_handler_with_state_enriches_for_the_next_stage() {
    within("mutable with state", DEADLINE, || {
        let (tx, rx) = mpsc::channel();
        let log = Log::new();
        let l = log.clone();
        let mut producer = Disruptor::builder(2, || 0u64)
            .handle_events_mut_and_state_with(
                move |state: &mut State, e: &mut u64, _seq, _eob| {
                    state
                        .report
                        .send(Seen::Handled(thread::current().id()))
                        .unwrap();
                    *e = payload(*e as i64);
                },
                move || State::new(tx),
            )
            .then()
            .handle_events_with(move |e: &u64, seq, eob| l.record(seq, *e, eob))
            .build_multi_producer()
            .unwrap();
        for i in 0..10 {
            producer.publish(|e| *e = i).unwrap();
        }
        producer.shutdown().unwrap();
        assert_one_thread(&rx.try_iter().collect::<Vec<_>>(), 10);
        assert_all_in_order("after the mutable stage", &log.take(), 10, payload);
    });
}

/// A panicking `initialize_state` halts the disruptor (the handler cannot
/// run without it): producers get `Halted` instead of waiting on a handler
/// that will never move, and the shutdown reports the panic by name.
#[test]
fn a_panicking_state_initializer_halts_and_is_reported() {
    within("panicking initializer", DEADLINE, || {
        let mut producer = Disruptor::builder(2, || 0u64)
            .on_panic(hotq_disruptor::PanicPolicy::LogAndSkip)
            .named("stateful")
            .handle_events_and_state_with(
                |_s: &mut Rc<u8>, _e: &u64, _seq, _eob| {},
                || -> Rc<u8> { panic!("no connection") },
            )
            .build_single_producer()
            .unwrap();
        let mut last = Ok(0);
        for _ in 0..10 {
            last = producer.publish(|e| *e = 1);
            if last.is_err() {
                break;
            }
        }
        assert_eq!(last, Err(PublishError::Halted));
        let Err(ShutdownError::Panicked(p)) = producer.shutdown() else {
            panic!("the initializer's panic was not reported")
        };
        assert_eq!(
            (p.handler(), p.sequence(), p.message()),
            ("stateful", None, "no connection")
        );
    });
}
