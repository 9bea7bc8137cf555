//! An LMAX-style disruptor that never hangs: a ring of pre-allocated
//! events, one or several producers, any acyclic graph of consumers
//! (stages as the common case), and the control plane (halt, drain,
//! panics) kept apart from the data.
//!
//! ```
//! use hotq_disruptor::{Disruptor, Sequence};
//! use std::sync::mpsc;
//!
//! #[derive(Default)]
//! struct Trade { price: u64, fee: u64 }
//!
//! let (tx, rx) = mpsc::channel();
//! // Size and factory; the handlers park while idle (the default, `wait::Blocking`).
//! let mut producer = Disruptor::builder(1024, Trade::default)
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
//! # A graph with a join
//!
//! A and B see every event; C is after A, D after B, and E joins C and D
//! (the five-handler graph). The builder refuses a cycle and a mutable
//! handler that another consumer could read beside; the producer is gated
//! by the leaves (here E).
//!
//! ```
//! use hotq_disruptor::Disruptor;
//! use std::sync::{Arc, atomic::{AtomicI64, Ordering}};
//!
//! #[derive(Default)]
//! struct Order { qty: u64, risk_ok: bool, audited: AtomicI64 }
//!
//! let joined = Arc::new(AtomicI64::new(0));
//! let j = joined.clone();
//! let mut producer = Disruptor::builder(256, Order::default)
//!     .named("journal").handle_events_with(|o: &Order, seq, _eob| o.audited.store(seq, Ordering::Relaxed))
//!     .named("replicate").handle_events_with(|_o: &Order, _seq, _eob| {})
//!     .after(["journal"]).named("audit").handle_events_with(|o: &Order, seq, _eob| {
//!         assert_eq!(o.audited.load(Ordering::Relaxed), seq); // the journal came first
//!     })
//!     .after(["replicate"]).named("ack").handle_events_with(|_o: &Order, _seq, _eob| {})
//!     .after(["audit", "ack"]) // the join: after both branches, so it may write
//!     .handle_events_mut_with(move |o: &mut Order, _seq, _eob| {
//!         o.risk_ok = o.qty < 1_000;
//!         j.fetch_add(1, Ordering::Relaxed);
//!     })
//!     .build_single_producer()?;
//! for qty in 0..100 {
//!     producer.publish(|o| o.qty = qty)?;
//! }
//! producer.shutdown()?;
//! assert_eq!(joined.load(Ordering::Relaxed), 100);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # A handler with thread-local state
//!
//! The state is made on the handler's own thread and dropped there, so it
//! need not be `Send` (a connection, an `Rc` cache):
//!
//! ```
//! use hotq_disruptor::Disruptor;
//! use std::{cell::RefCell, rc::Rc, sync::mpsc};
//!
//! let (tx, rx) = mpsc::channel();
//! let mut producer = Disruptor::builder(64, || 0u64)
//!     .handle_events_and_state_with(
//!         move |seen: &mut Rc<RefCell<Vec<u64>>>, e: &u64, _seq, end_of_batch| {
//!             seen.borrow_mut().push(*e);
//!             if end_of_batch {
//!                 tx.send(seen.borrow().len()).unwrap();
//!             }
//!         },
//!         || Rc::new(RefCell::new(Vec::new())),
//!     )
//!     .build_single_producer()?;
//! producer.batch_publish(3, |events| events.for_each(|e| *e = 7))?;
//! producer.shutdown()?;
//! assert_eq!(rx.iter().last(), Some(3));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # A publish with a deadline
//!
//! A handler that is stuck (not panicking) fills the ring; a timed publish
//! gives up instead of wedging the producer, and claims nothing:
//!
//! ```
//! use hotq_disruptor::{Disruptor, PublishError};
//! use std::{sync::mpsc, time::Duration};
//!
//! let (unstick, stuck) = mpsc::channel::<()>();
//! let mut producer = Disruptor::builder(4, || 0u64)
//!     .handle_events_with(move |_e: &u64, seq, _eob| if seq == 0 { stuck.recv().unwrap() })
//!     .build_single_producer()?;
//! for v in 0..4 {
//!     producer.publish(|e| *e = v)?; // fills the ring: the handler holds event 0
//! }
//! let late = producer.publish_timeout(Duration::from_millis(10), |e| *e = 4);
//! assert_eq!(late, Err(PublishError::Timeout));
//! unstick.send(()).unwrap();
//! assert_eq!(producer.publish_timeout(Duration::from_secs(60), |e| *e = 4), Ok(4)); // no hole
//! producer.shutdown()?;
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
//!   availability byte per slot holding the lap of its last event, modulo
//!   256 (LMAX's `availableBuffer`, packed), so a ring of 1, 2 or 8 slots
//!   works with any number of producers. Code generic over
//!   `P: `[`Producer`]`<E>` takes either.
//! - Each consumer is a batch event processor on its own thread, behind a
//!   sequence barrier: the first stage waits on the published events, a
//!   later stage on every consumer of the stage before ([`Builder::then`]),
//!   or on the consumers it names ([`Builder::after`]: any acyclic graph).
//!   A handler gets every available event in one batch, with
//!   `end_of_batch` on the last. A handler that keeps up with a fast
//!   stream (100 M events/s or more, the events already waiting when it
//!   looks) pauses up to 1 µs between short batches, so that it reads long
//!   ones instead of taking the producer's cache lines after every few
//!   events (5–10× the throughput with a light handler on 2 cores); an
//!   event that finds its handler idle is never delayed. The producers are
//!   gated on the leaves of the graph. The build refuses a cycle and a mutable handler that
//!   another consumer could read beside.
//! - [`wait`] strategies per handler. The default,
//!   [`Blocking`](wait::Blocking), parks on a condition variable with a
//!   fence-based protocol that cannot lose a wake-up (spelled out in its
//!   source): an idle handler uses no CPU. [`BusySpin`](wait::BusySpin)
//!   gives the lowest latency for a core per handler.
//! - A handler's panic is caught at its processor. By default it halts the
//!   disruptor: producers get [`PublishError::Halted`] (also those blocked
//!   on a full ring), and the shutdown returns the panic
//!   ([`ShutdownError::Panicked`]). [`PanicPolicy::LogAndSkip`] goes on
//!   with the next event, leaving the report to the panic hook (so each
//!   panic is printed once). A panic in a producer's publish closure still publishes the
//!   claimed event, so consumers never wait on a hole.
//! - Every wait watches the halt flag; [`halt`](SingleProducer::halt) stops
//!   everything promptly, even with a full ring. A shutdown drains every
//!   published event, including those published before the processors'
//!   threads ran, then joins;
//!   [`shutdown_timeout`](SingleProducer::shutdown_timeout) bounds the drain,
//!   and [`publish_timeout`](SingleProducer::publish_timeout) bounds a wait
//!   for room. Dropping the last producer closes the stream without waiting
//!   on any [`EventPoller`]: pollers get what is left, then `Halted`.
//! - The events are dropped with the ring, each once. If an event's
//!   destructor panics then, the panic reaches the dropper and the events
//!   after it are leaked: a second panicking destructor cannot abort the
//!   process.
//!
//! # Real-time safety and progress
//!
//! | call | allocates | locks or makes a system call | progress |
//! |---|---|---|---|
//! | `try_publish`, `try_batch_publish` | never | never, unless a consumer parks (`Blocking`, the default, `TimeoutBlocking`, `PhasedBackoff`): then the first publish after a park takes the notifier's lock and wakes it (one futex call); with no consumer that parks (all `BusySpin`, `Yielding` or `Sleeping`) not even the `SeqCst` fence | wait-free with one producer; lock-free with several (a CAS that fails only when another producer claimed) |
//! | `publish`, `batch_publish` | never | as `try_publish` while there is room; on a full ring it spins, yields (`sched_yield`) and after 10 ms naps | blocking on a full ring (until the consumers move or a halt) |
//! | `publish_timeout`, `batch_publish_timeout` | never | as `publish`, and reads the clock (vDSO) only once the ring is full | blocking for at most the timeout |
//! | `EventPoller::poll`, `poll_at_most`, `available` | never | as `try_publish` (a poll may wake a parked consumer after it) | wait-free |
//! | `remaining_capacity`, `is_halted`, `halt` | never | `halt` takes the notifier's lock if someone is parked | wait-free |
//! | a handler's processor loop | never, per event | only its wait strategy's (none for `BusySpin`, `Yielding` yields, `Sleeping` naps, the parking ones park); the pause between a fast stream's short batches reads the clock (vDSO) | as fast as its dependencies |
//! | `build_*`, `shutdown`, `shutdown_timeout`, the last producer's drop | yes (the ring, the threads) | yes: spawns, joins, parks while draining | `shutdown` waits for the drain; the timeout bounds it; the drop waits only for handlers after no poller |
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
//!
//! # Model-checking code that uses this crate
//!
//! A program can check its own concurrent code with
//! [loom](https://docs.rs/loom) 0.7 with this crate inside: under `--cfg
//! loom` and the `loom` feature, the crate's atomics, cells, `Arc`,
//! parking and wakers are loom's, so loom explores the queue's
//! interleavings together with the program's. In the program's
//! `Cargo.toml`:
//!
//! ```toml
//! [target.'cfg(loom)'.dependencies]
//! hotq-disruptor = { version = "0.1", features = ["loom"] }
//! loom = "0.7"
//! ```
//!
//! and `RUSTFLAGS="--cfg loom" cargo test --release`. A crate that never
//! model-checks leaves these lines out, and loom stays out of its
//! lockfile; `--cfg loom` without the feature is refused with a message.
//! Give each model a preemption bound (`LOOM_MAX_PREEMPTIONS=3`, or
//! `loom::model::Builder`'s `preemption_bound`): a model of one item through
//! a hotq-spsc ring and a hotq-mpmc channel took 2,969,672 executions
//! (168 s) unbounded and 4,104 (0.3 s) at 3. In the program's own retry
//! loops, call `loom::thread::yield_now()` each time round, or loom
//! explores the spin forever. The [guide](https://github.com/hotq/hotq/blob/main/docs/model-checking.md) walks through a
//! pipeline whose models catch a bug of the program's
//! (`examples/verify-pipeline`).
//!
//! What this crate's calls do inside a model:
//!
//! - Every processor is a loom thread, and loom runs at most 5 threads
//!   (the test's own included): a model has room for a producer or two and
//!   two or three handlers.
//! - Every wait strategy's step is a yield (`BusySpin` and `Yielding`
//!   included); after two in one wait loom stops exploring that branch
//!   (`loom::skip_branch`), since waiting longer only reads the same
//!   sequences. `Blocking` parks on loom's mutex and condition variable;
//!   a timed wait never times out (loom has no clock), and the pacing
//!   pause and the prefetch are no-ops.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs, missing_debug_implementations)]

// `--cfg loom` switches the sync module to loom, whose crate only the
// `loom` feature brings in (so that it stays out of the lockfiles of crates
// that never model-check): without it, one clear message instead of an
// error at every `loom::` path. Falling back to `std` would not do: inside
// a loom model a `std` park or yield never lets the other model threads run.
#[cfg(all(loom, not(feature = "loom")))]
compile_error!(
    "hotq-disruptor: `--cfg loom` needs the crate's `loom` feature to model-check code that uses it \
     (e.g. `[target.'cfg(loom)'.dependencies] hotq-disruptor = { version = \"0.1\", features = [\"loom\"] }`)"
);

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

// The README's examples (what crates.io shows) run as doc tests too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
