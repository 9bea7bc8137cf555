//! Loom models of `hotq-disruptor`: the real builder, sequencers, barriers
//! and processors, whose threads are loom threads under `--cfg loom` (the
//! crate's `sync` module), on rings of 2 slots so that three events cross
//! the wrap.
//!
//! Every model ends with `shutdown()` (which drains and joins the
//! processors) and asserts the contract on what the handlers saw: every
//! sequence exactly once, in order, with the value its producer wrote; and
//! what a gated stage saw before it. The event slots are loom
//! `UnsafeCell`s inside the crate, so a handler's read that is not ordered
//! after the producer's write (or a producer's write racing a read) is a
//! loom failure of its own.
//!
//! The models that are not about parking name `BusySpin` themselves
//! rather than take the builder's default (`Blocking`), so that each
//! model explores the waits it is about.
//!
//! Run: `RUSTFLAGS="--cfg loom" cargo test -p hotq-loom-tests --release
//! --target-dir target/loom --test disruptor -- --nocapture`.
#![cfg(loom)]

use std::sync::Mutex;

use hotq_disruptor::wait::{Blocking, BusySpin, TimeoutBlocking};
use hotq_disruptor::{Disruptor, Sequence};
use hotq_loom_tests::{Spin, model};
use loom::sync::Arc;
use loom::sync::atomic::{AtomicI64, Ordering};
use loom::thread;

/// What a handler saw: (sequence, value) in the order it was handed them.
/// A plain `std` lock: only the handler's thread writes, and the model
/// reads it after `shutdown` joined that thread, so it adds nothing for
/// loom to explore.
#[derive(Clone, Default)]
struct Log(std::sync::Arc<Mutex<Vec<(Sequence, u64)>>>);

impl Log {
    fn record(&self, seq: Sequence, value: u64) {
        self.0.lock().unwrap().push((seq, value));
    }

