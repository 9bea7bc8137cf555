//! What a contender of the disruptor suite implements: [`Ring`], which
//! builds a topology and hands back its [`Publisher`]s.

use std::time::Duration;

use super::tally::Handler;
use super::topology::Topology;
use crate::channel::Kind;

/// How long both sleeping rows nap per empty poll (the `disruptor`
/// crate's `Sleep` and hotq-disruptor's `Sleeping`; Linux rounds it up to
/// some 50 µs of timer slack), short against the time a ring of the
/// suite's size takes to fill.
pub const NAP: Duration = Duration::from_micros(10);

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
