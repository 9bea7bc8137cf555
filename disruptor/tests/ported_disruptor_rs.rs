//! Behaviours that disruptor-rs (the `disruptor` crate, 4.x) tests, rewritten
//! for this API where the semantics agree: handlers with thread-local
//! state, a disruptor feeding another, stages of stateful handlers,
//! chains of pollers with `available` and bounded polls, branches off the
//! producer joined back in (`new_chain` / `after`), back-pressure through a
//! branch, and the drop-then-poll shutdown of pollers.
//!
//! Where they differ: disruptor-rs's `poll` returns an error for "no
//! events" (here `Ok(0)`) and `Shutdown` (here `Halted`); its multi
//! producer needs a ring of at least 64 (here any power of two, so the
//! multi-producer cases use small rings too).
mod common;

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::mpsc;

use hotq_disruptor::{BuildError, Disruptor, EventPoller, PollError, PublishError};
use hotq_testkit::{DEADLINE, within};

#[derive(Default)]
struct Event {
    num: i64,
}

/// Everything one poll hands out (empty when nothing is available).
fn poll_values(poller: &mut EventPoller<Event>) -> Result<Vec<i64>, PollError> {
    let mut got = Vec::new();
    poller.poll(|e, _, _| got.push(e.num))?;
    Ok(got)
}

#[test]
fn a_stateful_handler_keeps_a_running_total_on_its_thread() {
    within("running total", DEADLINE, || {
        let (tx, rx) = mpsc::channel();
        let mut producer = Disruptor::builder(8, Event::default)
            .handle_events_and_state_with(
                move |total: &mut Rc<Cell<i64>>, e: &Event, _, _| {
                    total.set(total.get() + e.num);
                    tx.send(total.get()).unwrap();
                },
                || Rc::new(Cell::new(0)),
            )
            .build_single_producer()
            .unwrap();
        for i in 0..10 {
            producer.publish(|e| e.num = i).unwrap();
        }
        drop(producer);
        // The sender went with the handler's thread: the channel is closed.
        assert_eq!(
            rx.iter().collect::<Vec<_>>(),
            [0, 1, 3, 6, 10, 15, 21, 28, 36, 45]
        );
    });
}

/// The first disruptor's handler owns the second's producer: dropping the
/// first producer drains the first, whose handler (dropped on its thread)
/// drops the second producer, which drains the second.
#[test]
fn one_disruptor_feeds_another() {
    within("two disruptors in a row", DEADLINE, || {
        let (tx, rx) = mpsc::channel();
        let mut last = Disruptor::builder(8, Event::default)
            .handle_events_with(move |e: &Event, _, _| tx.send(e.num).unwrap())
            .build_single_producer()
            .unwrap();
        let mut first = Disruptor::builder(8, Event::default)
            .handle_events_with(move |e: &Event, _, _| {
                last.publish(|out| out.num = e.num).unwrap();
            })
            .build_single_producer()
            .unwrap();
        for i in 0..10 {
            first.publish(|e| e.num = i * i).unwrap();
        }
        drop(first);
        assert_eq!(
            rx.iter().collect::<Vec<_>>(),
            [0, 1, 4, 9, 16, 25, 36, 49, 64, 81]
        );
    });
}

/// Three stages mixing plain and stateful handlers (two in the first
/// stage, two in the second, three in the third), one event: each handler
/// reports once, the stateful ones their state.
#[test]
fn stages_of_plain_and_stateful_handlers() {
    for multi in [false, true] {
        within("stages with state", DEADLINE, move || {
            let (tx, rx) = mpsc::channel();
            let plain = |offset: i64| {
                let tx = tx.clone();
                move |e: &Event, _, _| tx.send(e.num + offset).unwrap()
            };
            let stateful = |offset: i64| {
                let tx = tx.clone();
                move |sum: &mut RefCell<i64>, e: &Event, _, _| {
                    *sum.borrow_mut() += e.num;
                    tx.send(*sum.borrow() + offset).unwrap();
                }
            };
            let builder = Disruptor::builder(8, Event::default)
                .handle_events_with(plain(0))
                .handle_events_and_state_with(stateful(10), || RefCell::new(0))
                .then()
                .handle_events_with(plain(2))
                .handle_events_and_state_with(stateful(20), || RefCell::new(0))
                .then()
                .handle_events_with(plain(4))
                .handle_events_and_state_with(stateful(30), || RefCell::new(0))
                .handle_events_and_state_with(stateful(40), || RefCell::new(0));
            drop(tx);
            if multi {
                let mut p = builder.build_multi_producer().unwrap();
                let mut q = p.clone();
                p.publish(|e| e.num = 1).unwrap();
                q.publish(|e| e.num = 1).unwrap();
                drop((p, q));
                let mut got: Vec<i64> = rx.iter().collect();
                got.sort();
                assert_eq!(got, [1, 1, 3, 3, 5, 5, 11, 12, 21, 22, 31, 32, 41, 42]);
            } else {
                let mut p = builder.build_single_producer().unwrap();
                p.publish(|e| e.num = 1).unwrap();
                drop(p);
                let mut got: Vec<i64> = rx.iter().collect();
                got.sort();
                assert_eq!(got, [1, 3, 5, 11, 21, 31, 41]);
            }
        });
    }
}

