//! Every consumer graph of the issue, each one builder expression:
//! unicast (1P-1C), multicast (1P-3C in parallel), pipeline (1P-3C in
//! series) and diamond (A and B in parallel, then C). For each:
//! - every handler sees every event, in sequence order, with the value the
//!   producer wrote for that sequence;
//! - a gated stage never sees an event before all of its dependencies
//!   did: pipeline stages stamp the event itself (`handle_events_mut_with`)
//!   and each later stage checks every earlier stamp; parallel handlers
//!   cannot write the event, so each one publishes its progress in a
//!   counter that the dependent stage checks;
//! - the producer never overwrites an event a leaf has not processed: the
//!   leaf is slow and reads the event twice, a pause apart, so a producer
//!   that wraps onto the slot while the leaf holds it changes what it reads.
mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use common::{Log, assert_all_in_order, assert_last_ends_batch, payload};
use hotq_disruptor::wait::{
    Blocking, BusySpin, BusySpinWithoutHint, PhasedBackoff, Sleeping, TimeoutBlocking, Yielding,
};
use hotq_disruptor::{Disruptor, Sequence};
use hotq_testkit::{DEADLINE, within};

/// Events per test: enough for hundreds of wraps of the small rings; under
/// miri, where the rings are small ([`SIZES`]), five laps of the ring of 8.
const EVENTS: u64 = if cfg!(miri) {
    40
} else if cfg!(debug_assertions) {
    5_000
} else {
    200_000
};

/// The ring sizes; the ring of 1024 needs more than 2048 events to wrap
/// twice, too many for miri.
const SIZES: &[usize] = if cfg!(miri) {
    &[1, 2, 8]
} else {
    &[1, 2, 8, 1024]
};

/// The stamps a pipeline stage leaves on the event: `stamps[k]` is the
/// sequence stage `k` last processed in this slot.
#[derive(Debug)]
struct Event {
    value: u64,
    stamps: [Sequence; 3],
}

impl Default for Event {
    fn default() -> Self {
        Event {
            value: 0,
            stamps: [-1; 3],
        }
    }
}

/// A handler that is slower than the producer, and checks that the event
/// it holds is not rewritten while it holds it.
fn slow_leaf_check(what: &str, e: &Event, seq: Sequence) {
    let first = e.value;
    for _ in 0..64 {
        std::hint::spin_loop();
    }
    if seq % 64 == 0 {
        std::thread::yield_now();
    }
    let again = e.value;
    assert!(
        first == payload(seq) && again == payload(seq),
        "{what}: sequence {seq} read {first:#x} then {again:#x}, expected {:#x}: the producer \
         overwrote an event the leaf had not processed",
        payload(seq)
    );
}

/// Progress of a parallel handler: the last sequence it finished.
fn progress() -> Arc<AtomicI64> {
    Arc::new(AtomicI64::new(-1))
}

/// Records that the handler finished `seq`. Release: pairs with the
/// Acquire in [`assert_done`] of the dependent stage.
fn finish(p: &AtomicI64, seq: Sequence) {
    p.store(seq, Ordering::Release);
}

fn assert_done(what: &str, dependency: &str, p: &AtomicI64, seq: Sequence) {
    let done = p.load(Ordering::Acquire);
    assert!(
        done >= seq,
        "{what} got sequence {seq} while {dependency} had finished only up to {done}"
    );
}

fn publish_all<P>(what: &str, mut publish: P)
where
    P: FnMut(&mut dyn FnMut(&mut Event)) -> Sequence,
{
    for i in 0..EVENTS as Sequence {
        let seq = publish(&mut |e: &mut Event| e.value = payload(i));
        assert_eq!(seq, i, "{what}: publish returned the wrong sequence");
    }
}

#[test]
fn unicast_handler_sees_every_event_in_order() {
    for &size in SIZES {
        let what = format!("unicast, size {size}");
        let log = Log::new();
        let l = log.clone();
        let w = what.clone();
        within(&what, DEADLINE, move || {
            let mut producer = Disruptor::builder(size, Event::default)
                .wait_strategy(Yielding)
                .handle_events_with(move |e: &Event, seq: Sequence, eob: bool| {
                    slow_leaf_check(&w, e, seq);
                    l.record(seq, e.value, eob);
                })
                .build_single_producer()
                .unwrap();
            for i in 0..EVENTS as Sequence {
                let seq = producer.publish(|e| e.value = payload(i)).unwrap();
                assert_eq!(seq, i);
            }
            producer.shutdown().unwrap();
        });
        let seen = log.take();
        assert_all_in_order(&what, &seen, EVENTS, payload);
        assert_last_ends_batch(&what, &seen);
    }
}

