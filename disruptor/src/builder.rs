//! Building a disruptor: the ring, the consumers' dependency graph, the
//! producer.

use crate::affinity::pin_current_thread;
use crate::barrier::SequenceBarrier;
use crate::control::Control;
use crate::error::BuildError;
use crate::gate::Gate;
use crate::handler::{EventHandler, EventHandlerMut, FnHandler, FnHandlerMut};
use crate::panic_policy::PanicPolicy;
use crate::poller::EventPoller;
use crate::processor::{BatchEventProcessor, Consume, Reader, Writer};
use crate::producer::{MultiProducer, SingleProducer};
use crate::ring_buffer::RingBuffer;
use crate::sequence::{AtomicSequence, INITIAL, Sequence};
use crate::shared::Shared;
use crate::sync::{Arc, OnceLock, spawn_named};
use crate::wait::{WaitStrategy, Waiter};

/// The entry point: [`Disruptor::builder`].
///
/// ```
/// use hotq_disruptor::{Disruptor, wait::BusySpin};
///
/// let mut producer = Disruptor::builder(1024, || 0u64)
///     .wait_strategy(BusySpin)
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
        F: FnMut() -> E + 'static,
    {
        Builder {
            size,
            factory: Box::new(factory),
            waiter: Waiter::BusySpin,
            policy: PanicPolicy::Halt,
            stages: vec![Stage::default()],
            error: None,
            parks: false,
            pollers: Arc::new(OnceLock::new()),
            pin_next: None,
        }
    }
}

/// Makes a processor's thread body once the disruptor's shared state exists.
type MakeProcessor<E> = Box<dyn FnOnce(Arc<Shared<E>>) -> Box<dyn FnOnce() + Send>>;

struct Consumer<E> {
    name: String,
    sequence: Arc<AtomicSequence>,
    /// `None` for an event poller (the caller runs it).
    processor: Option<MakeProcessor<E>>,
}

struct Stage<E> {
    consumers: Vec<Consumer<E>>,
    has_writer: bool,
}

impl<E> Stage<E> {
    /// Its consumers' sequences.
    fn sequences(&self) -> Box<[Arc<AtomicSequence>]> {
        self.consumers
            .iter()
            .map(|c| Arc::clone(&c.sequence))
            .collect()
    }
}

/// A gate behind every stage of `stages`, the last (nearest) first.
fn gate_behind<E>(stages: &[Stage<E>]) -> Gate {
    Gate::new(stages.iter().rev().map(Stage::sequences).collect())
}

impl<E> Default for Stage<E> {
    fn default() -> Self {
        Stage {
            consumers: Vec::new(),
            has_writer: false,
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
pub struct Builder<E> {
    size: usize,
    factory: Box<dyn FnMut() -> E>,
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
    /// Filled by the build, for the event pollers made before it.
    pollers: Arc<OnceLock<Arc<Shared<E>>>>,
    /// The core to pin the next handler's thread to (taken by it).
    pin_next: Option<usize>,
}

impl<E: Send + Sync + 'static> Builder<E> {
    /// The wait strategy of the handlers added after this call (the
    /// default is [`BusySpin`](crate::wait::BusySpin)).
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
        if self.current().has_writer {
            self.fail(BuildError::MutableHandlerShared {
                stage: self.stages.len() - 1,
            });
        }
        self.add_processor(name, Reader(handler));
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
        if !self.current().consumers.is_empty() {
            self.fail(BuildError::MutableHandlerShared {
                stage: self.stages.len() - 1,
            });
        }
        self.current().has_writer = true;
        self.add_processor(name, Writer(handler));
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
    pub fn event_poller(&mut self) -> EventPoller<E> {
        if self.current().has_writer {
            self.fail(BuildError::MutableHandlerShared {
                stage: self.stages.len() - 1,
            });
        }
        let sequence = Arc::new(AtomicSequence::new(INITIAL));
        let barrier = SequenceBarrier::new(self.earlier_stages(), Waiter::BusySpin);
        let index = self.current().consumers.len();
        let stage = self.stages.len() - 1;
        self.current().consumers.push(Consumer {
            name: format!("hotq-poller-{stage}.{index}"),
            sequence: Arc::clone(&sequence),
            processor: None,
        });
        EventPoller::new(Arc::clone(&self.pollers), sequence, barrier)
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
        self.stages.push(Stage::default());
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

    /// What a consumer of the current stage waits behind: every stage
    /// before it, nearest first (none in the first stage).
    fn earlier_stages(&self) -> Gate {
        gate_behind(&self.stages[..self.stages.len() - 1])
    }

    fn fail(&mut self, error: BuildError) {
        self.error.get_or_insert(error);
    }

    fn add_processor<C: Consume<E>>(&mut self, name: String, consumer: C) {
        let stage = self.stages.len() - 1;
        let index = self.current().consumers.len();
        let name = if name.is_empty() {
            format!("disruptor-{stage}.{index}")
        } else {
            name
        };
        let sequence = Arc::new(AtomicSequence::new(INITIAL));
        let barrier = SequenceBarrier::new(self.earlier_stages(), self.waiter);
        self.parks |= self.waiter.parks();
        let policy = self.policy;
        let thread_name = name.clone();
        let own = Arc::clone(&sequence);
        let core = self.pin_next.take();
        let processor: MakeProcessor<E> = Box::new(move |shared| {
            let processor = BatchEventProcessor {
                shared,
                sequence: own,
                barrier,
                consumer,
                name: thread_name,
                policy,
            };
            Box::new(move || {
                pin_current_thread(core, &processor.name);
                processor.run()
            })
        });
        self.current().consumers.push(Consumer {
            name,
            sequence,
            processor: Some(processor),
        });
    }

    fn build(mut self, multi_producer: bool) -> Result<Arc<Shared<E>>, BuildError> {
        if let Some(error) = self.error.take() {
            return Err(error);
        }
        let size = self.size;
        if !size.is_power_of_two() || size > 1 << 62 {
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
        // The producers wait behind every stage.
        let gating = gate_behind(&self.stages);
        let ring = RingBuffer::new(size, &mut *self.factory);
        let shared = Arc::new(Shared::new(
            ring,
            multi_producer,
            gating,
            Control::new(self.parks),
        ));
        let _ = self.pollers.set(Arc::clone(&shared));
        for consumer in self.stages.into_iter().flat_map(|s| s.consumers) {
            let Some(make) = consumer.processor else {
                continue;
            };
            match spawn_named(consumer.name.clone(), make(Arc::clone(&shared))) {
                Ok(thread) => shared.add_thread(thread),
                Err(e) => {
                    // Stop and join what started; report the failure.
                    shared.control.halt();
                    let _ = shared.release_producer(None);
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
