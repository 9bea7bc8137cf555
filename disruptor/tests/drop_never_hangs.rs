//! No drop of any handle can hang: the last producer's drop closes the
//! stream and joins only the processors that are after no poller, so the
//! thread that holds a poller can drop the producer and then poll to the
//! end (the way disruptor-rs users write it; here it used to wait for that
//! very poller for ever). Every handle kind is dropped under a deadline, in
//! the states it can be dropped in.
mod common;

use std::sync::mpsc;

use common::{Log, assert_all_in_order, payload};
use hotq_disruptor::{Disruptor, EventPoller, PollError, Sequence};
use hotq_testkit::{DEADLINE, within};

/// Polls until `Halted`, returning what it got.
fn poll_to_the_end(poller: &mut EventPoller<u64>) -> Vec<(Sequence, u64)> {
    let mut got = Vec::new();
    loop {
        match poller.poll(|e, seq, _| got.push((seq, *e))) {
            Ok(_) => std::thread::yield_now(),
            Err(e) => {
                assert_eq!(e, PollError::Halted);
                return got;
            }
        }
    }
}

fn expected(n: i64) -> Vec<(Sequence, u64)> {
    (0..n).map(|s| (s, payload(s))).collect()
}

/// The disruptor-rs sequence, on one thread: build with a poller, publish,
/// drop the producer, poll until the poller says it is over.
#[test]
fn drop_the_producer_then_poll_on_the_same_thread() {
    within("drop, then poll on one thread", DEADLINE, || {
        let mut builder = Disruptor::builder(8, || 0u64);
        let mut poller = builder.event_poller();
        let mut producer = builder.build_single_producer().unwrap();
        for i in 0..5 {
            producer.publish(|e| *e = payload(i)).unwrap();
        }
        drop(producer);
        assert_eq!(poll_to_the_end(&mut poller), expected(5));
        // And it stays over.
        assert_eq!(poller.poll(|_, _, _| {}), Err(PollError::Halted));
    });
}

/// The same with several producers (the last clone's drop closes), a
/// handler before the poller (joined by the drop) and one after it
/// (detached: it finishes once the poller has polled).
#[test]
fn drop_then_poll_with_handlers_around_the_poller() {
    within("drop, then poll, in a graph", DEADLINE, || {
        let (before, after) = (Log::new(), Log::new());
        let (b, a) = (before.clone(), after.clone());
        let mut builder = Disruptor::builder(4, || 0u64)
            .named("before")
            .handle_events_with(move |e: &u64, seq, eob| b.record(seq, *e, eob))
            .then()
            .named("poller");
        let mut poller = builder.event_poller();
        let producer = builder
            .after(["poller"])
            .handle_events_with(move |e: &u64, seq, eob| a.record(seq, *e, eob))
            .build_multi_producer()
            .unwrap();
        let mut clone = producer.clone();
        drop(producer);
        // Fits the ring of 4: the poller on this thread holds the rest back.
        for i in 0..4 {
            clone.publish(|e| *e = payload(i)).unwrap();
        }
        drop(clone);
        // The drop joined the handler before the poller: it has all four.
        assert_eq!(before.len(), 4);
        assert_eq!(poll_to_the_end(&mut poller), expected(4));
        after.wait_len("the handler after the poller", 4);
        assert_all_in_order("before", &before.take(), 4, payload);
        assert_all_in_order("after", &after.take(), 4, payload);
    });
}

/// Dropping the producer with a full ring and a poller that polled nothing
/// returns at once; the poller then gets the whole ring.
#[test]
fn drop_with_a_full_ring_behind_an_idle_poller() {
    within("drop behind an idle poller", DEADLINE, || {
        let mut builder = Disruptor::builder(2, || 0u64);
        let mut poller = builder.event_poller();
        let mut producer = builder.build_single_producer().unwrap();
        for i in 0..2 {
            producer.publish(|e| *e = payload(i)).unwrap();
        }
        assert!(producer.try_publish(|_| {}).is_err(), "the ring is full");
        drop(producer);
        assert_eq!(poll_to_the_end(&mut poller), expected(2));
    });
}

