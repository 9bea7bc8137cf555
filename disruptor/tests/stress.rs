//! Multi-producer stress: 4 producers, and 16 (oversubscribed: 8 threads
//! per core on the 2-core machine), each publishing its own numbered
//! events through rings of 1, 2, 8 and 1024 slots, so the sequences wrap
//! the ring hundreds of thousands of times. One handler checks, as it
//! goes, that
//! - the sequences it is handed are exactly 0, 1, 2, ... (nothing lost,
//!   duplicated or handed out of order), and
//! - each producer's events arrive in that producer's order, with no gap
//!   and no repeat (a lost event, a duplicate, or an event read from a
//!   slot before its producer finished writing it would all show here:
//!   the producer writes its index in two halves of the event);
//!
//! and after the drain, that every producer's every event arrived.
//! A second handler in parallel and a third one gated on both check the
//! same of what they are handed (multicast and gating under several
//! producers).
//!
//! Sizes: 1,000,000 events per producer in release builds (as `./test.sh`
//! runs this file), 2,000 in debug builds and 200 under miri. Every wait
//! has a deadline that restarts whenever the handler moves (a run that
//! keeps moving is not a hang), and the heavy runs never overlap.
mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use common::{one_run_at_a_time, within_watching};
use hotq_disruptor::wait::Yielding;
use hotq_disruptor::{Disruptor, Sequence};

const PER_PRODUCER: u64 = if cfg!(miri) {
    200
} else if cfg!(debug_assertions) {
    2_000
} else {
    1_000_000
};

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
    /// Events handled so far, for the test to read after the drain, and
    /// the progress the hang deadline watches.
    handled: Arc<AtomicU64>,
}

impl Expect {
    fn new(name: &'static str, producers: usize) -> Self {
        Expect {
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
        self.handled.store(self.next_seq as u64, Ordering::Relaxed);
    }
}

fn stress(producers: usize, size: usize) {
    let _alone = one_run_at_a_time();
    let what = format!("{producers} producers × {PER_PRODUCER} events, ring of {size}");
    let total = producers as u64 * PER_PRODUCER;
    let mut a = Expect::new("handler A", producers);
    let mut b = Expect::new("handler B", producers);
    let mut c = Expect::new("handler C (after A and B)", producers);
    let handled = [a.handled.clone(), b.handled.clone(), c.handled.clone()];
    let start = Instant::now();
    let w = what.clone();
    // The deadline restarts whenever the leaf moves.
    within_watching(&what, c.handled.clone(), move || {
        let producer = Disruptor::builder(size, Event::default)
            .wait_strategy(Yielding)
            .handle_events_with(move |e: &Event, seq: Sequence, _| a.on_event(e, seq))
            .handle_events_with(move |e: &Event, seq: Sequence, _| b.on_event(e, seq))
            .then()
            .handle_events_with(move |e: &Event, seq: Sequence, _| c.on_event(e, seq))
            .build_multi_producer()
            .unwrap();
        std::thread::scope(|s| {
            for id in 0..producers as u64 {
                let mut producer = producer.clone();
                s.spawn(move || {
                    for index in 0..PER_PRODUCER {
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
    // none beyond PER_PRODUCER was published, so `total` handled events
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
    stress(4, 1);
}

#[test]
fn four_producers_ring_of_2() {
    stress(4, 2);
}

#[test]
fn four_producers_ring_of_8() {
    stress(4, 8);
}

#[test]
fn four_producers_ring_of_1024() {
    stress(4, 1024);
}

#[test]
fn sixteen_producers_ring_of_1() {
    stress(16, 1);
}

#[test]
fn sixteen_producers_ring_of_2() {
    stress(16, 2);
}

#[test]
fn sixteen_producers_ring_of_8() {
    stress(16, 8);
}

#[test]
fn sixteen_producers_ring_of_1024() {
    stress(16, 1024);
}
