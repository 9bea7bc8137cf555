//! hotq-disruptor: ours, twice. [`HotqDisruptor`] busy-spins with
//! [`BusySpinWithoutHint`], as the `disruptor` crate's `BusySpin` does (no
//! spin-loop hint: our own `BusySpin` issues a `pause` per check, like the
//! crate's `BusySpinWithSpinLoopHint`), so those two rows differ by the
//! ring alone; [`HotqDisruptorSleeping`] waits with [`Sleeping`] as the
//! crate's `Sleep` row does, a nap of the same length at the first miss
//! (`with_tries(0, 0)`), what a user with more threads than cores would
//! pick, so those two rows too differ by the ring alone.

use hotq_disruptor::wait::{BusySpinWithoutHint, Sleeping, WaitStrategy};
use hotq_disruptor::{Disruptor, Producer, Sequence};

use super::ring::{Publisher, Ring};
use super::tally::Handler;
use super::topology::Topology;
use crate::channel::Kind;

/// The event on the ring.
#[derive(Default)]
struct Event {
    value: u64,
}

/// A single producer, or one handle of a multi-producer ring.
struct Handle<P>(P);

impl<P: Producer<Event> + Send> Publisher for Handle<P> {
    #[inline]
    fn publish(&mut self, v: u64) {
        self.0
            .publish(|e| e.value = v)
            .expect("hotq-disruptor: halted");
    }

    fn shutdown(self: Box<Self>) {
        // The last handle drains every event through every handler and
        // joins their threads; the others return at once.
        self.0.shutdown().expect("hotq-disruptor: shutdown");
    }
}

/// `hotq_disruptor::Disruptor`, busy-spinning without the spin-loop hint
/// ([`BusySpinWithoutHint`], the match of the crate's `BusySpin`).
pub struct HotqDisruptor;

impl Ring for HotqDisruptor {
    const NAME: &'static str = "hotq-disruptor";
    const KIND: Kind = Kind::Ours;
    const CRATE: Option<&'static str> = Some("hotq-disruptor");

    fn build(topology: Topology, size: usize, handlers: Vec<Handler>) -> Vec<Box<dyn Publisher>> {
        build(BusySpinWithoutHint, topology, size, handlers)
    }
}

/// `hotq_disruptor::Disruptor`, sleeping ([`Sleeping`] with naps of
/// 10 µs from the first miss, the `disruptor` crate's `Sleep` of the same
/// nap). Until 2026-12-04 this row kept the default 100 spins and 100
/// yields before the first nap, which the crate's `Sleep` does not have:
/// the sequencer 3P-1C goal read 0.44 on the 2-core machine, and the rows
/// differed by the wait as much as by the ring (see [`Sleeping`]'s docs).
pub struct HotqDisruptorSleeping;

impl Ring for HotqDisruptorSleeping {
    const NAME: &'static str = "hotq-disruptor (sleep 10 µs)";
    const KIND: Kind = Kind::Ours;
    const CRATE: Option<&'static str> = Some("hotq-disruptor");

    fn build(topology: Topology, size: usize, handlers: Vec<Handler>) -> Vec<Box<dyn Publisher>> {
        build(
            Sleeping::new(super::ring::NAP).with_tries(0, 0),
            topology,
            size,
            handlers,
        )
    }
}

/// Builds `topology` with every handler waiting by `wait`.
fn build<W: WaitStrategy>(
    wait: W,
    topology: Topology,
    size: usize,
    handlers: Vec<Handler>,
) -> Vec<Box<dyn Publisher>> {
    // Stages, not `after(names)`: every topology here is a chain of
    // stages (the diamond is A and B, then C after both: `then()`), which
    // the stage DSL says directly; the graph API builds the same gates.
    let mut handlers = handlers.into_iter();
    let mut builder = Disruptor::builder(size, Event::default).wait_strategy(wait);
    for (i, stage) in topology.stages().iter().enumerate() {
        if i > 0 {
            builder = builder.then();
        }
        for _ in stage.iter() {
            let mut h = handlers.next().expect("one handler per consumer");
            builder =
                builder.handle_events_with(move |e: &Event, _: Sequence, _: bool| h.on(e.value));
        }
    }
    let producers = topology.producers();
    if producers == 1 {
        let p = builder
            .build_single_producer()
            .expect("hotq-disruptor: build");
        return vec![Box::new(Handle(p))];
    }
    let p = builder
        .build_multi_producer()
        .expect("hotq-disruptor: build");
    let mut handles: Vec<Box<dyn Publisher>> = (1..producers)
        .map(|_| Box::new(Handle(p.clone())) as Box<dyn Publisher>)
        .collect();
    handles.push(Box::new(Handle(p)));
    handles
}