/// Every handle kind, dropped in each state it can be in; each under the
/// deadline.
#[test]
fn every_handle_kind_drops_without_hanging() {
    within("an unbuilt builder", DEADLINE, || {
        let mut builder =
            Disruptor::builder(8, || 0u64).handle_events_with(|_e: &u64, _seq, _eob| {});
        let mut poller = builder.event_poller();
        drop(builder);
        // Never built: the poller says so instead of waiting for ever.
        assert_eq!(poller.poll(|_, _, _| {}), Err(PollError::Halted));
        drop(poller);
    });
    within("a poller of a failed build", DEADLINE, || {
        let mut builder = Disruptor::builder(6, || 0u64);
        let mut poller = builder.event_poller();
        assert!(builder.build_single_producer().is_err());
        assert_eq!(poller.poll(|_, _, _| {}), Err(PollError::Halted));
    });
    within(
        "a poller dropped mid-stream, then the producer",
        DEADLINE,
        || {
            let mut builder = Disruptor::builder(2, || 0u64);
            let mut poller = builder.event_poller();
            let mut producer = builder.build_single_producer().unwrap();
            producer.publish(|e| *e = 1).unwrap();
            assert_eq!(poller.poll(|_, _, _| {}), Ok(1));
            producer.publish(|e| *e = 2).unwrap();
            drop(poller);
            // Its gate is released: the producer goes on, and drops.
            for _ in 0..10 {
                producer.publish(|e| *e = 3).unwrap();
            }
            drop(producer);
        },
    );
    within("a producer behind a stuck-free handler", DEADLINE, || {
        let (tx, rx) = mpsc::channel();
        let mut producer = Disruptor::builder(2, || 0u64)
            .handle_events_with(move |e: &u64, _seq, _eob| tx.send(*e).unwrap())
            .build_single_producer()
            .unwrap();
        for i in 0..10 {
            producer.publish(|e| *e = i).unwrap();
        }
        // The drop drains the handler (it is after no poller) and joins.
        drop(producer);
        assert_eq!(
            rx.try_iter().collect::<Vec<_>>(),
            (0..10).collect::<Vec<_>>()
        );
    });
    within("multi-producer clones, in any order", DEADLINE, || {
        let mut builder = Disruptor::builder(4, || 0u64);
        let mut poller = builder.event_poller();
        let first = builder.build_multi_producer().unwrap();
        let mut clones: Vec<_> = (0..3).map(|_| first.clone()).collect();
        drop(first);
        for (i, c) in clones.iter_mut().enumerate() {
            c.publish(|e| *e = payload(i as i64)).unwrap();
        }
        // A clone's drop while others live returns at once; so does the last.
        while let Some(c) = clones.pop() {
            drop(c);
        }
        assert_eq!(poll_to_the_end(&mut poller).len(), 3);
    });
    within("a producer dropped after halt", DEADLINE, || {
        let mut builder = Disruptor::builder(2, || 0u64);
        let mut poller = builder.event_poller();
        let mut producer = builder.build_single_producer().unwrap();
        producer.publish(|e| *e = 1).unwrap();
        producer.halt();
        drop(producer);
        // A halt stops the poller at once, published events or not.
        assert_eq!(poller.poll(|_, _, _| {}), Err(PollError::Halted));
    });
}

/// `shutdown` still waits for the pollers (the drain's promise), but with
/// `shutdown_timeout` the wait is bounded even when the poller sits on the
/// shutting-down thread.
#[test]
fn shutdown_timeout_bounds_the_wait_for_a_poller_on_the_same_thread() {
    within("shutdown_timeout behind an idle poller", DEADLINE, || {
        let mut builder = Disruptor::builder(8, || 0u64);
        let mut poller = builder.event_poller();
        let mut producer = builder.build_single_producer().unwrap();
        producer.publish(|e| *e = 1).unwrap();
        let d = std::time::Duration::from_millis(50);
        assert_eq!(
            producer.shutdown_timeout(d),
            Err(hotq_disruptor::ShutdownError::Timeout(d))
        );
        assert_eq!(poller.poll(|_, _, _| {}), Err(PollError::Halted));
    });
}
