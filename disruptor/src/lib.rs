//! An LMAX-style disruptor that never hangs: a ring of pre-allocated
//! events, one or several producers, a graph of consumers in stages, and
//! the control plane (halt, drain, panics) kept apart from the data.
//!
//! ```
//! use hotq_disruptor::{Disruptor, Sequence, wait::Blocking};
//! use std::sync::mpsc;
//!
//! #[derive(Default)]
//! struct Trade { price: u64, fee: u64 }
//!
//! let (tx, rx) = mpsc::channel();
//! let mut producer = Disruptor::builder(1024, Trade::default) // size, factory
//!     .wait_strategy(Blocking)                                 // parks while idle
//!     .handle_events_mut_with(|t: &mut Trade, _seq, _eob| t.fee = t.price / 100) // stage 1 enriches
//!     .then()
//!     .handle_events_with(move |t: &Trade, seq: Sequence, _eob| tx.send((seq, t.fee)).unwrap()) // stage 2
//!     .build_single_producer()?;
//! for price in [1_000, 2_500, 9_900] {
//!     producer.publish(|t| t.price = price)?; // waits while the ring is full
//! }
//! producer.shutdown()?; // drains every published event through every handler, joins
//! assert_eq!(rx.try_iter().collect::<Vec<_>>(), [(0, 10), (1, 25), (2, 99)]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Design
//!
//! After the LMAX Disruptor 4 (Java) and its technical paper; one concept
//! per file.
//!
//! - [`Sequence`]s are `i64`, starting at `-1`. Event `s` lives in slot
//!   `s & (size - 1)`; the size is a power of two, any from 1 up.
//! - One producer ([`SingleProducer`]) owns the cursor: a claim is plain
//!   arithmetic against a cached limit, recomputed (`=`, never `+=`) from
//!   the slowest leaf consumer only when the cache says full; a publish is a
//!   `Release` store of the cursor.
//! - Several producers ([`MultiProducer`], `Clone`) claim with a CAS on the
//!   cursor, made only once there is room, and publish through one
//!   availability flag per slot holding the lap of its last event (LMAX's
//!   `availableBuffer`), so a ring of 1, 2 or 8 slots works with any number
//!   of producers. Code generic over `P: `[`Producer`]`<E>` takes either.
//! - Each consumer is a batch event processor on its own thread, behind a
//!   sequence barrier: the first stage waits on the published events, a
//!   later stage on every consumer of the stage before ([`Builder::then`]),
//!   or on the consumers it names ([`Builder::after`]: any acyclic graph).
//!   A handler gets every available event in one batch, with
//!   `end_of_batch` on the last. The producers are gated on the leaves of
//!   the graph. The build refuses a cycle and a mutable handler that
//!   another consumer could read beside.
//! - [`wait`] strategies per handler. [`Blocking`](wait::Blocking) parks on
//!   a condition variable with a fence-based protocol that cannot lose a
//!   wake-up (spelled out in its source).
//! - A handler's panic is caught at its processor. By default it halts the
//!   disruptor: producers get [`PublishError::Halted`] (also those blocked
//!   on a full ring), and the shutdown returns the panic
//!   ([`ShutdownError::Panicked`]). [`PanicPolicy::LogAndSkip`] logs it and
//!   goes on. A panic in a producer's publish closure still publishes the
//!   claimed event, so consumers never wait on a hole.
//! - Every wait watches the halt flag; [`halt`](SingleProducer::halt) stops
//!   everything promptly, even with a full ring. A shutdown (or dropping
//!   the producer) drains every published event, including those published
//!   before the processors' threads ran, then joins;
//!   [`shutdown_timeout`](SingleProducer::shutdown_timeout) bounds the drain.
//!
//! # Topologies
//!
//! | shape | builder |
//! |---|---|
//! | unicast 1P-1C | `.handle_events_with(a)` |
//! | multicast 1P-3C | `.handle_events_with(a).handle_events_with(b).handle_events_with(c)` |
//! | pipeline 1P-3C | `.handle_events_with(a).then().handle_events_with(b).then().handle_events_with(c)` |
//! | diamond | `.handle_events_with(a).handle_events_with(b).then().handle_events_with(c)` |
//! | any graph | `.named("a").handle_events_with(a).named("b").handle_events_with(b)`<br>`.after(["a"]).named("c").handle_events_with(c).after(["b"]).named("d").handle_events_with(d)`<br>`.after(["c", "d"]).handle_events_with(e)` |
//! | independent chains | `.handle_events_with(a).then().handle_events_with(b).new_chain().handle_events_with(c)` |

#![warn(missing_docs)]

mod affinity;
mod barrier;
mod batch;
mod builder;
mod control;
mod error;
mod gate;
mod graph;
mod handler;
mod panic_policy;
mod poller;
mod processor;
mod producer;
mod ring_buffer;
mod sequence;
mod sequencer;
mod shared;
mod sync;
pub mod wait;

pub use batch::BatchIterMut;
pub use builder::{Builder, Disruptor};
pub use error::{BuildError, HandlerPanic, PollError, PublishError, ShutdownError};
pub use handler::{EventHandler, EventHandlerMut};
pub use panic_policy::PanicPolicy;
pub use poller::EventPoller;
pub use producer::{MultiProducer, Producer, SingleProducer};
pub use sequence::Sequence;
