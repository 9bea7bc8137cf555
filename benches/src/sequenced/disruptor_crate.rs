//! The `disruptor` crate (4.4), twice: with its `BusySpin` wait strategy,
//! as its README benchmarks it ([`DisruptorCrate`]), and with the one
//! strategy it ships that gives the core away, `Sleep`
//! ([`DisruptorCrateSleep`]): 4.4 has `BusySpin`, `BusySpinWithSpinLoopHint`
//! (both spin) and `Sleep(duration)`, no yielding one. Its producers spin
//! on a full ring whatever the strategy. It needs a ring of at least 64
//! events for several producers; the suite's default size is above that.

use disruptor::{BusySpin, Sequence, Sleep, wait_strategies::WaitStrategy};

use super::ring::{NAP, Publisher, Ring};
use super::tally::Handler;
use super::topology::Topology;
use crate::channel::Kind;

/// The event on the ring.
struct Event {
    value: u64,
}

/// Adapts a handler to the crate's `(event, sequence, end_of_batch)` form.
fn on(mut h: Handler) -> impl FnMut(&Event, Sequence, bool) + Send + 'static {
    move |e: &Event, _: Sequence, _: bool| h.on(e.value)
}

/// Any of the crate's producers (their types differ with the topology).
struct Handle<P>(P);

impl<P: disruptor::Producer<Event> + Send> Publisher for Handle<P> {
    #[inline]
    fn publish(&mut self, v: u64) {
        self.0.publish(|e| e.value = v);
    }
    fn shutdown(self: Box<Self>) {
        // Dropping the (last) producer drains the ring and joins the
        // processor threads.
        drop(self);
    }
}

/// `disruptor` 4.4, busy-spinning (`BusySpin`).
pub struct DisruptorCrate;

impl Ring for DisruptorCrate {
    const NAME: &'static str = "disruptor";
    const KIND: Kind = Kind::Peer;
    const CRATE: Option<&'static str> = Some("disruptor");

    fn build(topology: Topology, size: usize, handlers: Vec<Handler>) -> Vec<Box<dyn Publisher>> {
        build(BusySpin, topology, size, handlers)
    }
}

/// `disruptor` 4.4 with `Sleep::new(NAP)`: each poll that finds nothing
/// sleeps.
pub struct DisruptorCrateSleep;

impl Ring for DisruptorCrateSleep {
    const NAME: &'static str = "disruptor (sleep 10 µs)";
    const KIND: Kind = Kind::Peer;
    const CRATE: Option<&'static str> = Some("disruptor");

    fn build(topology: Topology, size: usize, handlers: Vec<Handler>) -> Vec<Box<dyn Publisher>> {
        build(Sleep::new(NAP), topology, size, handlers)
    }
}

/// Builds `topology` with every processor waiting by `wait`.
fn build<W: WaitStrategy + 'static>(
    wait: W,
    topology: Topology,
    size: usize,
    handlers: Vec<Handler>,
) -> Vec<Box<dyn Publisher>> {
    let factory = || Event { value: 0 };
    let mut h = handlers.into_iter().map(on);
    let mut next = || h.next().expect("one handler per consumer");
    let sp = || disruptor::build_single_producer(size, factory, wait);
    match topology {
        Topology::Unicast => vec![Box::new(Handle(sp().handle_events_with(next()).build()))],
        Topology::Pipeline => vec![Box::new(Handle(
            sp().handle_events_with(next())
                .and_then()
                .handle_events_with(next())
                .and_then()
                .handle_events_with(next())
                .build(),
        ))],
        Topology::Multicast => vec![Box::new(Handle(
            sp().handle_events_with(next())
                .handle_events_with(next())
                .handle_events_with(next())
                .build(),
        ))],
        Topology::Diamond => vec![Box::new(Handle(
            sp().handle_events_with(next())
                .handle_events_with(next())
                .and_then()
                .handle_events_with(next())
                .build(),
        ))],
        Topology::Sequencer => {
            let p = disruptor::build_multi_producer(size, factory, wait)
                .handle_events_with(next())
                .build();
            vec![
                Box::new(Handle(p.clone())),
                Box::new(Handle(p.clone())),
                Box::new(Handle(p)),
            ]
        }
    }
}
