//! Multi-producer stress: 4 producers, and 16 (oversubscribed: 8 threads
//! per core on the 2-core machine), each publishing its own numbered
//! events through rings of 1, 2, 8 and 1024 slots, so the sequences wrap
//! the ring hundreds of thousands of times. The handler checks, as it
//! goes, that
//! - the sequences it is handed are exactly 0, 1, 2, ... (nothing lost,
//!   duplicated or handed out of order), and
//! - each producer's events arrive in that producer's order, with no gap
//!   and no repeat, intact (the producer writes three fields one after
//!   the other: an event read before its producer finished writing it
//!   shows as a mismatch);
//!
//! and after the drain, that every producer's every event arrived. The
//! `Diamond` runs add a second handler in parallel and a third gated on
//! both, each checking the same (multicast and gating under several
//! producers).
//!
//! Sizes, release builds (as `./test.sh` runs this file): 4 producers ×
//! 1,000,000 events on every ring (so a million to four million wraps),
//! 16 producers × 1,000,000 on the ring of 1024, and 16 × 31,250 (500,000
//! events) on the rings of 1, 2 and 8. On those small rings every event is
//! a handoff between threads, a context switch each when oversubscribed:
//! with 16 producers at a million each the file would take many minutes.
//! Measured on the 2-core machine under the load of other work (load
//! average 25-48), after the producer's full-ring wait was changed to
//! yield for 10 ms before napping: 160 s wall, 80 s of CPU (user + system)
//! for the whole file; 4 producers on the ring of 1: 93 s, ring of 2: 30 s,
//! ring of 8: 10 s, 1024: 2 s; the 16-producer runs 1-12 s each. An idle
//! machine should take about the CPU time spread over both cores; not
//! measured (the machine was never idle). Debug builds run a 500th; miri
//! 800 events in all on the small rings, three laps of the ring of 1024. Every wait has a deadline that restarts whenever the
//! leaf handler moves (a run that keeps moving is not a hang), and the runs
//! never overlap.
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use hotq_disruptor::wait::Yielding;
use hotq_disruptor::{Disruptor, Sequence};
use hotq_testkit::{one_run_at_a_time, within_watching};

/// Events per producer: `full` in release builds (as `./test.sh` runs
/// this file), a 500th of it in debug builds; under miri 800 events in all
/// on the small rings (200 per producer of 4, 50 per producer of 16: 100
/// laps of the ring of 8, 800 of the ring of 1), and three laps of the ring
/// of 1024.
const fn per_producer(full: u64, producers: usize, size: usize) -> u64 {
    if cfg!(miri) {
        let total = if 3 * size > 800 { 3 * size } else { 800 };
        (total / producers) as u64
    } else if cfg!(debug_assertions) {
        full / 500
    } else {
        full
    }
}

/// Per producer: 4 producers on every ring, 16 on the ring of 1024.
const MILLION: u64 = 1_000_000;
/// Per producer, for the diamond on the ring of 8 (three handoffs per
/// event): 250,000 events.
const DIAMOND_SMALL: u64 = 62_500;
/// Per producer, 16 producers on the small rings: 500,000 events too.
const SIXTEEN_SMALL: u64 = 31_250;

/// What a producer writes: its number and the index of the event among
/// its own, in two fields written one after the other.
#[derive(Clone, Copy, Debug, Default)]
struct Event {
    producer: u64,
    index: u64,
    /// `!index`, written last: a reader that sees a half-written event
    /// (index and check disagreeing) read before the producer published.
    check: u64,
}

/// What one handler expects next: the next sequence, and per producer the
/// next index.
struct Expect {
    name: &'static str,
    next_seq: Sequence,
    next_index: Vec<u64>,
    per_producer: u64,
    /// Events handled so far, for the test to read after the drain, and
    /// the progress the hang deadline watches.
    handled: Arc<AtomicU64>,
}

impl Expect {
    fn new(name: &'static str, producers: usize, per_producer: u64) -> Self {
        Expect {
            per_producer,
            name,
            next_seq: 0,
            next_index: vec![0; producers],
            handled: Arc::new(AtomicU64::new(0)),
        }
    }

