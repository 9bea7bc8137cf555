//! Linearizability: thousands of short concurrent histories (2–5 threads,
//! 20–60 calls each, rings of 1, 2 and 4 so that full and empty happen
//! often) of `try_publish`, `try_batch_publish` and `remaining_capacity`
//! against event pollers driven by the history's own threads (no processor
//! threads: a poll is a call with an invocation and a response), in four
//! topologies: one poller, two pollers gating the producers together, a
//! pipeline of two (`then()`), and two pollers then a third gated on both.
//! Each history is checked against `hotq_testkit::sequenced::Ring` by the
//! Wing–Gong–Lowe search.
//!
//! What is linearizable, and why the spec has the shape it has:
//!
//! - A single-producer publish (one event or a batch) is one instant, its
//!   cursor store: its events become visible together there, and the room
//!   its claim found (from the leaves' sequences, or a cached limit taken
//!   from them earlier: both only grow) is still there. Full is exact: the
//!   producer answers it only when, at the instant it loaded the leaves'
//!   sequences, the slowest leaf was a whole ring behind the batch's last
//!   event. `remaining_capacity` is exact (the producer's own cursor less
//!   the slowest leaf). With two leaves their sequences are loaded one at
//!   a time, but each only grows, so the minimum found lies between the
//!   true minimum at the first load and at the last: a full is right at
//!   the first, room at the last (the same holds for a later stage's
//!   barrier over two pollers).
//! - A poll is two instants. It hands out every event available when its
//!   barrier looks (everything published, for the first stage; everything
//!   the previous stage has released, for a later one: all of it, in one
//!   batch, `end_of_batch` on the last, as `EventPoller::poll` documents),
//!   but releases them to the producers and the next stage only once its
//!   closure has handled them. In between, a producer still finds those
//!   slots taken. With one instant for both, the object is not
//!   linearizable, and is not meant to be: the poller took event 0 of a
//!   ring of 2, the producer published 1, then found no room for 2 because
//!   0 was not yet released; the take must precede 1's publish, the
//!   release must follow the full. So a poll is recorded as a take (its
//!   result) and a release, both over the poll's interval.
//! - A multi-producer publish is two steps too: the claim (a CAS on the
//!   cursor, made only once there is room: where the sequence is given out
//!   and Full is decided), then the write and one availability flag per
//!   event (a batch's flags are stored one by one). A poll stops at the
//!   first claimed event whose flag is not yet set, even when later ones
//!   are published; against "a poll returns everything published" the
//!   object is not linearizable. So each claim and each flag store is a
//!   call of its own over the publish's interval, and the model's poll
//!   returns every event from the poller's position up to the first
//!   claimed-and-unpublished one. That is stronger than "any run of
//!   claimed events, and no spurious empty": a poll that stops short of an
//!   event whose flag, and every earlier one's, was set before the poll
//!   looked has no place in the order, and neither has one that hands out
//!   an event past a hole.
//!
//! Both two-instant cases are forced with a step counter in the last two
//! tests, which check that the split history is accepted and that the
//! same history with one instant per call is rejected. The random
//! histories seldom produce them by themselves (the windows are a few
//! nanoseconds wide): 2400 debug histories recorded with one instant per
//! multi-producer publish, or per poll, were all accepted.
//!
//! The checker is shown to reject histories of this disruptor with three
//! faults put in on purpose (a poller that reports empty without looking,
//! one that loses an event, a producer that reports full with room); the
//! model's own tests (in `hotq-testkit`) show what it accepts and rejects
//! call by call.

use std::sync::atomic::{AtomicUsize, Ordering};

use hotq_disruptor::{
    BatchIterMut, Builder, Disruptor, EventPoller, MultiProducer, PublishError, Sequence,
    SingleProducer,
};
use hotq_testkit::history::{self, Body, Log};
use hotq_testkit::lincheck::{self, Model};
use hotq_testkit::sequenced::{self, Call, Event, Ret, Ring, RingOp};
use hotq_testkit::{Rng, wait_for};

/// Pollers per stage, numbered stage by stage as `Ring::new` numbers them.
const TOPOLOGIES: [&[usize]; 4] = [&[1], &[2], &[1, 1], &[2, 1]];

