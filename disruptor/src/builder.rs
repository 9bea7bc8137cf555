//! Building a disruptor: the ring, the consumers' dependency graph, the
//! producer.

use crate::affinity::pin_current_thread;
use crate::barrier::SequenceBarrier;
use crate::control::Control;
use crate::error::BuildError;
use crate::gate::Gate;
use crate::graph::{self, Node};
use crate::handler::{EventHandler, EventHandlerMut, FnHandler, FnHandlerMut};
use crate::panic_policy::PanicPolicy;
use crate::poller::{EventPoller, PollerLink};
use crate::processor::{
    Consume, Reader, ReaderWithState, Writer, WriterWithState, start_processor,
};
use crate::producer::{MultiProducer, SingleProducer};
use crate::ring_buffer::RingBuffer;
use crate::sequence::{AtomicSequence, INITIAL, Sequence};
use crate::shared::{Release, Shared};
use crate::sync::{Arc, OnceLock, spawn_named};
use crate::wait::{WaitStrategy, Waiter};
use std::collections::HashMap;

/// The entry point: [`Disruptor::builder`].
///
/// ```
/// use hotq_disruptor::Disruptor;
///
/// // Each handler parks while idle (the default wait strategy, `Blocking`).
/// let mut producer = Disruptor::builder(1024, || 0u64)
///     .handle_events_with(|_e: &u64, _seq, _eob| { /* stage 1, A */ })
///     .handle_events_with(|_e: &u64, _seq, _eob| { /* stage 1, B, in parallel with A */ })
///     .then()
///     .handle_events_with(|_e: &u64, _seq, _eob| { /* stage 2: after A and B */ })
///     .build_single_producer()?;
/// producer.publish(|e| *e = 7)?;
/// producer.shutdown()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Disruptor {
    _private: (),
}

impl Disruptor {
    /// Starts building a disruptor of `size` events (a power of two, 1 and
    /// up to 2^62), each made once by `factory`, when the disruptor is built.
    /// A wrong size is reported by the build, as [`BuildError::SizeNotPowerOfTwo`].
    ///
    /// ```
    /// use hotq_disruptor::{BuildError, Disruptor};
    ///
    /// let producer = Disruptor::builder(8, String::new)
    ///     .handle_events_with(|_e: &String, _seq, _eob| {})
    ///     .build_multi_producer();
    /// assert!(producer.is_ok());
    /// let err = Disruptor::builder(0, String::new)
    ///     .handle_events_with(|_e: &String, _seq, _eob| {})
    ///     .build_multi_producer()
    ///     .unwrap_err();
    /// assert_eq!(err, BuildError::SizeNotPowerOfTwo { size: 0 });
    /// ```
    pub fn builder<E, F>(size: usize, factory: F) -> Builder<E>
    where
        E: Send + Sync + 'static,
        F: FnMut() -> E + Send + 'static,
    {
        Builder {
            size,
            factory: Box::new(factory),
            // Blocking, as LMAX's DSL: a first program's handlers sleep
            // while idle instead of each burning a core; `BusySpin` is one
            // `wait_strategy` call away for those with cores to spare.
            waiter: Waiter::Blocking,
            policy: PanicPolicy::Halt,
            stages: vec![Stage::new(After::StageBefore)],
            error: None,
            parks: false,
            pin_next: None,
            name_next: None,
        }
    }
}

/// Makes a processor's thread body once the disruptor's shared state and
/// the processor's gate exist.
type MakeProcessor<E> = Box<dyn FnOnce(Arc<Shared<E>>, Gate) -> Box<dyn FnOnce() + Send> + Send>;

/// What a consumer is: a processor on its own thread, or an event poller
/// that the caller drives (linked to the disruptor by the build).
enum Role<E> {
    Processor(MakeProcessor<E>),
    Poller(Arc<OnceLock<PollerLink<E>>>),
}

struct Consumer<E> {
    name: String,
    sequence: Arc<AtomicSequence>,
    writer: bool,
    role: Role<E>,
}

/// Whom the consumers of a stage are after.
enum After {
    /// The consumers of the stage before ([`Builder::then`]); for the first
    /// stage, the producers alone.
    StageBefore,
    /// The consumers of these names ([`Builder::after`]); none: the
    /// producers alone ([`Builder::new_chain`]).
    Named(Vec<String>),
}

