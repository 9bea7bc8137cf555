//! The disruptor suite: the five topologies of the LMAX paper, run through
//! any contender that can wire handlers into them ([`Ring`]): the
//! `disruptor` crate, and the same graph built from crossbeam-channel
//! bounded channels, one per arc (the paper's ArrayBlockingQueue baseline).
//! Adding a contender is one file implementing [`Ring`] and one line in
//! [`each_ring`].

mod crossbeam_arcs;
mod disruptor_crate;
mod hotq_disruptor;
mod tally;

pub use crossbeam_arcs::CrossbeamArcs;
pub use disruptor_crate::DisruptorCrate;
pub use hotq_disruptor::HotqDisruptor;

use std::sync::Barrier;
use std::thread;
use std::time::Instant;

use crate::channel::Kind;
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
    v.visit::<DisruptorCrate>();
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
    let producers = topology.producers() as u64;
    let per_producer = items / producers;
    let tallies: Vec<Tally> = (0..topology.consumers())
        .map(|_| Tally::new(producers as usize, SHIFT))
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
    let elapsed = thread::scope(|s| {
        let start = &start;
        let threads: Vec<_> = publishers
            .into_iter()
            .zip(0..)
            .map(|(mut publisher, p)| {
                s.spawn(move || {
                    start.wait();
                    let t0 = Instant::now();
                    publisher.publish_all(p << SHIFT, per_producer);
                    publisher.shutdown();
                    (t0, Instant::now())
                })
            })
            .collect();
        start.wait();
        // From the first publisher's start to the last one's shutdown, as
        // the publishers saw it (this thread may run late on a busy machine).
        let spans: Vec<(Instant, Instant)> = threads
            .into_iter()
            .map(|t| t.join().expect("publisher panicked"))
            .collect();
        let first = spans.iter().map(|s| s.0).min().expect("a publisher");
        let last = spans.iter().map(|s| s.1).max().expect("a publisher");
        last - first
    });
    for (i, t) in tallies.iter().enumerate() {
        if let Err(e) = t.verdict(per_producer) {
            panic!("{} {}: handler {i}: {e}", R::NAME, topology.name());
        }
    }
    (per_producer * producers) as f64 / elapsed.as_secs_f64() / 1e6
}