/// Three pollers in three stages: only the first sees events at first;
/// `available` says who could poll; a bounded poll takes one at a time;
/// after the producer's drop each reports the end once caught up.
#[test]
fn a_chain_of_pollers_with_available_and_bounded_polls() {
    for multi in [false, true] {
        let mut builder = Disruptor::builder(8, Event::default);
        let mut p1 = builder.event_poller();
        let mut builder = builder.then();
        let mut p2 = builder.event_poller();
        let mut builder = builder.then();
        let mut p3 = builder.event_poller();
        let mut publish: Box<dyn FnMut(i64)> = if multi {
            let mut p = builder.build_multi_producer().unwrap();
            Box::new(move |v| {
                p.publish(|e| e.num = v).unwrap();
            })
        } else {
            let mut p = builder.build_single_producer().unwrap();
            Box::new(move |v| {
                p.publish(|e| e.num = v).unwrap();
            })
        };
        for p in [&mut p1, &mut p2, &mut p3] {
            assert_eq!(poll_values(p), Ok(vec![]));
        }
        publish(1);
        publish(2);
        assert_eq!([p1.available(), p2.available(), p3.available()], [2, 0, 0]);
        assert_eq!(p2.poll_at_most(2, |_, _, _| {}), Ok(0));
        assert_eq!(poll_values(&mut p1), Ok(vec![1, 2]));
        assert_eq!([p1.available(), p2.available(), p3.available()], [0, 2, 0]);
        let mut one = Vec::new();
        assert_eq!(
            p2.poll_at_most(1, |e, _, eob| one.push((e.num, eob))),
            Ok(1)
        );
        // p3 follows p2 one event at a time.
        assert_eq!(poll_values(&mut p3), Ok(vec![1]));
        assert_eq!(poll_values(&mut p3), Ok(vec![]), "p3 passed p2");
        assert_eq!(
            p2.poll_at_most(1, |e, _, eob| one.push((e.num, eob))),
            Ok(1)
        );
        assert_eq!(one, [(1, true), (2, true)]);
        assert_eq!(poll_values(&mut p3), Ok(vec![2]));
        drop(publish); // the producer's drop: every poller is caught up
        for p in [&mut p1, &mut p2, &mut p3] {
            assert_eq!(poll_values(p), Err(PollError::Halted));
        }
    }
}

/// A main flow R1 → ME → R2 and a branch J off the producer, joined by a
/// final poller after R2 and J; an unused second chain changes nothing.
/// All polled on this thread after the producer's drop.
#[test]
fn a_branch_off_the_producer_joined_after_several_stages() {
    let mut builder = Disruptor::builder(8, Event::default).named("r1");
    let mut r1 = builder.event_poller();
    let mut builder = builder.then().named("me");
    let mut me = builder.event_poller();
    let mut builder = builder.then().named("r2");
    let mut r2 = builder.event_poller();
    let mut builder = builder.new_chain().named("j");
    let mut j = builder.event_poller();
    let mut builder = builder.after(["r2", "j"]);
    let mut report = builder.event_poller();
    let mut producer = builder.build_single_producer().unwrap();
    for v in [10, 20, 30] {
        producer.publish(|e| e.num = v).unwrap();
    }
    drop(producer);
    let all = vec![10, 20, 30];
    assert_eq!(poll_values(&mut me), Ok(vec![]));
    assert_eq!(poll_values(&mut r2), Ok(vec![]));
    assert_eq!(poll_values(&mut report), Ok(vec![]));
    assert_eq!(
        poll_values(&mut j),
        Ok(all.clone()),
        "the branch is independent"
    );
    assert_eq!(
        poll_values(&mut report),
        Ok(vec![]),
        "report is after r2 too"
    );
    assert_eq!(poll_values(&mut r1), Ok(all.clone()));
    assert_eq!(poll_values(&mut me), Ok(all.clone()));
    assert_eq!(poll_values(&mut r2), Ok(all.clone()));
    assert_eq!(poll_values(&mut report), Ok(all));
    for p in [&mut j, &mut r1, &mut me, &mut r2, &mut report] {
        assert_eq!(poll_values(p), Err(PollError::Halted));
    }
}