/// A producer handle of either kind.
trait Publish: Send {
    /// Whether a publish is a claim and flag stores (several producers).
    const MULTI: bool;
    /// `try_publish` of one value, or `try_batch_publish` of them all.
    fn publish(&mut self, values: &[u64], batch: bool) -> Result<Sequence, PublishError>;
    fn capacity(&self) -> usize;
}

fn fill(events: BatchIterMut<'_, u64>, values: &[u64]) {
    for (e, &v) in events.zip(values) {
        *e = v;
    }
}

/// The two producer kinds differ here only in `MULTI`: a macro, not a
/// blanket impl over `hotq_disruptor::Producer`, so each can say which it is.
macro_rules! impl_publish {
    ($producer:ty, $multi:expr) => {
        impl Publish for $producer {
            const MULTI: bool = $multi;
            fn publish(&mut self, values: &[u64], batch: bool) -> Result<Sequence, PublishError> {
                match *values {
                    [v] if !batch => self.try_publish(|e| *e = v),
                    _ => self.try_batch_publish(values.len(), |events| fill(events, values)),
                }
            }
            fn capacity(&self) -> usize {
                self.remaining_capacity()
            }
        }
    };
}

impl_publish!(SingleProducer<u64>, false);
impl_publish!(MultiProducer<u64>, true);

/// A poller of whatever kind is under test.
trait Poll: Send {
    /// Hands `f` the events of one poll; returns how many.
    fn poll(&mut self, f: &mut dyn FnMut(Event)) -> usize;
}

impl Poll for EventPoller<u64> {
    fn poll(&mut self, f: &mut dyn FnMut(Event)) -> usize {
        EventPoller::poll(self, |&value, seq, end_of_batch| {
            f(Event {
                seq,
                value,
                end_of_batch,
            })
        })
        .expect("nothing halts the disruptor during a history")
    }
}

/// What a deliberately broken disruptor does wrong.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fault {
    None,
    /// Every other poll reports nothing without looking.
    SpuriousEmpty,
    /// Every third event a poller is handed goes unreported (it is
    /// released all the same).
    LostEvent,
    /// Every third publish reports `Full` without trying.
    SpuriousFull,
}

/// A poller or a producer with `fault`.
struct Faulty<T> {
    inner: T,
    fault: Fault,
    /// Calls made so far.
    calls: usize,
    /// Events handed out so far (a poller's).
    events: usize,
}

impl<T> Faulty<T> {
    fn new(inner: T, fault: Fault) -> Self {
        Faulty {
            inner,
            fault,
            calls: 0,
            events: 0,
        }
    }
}

impl<T: Poll> Poll for Faulty<T> {
    fn poll(&mut self, f: &mut dyn FnMut(Event)) -> usize {
        self.calls += 1;
        if self.fault == Fault::SpuriousEmpty && self.calls % 2 == 0 {
            return 0;
        }
        let mut reported = 0;
        let fault = self.fault;
        let events = &mut self.events;
        self.inner.poll(&mut |e| {
            *events += 1;
            if !(fault == Fault::LostEvent && *events % 3 == 0) {
                reported += 1;
                f(e);
            }
        });
        reported
    }
}

impl<T: Publish> Publish for Faulty<T> {
    const MULTI: bool = T::MULTI;
    fn publish(&mut self, values: &[u64], batch: bool) -> Result<Sequence, PublishError> {
        self.calls += 1;
        if self.fault == Fault::SpuriousFull && self.calls % 3 == 0 {
            return Err(PublishError::Full);
        }
        self.inner.publish(values, batch)
    }
    fn capacity(&self) -> usize {
        self.inner.capacity()
    }
}

/// A publish's result as the model answers it.
fn published(r: Result<Sequence, PublishError>) -> Ret {
    match r {
        Ok(hi) => Ret::Published(hi),
        Err(PublishError::Full) => Ret::Full,
        Err(e) => panic!("unexpected {e:?} during a history"),
    }
}

/// After a call that found nothing to do (a full ring, no event), yields
/// every other time: with more threads than free cores, a thread that
/// never yields makes all its calls before the others run (without this,
/// on 2 busy cores, 93% of publishes found the ring full and 99% of polls
/// nothing; with it 62% and 82%, and one poll in ten hands out a batch).
/// The yield is outside the call's interval, so it widens no call.
fn idle(rng: &mut Rng) {
    if rng.below(2) == 0 {
        std::thread::yield_now();
    }
}

