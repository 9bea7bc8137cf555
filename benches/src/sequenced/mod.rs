//! The disruptor suite: the five topologies of the LMAX paper, run through
//! any contender that can wire handlers into them ([`Ring`]): ours, the
//! `disruptor` crate, and the same graph built from crossbeam-channel
//! bounded channels, one per arc (the paper's ArrayBlockingQueue baseline).
//! Adding a contender is one file implementing [`Ring`] and one line in
//! [`each_ring`].
//!
//! # Wait strategies, and which rows decide the goals
//!
//! Each disruptor runs twice, and its row name says how its handlers wait:
//!
//! | row | handlers wait by |
//! |---|---|
//! | `hotq-disruptor` | `BusySpinWithoutHint`: spins with no spin-loop hint, as the crate's `BusySpin` |
//! | `hotq-disruptor (sleep 10 µs)` | `Sleeping::new(10 µs).with_tries(0, 0)`: a 10 µs sleep per poll that finds nothing, from the first |
//! | `disruptor` | `BusySpin` (the crate's README benchmark; no spin-loop hint) |
//! | `disruptor (sleep 10 µs)` | `Sleep::new(10 µs)`: 4.4 ships no yielding strategy; `Sleep` is its only one that gives the core away |
//! | `crossbeam-channel arcs` | the channel's own `recv`/`send`: crossbeam's `Backoff::snooze` (spins of 1 to 64 steps, then `yield_now` four times), then parked on a futex |
//!
//! The topologies other than unicast run four threads (one or three
//! producers, three or one consumers). With at least as many cores as
//! threads the busy-spin rows are the LMAX ones, and the goals compare
//! `hotq-disruptor ÷ disruptor`. With fewer cores (the 2-core machine the
//! README is measured on), a busy-spinning handler keeps its core until
//! the scheduler's tick takes it, so those rows measure the scheduler as
//! much as the ring (the arcs' waits yield and park, which is why they
//! beat the busy-spin rows there: `topology_switches` counts it). A user
//! with more threads than cores would pick a strategy that gives the core
//! away, so there the goals compare the two sleeping rows, `hotq-disruptor
//! (sleep 10 µs) ÷ disruptor (sleep 10 µs)` ([`oversubscribed`]): the same
//! nap from the first miss, so they differ by the ring (the crate has no
//! yielding strategy; until 2026-12-03 our side was `Yielding`, which had
//! no peer row, and until 2026-12-04 it spun and yielded before its first
//! nap, which cost the sequencer two thirds of its throughput there).
//! Unicast (two threads) always compares the busy-spin rows. Every row runs
//! on every machine, so the other pair's ratio is in the report's tables
//! either way.

mod crossbeam_arcs;
mod disruptor_crate;
mod hotq_disruptor;
mod switches;
mod tally;

pub use crossbeam_arcs::CrossbeamArcs;
pub use disruptor_crate::{DisruptorCrate, DisruptorCrateSleep, NAP};
pub use hotq_disruptor::{HotqDisruptor, HotqDisruptorSleeping};

use std::sync::Barrier;
use std::thread;
use std::time::Instant;

use crate::channel::Kind;
pub use switches::Switches;
pub use tally::Handler;
use tally::Tally;

/// The producing end of a built topology, one per producer thread.
pub trait Publisher: Send {
    /// Publishes one event carrying `v`, waiting while the ring is full.
    fn publish(&mut self, v: u64);
    /// Publishes `tag | seq` for every `seq` in `0..count`. Called once
    /// per round through `dyn Publisher`; this default body is compiled
    /// for each contender, so its calls of `publish` are direct (and
    /// inlined), as in a user's own loop.
    fn publish_all(&mut self, tag: u64, count: u64) {
        for seq in 0..count {
            self.publish(tag | seq);
        }
    }
    /// Done publishing. When the last publisher of a topology shuts down,
    /// every published event is processed by every handler and the
    /// handlers' threads are joined (so the handlers are dropped) before
    /// this returns.
    fn shutdown(self: Box<Self>);
}

/// The five topologies of the LMAX paper.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topology {
    /// One producer, one consumer.
    Unicast,
    /// One producer, three consumers in series: 0, then 1, then 2.
    Pipeline,
    /// One producer, three consumers in parallel, each seeing every event.
    Multicast,
    /// One producer; consumers 0 and 1 in parallel, then 2 after both.
    Diamond,
    /// Three producers, one consumer.
    Sequencer,
}

impl Topology {
    /// Every topology, in the paper's order.
    pub const ALL: [Topology; 5] = [
        Topology::Unicast,
        Topology::Pipeline,
        Topology::Multicast,
        Topology::Diamond,
        Topology::Sequencer,
    ];

    /// The name the report uses.
    pub fn name(self) -> &'static str {
        match self {
            Topology::Unicast => "unicast 1P-1C",
            Topology::Pipeline => "pipeline 1P-3C",
            Topology::Multicast => "multicast 1P-3C",
            Topology::Diamond => "diamond 1P-3C",
            Topology::Sequencer => "sequencer 3P-1C",
        }
    }

    /// How many threads publish.
    pub fn producers(self) -> usize {
        match self {
            Topology::Sequencer => 3,
            _ => 1,
        }
    }

    /// The consumers, stage by stage: a stage's handlers see an event only
    /// after every handler of the stage before has.
    pub fn stages(self) -> &'static [&'static [usize]] {
        match self {
            Topology::Unicast | Topology::Sequencer => &[&[0]],
            Topology::Pipeline => &[&[0], &[1], &[2]],
            Topology::Multicast => &[&[0, 1, 2]],
            Topology::Diamond => &[&[0, 1], &[2]],
        }
    }

    /// How many consumers (handlers) the topology has.
    pub fn consumers(self) -> usize {
        self.stages().iter().map(|s| s.len()).sum()
    }

    /// How many threads it runs: producers and consumers.
    pub fn threads(self) -> usize {
        self.producers() + self.consumers()
    }
}

/// Whether `topology` has more threads than `cores`: then its goal reads
/// the rows that give the core away (see the module docs).
pub fn oversubscribed(topology: Topology, cores: usize) -> bool {
    topology.threads() > cores
}

/// The cores this process may run on.
pub fn cores() -> usize {
    thread::available_parallelism().map_or(1, |n| n.get())
}

/// A contender of the disruptor suite.
pub trait Ring: 'static {
    /// The row name.
    const NAME: &'static str;
    /// Ours, peer or baseline.
    const KIND: Kind;
    /// The crate whose version the header names.
    const CRATE: Option<&'static str>;
    /// Builds `topology` over rings (or channels) of `size` events, with
    /// `handlers[i]` as consumer `i` of [`Topology::stages`]; returns one
    /// publisher per producer ([`Topology::producers`]). Events published
    /// by one publisher reach every handler in publication order.
    fn build(topology: Topology, size: usize, handlers: Vec<Handler>) -> Vec<Box<dyn Publisher>>;
}

/// Something done once per [`Ring`] type.
pub trait RingVisitor {
    /// Called with each contender of the disruptor suite.
    fn visit<R: Ring>(&mut self);
}

/// Every contender of the disruptor suite.
pub fn each_ring(v: &mut impl RingVisitor) {
    v.visit::<HotqDisruptor>();
    v.visit::<HotqDisruptorSleeping>();
    v.visit::<DisruptorCrate>();
    v.visit::<DisruptorCrateSleep>();
    v.visit::<CrossbeamArcs>();
}

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