/// One unicast run per wait strategy, so each strategy's wait and wake-up
/// paths carry a full run of events (a strategy that loses a wake-up or
/// returns before the sequence is available fails here).
#[test]
fn unicast_works_with_every_wait_strategy() {
    fn run<W>(name: &str, strategy: W)
    where
        W: hotq_disruptor::wait::WaitStrategy + Send + Sync + 'static,
    {
        let what = format!("unicast with {name}");
        let log = Log::new();
        let l = log.clone();
        within(&what, DEADLINE, move || {
            let mut producer = Disruptor::builder(8, Event::default)
                .wait_strategy(strategy)
                .handle_events_with(move |e: &Event, seq, eob| l.record(seq, e.value, eob))
                .build_single_producer()
                .unwrap();
            for i in 0..EVENTS as Sequence / 4 {
                producer.publish(|e| e.value = payload(i)).unwrap();
            }
            producer.shutdown().unwrap();
        });
        let seen = log.take();
        assert_all_in_order(&what, &seen, EVENTS / 4, payload);
        assert_last_ends_batch(&what, &seen);
    }
    run("BusySpin", BusySpin);
    run("Yielding", Yielding);
    run("Sleeping", Sleeping::default());
    run(
        "Sleeping 1 ms",
        Sleeping::new(std::time::Duration::from_millis(1)),
    );
    run("Sleeping at once", Sleeping::default().with_tries(0, 0));
    run("BusySpinWithoutHint", BusySpinWithoutHint);
    run(
        "TimeoutBlocking",
        TimeoutBlocking::new(std::time::Duration::from_millis(1)),
    );
    run("Blocking", Blocking);
    run("PhasedBackoff", PhasedBackoff::default());
}

#[test]
fn multicast_handlers_each_see_every_event_in_order() {
    for &size in SIZES {
        let what = format!("multicast 1P-3C, size {size}");
        let logs = [Log::new(), Log::new(), Log::new()];
        let [a, b, c] = logs.clone();
        let w = what.clone();
        within(&what, DEADLINE, move || {
            let mut producer = Disruptor::builder(size, Event::default)
                .wait_strategy(Yielding)
                .handle_events_with(move |e: &Event, seq, eob| a.record(seq, e.value, eob))
                .handle_events_with(move |e: &Event, seq, eob| {
                    // The slow one: the producer must wait for it too.
                    slow_leaf_check(&w, e, seq);
                    b.record(seq, e.value, eob);
                })
                .handle_events_with(move |e: &Event, seq, eob| c.record(seq, e.value, eob))
                .build_single_producer()
                .unwrap();
            publish_all("multicast", |f| producer.publish(f).unwrap());
            producer.shutdown().unwrap();
        });
        for (i, log) in logs.iter().enumerate() {
            let what = format!("{what}, handler {i}");
            let seen = log.take();
            assert_all_in_order(&what, &seen, EVENTS, payload);
            assert_last_ends_batch(&what, &seen);
        }
    }
}

#[test]
fn pipeline_stage_never_sees_an_event_before_the_stages_before_it() {
    for &size in SIZES {
        let what = format!("pipeline 1P-3C, size {size}");
        let logs = [Log::new(), Log::new(), Log::new()];
        let [a, b, c] = logs.clone();
        let w = what.clone();
        within(&what, DEADLINE, move || {
            // Stage k checks that stages 0..k stamped this very sequence,
            // and that stages k.. (itself, and the leaf the producer is
            // gated on) stamped the sequence one lap before it: their
            // writes happened before this stage got the slot.
            let stage = move |k: usize, e: &mut Event, seq: Sequence| {
                let lap_before = if seq >= size as Sequence {
                    seq - size as Sequence
                } else {
                    -1
                };
                for (j, &stamp) in e.stamps.iter().enumerate() {
                    let want = if j < k { seq } else { lap_before };
                    assert_eq!(
                        stamp, want,
                        "pipeline: stage {k} got sequence {seq} while stage {j}'s stamp on it \
                         was {stamp} (expected {want})"
                    );
                }
                e.stamps[k] = seq;
            };
            let mut producer = Disruptor::builder(size, Event::default)
                .wait_strategy(Yielding)
                .handle_events_mut_with(move |e: &mut Event, seq, eob| {
                    stage(0, e, seq);
                    a.record(seq, e.value, eob);
                })
                .then()
                .handle_events_mut_with(move |e: &mut Event, seq, eob| {
                    stage(1, e, seq);
                    b.record(seq, e.value, eob);
                })
                .then()
                .handle_events_mut_with(move |e: &mut Event, seq, eob| {
                    stage(2, e, seq);
                    slow_leaf_check(&w, e, seq);
                    c.record(seq, e.value, eob);
                })
                .build_single_producer()
                .unwrap();
            publish_all("pipeline", |f| producer.publish(f).unwrap());
            producer.shutdown().unwrap();
        });
        for (i, log) in logs.iter().enumerate() {
            let what = format!("{what}, stage {i}");
            let seen = log.take();
            assert_all_in_order(&what, &seen, EVENTS, payload);
            assert_last_ends_batch(&what, &seen);
        }
    }
}