/// One producer thread: `calls` random calls of `try_publish` (most),
/// `try_batch_publish` of `1..=size` and `remaining_capacity`; every value
/// is new (thread in the high bits).
fn produce<P: Publish>(
    producer: &mut P,
    size: usize,
    calls: usize,
    seed: u64,
) -> Body<'_, Call, Ret> {
    Box::new(move |log: &mut Log<Call, Ret>| {
        let t = log.thread();
        let mut rng = Rng::for_thread(seed, t);
        let mut next = (t as u64) << 32;
        for _ in 0..calls {
            rng.pause(64);
            let (n, batch) = match rng.below(8) {
                0..=4 => (1, false),
                5 | 6 => (1 + rng.below_usize(size), true),
                _ => {
                    log.record(Call::Capacity, || producer.capacity(), Ret::Count);
                    continue;
                }
            };
            let values: Vec<u64> = (next..next + n as u64).collect();
            let invoked = log.invoke();
            let r = producer.publish(&values, batch);
            if P::MULTI {
                // See the top: the claim, then each flag.
                log.respond(invoked, Call::Claim(values), published(r));
                if let Ok(hi) = r {
                    for seq in hi - n as Sequence + 1..=hi {
                        log.respond(invoked, Call::Mark(seq), Ret::Done);
                    }
                }
            } else {
                log.respond(invoked, Call::Publish(values), published(r));
            }
            match r {
                Ok(_) => next += n as u64,
                // On a busy machine the pollers may not be running: let
                // them (the next calls then overlap theirs).
                Err(_) => idle(&mut rng),
            }
        }
    })
}

/// One poller thread: `calls` polls of poller `p`.
fn consume(poller: &mut dyn Poll, p: usize, calls: usize, seed: u64) -> Body<'_, Call, Ret> {
    Box::new(move |log: &mut Log<Call, Ret>| {
        let mut rng = Rng::for_thread(seed, log.thread());
        for _ in 0..calls {
            rng.pause(64);
            if record_poll(log, poller, p, || {}) == 0 {
                idle(&mut rng);
            }
        }
    })
}

/// Records one poll of poller `p` as its take and, if it took anything,
/// its release (see the top); `f` runs on each event as it is handed out.
/// Returns how many were.
fn record_poll(log: &mut Log<Call, Ret>, poller: &mut dyn Poll, p: usize, f: impl Fn()) -> usize {
    let mut got = Vec::new();
    let invoked = log.invoke();
    let n = poller.poll(&mut |e| {
        got.push(e);
        f();
    });
    let count_matches = n == got.len();
    log.respond(invoked, Call::Take(p), Ret::Events(got));
    assert!(count_matches, "a poll's count is what it handed out");
    if n > 0 {
        log.respond(invoked, Call::Release(p), Ret::Done);
    }
    n
}

/// The shape of one history.
#[derive(Clone, Copy, Debug)]
struct Shape {
    size: usize,
    stages: &'static [usize],
    /// 1 for a single producer.
    producers: usize,
    calls: usize,
}

impl Shape {
    /// The shape of history `seed`: the sizes and topologies taking turns;
    /// a single producer, or 2 producers (3 with one poller).
    fn of(seed: u64, multi: bool) -> Self {
        let size = 1 << (seed % 3);
        let stages = TOPOLOGIES[(seed / 3 % TOPOLOGIES.len() as u64) as usize];
        let pollers: usize = stages.iter().sum();
        let producers = if !multi {
            1
        } else if pollers == 1 {
            2 + (seed / 12 % 2) as usize
        } else {
            2
        };
        let calls = if cfg!(miri) {
            20
        } else {
            20 + (seed * 7 % 41) as usize
        };
        Shape {
            size,
            stages,
            producers,
            calls,
        }
    }
}

/// Builds the disruptor of `shape` with its pollers (each wrapped with
/// `poll_fault`).
fn build(shape: Shape, poll_fault: Fault) -> (Builder<u64>, Vec<Faulty<EventPoller<u64>>>) {
    let mut builder = Disruptor::builder(shape.size, || 0u64);
    let mut pollers = Vec::new();
    for (k, &n) in shape.stages.iter().enumerate() {
        if k > 0 {
            builder = builder.then();
        }
        for _ in 0..n {
            pollers.push(Faulty::new(builder.event_poller(), poll_fault));
        }
    }
    (builder, pollers)
}

