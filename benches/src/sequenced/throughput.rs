//! One round of a topology through a [`Ring`]: the events every handler
//! must see once and in order per producer, timed from the start signal to
//! the last publisher's shutdown.

use std::sync::Barrier;
use std::thread;
use std::time::Instant;

use super::ring::Ring;
use super::switches::Switches;
use super::tally::Tally;
use super::topology::Topology;

/// Producer id in the top 8 bits of an event's value, sequence below.
const SHIFT: u32 = 56;

/// One round: `items` events in all (split over the producers) through
/// `topology`; returns M events/s from the start signal until the last
/// publisher's shutdown returned (every handler has seen every event).
/// Each handler checks it saw every event once and each producer's in
/// order; a contender that fails this panics the run.
pub fn throughput<R: Ring>(topology: Topology, items: u64, size: usize) -> f64 {
    round::<R>(topology, items, size, false).throughput
}

/// What [`counted`] measured of one round.
#[derive(Debug, Clone)]
pub struct Counted {
    /// M events/s, as [`throughput`] says.
    pub throughput: f64,
    /// Events in all (a multiple of the producers).
    pub events: u64,
    /// Each producer thread's context switches from the start signal to
    /// its shutdown's return.
    pub producers: Vec<Option<Switches>>,
    /// Each handler thread's context switches over its life (from its
    /// spawn in the build to the end of the drain).
    pub handlers: Vec<Option<Switches>>,
}

/// [`throughput`]'s round, with every thread's context switches counted
/// (the handlers read theirs as their threads end; a read of `/proc` per
/// thread, which the report's rounds leave out).
pub fn counted<R: Ring>(topology: Topology, items: u64, size: usize) -> Counted {
    round::<R>(topology, items, size, true)
}

fn round<R: Ring>(topology: Topology, items: u64, size: usize, count: bool) -> Counted {
    let producers = topology.producers() as u64;
    let per_producer = items / producers;
    let tallies: Vec<Tally> = (0..topology.consumers())
        .map(|_| match count {
            true => Tally::counting_switches(producers as usize, SHIFT),
            false => Tally::new(producers as usize, SHIFT),
        })
        .collect();
    let handlers = tallies.iter().map(Tally::handler).collect();
    let publishers = R::build(topology, size, handlers);
    assert_eq!(
        publishers.len(),
        producers as usize,
        "{}: one publisher per producer",
        R::NAME
    );
    let start = Barrier::new(producers as usize + 1);
    let (elapsed, switches) = thread::scope(|s| {
        let start = &start;
        let threads: Vec<_> = publishers
            .into_iter()
            .zip(0..)
            .map(|(mut publisher, p)| {
                s.spawn(move || {
                    start.wait();
                    let before = count.then(Switches::of_this_thread).flatten();
                    let t0 = Instant::now();
                    publisher.publish_all(p << SHIFT, per_producer);
                    publisher.shutdown();
                    let t1 = Instant::now();
                    let after = count.then(Switches::of_this_thread).flatten();
                    (t0, t1, before.zip(after).map(|(b, a)| a.since(b)))
                })
            })
            .collect();
        start.wait();
        // From the first publisher's start to the last one's shutdown, as
        // the publishers saw it (this thread may run late on a busy machine).
        let spans: Vec<(Instant, Instant, Option<Switches>)> = threads
            .into_iter()
            .map(|t| t.join().expect("publisher panicked"))
            .collect();
        let first = spans.iter().map(|s| s.0).min().expect("a publisher");
        let last = spans.iter().map(|s| s.1).max().expect("a publisher");
        (last - first, spans.iter().map(|s| s.2).collect())
    });
    for (i, t) in tallies.iter().enumerate() {
        if let Err(e) = t.verdict(per_producer) {
            panic!("{} {}: handler {i}: {e}", R::NAME, topology.name());
        }
    }
    let events = per_producer * producers;
    Counted {
        throughput: events as f64 / elapsed.as_secs_f64() / 1e6,
        events,
        producers: switches,
        handlers: tallies.iter().map(Tally::switches).collect(),
    }
}