#[test]
fn diamond_join_never_sees_an_event_before_both_branches() {
    for &size in SIZES {
        let what = format!("diamond (A, B, then C), size {size}");
        let logs = [Log::new(), Log::new(), Log::new()];
        let [a, b, c] = logs.clone();
        let (done_a, done_b) = (progress(), progress());
        let (pa, pb) = (done_a.clone(), done_b.clone());
        let w = what.clone();
        within(&what, DEADLINE, move || {
            let mut producer = Disruptor::builder(size, Event::default)
                .wait_strategy(Yielding)
                .handle_events_with(move |e: &Event, seq, eob| {
                    a.record(seq, e.value, eob);
                    finish(&pa, seq);
                })
                .handle_events_with(move |e: &Event, seq, eob| {
                    // B is slower than A: C must wait for the slower branch.
                    if seq % 16 == 0 {
                        std::thread::yield_now();
                    }
                    b.record(seq, e.value, eob);
                    finish(&pb, seq);
                })
                .then()
                .handle_events_with(move |e: &Event, seq, eob| {
                    assert_done("diamond: C", "A", &done_a, seq);
                    assert_done("diamond: C", "B", &done_b, seq);
                    slow_leaf_check(&w, e, seq);
                    c.record(seq, e.value, eob);
                })
                .build_single_producer()
                .unwrap();
            publish_all("diamond", |f| producer.publish(f).unwrap());
            producer.shutdown().unwrap();
        });
        for (name, log) in ["A", "B", "C"].iter().zip(&logs) {
            let what = format!("{what}, handler {name}");
            let seen = log.take();
            assert_all_in_order(&what, &seen, EVENTS, payload);
            assert_last_ends_batch(&what, &seen);
        }
    }
}

/// The same gates with several producers: the multi-producer sequencer's
/// availability flags, not the cursor, tell the first stage what it may
/// read, and the leaf still gates every producer.
#[test]
fn diamond_with_two_producers_keeps_every_gate() {
    for size in [1, 2, 8] {
        let what = format!("diamond, 2 producers, size {size}");
        let log_c = Log::new();
        let (done_a, done_b) = (progress(), progress());
        let (pa, pb) = (done_a.clone(), done_b.clone());
        let c = log_c.clone();
        let per_producer = EVENTS / 2;
        within(&what, DEADLINE, move || {
            let producer = Disruptor::builder(size, Event::default)
                .wait_strategy(Yielding)
                .handle_events_with(move |_: &Event, seq, _| finish(&pa, seq))
                .handle_events_with(move |_: &Event, seq, _| finish(&pb, seq))
                .then()
                .handle_events_with(move |e: &Event, seq, eob| {
                    assert_done("diamond: C", "A", &done_a, seq);
                    assert_done("diamond: C", "B", &done_b, seq);
                    // The value encodes (producer, index): read it twice
                    // a pause apart, as the slow leaf does.
                    let first = e.value;
                    std::hint::spin_loop();
                    assert_eq!(first, e.value, "sequence {seq} rewritten under the leaf");
                    c.record(seq, first, eob);
                })
                .build_multi_producer()
                .unwrap();
            std::thread::scope(|s| {
                for p in 0..2u64 {
                    let mut producer = producer.clone();
                    s.spawn(move || {
                        for i in 0..per_producer {
                            producer.publish(|e| e.value = p << 32 | i).unwrap();
                        }
                    });
                }
            });
            producer.shutdown().unwrap();
        });
        let seen = log_c.take();
        assert_eq!(seen.len() as u64, 2 * per_producer, "{what}: events seen");
        let mut next = [0u64; 2];
        for (i, s) in seen.iter().enumerate() {
            assert_eq!(s.seq, i as Sequence, "{what}: sequences in order");
            let (p, index) = ((s.value >> 32) as usize, s.value & 0xFFFF_FFFF);
            assert_eq!(index, next[p], "{what}: producer {p}'s events in its order");
            next[p] += 1;
        }
    }
}