/// Runs one history on a real disruptor of `shape`, with `fault`.
fn run_history(shape: Shape, fault: Fault, seed: u64) -> Vec<RingOp> {
    let (poll_fault, publish_fault) = match fault {
        Fault::SpuriousFull => (Fault::None, fault),
        _ => (fault, Fault::None),
    };
    let (builder, pollers) = build(shape, poll_fault);
    if shape.producers == 1 {
        let producer = builder.build_single_producer().unwrap();
        let mut producers = [Faulty::new(producer, publish_fault)];
        run_threads(&mut producers, pollers, shape, seed)
    } else {
        let first = builder.build_multi_producer().unwrap();
        let mut producers: Vec<_> = (0..shape.producers)
            .map(|_| Faulty::new(first.clone(), publish_fault))
            .collect();
        drop(first);
        run_threads(&mut producers, pollers, shape, seed)
    }
}

/// Runs a thread per producer and per poller, then drops the pollers
/// before the caller drops the producers: a dropped poller stops gating,
/// so the last producer's shutdown has nothing left to drain.
fn run_threads<P: Publish>(
    producers: &mut [P],
    mut pollers: Vec<Faulty<EventPoller<u64>>>,
    shape: Shape,
    seed: u64,
) -> Vec<RingOp> {
    let mut bodies: Vec<Body<'_, Call, Ret>> = producers
        .iter_mut()
        .map(|producer| produce(producer, shape.size, shape.calls, seed))
        .collect();
    bodies.extend(
        pollers
            .iter_mut()
            .enumerate()
            .map(|(p, poller)| consume(poller as &mut dyn Poll, p, shape.calls, seed)),
    );
    let history = history::run(bodies);
    drop(pollers);
    history
}

/// Histories per test: thousands natively (more in release builds), a few
/// under miri (which checks the same calls for undefined behaviour), of 20
/// calls per thread: seeds 0, 4 and 8 (see [`seeds`]) have rings of 1, 2
/// and 4 and the first three topologies.
const HISTORIES: u64 = if cfg!(miri) {
    3
} else if cfg!(debug_assertions) {
    1200
} else {
    4000
};

/// What the histories of a test held, to show they test something.
#[derive(Default)]
struct Tally {
    histories: usize,
    calls: usize,
    publishes: usize,
    full: usize,
    polls: usize,
    empty: usize,
    /// Polls that handed out two events or more.
    batches: usize,
    /// The fewest laps of its ring a history's events made.
    fewest_laps: Option<i64>,
    overlap: f64,
}

impl Tally {
    fn add(&mut self, history: &[RingOp], size: usize) {
        let mut cursor = -1;
        for op in history {
            match (&op.call, &op.ret) {
                (Call::Publish(_) | Call::Claim(_), ret) => {
                    self.publishes += 1;
                    self.full += usize::from(*ret == Ret::Full);
                    if let Ret::Published(hi) = *ret {
                        cursor = cursor.max(hi);
                    }
                }
                (Call::Take(_), Ret::Events(e)) => {
                    self.polls += 1;
                    self.empty += usize::from(e.is_empty());
                    self.batches += usize::from(e.len() >= 2);
                }
                _ => {}
            }
            self.calls += usize::from(!matches!(op.call, Call::Mark(_) | Call::Release(_)));
        }
        let laps = (cursor + 1) / size as i64;
        self.fewest_laps = Some(self.fewest_laps.map_or(laps, |l| l.min(laps)));
        self.histories += 1;
        self.overlap += history::overlap(history);
    }

    fn report(&self) {
        let share = |n: usize, of: usize| 100.0 * n as f64 / of as f64;
        println!(
            "{} histories checked ({} calls): {:.0}% of publishes found the ring full, \
             {:.0}% of polls found nothing and {:.0}% handed out two events or more, the \
             fewest laps round the ring in one history: {}, on average {:.0}% of calls \
             overlapped another thread's",
            self.histories,
            self.calls,
            share(self.full, self.publishes),
            share(self.empty, self.polls),
            share(self.batches, self.polls),
            self.fewest_laps.unwrap_or(0),
            100.0 * self.overlap / self.histories as f64
        );
    }
}