    fn take(&self) -> Vec<(Sequence, u64)> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

/// The value the producers write for the event they publish as their
/// `index`-th, by producer `producer`.
fn value(producer: u64, index: u64) -> u64 {
    producer << 8 | (index + 1)
}

/// Single producer, one handler, size 2, three events: the third event
/// reuses slot 0, so the producer must wait for the handler to release
/// it (gating across the wrap) and the handler must see the third value,
/// not the first (the cursor publishes the write).
#[test]
fn single_producer_publish_and_consume_across_the_wrap() {
    model(
        "single_producer_publish_and_consume_across_the_wrap",
        3,
        || {
            let log = Log::default();
            let l = log.clone();
            let mut producer = Disruptor::builder(2, || 0u64)
                .wait_strategy(BusySpin)
                .handle_events_with(move |e: &u64, seq, _| l.record(seq, *e))
                .build_single_producer()
                .unwrap();
            for i in 0..3 {
                assert_eq!(
                    producer.publish(|e| *e = value(0, i)).unwrap(),
                    i as Sequence
                );
            }
            producer.shutdown().unwrap();
            assert_eq!(
                log.take(),
                [(0, value(0, 0)), (1, value(0, 1)), (2, value(0, 2))]
            );
        },
    );
}

/// Two producers (the model's thread and one more) on size 2: three
/// claims, so one producer's claim is in the second lap while the other's
/// may still be unpublished in the first. The handler must see each
/// sequence once, in order, with the value of the producer that claimed
/// it (availability flags must tell laps apart), and each producer's own
/// events in its order. Both handles shut down without waiting for each
/// other: the last one to go drains both handles' events.
#[test]
fn multi_producer_claims_and_publishes_across_laps() {
    model("multi_producer_claims_and_publishes_across_laps", 2, || {
        let log = Log::default();
        let l = log.clone();
        let mut producer = Disruptor::builder(2, || 0u64)
            .wait_strategy(BusySpin)
            .handle_events_with(move |e: &u64, seq, _| l.record(seq, *e))
            .build_multi_producer()
            .unwrap();
        let mut other = producer.clone();
        let t = thread::spawn(move || {
            let s = other.publish(|e| *e = value(1, 0)).unwrap();
            // Whichever handle goes last drains: this one, or the model's.
            other.shutdown().unwrap();
            vec![(s, value(1, 0))]
        });
        let mut mine = Vec::new();
        for i in 0..2 {
            let s = producer.publish(|e| *e = value(0, i)).unwrap();
            mine.push((s, value(0, i)));
        }
        // Not joined first: the last handle's drain must see the other
        // handle's publish through the handle count alone.
        producer.shutdown().unwrap();
        let mut claimed = t.join().unwrap();
        claimed.extend(mine);
        claimed.sort();
        let seen = log.take();
        assert_eq!(
            seen, claimed,
            "the handler saw what each claim wrote, in sequence order"
        );
        let own: Vec<u64> = seen
            .iter()
            .map(|&(_, v)| v)
            .filter(|v| v >> 8 == 0)
            .collect();
        assert_eq!(own, [value(0, 0), value(0, 1)], "producer 0's order");
    });
}

/// The same with a batch claim of 2 racing a single claim: the batch's
/// events are consecutive sequences and all of them are visible once the
/// handler gets them.
#[test]
fn multi_producer_batch_claim_races_a_single_claim() {
    model("multi_producer_batch_claim_races_a_single_claim", 2, || {
        let log = Log::default();
        let l = log.clone();
        let mut producer = Disruptor::builder(2, || 0u64)
            .wait_strategy(BusySpin)
            .handle_events_with(move |e: &u64, seq, _| l.record(seq, *e))
            .build_multi_producer()
            .unwrap();
        let mut other = producer.clone();
        let t = thread::spawn(move || other.publish(|e| *e = value(1, 0)).unwrap());
        let last = producer
            .batch_publish(2, |events| {
                for (i, e) in events.enumerate() {
                    *e = value(0, i as u64);
                }
            })
            .unwrap();
        let single = t.join().unwrap();
        producer.shutdown().unwrap();
        let mut want = vec![
            (last - 1, value(0, 0)),
            (last, value(0, 1)),
            (single, value(1, 0)),
        ];
        want.sort();
        assert_eq!(log.take(), want);
    });
}

/// Two stages on size 1: stage 2 must never see an event before stage 1
/// processed it. Stage 1 is a mutable handler that stamps the event with
/// its sequence; stage 2 checks the stamp, and also stage 1's own progress
/// counter. Two events, so the producer wraps onto the slot that stage 2
/// (the leaf) must have released first. (Size 2 with three events is the
/// same shape and takes minutes at bound 1.)
#[test]
fn two_stage_gate_stage_two_never_runs_ahead() {
    model("two_stage_gate_stage_two_never_runs_ahead", 1, || {
        #[derive(Default)]
        struct Event {
            value: u64,
            stamp: Sequence,
        }
        let log = Log::default();
        let l = log.clone();
        let done = Arc::new(AtomicI64::new(-1));
        let d = done.clone();
        let mut producer = Disruptor::builder(1, Event::default)
            .wait_strategy(BusySpin)
            .handle_events_mut_with(move |e: &mut Event, seq, _| {
                e.stamp = seq;
                // Relaxed is enough for the check below: stage 2 reaches
                // this event only through stage 1's sequence (Acquire),
                // which is published after this store.
                d.store(seq, Ordering::Relaxed);
            })
            .then()
            .handle_events_with(move |e: &Event, seq, _| {
                assert_eq!(e.stamp, seq, "stage 2 got {seq} before stage 1 stamped it");
                assert!(
                    done.load(Ordering::Relaxed) >= seq,
                    "stage 2 got {seq} before stage 1 finished it"
                );
                l.record(seq, e.value);
            })
            .build_single_producer()
            .unwrap();
        for i in 0..3 {
            producer.publish(|e| e.value = value(0, i)).unwrap();
        }
        producer.shutdown().unwrap();
        assert_eq!(
            log.take(),
            [(0, value(0, 0)), (1, value(0, 1)), (2, value(0, 2))]
        );
    });
}

/// `Blocking`: the handler parks when nothing is available; the producer
/// publishes one event at a time and waits (blocking, in loom's sense: a
/// `loom::sync::Notify`) until the handler acknowledges it, so a lost
/// wake-up leaves both threads blocked, which loom reports as a deadlock.
/// Only after both events does the shutdown (whose halt would wake
/// everyone) run.
#[test]
fn blocking_park_unpark_never_loses_a_wake_up() {
    model("blocking_park_unpark_never_loses_a_wake_up", 3, || {
        let log = Log::default();
        let l = log.clone();
        let acked = Arc::new(loom::sync::Notify::new());
        let ack = acked.clone();
        let mut producer = Disruptor::builder(2, || 0u64)
            .wait_strategy(Blocking)
            .handle_events_with(move |e: &u64, seq, _| {
                l.record(seq, *e);
                ack.notify();
            })
            .build_single_producer()
            .unwrap();
        for i in 0..2 {
            producer.publish(|e| *e = value(0, i)).unwrap();
            acked.wait();
        }
        producer.shutdown().unwrap();
        assert_eq!(log.take(), [(0, value(0, 0)), (1, value(0, 1))]);
    });
}

/// `TimeoutBlocking` parks through `Notifier::park_timeout`, which has its
/// own announcement and fence: the same ping-pong as the `Blocking` model,
/// so a lost wake-up is a loom deadlock (loom's `wait_timeout` never times
/// out, and the timeout is far longer than any run, so only a signal can
/// wake the handler).
#[test]
fn timeout_blocking_park_unpark_never_loses_a_wake_up() {
    model(
        "timeout_blocking_park_unpark_never_loses_a_wake_up",
        3,
        || {
            let log = Log::default();
            let l = log.clone();
            let acked = Arc::new(loom::sync::Notify::new());
            let ack = acked.clone();
            let mut producer = Disruptor::builder(2, || 0u64)
                .wait_strategy(TimeoutBlocking::new(std::time::Duration::from_secs(3600)))
                .handle_events_with(move |e: &u64, seq, _| {
                    l.record(seq, *e);
                    ack.notify();
                })
                .build_single_producer()
                .unwrap();
            for i in 0..2 {
                producer.publish(|e| *e = value(0, i)).unwrap();
                acked.wait();
            }
            producer.shutdown().unwrap();
            assert_eq!(log.take(), [(0, value(0, 0)), (1, value(0, 1))]);
        },
    );
}

/// `Blocking` between stages: stage 2 parks waiting on stage 1's progress,
/// which stage 1 must signal. As above, the producer waits for stage 2's
/// acknowledgement before going on, so a lost wake-up is a deadlock.
#[test]
fn blocking_second_stage_is_woken_by_the_first() {
    model("blocking_second_stage_is_woken_by_the_first", 2, || {
        let log = Log::default();
        let l = log.clone();
        let acked = Arc::new(loom::sync::Notify::new());
        let ack = acked.clone();
        let mut producer = Disruptor::builder(2, || 0u64)
            .wait_strategy(Blocking)
            .handle_events_with(|_: &u64, _, _| {})
            .then()
            .handle_events_with(move |e: &u64, seq, _| {
                l.record(seq, *e);
                ack.notify();
            })
            .build_single_producer()
            .unwrap();
        producer.publish(|e| *e = value(0, 0)).unwrap();
        acked.wait();
        producer.shutdown().unwrap();
        assert_eq!(log.take(), [(0, value(0, 0))]);
    });
}

/// Shutdown right after publishing, with two stages that may not have
/// started yet: every published event goes through both stages before the
/// processors stop (LMAX's #517 loses events published before the
/// consumers started).
#[test]
fn shutdown_drains_every_published_event() {
    model("shutdown_drains_every_published_event", 2, || {
        let (first, last) = (Log::default(), Log::default());
        let (f, l) = (first.clone(), last.clone());
        let mut producer = Disruptor::builder(2, || 0u64)
            .wait_strategy(BusySpin)
            .handle_events_with(move |e: &u64, seq, _| f.record(seq, *e))
            .then()
            .handle_events_with(move |e: &u64, seq, _| l.record(seq, *e))
            .build_single_producer()
            .unwrap();
        for i in 0..2 {
            producer.publish(|e| *e = value(0, i)).unwrap();
        }
        producer.shutdown().unwrap();
        let want = [(0, value(0, 0)), (1, value(0, 1))];
        assert_eq!(first.take(), want, "stage 1");
        assert_eq!(last.take(), want, "stage 2");
    });
}

/// An `EventPoller` as the only consumer, on its own thread, ring of 1:
/// the second event reuses the slot the poller read the first from, so the
/// producer may write it only after the poll that handed out the first has
/// released it (the poller's release guard). The poller polls until the
/// shutdown halts it, writing each value it gets to `seen`; once `shutdown`
/// returns (before the poller's thread is joined) the model reads `seen`:
/// the shutdown's drain waited for the poller, so its handling of both
/// events happens before (a plain Relaxed load would be free to read an
/// older value if it did not).
#[test]
fn poller_releases_each_slot_and_the_drain_waits_for_it() {
    model(
        "poller_releases_each_slot_and_the_drain_waits_for_it",
        2,
        || {
            let mut builder = Disruptor::builder(1, || 0u64);
            let mut poller = builder.event_poller();
            let mut producer = builder.build_single_producer().unwrap();
            let seen = Arc::new(AtomicI64::new(-1));
            let s = seen.clone();
            let t = thread::spawn(move || {
                let mut got = Vec::new();
                let mut spin = Spin::new();
                loop {
                    match poller.poll(|e, seq, _| {
                        got.push((seq, *e));
                        // Relaxed: what orders it for the model's thread is
                        // the poller's sequence store after this closure.
                        s.store(seq, Ordering::Relaxed);
                    }) {
                        Ok(0) => spin.wait(),
                        Ok(_) => spin = Spin::new(),
                        Err(_) => break,
                    }
                }
                got
            });
            for i in 0..2 {
                producer.publish(|e| *e = value(0, i)).unwrap();
            }
            producer.shutdown().unwrap();
            assert_eq!(
                seen.load(Ordering::Relaxed),
                1,
                "shutdown returned before the poller's handling of 1 was visible"
            );
            assert_eq!(t.join().unwrap(), [(0, value(0, 0)), (1, value(0, 1))]);
        },
    );
}

/// A poller dropped after its first event, ring of 1: the drop stops it
/// gating the producer (its sequence jumps to `Sequence::MAX`), so the
/// second publish goes ahead, and its write to slot 0 must still be ordered
/// after the poller's read of the first event there.
#[test]
fn dropped_poller_releases_its_last_slot() {
    model("dropped_poller_releases_its_last_slot", 2, || {
        let mut builder = Disruptor::builder(1, || 0u64);
        let mut poller = builder.event_poller();
        let mut producer = builder.build_single_producer().unwrap();
        let t = thread::spawn(move || {
            let mut got = Vec::new();
            let mut spin = Spin::new();
            while got.is_empty() {
                match poller.poll(|e, seq, _| got.push((seq, *e))) {
                    Ok(0) => spin.wait(),
                    Ok(_) => {}
                    Err(e) => panic!("halted before the first event: {e:?}"),
                }
            }
            drop(poller);
            got
        });
        for i in 0..2 {
            producer.publish(|e| *e = value(0, i)).unwrap();
        }
        producer.shutdown().unwrap();
        assert_eq!(t.join().unwrap(), [(0, value(0, 0))]);
    });
}

/// A join gate on a ring of 1: J (mutable) is after the two read-only
/// handlers X and Y, which are unordered with each other. J must see each
/// event only after both have finished it (each records its progress in a
/// counter J checks), and J's write to the slot must be ordered after both
/// reads of it (the slot is a loom `UnsafeCell`, so a write that races a
/// read is a loom failure). One event: a second, wrapping onto the slot
/// that J (the only leaf) must release, took the model from 171,674 to
/// 591,458 executions (230 s on the loaded 2-core machine); the producers'
/// gating on a leaf across the wrap is the two-stage model's job. Four
/// threads with the model's.
#[test]
fn join_gate_waits_for_both_dependencies() {
    model("join_gate_waits_for_both_dependencies", 1, || {
        let log = Log::default();
        let l = log.clone();
        let done = [Arc::new(AtomicI64::new(-1)), Arc::new(AtomicI64::new(-1))];
        let [x, y] = done.clone();
        let mut producer = Disruptor::builder(1, || 0u64)
            .wait_strategy(BusySpin)
            .named("x")
            .handle_events_with(move |_e: &u64, seq, _| x.store(seq, Ordering::Relaxed))
            .named("y")
            .handle_events_with(move |_e: &u64, seq, _| y.store(seq, Ordering::Relaxed))
            .after(["x", "y"])
            .handle_events_mut_with(move |e: &mut u64, seq, _| {
                for (name, d) in ["x", "y"].iter().zip(&done) {
                    // Relaxed: J reaches this event only through both
                    // sequences (Acquire), each stored after its counter.
                    assert!(
                        d.load(Ordering::Relaxed) >= seq,
                        "the join got {seq} before {name} finished it"
                    );
                }
                l.record(seq, *e);
                *e = 0;
            })
            .build_single_producer()
            .unwrap();
        for i in 0..1 {
            producer.publish(|e| *e = value(0, i)).unwrap();
        }
        producer.shutdown().unwrap();
        assert_eq!(log.take(), [(0, value(0, 0))]);
    });
}