struct Stage<E> {
    consumers: Vec<Consumer<E>>,
    has_writer: bool,
    after: After,
}

impl<E> Stage<E> {
    fn new(after: After) -> Self {
        Stage {
            consumers: Vec::new(),
            has_writer: false,
            after,
        }
    }
}

/// Configures a disruptor: its consumers, stage by stage, and their wait
/// strategies and panic policies; then builds it with one producer or
/// several. Made by [`Disruptor::builder`].
///
/// Settings ([`wait_strategy`](Self::wait_strategy),
/// [`on_panic`](Self::on_panic)) apply to the consumers added after them,
/// so each handler can have its own. Mistakes (an empty stage, a shared
/// mutable handler, a wrong size) are reported by the build.
///
/// It is `Send` (when `E` is): a builder can be made on one thread and
/// built on another.
#[must_use = "a builder does nothing until it is built"]
pub struct Builder<E> {
    size: usize,
    /// `Send`, so that the builder is `Send` when `E` is.
    factory: Box<dyn FnMut() -> E + Send>,
    /// For the handlers added from now on.
    waiter: Waiter,
    /// For the handlers added from now on.
    policy: PanicPolicy,
    /// Invariant: never empty; the last is the stage being filled.
    stages: Vec<Stage<E>>,
    /// The first mistake, reported by the build.
    error: Option<BuildError>,
    /// True if some handler's strategy parks.
    parks: bool,
    /// The core to pin the next handler's thread to (taken by it).
    pin_next: Option<usize>,
    /// The name of the next consumer added (taken by it).
    name_next: Option<String>,
}