/// The seeds of a test's histories.
fn seeds() -> impl Iterator<Item = u64> {
    (0..HISTORIES).map(|k| if cfg!(miri) { 4 * k } else { k })
}

fn check_many(multi: bool) {
    let mut tally = Tally::default();
    for seed in seeds() {
        let shape = Shape::of(seed, multi);
        let history = run_history(shape, Fault::None, seed);
        if let Err(e) = sequenced::check(&history, shape.size, shape.stages) {
            panic!("seed {seed}, {shape:?}: {e}");
        }
        tally.add(&history, shape.size);
    }
    tally.report();
}

#[test]
fn one_producer_and_pollers_in_stages_are_linearizable() {
    check_many(false);
}

#[test]
fn several_producers_and_pollers_in_stages_are_linearizable() {
    check_many(true);
}

/// How many of `runs` histories with `fault` the checker rejects.
fn rejected(fault: Fault, multi: bool, runs: u64) -> u64 {
    (0..runs)
        .filter(|&seed| {
            let shape = Shape::of(seed, multi);
            let history = run_history(shape, fault, seed);
            sequenced::check(&history, shape.size, shape.stages).is_err()
        })
        .count() as u64
}

#[test]
fn checker_rejects_histories_of_broken_disruptors() {
    // Real concurrent runs with the fault: almost every history shows it,
    // one is enough.
    let runs = if cfg!(miri) { 2 } else { 20 };
    for multi in [false, true] {
        for fault in [Fault::SpuriousEmpty, Fault::LostEvent, Fault::SpuriousFull] {
            let n = rejected(fault, multi, runs);
            println!("{fault:?}, multi {multi}: {n} of {runs} histories rejected");
            assert!(
                n > 0,
                "{fault:?}, multi {multi}: all {runs} histories accepted"
            );
        }
    }
}

/// A step counter the threads of a forced interleaving hand on.
struct Steps(AtomicUsize);

impl Steps {
    fn reach(&self, step: usize) {
        // Release/Acquire: only the order of the calls matters; the
        // disruptor's own orderings carry the data.
        self.0.store(step, Ordering::Release);
    }
    fn wait(&self, step: usize) {
        wait_for(&format!("step {step}"), || {
            (self.0.load(Ordering::Acquire) >= step).then_some(())
        });
    }
}

/// The ring with each poll's take and release at one instant: the spec
/// this disruptor does not meet (see the top).
#[derive(Clone, PartialEq, Eq, Hash)]
struct OneInstantPolls(Ring);

impl Model for OneInstantPolls {
    type Call = Call;
    type Ret = Ret;
    fn step(&mut self, call: &Call) -> Ret {
        let ret = self.0.step(call);
        if let (Call::Take(p), Ret::Events(events)) = (call, &ret) {
            if !events.is_empty() {
                self.0.step(&Call::Release(*p));
            }
        }
        ret
    }
}

/// Why a poll is two instants, on a forced interleaving: the poll takes
/// event 0 of a ring of 2 and, while its closure holds it, the producer
/// publishes 1 and then finds no room for 2 (0 is not released). The
/// history is accepted as recorded (take and release), and rejected with
/// the poll at one instant: it must come before 1's publish (it did not
/// take 1) and after the full (it would have freed a slot for 2).
#[test]
fn a_producer_finds_the_slots_of_a_poll_in_progress_taken() {
    let mut builder = Disruptor::builder(2, || 0u64);
    let poller = builder.event_poller();
    // A tuple drops in field order: the poller first, so the producer's
    // shutdown has nothing to drain, also when an assertion unwinds.
    let mut rig = (poller, builder.build_single_producer().unwrap());
    let (poller_ref, producer_ref) = (&mut rig.0, &mut rig.1);
    let steps = Steps(AtomicUsize::new(0));
    let steps = &steps;
    let history = history::run(vec![
        Box::new(move |log: &mut Log<Call, Ret>| {
            log.record(
                Call::Publish(vec![10]),
                || Publish::publish(producer_ref, &[10], false),
                published,
            );
            steps.reach(1);
            steps.wait(2);
            log.record(
                Call::Publish(vec![11]),
                || Publish::publish(producer_ref, &[11], false),
                published,
            );
            log.record(
                Call::Publish(vec![12]),
                || Publish::publish(producer_ref, &[12], false),
                published,
            );
            steps.reach(3);
        }) as Body<'_, Call, Ret>,
        Box::new(move |log: &mut Log<Call, Ret>| {
            steps.wait(1);
            record_poll(log, poller_ref, 0, || {
                steps.reach(2);
                steps.wait(3);
            });
        }),
    ]);
    let results: Vec<_> = history.iter().map(|op| (&op.call, &op.ret)).collect();
    assert!(
        results.contains(&(&Call::Publish(vec![11]), &Ret::Published(1)))
            && results.contains(&(&Call::Publish(vec![12]), &Ret::Full)),
        "{results:?}"
    );
    assert_eq!(sequenced::check(&history, 2, &[1]), Ok(()));
    let takes_only: Vec<RingOp> = history
        .iter()
        .filter(|op| !matches!(op.call, Call::Release(_)))
        .cloned()
        .collect();
    let one_instant = OneInstantPolls(Ring::new(2, &[1]));
    assert!(lincheck::check(&one_instant, &takes_only).is_err());
}

