//! A dropped stage never lets anyone pass the live stage before it.
//!
//! A dropped `EventPoller` stops gating (its sequence jumps to
//! `Sequence::MAX`). When that empties a whole stage, the stage before it
//! must bound in its place: for the producers (no lapping a live consumer
//! of an earlier stage), for the stages after it (no event before every
//! earlier stage is done with it), and for the shutdown's drain. The first
//! two tests are the fuzzer's reproducers (`fuzz/fuzz_targets/
//! disruptor_model.rs`, which found it); the producers and the drain used
//! to gate on the last stage only.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use hotq_disruptor::{Disruptor, PublishError, ShutdownError};
use hotq_testkit::{DEADLINE, within};

#[test]
fn a_dropped_last_stage_does_not_let_the_producer_lap_the_stage_before() {
    for multi in [false, true] {
        let mut builder = Disruptor::builder(1, || 0u64);
        let mut first = builder.event_poller();
        let mut builder = builder.then();
        let second = builder.event_poller();
        let mut try_publish: Box<dyn FnMut(u64) -> Result<i64, PublishError>> = if multi {
            let mut p = builder.build_multi_producer().unwrap();
            Box::new(move |v| p.try_publish(|e| *e = v))
        } else {
            let mut p = builder.build_single_producer().unwrap();
            Box::new(move |v| p.try_publish(|e| *e = v))
        };
        drop(second);
        // Every result first, asserted only once the handles are gone: a
        // live poller that never polls again would keep the producer's
        // shutdown (at its drop, also when a failed assertion unwinds)
        // waiting.
        let published = try_publish(10);
        // The stage-0 poller still owns event 0's slot: must be Full.
        let lapping = try_publish(11);
        let mut seen = Vec::new();
        first.poll(|e, seq, _| seen.push((seq, *e))).unwrap();
        let after_poll = try_publish(12);
        drop(first);
        drop(try_publish);
        assert_eq!(published, Ok(0), "multi: {multi}");
        assert_eq!(lapping, Err(PublishError::Full), "multi: {multi}");
        assert_eq!(seen, [(0, 10)], "multi: {multi}");
        assert_eq!(after_poll, Ok(1), "multi: {multi}");
    }
}

#[test]
fn a_dropped_middle_stage_does_not_let_the_next_pass_the_one_before() {
    let mut builder = Disruptor::builder(4, || 0u64);
    let mut first = builder.event_poller();
    let mut builder = builder.then();
    let middle = builder.event_poller();
    let mut builder = builder.then();
    let mut last = builder.event_poller();
    let mut producer = builder.build_single_producer().unwrap();
    drop(middle);
    producer.publish(|e| *e = 1).unwrap();
    // Must be 0: stage 0 has not handled the event yet.
    let early = last.poll(|_, _, _| {});
    let first_polled = first.poll(|_, _, _| {});
    let mut seen = Vec::new();
    let late = last.poll(|e, seq, _| seen.push((seq, *e)));
    // Halted before asserting, so a failure unwinds without a drain.
    producer.halt();
    assert_eq!(early, Ok(0), "stage 2 got an event stage 0 has not handled");
    assert_eq!(first_polled, Ok(1));
    assert_eq!((late, seen), (Ok(1), vec![(0, 1)]));
}

/// A handler thread in the first stage, every poller of the second stage
/// dropped: the shutdown still waits for the handler to see every event
/// (it used to return once the dropped leaf "passed" them), and the
/// handler's reads are never raced by the producer's overwrites (the
/// ring of 2 is lapped many times while the handler is slow).
#[test]
fn a_dropped_last_stage_leaves_the_drain_waiting_for_the_stage_before() {
    // Bounded: a drain that never ends fails as a hang.
    within("the drain behind a dropped stage", DEADLINE, || {
        const EVENTS: u64 = if cfg!(miri) { 20 } else { 2_000 };
        let sum = Arc::new(AtomicU64::new(0));
        let seen = Arc::new(AtomicU64::new(0));
        let (s, n) = (sum.clone(), seen.clone());
        let builder =
            Disruptor::builder(2, || 0u64).handle_events_with(move |e: &u64, seq: i64, _eob| {
                assert_eq!(*e, seq as u64 * 3, "the producer overwrote event {seq}");
                if seq % 64 == 0 {
                    std::thread::yield_now();
                }
                s.fetch_add(*e, Ordering::Relaxed);
                n.fetch_add(1, Ordering::Relaxed);
            });
        let mut builder = builder.then();
        let leaf = builder.event_poller();
        let mut producer = builder.build_single_producer().unwrap();
        drop(leaf);
        for v in 0..EVENTS {
            producer.publish(|e| *e = v * 3).unwrap();
        }
        producer.shutdown().unwrap();
        assert_eq!(seen.load(Ordering::Relaxed), EVENTS);
        assert_eq!(sum.load(Ordering::Relaxed), 3 * EVENTS * (EVENTS - 1) / 2);
    });
}

/// With a stage-0 poller that never polls, a dropped last stage must not
/// make `shutdown_timeout` report a drain that did not happen.
#[test]
fn shutdown_timeout_still_waits_for_a_live_poller_behind_a_dropped_stage() {
    let mut builder = Disruptor::builder(4, || 0u64);
    let first = builder.event_poller();
    let mut builder = builder.then();
    let leaf = builder.event_poller();
    let mut producer = builder.build_single_producer().unwrap();
    drop(leaf);
    producer.publish(|e| *e = 1).unwrap();
    let result = producer.shutdown_timeout(Duration::from_millis(20));
    drop(first);
    assert!(
        matches!(result, Err(ShutdownError::Timeout(_))),
        "{result:?}"
    );
}