/// A poller A after a branch poller B: the producer is held back by A (the
/// leaf), not B.
#[test]
fn back_pressure_through_a_branch_poller() {
    let mut builder = Disruptor::builder(4, Event::default).named("b");
    let mut b = builder.event_poller();
    let mut builder = builder.after(["b"]);
    let mut a = builder.event_poller();
    let mut producer = builder.build_single_producer().unwrap();
    for i in 0..4 {
        producer.try_publish(|e| e.num = i).unwrap();
    }
    assert_eq!(
        producer.try_publish(|e| e.num = 99),
        Err(PublishError::Full)
    );
    assert_eq!(poll_values(&mut b), Ok(vec![0, 1, 2, 3]));
    assert_eq!(
        producer.try_publish(|e| e.num = 99),
        Err(PublishError::Full),
        "held by a"
    );
    assert_eq!(poll_values(&mut a), Ok(vec![0, 1, 2, 3]));
    producer.try_publish(|e| e.num = 100).unwrap();
    drop(producer);
    assert_eq!(poll_values(&mut b), Ok(vec![100]));
    assert_eq!(poll_values(&mut a), Ok(vec![100]));
    assert_eq!(poll_values(&mut a), Err(PollError::Halted));
    assert_eq!(poll_values(&mut b), Err(PollError::Halted));
}

/// Four pollers off the producer and a report after all four: it waits for
/// the last of them.
#[test]
fn a_fan_out_of_four_joined_by_one() {
    let mut builder = Disruptor::builder(8, Event::default);
    let mut fan: Vec<EventPoller<Event>> = Vec::new();
    for name in ["a", "b1", "b2", "b3"] {
        builder = builder.new_chain().named(name);
        fan.push(builder.event_poller());
    }
    let mut builder = builder.after(["a", "b1", "b2", "b3"]);
    let mut report = builder.event_poller();
    let mut producer = builder.build_single_producer().unwrap();
    for v in 1..=3 {
        producer.publish(|e| e.num = v).unwrap();
    }
    drop(producer);
    for (i, p) in fan.iter_mut().enumerate() {
        assert_eq!(
            poll_values(&mut report),
            Ok(vec![]),
            "report before poller {i}"
        );
        assert_eq!(poll_values(p), Ok(vec![1, 2, 3]));
    }
    assert_eq!(poll_values(&mut report), Ok(vec![1, 2, 3]));
    for p in fan.iter_mut().chain([&mut report]) {
        assert_eq!(poll_values(p), Err(PollError::Halted));
    }
}

/// A handler and a poller in the first stage, a poller after both; the
/// producers are dropped first (the handler is drained and joined by the
/// drop), then the pollers are polled on this thread.
#[test]
fn pollers_and_a_handler_mixed() {
    for multi in [false, true] {
        within("mixed pollers and a handler", DEADLINE, move || {
            let (tx, rx) = mpsc::channel();
            let mut builder = Disruptor::builder(8, Event::default)
                .handle_events_with(move |e: &Event, _, _| tx.send(e.num).unwrap());
            let mut p1 = builder.event_poller();
            let mut builder = builder.then();
            let mut p2 = builder.event_poller();
            if multi {
                let mut a = builder.build_multi_producer().unwrap();
                let mut b = a.clone();
                a.publish(|e| e.num = 1).unwrap();
                b.publish(|e| e.num = 2).unwrap();
                drop((a, b));
            } else {
                let mut a = builder.build_single_producer().unwrap();
                a.publish(|e| e.num = 1).unwrap();
                a.publish(|e| e.num = 2).unwrap();
                drop(a);
            }
            assert_eq!(poll_values(&mut p2), Ok(vec![]));
            assert_eq!(poll_values(&mut p1), Ok(vec![1, 2]));
            assert_eq!(poll_values(&mut p1), Err(PollError::Halted));
            assert_eq!(poll_values(&mut p2), Ok(vec![1, 2]));
            assert_eq!(poll_values(&mut p2), Err(PollError::Halted));
            assert_eq!(rx.iter().collect::<Vec<_>>(), [1, 2]);
        });
    }
}

#[test]
fn no_consumer_is_a_build_error_and_a_full_ring_refuses_a_batch() {
    assert_eq!(
        Disruptor::builder(64, Event::default)
            .build_multi_producer()
            .unwrap_err(),
        BuildError::NoConsumers
    );
    let (go, hold) = mpsc::channel::<()>();
    let mut p = Disruptor::builder(4, Event::default)
        .handle_events_with(move |_e: &Event, seq, _| {
            if seq == 0 {
                hold.recv().unwrap();
            }
        })
        .build_multi_producer()
        .unwrap();
    p.try_batch_publish(3, |_| {}).unwrap();
    // One slot left: a batch of two does not fit, a single event does.
    assert_eq!(p.try_batch_publish(2, |_| {}), Err(PublishError::Full));
    assert_eq!(p.try_publish(|e| e.num = 3), Ok(3));
    assert_eq!(p.try_publish(|e| e.num = 4), Err(PublishError::Full));
    go.send(()).unwrap();
    p.shutdown().unwrap();
}
