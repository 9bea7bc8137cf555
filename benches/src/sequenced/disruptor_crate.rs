//! The `disruptor` crate (4.4) with its `BusySpin` wait strategy, as its
//! README benchmarks it. It needs a ring of at least 64 events for several
//! producers; the suite's default size is above that.

use disruptor::{BusySpin, Sequence};

use super::{Handler, Publisher, Ring, Topology};
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

/// `disruptor` 4.4, busy-spinning.
pub struct DisruptorCrate;

impl Ring for DisruptorCrate {
    const NAME: &'static str = "disruptor";
    const KIND: Kind = Kind::Peer;
    const CRATE: Option<&'static str> = Some("disruptor");

    fn build(topology: Topology, size: usize, handlers: Vec<Handler>) -> Vec<Box<dyn Publisher>> {
        let factory = || Event { value: 0 };
        let mut h = handlers.into_iter().map(on);
        let mut next = || h.next().expect("one handler per consumer");
        let sp = || disruptor::build_single_producer(size, factory, BusySpin);
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
                let p = disruptor::build_multi_producer(size, factory, BusySpin)
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
}