    fn on_event(&mut self, e: &Event, seq: Sequence) {
        let name = self.name;
        assert_eq!(
            seq, self.next_seq,
            "{name}: handed sequence {seq}, expected {}",
            self.next_seq
        );
        self.next_seq += 1;
        let p = e.producer as usize;
        assert!(
            p < self.next_index.len(),
            "{name}: {e:?} at {seq}: no such producer"
        );
        assert_eq!(
            e.check, !e.index,
            "{name}: {e:?} at {seq} was read half-written"
        );
        assert_eq!(
            e.index, self.next_index[p],
            "{name}: producer {p}'s event {} at sequence {seq}, expected its event {} \
             (lost, duplicated or reordered)",
            e.index, self.next_index[p]
        );
        self.next_index[p] += 1;
        assert!(
            self.next_index[p] <= self.per_producer,
            "{name}: producer {p} published more than {} events",
            self.per_producer
        );
        self.handled.store(self.next_seq as u64, Ordering::Relaxed);
    }
}

/// The consumers of a stress run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Consumers {
    /// One handler: every handoff is producer to consumer, so the
    /// sequencer's claims and availability flags carry the whole load.
    One,
    /// Handlers A and B in parallel, then C gated on both: multicast and
    /// gating under several producers (three handoffs per event, so the
    /// small rings are slower).
    Diamond,
}

fn stress(producers: usize, per_producer: u64, size: usize, consumers: Consumers) {
    let per_producer = self::per_producer(per_producer, producers, size);
    let _alone = one_run_at_a_time();
    let what =
        format!("{producers} producers × {per_producer} events, ring of {size}, {consumers:?}");
    let total = producers as u64 * per_producer;
    let mut a = Expect::new("handler A", producers, per_producer);
    let mut b = Expect::new("handler B", producers, per_producer);
    let mut c = Expect::new("handler C (after A and B)", producers, per_producer);
    let handled = match consumers {
        Consumers::One => vec![a.handled.clone()],
        Consumers::Diamond => vec![a.handled.clone(), b.handled.clone(), c.handled.clone()],
    };
    let leaf = handled.last().unwrap().clone();
    let start = Instant::now();
    let w = what.clone();
    // The deadline restarts whenever the leaf moves.
    within_watching(&what, leaf, move || {
        let builder = Disruptor::builder(size, Event::default)
            .wait_strategy(Yielding)
            .handle_events_with(move |e: &Event, seq: Sequence, _| a.on_event(e, seq));
        let builder = match consumers {
            Consumers::One => builder,
            Consumers::Diamond => builder
                .handle_events_with(move |e: &Event, seq: Sequence, _| b.on_event(e, seq))
                .then()
                .handle_events_with(move |e: &Event, seq: Sequence, _| c.on_event(e, seq)),
        };
        let producer = builder.build_multi_producer().unwrap();
        std::thread::scope(|s| {
            for id in 0..producers as u64 {
                let mut producer = producer.clone();
                s.spawn(move || {
                    for index in 0..per_producer {
                        let published = producer.publish(|e| {
                            e.producer = id;
                            e.index = index;
                            e.check = !index;
                        });
                        // Halted: a handler's check failed; shutdown
                        // below reports which.
                        if published.is_err() {
                            return;
                        }
                    }
                });
            }
        });
        if let Err(e) = producer.shutdown() {
            panic!("{w}: {e}");
        }
    });
    // Each producer's indexes arrived consecutively (checked above) and
    // none beyond `per_producer` was published, so `total` handled events
    // means every producer's every event.
    for (name, h) in ["A", "B", "C"].iter().zip(&handled) {
        assert_eq!(
            h.load(Ordering::Relaxed),
            total,
            "{what}: events handler {name} saw"
        );
    }
    eprintln!("{what}: {:.2?}", start.elapsed());
}

#[test]
fn four_producers_ring_of_1() {
    stress(4, MILLION, 1, Consumers::One);
}

#[test]
fn four_producers_ring_of_2() {
    stress(4, MILLION, 2, Consumers::One);
}

#[test]
fn four_producers_ring_of_8() {
    stress(4, MILLION, 8, Consumers::One);
}

#[test]
fn four_producers_ring_of_1024() {
    stress(4, MILLION, 1024, Consumers::One);
}

#[test]
fn sixteen_producers_ring_of_1() {
    stress(16, SIXTEEN_SMALL, 1, Consumers::One);
}

#[test]
fn sixteen_producers_ring_of_2() {
    stress(16, SIXTEEN_SMALL, 2, Consumers::One);
}

#[test]
fn sixteen_producers_ring_of_8() {
    stress(16, SIXTEEN_SMALL, 8, Consumers::One);
}

#[test]
fn sixteen_producers_ring_of_1024() {
    stress(16, MILLION, 1024, Consumers::One);
}

#[test]
fn four_producers_diamond_ring_of_8() {
    stress(4, DIAMOND_SMALL, 8, Consumers::Diamond);
}

#[test]
fn four_producers_diamond_ring_of_1024() {
    stress(4, MILLION, 1024, Consumers::Diamond);
}