/// Why a multi-producer publish is two instants, on a forced
/// interleaving: producer A has claimed 0 and is still writing it when
/// producer B claims and publishes 1; a poll then finds nothing (1 waits
/// behind the hole at 0), and once A's publish returns a poll finds both.
/// The history is accepted as recorded (claims and flags), and rejected
/// once each publish is taken as one instant: the empty poll began after
/// B's publish had returned.
#[test]
fn a_poll_stops_at_a_claimed_event_still_being_written() {
    let mut builder = Disruptor::builder(4, || 0u64);
    let poller = builder.event_poller();
    let a = builder.build_multi_producer().unwrap();
    let b = a.clone();
    // The poller drops first (see the test above).
    let mut rig = (poller, a, b);
    let (poller_ref, a_ref, b_ref) = (&mut rig.0, &mut rig.1, &mut rig.2);
    let steps = Steps(AtomicUsize::new(0));
    let steps = &steps;
    /// Records a multi-producer `try_publish` of `v` as its claim and flag.
    fn record_publish(
        log: &mut Log<Call, Ret>,
        r: impl FnOnce() -> Result<Sequence, PublishError>,
        v: u64,
        invoked: u64,
    ) {
        let r = r();
        log.respond(invoked, Call::Claim(vec![v]), published(r));
        if let Ok(seq) = r {
            log.respond(invoked, Call::Mark(seq), Ret::Done);
        }
    }
    let history = history::run(vec![
        Box::new(move |log: &mut Log<Call, Ret>| {
            let invoked = log.invoke();
            let publish = || {
                a_ref.try_publish(|e| {
                    *e = 10;
                    steps.reach(1);
                    steps.wait(3);
                })
            };
            record_publish(log, publish, 10, invoked);
            steps.reach(4);
        }) as Body<'_, Call, Ret>,
        Box::new(move |log: &mut Log<Call, Ret>| {
            steps.wait(1);
            let invoked = log.invoke();
            record_publish(log, || Publish::publish(b_ref, &[11], false), 11, invoked);
            steps.reach(2);
        }),
        Box::new(move |log: &mut Log<Call, Ret>| {
            steps.wait(2);
            record_poll(log, poller_ref, 0, || {});
            steps.reach(3);
            steps.wait(4);
            record_poll(log, poller_ref, 0, || {});
        }),
    ]);
    let takes: Vec<_> = history
        .iter()
        .filter(|op| matches!(op.call, Call::Take(_)))
        .map(|op| &op.ret)
        .collect();
    let both = Ret::Events(vec![
        Event {
            seq: 0,
            value: 10,
            end_of_batch: false,
        },
        Event {
            seq: 1,
            value: 11,
            end_of_batch: true,
        },
    ]);
    assert_eq!(takes, [&Ret::Events(Vec::new()), &both]);
    assert_eq!(sequenced::check(&history, 4, &[1]), Ok(()));
    let one_instant: Vec<RingOp> = history
        .iter()
        .filter(|op| !matches!(op.call, Call::Mark(_)))
        .map(|op| match op.call {
            Call::Claim(ref values) => RingOp {
                call: Call::Publish(values.clone()),
                ..op.clone()
            },
            _ => op.clone(),
        })
        .collect();
    assert!(sequenced::check(&one_instant, 4, &[1]).is_err());
}