impl<E: Send + Sync + 'static> Builder<E> {
    /// The wait strategy of the handlers added after this call.
    ///
    /// The default is [`Blocking`](crate::wait::Blocking), as in LMAX's
    /// DSL: an idle handler parks and uses no CPU, and the producer pays a
    /// `SeqCst` fence per publish, plus a lock and a wake-up call after
    /// each park. For the lowest latency with a core to spare per handler,
    /// ask for [`BusySpin`](crate::wait::BusySpin) (one core at 100 % per
    /// handler, idle or not); the [`wait`](crate::wait) module compares
    /// them all.
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, wait::{Blocking, BusySpin}};
    ///
    /// let producer = Disruptor::builder(64, || 0u64)
    ///     .wait_strategy(BusySpin)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {}) // spins
    ///     .wait_strategy(Blocking)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {}) // parks
    ///     .build_single_producer()?;
    /// producer.shutdown()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn wait_strategy<W: WaitStrategy>(mut self, strategy: W) -> Self {
        self.waiter = strategy.waiter();
        self
    }

    /// The panic policy of the handlers added after this call (the default
    /// is [`PanicPolicy::Halt`]).
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, PanicPolicy};
    ///
    /// let producer = Disruptor::builder(64, || 0u64)
    ///     .on_panic(PanicPolicy::LogAndSkip)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .build_single_producer()?;
    /// producer.shutdown()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn on_panic(mut self, policy: PanicPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// Pins the thread of the next handler added (only that one) to CPU
    /// core `core` (numbered from 0, as `core_affinity` numbers them). If
    /// the core does not exist or the OS refuses, the thread says so on
    /// stderr and runs unpinned.
    ///
    /// ```
    /// use hotq_disruptor::Disruptor;
    ///
    /// let producer = Disruptor::builder(64, || 0u64)
    ///     .pin_to_core(0)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {}) // on core 0
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {}) // wherever the OS puts it
    ///     .build_single_producer()?;
    /// producer.shutdown()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "core-affinity")]
    pub fn pin_to_core(mut self, core: usize) -> Self {
        self.pin_next = Some(core);
        self
    }

    /// Adds a read-only handler closure to the current stage; it runs on a
    /// thread of its own, in parallel with the stage's other consumers.
    ///
    /// ```
    /// use hotq_disruptor::Disruptor;
    /// use std::sync::mpsc;
    ///
    /// let (tx, rx) = mpsc::channel();
    /// let mut producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with(move |e: &u64, seq, eob| tx.send((*e, seq, eob)).unwrap())
    ///     .build_single_producer()?;
    /// producer.publish(|e| *e = 5)?;
    /// producer.shutdown()?;
    /// assert_eq!(rx.recv()?, (5, 0, true));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn handle_events_with<F>(self, handler: F) -> Self
    where
        F: FnMut(&E, Sequence, bool) + Send + 'static,
    {
        self.handle_events_with_handler(FnHandler(handler))
    }

    /// Adds a read-only [`EventHandler`] to the current stage.
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, EventHandler, Sequence};
    ///
    /// struct Nop;
    /// impl EventHandler<u64> for Nop {
    ///     fn on_event(&mut self, _e: &u64, _seq: Sequence, _eob: bool) {}
    ///     fn name(&self) -> String { "nop".into() } // the thread's name
    /// }
    /// let producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with_handler(Nop)
    ///     .build_single_producer()?;
    /// producer.shutdown()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn handle_events_with_handler<H: EventHandler<E>>(mut self, handler: H) -> Self {
        let name = handler.name();
        self.check_reader();
        self.add_processor(name, false, move || Reader(handler));
        self
    }

    /// Adds a mutable handler closure as the only consumer of the current
    /// stage: it may change each event before the stages after it see it.
    /// The build fails with [`BuildError::MutableHandlerShared`] if the
    /// stage has another consumer.
    ///
    /// ```
    /// use hotq_disruptor::{BuildError, Disruptor};
    ///
    /// let mut producer = Disruptor::builder(8, || (0u64, 0u64))
    ///     .handle_events_mut_with(|e: &mut (u64, u64), _seq, _eob| e.1 = e.0 * 2)
    ///     .then()
    ///     .handle_events_with(|e: &(u64, u64), _seq, _eob| assert_eq!(e.1, e.0 * 2))
    ///     .build_single_producer()?;
    /// producer.publish(|e| e.0 = 21)?;
    /// producer.shutdown()?;
    ///
    /// let err = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .handle_events_mut_with(|_e: &mut u64, _seq, _eob| {})
    ///     .build_single_producer()
    ///     .unwrap_err();
    /// assert_eq!(err, BuildError::MutableHandlerShared { stage: 0 });
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn handle_events_mut_with<F>(self, handler: F) -> Self
    where
        F: FnMut(&mut E, Sequence, bool) + Send + 'static,
    {
        self.handle_events_mut_with_handler(FnHandlerMut(handler))
    }

    /// Adds a mutable [`EventHandlerMut`] as the only consumer of the
    /// current stage (see [`handle_events_mut_with`](Self::handle_events_mut_with)).
    ///
    /// ```
    /// use hotq_disruptor::{Disruptor, EventHandlerMut, Sequence};
    ///
    /// struct Stamp;
    /// impl EventHandlerMut<u64> for Stamp {
    ///     fn on_event(&mut self, e: &mut u64, seq: Sequence, _eob: bool) { *e = seq as u64; }
    /// }
    /// let producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_mut_with_handler(Stamp)
    ///     .build_single_producer()?;
    /// producer.shutdown()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn handle_events_mut_with_handler<H: EventHandlerMut<E>>(mut self, handler: H) -> Self {
        let name = handler.name();
        self.check_writer();
        self.add_processor(name, true, move || Writer(handler));
        self
    }

    /// Adds an [`EventPoller`] to the current stage: a consumer that the
    /// caller drives with [`EventPoller::poll`] on a thread of its choice.
    ///
    /// ```
    /// use hotq_disruptor::Disruptor;
    ///
    /// let mut builder = Disruptor::builder(8, || 0u64);
    /// let mut poller = builder.event_poller();
    /// let mut producer = builder.build_single_producer()?;
    /// producer.publish(|e| *e = 3)?;
    /// let mut sum = 0;
    /// poller.poll(|e, _seq, _eob| sum += *e)?;
    /// assert_eq!(sum, 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use = "a poller dropped at once consumes nothing: add a handler instead"]
    pub fn event_poller(&mut self) -> EventPoller<E> {
        self.check_reader();
        let sequence = Arc::new(AtomicSequence::new(INITIAL));
        let link = Arc::new(OnceLock::new());
        let name = self.name_for(String::new(), "hotq-poller");
        self.current().consumers.push(Consumer {
            name,
            sequence: Arc::clone(&sequence),
            writer: false,
            role: Role::Poller(Arc::clone(&link)),
        });
        EventPoller::new(link, sequence)
    }

    /// Starts the next stage: its consumers see an event only after every
    /// consumer of the stage before has handled it.
    ///
    /// ```
    /// use hotq_disruptor::{BuildError, Disruptor};
    ///
    /// let err = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .then()
    ///     .build_single_producer()
    ///     .unwrap_err();
    /// assert_eq!(err, BuildError::EmptyStage { stage: 1 });
    /// ```
    pub fn then(mut self) -> Self {
        if self.current().consumers.is_empty() {
            self.fail(BuildError::EmptyStage {
                stage: self.stages.len() - 1,
            });
        }
        self.stages.push(Stage::new(After::StageBefore));
        self
    }

    /// Names the next consumer added (handler or poller), so that
    /// [`after`](Self::after) can refer to it; the name is also its
    /// thread's name (Linux shows 15 bytes of it) and the one a
    /// [`HandlerPanic`](crate::HandlerPanic) reports. Without it a
    /// consumer is named by its handler's [`name`](EventHandler::name), or
    /// else `disruptor-<stage>.<index>` (`hotq-poller-<stage>.<index>` for
    /// a poller). Two consumers of one name fail the build with
    /// [`BuildError::DuplicateName`].
    ///
    /// ```
    /// use hotq_disruptor::{BuildError, Disruptor, ShutdownError};
    ///
    /// let mut producer = Disruptor::builder(8, || 0u64)
    ///     .named("parser")
    ///     .handle_events_with(|_e: &u64, seq, _eob| assert!(seq < 1, "bad input"))
    ///     .build_single_producer()?;
    /// producer.publish(|e| *e = 1)?;
    /// let _ = producer.publish(|e| *e = 2);
    /// let Err(ShutdownError::Panicked(p)) = producer.shutdown() else { panic!() };
    /// assert_eq!(p.handler(), "parser");
    ///
    /// let err = Disruptor::builder(8, || 0u64)
    ///     .named("x").handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .named("x").handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .build_single_producer()
    ///     .unwrap_err();
    /// assert_eq!(err, BuildError::DuplicateName { name: "x".into() });
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name_next = Some(name.into());
        self
    }

    /// Starts a stage whose consumers are after the consumers named
    /// `names` (by [`named`](Self::named) or their default names), and
    /// after nothing else: with it any dependency graph can be built, not
    /// only a chain of stages. Stages go on from it with
    /// [`then`](Self::then) as usual. A name may refer to a consumer added
    /// later; the build refuses an unknown name
    /// ([`BuildError::UnknownHandler`]), a cycle ([`BuildError::Cycle`]),
    /// and a mutable handler unordered with another consumer
    /// ([`BuildError::MutableHandlerUnordered`]). The producers are gated
    /// by every leaf (every consumer that nobody is after).
    ///
    /// A and B see every event; C is after A only, D after B only, E after
    /// C and D:
    ///
    /// ```
    /// use hotq_disruptor::Disruptor;
    /// use std::sync::mpsc;
    ///
    /// let (tx, rx) = mpsc::channel();
    /// let mut producer = Disruptor::builder(64, || 0u64)
    ///     .named("a").handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .named("b").handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .after(["a"]).named("c").handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .after(["b"]).named("d").handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .after(["c", "d"]) // the join
    ///     .handle_events_with(move |e: &u64, _seq, _eob| tx.send(*e).unwrap())
    ///     .build_single_producer()?;
    /// for v in 0..100 {
    ///     producer.publish(|e| *e = v)?;
    /// }
    /// producer.shutdown()?;
    /// assert_eq!(rx.try_iter().collect::<Vec<_>>(), (0..100).collect::<Vec<_>>());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// A cycle is refused, naming it:
    ///
    /// ```
    /// use hotq_disruptor::{BuildError, Disruptor};
    ///
    /// let err = Disruptor::builder(8, || 0u64)
    ///     .after(["b"]).named("a").handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .after(["a"]).named("b").handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .build_single_producer()
    ///     .unwrap_err();
    /// assert_eq!(err, BuildError::Cycle { handlers: vec!["a".into(), "b".into(), "a".into()] });
    /// ```
    pub fn after<I>(self, names: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        let names = names.into_iter().map(Into::into).collect();
        self.start_stage(After::Named(names))
    }

    /// Starts a stage after nothing but the producers, as the first stage
    /// is: a chain independent of the others, on the same ring.
    ///
    /// ```
    /// use hotq_disruptor::Disruptor;
    ///
    /// let mut producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| { /* chain 1, stage 1 */ })
    ///     .then()
    ///     .handle_events_with(|_e: &u64, _seq, _eob| { /* chain 1, stage 2 */ })
    ///     .new_chain()
    ///     .handle_events_with(|_e: &u64, _seq, _eob| { /* chain 2, stage 1 */ })
    ///     .then()
    ///     .handle_events_with(|_e: &u64, _seq, _eob| { /* chain 2, stage 2 */ })
    ///     .build_single_producer()?;
    /// producer.publish(|e| *e = 1)?;
    /// producer.shutdown()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new_chain(self) -> Self {
        self.start_stage(After::Named(Vec::new()))
    }

    /// Adds a read-only handler closure with a state of its own, made on
    /// the handler's thread by `initialize_state` (before `on_start`) and
    /// dropped there after the last event: the state need not be `Send`
    /// (an `Rc` cache, a thread-local connection). If `initialize_state`
    /// panics, the disruptor halts (whatever the panic policy: the handler
    /// cannot run without its state) and the shutdown reports it.
    ///
    /// ```
    /// use hotq_disruptor::Disruptor;
    /// use std::{cell::RefCell, collections::HashMap, rc::Rc, sync::mpsc};
    ///
    /// let (tx, rx) = mpsc::channel();
    /// let mut producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_and_state_with(
    ///         move |cache: &mut Rc<RefCell<HashMap<u64, u64>>>, e: &u64, _seq, _eob| {
    ///             let mut cache = cache.borrow_mut();
    ///             *cache.entry(*e).or_insert(0) += 1;
    ///             tx.send(cache[e]).unwrap();
    ///         },
    ///         || Rc::new(RefCell::new(HashMap::new())), // not Send: made on the thread
    ///     )
    ///     .build_single_producer()?;
    /// for v in [7, 7, 3] {
    ///     producer.publish(|e| *e = v)?;
    /// }
    /// producer.shutdown()?;
    /// assert_eq!(rx.try_iter().collect::<Vec<_>>(), [1, 2, 1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn handle_events_and_state_with<S, F, I>(mut self, handler: F, initialize_state: I) -> Self
    where
        S: 'static,
        F: FnMut(&mut S, &E, Sequence, bool) + Send + 'static,
        I: FnOnce() -> S + Send + 'static,
    {
        self.check_reader();
        self.add_processor(String::new(), false, move || ReaderWithState {
            state: initialize_state(),
            handler,
        });
        self
    }

    /// As [`handle_events_and_state_with`](Self::handle_events_and_state_with),
    /// for a mutable handler (alone in its stage, as
    /// [`handle_events_mut_with`](Self::handle_events_mut_with)).
    ///
    /// ```
    /// use hotq_disruptor::Disruptor;
    /// use std::rc::Rc;
    ///
    /// let mut producer = Disruptor::builder(8, || 0u64)
    ///     .handle_events_mut_and_state_with(
    ///         |scale: &mut Rc<u64>, e: &mut u64, _seq, _eob| *e *= **scale,
    ///         || Rc::new(10),
    ///     )
    ///     .then()
    ///     .handle_events_with(|e: &u64, seq, _eob| assert_eq!(*e, 10 * seq as u64))
    ///     .build_single_producer()?;
    /// for v in 0..5 {
    ///     producer.publish(|e| *e = v)?;
    /// }
    /// producer.shutdown()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn handle_events_mut_and_state_with<S, F, I>(
        mut self,
        handler: F,
        initialize_state: I,
    ) -> Self
    where
        S: 'static,
        F: FnMut(&mut S, &mut E, Sequence, bool) + Send + 'static,
        I: FnOnce() -> S + Send + 'static,
    {
        self.check_writer();
        self.add_processor(String::new(), true, move || WriterWithState {
            state: initialize_state(),
            handler,
        });
        self
    }

    /// Builds the disruptor for one producer thread and starts the
    /// processors' threads.
    ///
    /// # Errors
    /// Every [`BuildError`]: a size that is not a power of two, no
    /// consumer, an empty stage, a shared mutable handler, a thread that
    /// could not start.
    ///
    /// ```
    /// use hotq_disruptor::{BuildError, Disruptor};
    ///
    /// let producer = Disruptor::builder(1, || 0u8)
    ///     .handle_events_with(|_e: &u8, _seq, _eob| {})
    ///     .build_single_producer()?;
    /// drop(producer);
    /// assert_eq!(
    ///     Disruptor::builder(8, || 0u8).build_single_producer().unwrap_err(),
    ///     BuildError::NoConsumers
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn build_single_producer(self) -> Result<SingleProducer<E>, BuildError> {
        self.build(false).map(SingleProducer::new)
    }

    /// Builds the disruptor for several producer threads (clone the
    /// [`MultiProducer`], one per thread) and starts the processors'
    /// threads. Every power-of-two size works, 1 included.
    ///
    /// # Errors
    /// As [`build_single_producer`](Self::build_single_producer).
    ///
    /// ```
    /// use hotq_disruptor::{BuildError, Disruptor};
    ///
    /// let producer = Disruptor::builder(2, || 0u64)
    ///     .handle_events_with(|_e: &u64, _seq, _eob| {})
    ///     .build_multi_producer()?;
    /// let clone = producer.clone();
    /// drop(producer);
    /// clone.shutdown()?;
    /// assert!(matches!(
    ///     Disruptor::builder(6, || 0u64)
    ///         .handle_events_with(|_e: &u64, _seq, _eob| {})
    ///         .build_multi_producer(),
    ///     Err(BuildError::SizeNotPowerOfTwo { size: 6 })
    /// ));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn build_multi_producer(self) -> Result<MultiProducer<E>, BuildError> {
        self.build(true).map(MultiProducer::new)
    }

    fn current(&mut self) -> &mut Stage<E> {
        let last = self.stages.len() - 1;
        &mut self.stages[last]
    }

    fn fail(&mut self, error: BuildError) {
        self.error.get_or_insert(error);
    }

    /// A stage after `after`; the current one takes it if it is still
    /// empty (the first stage, or a `then()` just before).
    fn start_stage(mut self, after: After) -> Self {
        if self.current().consumers.is_empty() {
            self.current().after = after;
        } else {
            self.stages.push(Stage::new(after));
        }
        self
    }

    /// A read-only consumer joins the current stage: refused beside a
    /// mutable handler.
    fn check_reader(&mut self) {
        if self.current().has_writer {
            self.fail(BuildError::MutableHandlerShared {
                stage: self.stages.len() - 1,
            });
        }
    }

    /// A mutable handler joins the current stage: it must be alone.
    fn check_writer(&mut self) {
        if !self.current().consumers.is_empty() {
            self.fail(BuildError::MutableHandlerShared {
                stage: self.stages.len() - 1,
            });
        }
        self.current().has_writer = true;
    }

    /// The next consumer's name: the one given by `named`, else its
    /// handler's, else `<prefix>-<stage>.<index>`.
    fn name_for(&mut self, handler_name: String, prefix: &str) -> String {
        let stage = self.stages.len() - 1;
        let index = self.current().consumers.len();
        match self.name_next.take() {
            Some(name) => name,
            None if !handler_name.is_empty() => handler_name,
            None => format!("{prefix}-{stage}.{index}"),
        }
    }

    /// Adds a processor to the current stage; `make` builds its consumer
    /// on the processor's own thread.
    fn add_processor<C, M>(&mut self, handler_name: String, writer: bool, make: M)
    where
        C: Consume<E>,
        M: FnOnce() -> C + Send + 'static,
    {
        let name = self.name_for(handler_name, "disruptor");
        let sequence = Arc::new(AtomicSequence::new(INITIAL));
        let waiter = self.waiter;
        self.parks |= waiter.parks();
        let policy = self.policy;
        let thread_name = name.clone();
        let own = Arc::clone(&sequence);
        let core = self.pin_next.take();
        let processor: MakeProcessor<E> = Box::new(move |shared, gate| {
            let barrier = SequenceBarrier::new(gate, waiter);
            Box::new(move || {
                pin_current_thread(core, &thread_name);
                start_processor(shared, own, barrier, make, thread_name, policy);
            })
        });
        self.current().consumers.push(Consumer {
            name,
            sequence,
            writer,
            role: Role::Processor(processor),
        });
    }

    /// The consumers as graph nodes, each with the consumers it is after.
    fn nodes(&self) -> Result<Vec<Node>, BuildError> {
        let mut index = HashMap::new();
        let mut stage_members = Vec::with_capacity(self.stages.len());
        let mut n = 0;
        for stage in &self.stages {
            let members: Vec<usize> = (n..n + stage.consumers.len()).collect();
            for (i, c) in members.iter().zip(&stage.consumers) {
                if index.insert(c.name.as_str(), *i).is_some() {
                    return Err(BuildError::DuplicateName {
                        name: c.name.clone(),
                    });
                }
            }
            n += members.len();
            stage_members.push(members);
        }
        let mut nodes = Vec::with_capacity(n);
        for (k, stage) in self.stages.iter().enumerate() {
            let mut after = match &stage.after {
                After::StageBefore if k == 0 => Vec::new(),
                After::StageBefore => stage_members[k - 1].clone(),
                After::Named(names) => names
                    .iter()
                    .map(|name| {
                        index
                            .get(name.as_str())
                            .copied()
                            .ok_or_else(|| BuildError::UnknownHandler { name: name.clone() })
                    })
                    .collect::<Result<_, _>>()?,
            };
            after.sort_unstable();
            after.dedup();
            for c in &stage.consumers {
                nodes.push(Node {
                    name: c.name.clone(),
                    sequence: Arc::clone(&c.sequence),
                    writer: c.writer,
                    poller: matches!(c.role, Role::Poller(_)),
                    after: after.clone(),
                });
            }
        }
        Ok(nodes)
    }

    fn build(mut self, multi_producer: bool) -> Result<Arc<Shared<E>>, BuildError> {
        if let Some(error) = self.error.take() {
            return Err(error);
        }
        let size = self.size;
        // Sequences are `i64`: a ring past 2^62 slots could not hold two
        // laps of them. The bound is taken in `u64`, so it compiles (and
        // never bites) where `usize` is 32 bits.
        if !size.is_power_of_two() || size as u64 > 1 << 62 {
            return Err(BuildError::SizeNotPowerOfTwo { size });
        }
        if self.stages.iter().all(|s| s.consumers.is_empty()) {
            return Err(BuildError::NoConsumers);
        }
        if self.current().consumers.is_empty() {
            return Err(BuildError::EmptyStage {
                stage: self.stages.len() - 1,
            });
        }
        let resolved = graph::resolve(&self.nodes()?)?;
        let ring = RingBuffer::new(size, &mut *self.factory);
        let shared = Arc::new(Shared::new(
            ring,
            multi_producer,
            resolved.leaves,
            Control::new(self.parks),
        ));
        let consumers = self.stages.into_iter().flat_map(|s| s.consumers);
        let mut gates = resolved.gates.into_iter().zip(resolved.after_a_poller);
        for consumer in consumers {
            let (gate, after_a_poller) = gates.next().expect("a gate per consumer");
            let make = match consumer.role {
                Role::Poller(link) => {
                    let barrier = SequenceBarrier::new(gate, Waiter::BusySpin);
                    let _ = link.set(PollerLink::new(Arc::clone(&shared), barrier));
                    continue;
                }
                Role::Processor(make) => make,
            };
            match spawn_named(consumer.name.clone(), make(Arc::clone(&shared), gate)) {
                Ok(thread) => shared.add_thread(thread, after_a_poller),
                Err(e) => {
                    // Stop and join what started; report the failure.
                    shared.control.halt();
                    let _ = shared.release_producer(Release::Shutdown(None));
                    return Err(BuildError::Spawn {
                        handler: consumer.name,
                        kind: e.kind(),
                    });
                }
            }
        }
        Ok(shared)
    }
}

impl<E> core::fmt::Debug for Builder<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Builder")
            .field("size", &self.size)
            .field("stages", &self.stages.len())
            .finish_non_exhaustive()
    }
}
