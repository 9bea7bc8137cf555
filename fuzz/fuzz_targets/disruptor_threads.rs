//! Two or three producer threads, each running its own list of
//! `publish`, `try_publish`, `batch_publish`, `try_batch_publish` (and
//! `halt`) calls from the fuzz input on clones of one multi producer, into
//! a small ring consumed by one or two handler threads: one handler, two in
//! parallel, or a pipeline of two (the first possibly a mutable handler
//! that stamps each event). Each event is tagged (producer, index), and
//! each producer records the sequences its calls returned.
//!
//! After the shutdown's drain, the sequences the producers got must be
//! 0, 1, 2, … without gap or repeat, and every handler must have seen
//! exactly those events, each once, in sequence order, each holding what
//! its producer wrote (so nothing lost or duplicated and per-producer order
//! kept), in batches that `on_batch_start` announces and `end_of_batch`
//! ends, between `on_start` and `on_shutdown`; a second-stage handler must
//! never get an event before the first stage has finished it. After a halt
//! the handlers may stop early: each must have seen a prefix of the
//! published events (a later stage no more than the one before), and every
//! call after a producer's first `Halted` must say `Halted` too.
//!
//! Nothing waits unboundedly: a `try_` call that keeps meeting a full ring
//! falls back to the waiting call, which the running handlers (or a halt)
//! always release; a hang is libFuzzer's timeout.
#![no_main]

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;

use arbitrary::Arbitrary;
use hotq_disruptor::{
    BatchIterMut, Builder, Disruptor, EventHandler, EventHandlerMut, MultiProducer, PublishError,
    Sequence,
    wait::{Blocking, PhasedBackoff, Sleeping, Yielding},
};
use hotq_testkit::{Item, StartGate, conservation::check_exactly_once_in_order};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input {
    /// 1 << (this % 4): 1, 2, 4 or 8 events.
    size: u8,
    /// Three producers, else two.
    three: bool,
    producers: [Vec<Op>; 3],
    /// How each producer lets its handle go at the end: `shutdown` or drop.
    shutdowns: [bool; 3],
    /// The first handle is let go before the producers start (so one of
    /// them drains), else after they finish.
    release_first: bool,
    layout: Layout,
    /// The wait strategy of each handler (never `BusySpin`: five threads
    /// on two cores).
    waits: [Wait; 2],
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Op {
    Publish,
    TryPublish,
    /// `n % (size + 2)`: 0 and size + 1 are refused.
    Batch(u8),
    TryBatch(u8),
    /// Taken as `halt` when `.0 % 16 == 0`, else as `Publish` (a halt ends
    /// all publishing, so it should come late and seldom).
    Halt(u8),
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Layout {
    One,
    /// Two handlers in one stage.
    Parallel,
    /// A handler, then a second one after it.
    Pipeline,
    /// A mutable handler that stamps each event, then a reader that
    /// checks the stamp.
    MutPipeline,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Wait {
    Yielding,
    Sleeping,
    SleepingAtOnce,
    Blocking,
    PhasedBackoff,
}

/// Ops per producer at most, to keep each input fast.
const MAX_OPS: usize = 48;
/// `Full` answers a `try_` call takes before it waits instead.
const FULL_RETRIES: u32 = 64;

#[derive(Clone, Copy)]
struct Event {
    item: Item,
    /// The mutable first stage's stamp: the event's sequence + 1.
    stamp: Sequence,
}

impl Default for Event {
    /// An item no producer makes, so an event read before its publish shows.
    fn default() -> Self {
        Event {
            item: Item {
                producer: u32::MAX,
                seq: u32::MAX,
            },
            stamp: 0,
        }
    }
}

/// What a handler's processor called, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Call {
    Start,
    Batch(usize),
    Event(Sequence, Item, bool),
    Shutdown,
}

/// A handler that records every call into `calls`. In the first stage of
/// a pipeline it says how far it got in `done` (and, mutable, stamps each
/// event); in the second it checks that the first stage has finished each
/// event it gets (and stamped it, if `stamped`).
struct Recorder {
    calls: Arc<Mutex<Vec<Call>>>,
    done: Option<Arc<AtomicI64>>,
    after: Option<Arc<AtomicI64>>,
    stamped: bool,
    errors: Arc<Mutex<Vec<String>>>,
}

impl Recorder {
    fn record(&mut self, call: Call) {
        self.calls.lock().unwrap().push(call);
    }

    fn event(&mut self, e: &Event, seq: Sequence, end_of_batch: bool) {
        if let Some(first) = &self.after {
            // Acquire: pairs with the first stage's Release below (which
            // the disruptor's own hand-over orders before this event).
            let finished = first.load(Ordering::Acquire);
            let mut errors = self.errors.lock().unwrap();
            if finished < seq {
                errors.push(format!(
                    "stage 2 got {seq} while stage 1 had finished {finished}"
                ));
            }
            if self.stamped && e.stamp != seq + 1 {
                errors.push(format!("stage 2 got {seq} stamped {}", e.stamp));
            }
        }
        self.record(Call::Event(seq, e.item, end_of_batch));
        if let Some(done) = &self.done {
            // Release: pairs with the second stage's Acquire above.
            done.store(seq, Ordering::Release);
        }
    }
}

impl EventHandler<Event> for Recorder {
    fn on_event(&mut self, e: &Event, seq: Sequence, end_of_batch: bool) {
        self.event(e, seq, end_of_batch)
    }
    fn on_batch_start(&mut self, batch_size: usize) {
        self.record(Call::Batch(batch_size))
    }
    fn on_start(&mut self) {
        self.record(Call::Start)
    }
    fn on_shutdown(&mut self) {
        self.record(Call::Shutdown)
    }
}

/// The mutable first stage: stamps each event, then records it.
struct Stamper(Recorder);

impl EventHandlerMut<Event> for Stamper {
    fn on_event(&mut self, e: &mut Event, seq: Sequence, end_of_batch: bool) {
        e.stamp = seq + 1;
        self.0.event(e, seq, end_of_batch)
    }
    fn on_batch_start(&mut self, batch_size: usize) {
        self.0.record(Call::Batch(batch_size))
    }
    fn on_start(&mut self) {
        self.0.record(Call::Start)
    }
    fn on_shutdown(&mut self) {
        self.0.record(Call::Shutdown)
    }
}

/// The events in `calls`, after checking the calls' shape: `on_start`
/// first, `on_shutdown` last, and between them batches of `n >= 1` events
/// each announced by `on_batch_start(n)`, only the last with `end_of_batch`.
fn events_of(calls: &[Call]) -> Result<Vec<(Sequence, Item)>, String> {
    let (Some(Call::Start), Some(Call::Shutdown)) = (calls.first(), calls.last()) else {
        return Err(format!("not start ... shutdown: {calls:?}"));
    };
    let mut events = Vec::new();
    let mut rest = &calls[1..calls.len() - 1];
    while let [Call::Batch(n), tail @ ..] = rest {
        if *n == 0 || tail.len() < *n {
            return Err(format!("a batch of {n} with {} calls left", tail.len()));
        }
        for (k, call) in tail[..*n].iter().enumerate() {
            match *call {
                Call::Event(seq, item, end_of_batch) if end_of_batch == (k + 1 == *n) => {
                    events.push((seq, item))
                }
                other => return Err(format!("call {k} of a batch of {n}: {other:?}")),
            }
        }
        rest = &tail[*n..];
    }
    match rest {
        [] => Ok(events),
        [other, ..] => Err(format!("{other:?} where a batch should start")),
    }
}

fn wait_strategy(builder: Builder<Event>, wait: Wait) -> Builder<Event> {
    match wait {
        Wait::Yielding => builder.wait_strategy(Yielding),
        Wait::Sleeping => builder.wait_strategy(Sleeping::default()),
        Wait::SleepingAtOnce => builder.wait_strategy(Sleeping::default().with_tries(0, 0)),
        Wait::Blocking => builder.wait_strategy(Blocking),
        Wait::PhasedBackoff => builder.wait_strategy(PhasedBackoff::new(10, 10)),
    }
}

/// What one producer did.
#[derive(Default)]
struct Published {
    /// The sequence of each item it published, in order.
    sequences: Vec<Sequence>,
    /// It halted the disruptor.
    halted: bool,
}

/// Runs one producer's ops; `t` tags its items.
fn produce(producer: &mut MultiProducer<Event>, t: u32, ops: &[Op], size: usize) -> Published {
    let mut done = Published::default();
    // Set at the first `Halted`: every call after it must say so too.
    let mut saw_halt = false;
    for &op in ops.iter().take(MAX_OPS) {
        let index = done.sequences.len() as u32;
        let item = |i: usize| Item {
            producer: t,
            seq: index + i as u32,
        };
        let (n, got) = match op {
            Op::Halt(h) if h % 16 == 0 => {
                producer.halt();
                done.halted = true;
                assert!(producer.is_halted(), "producer {t}: not halted after halt");
                continue;
            }
            Op::Publish | Op::Halt(_) => (1, producer.publish(|e| e.item = item(0))),
            Op::TryPublish => {
                let mut tries = 0;
                let got = loop {
                    match producer.try_publish(|e| e.item = item(0)) {
                        Err(PublishError::Full) if tries < FULL_RETRIES => {
                            tries += 1;
                            thread::yield_now();
                        }
                        Err(PublishError::Full) => break producer.publish(|e| e.item = item(0)),
                        got => break got,
                    }
                };
                (1, got)
            }
            Op::Batch(n) | Op::TryBatch(n) => {
                let n = n as usize % (size + 2);
                let write = |events: BatchIterMut<'_, Event>| {
                    for (i, e) in events.enumerate() {
                        e.item = item(i);
                    }
                };
                let mut got = if matches!(op, Op::Batch(_)) {
                    producer.batch_publish(n, write)
                } else {
                    producer.try_batch_publish(n, write)
                };
                let mut tries = 0;
                while got == Err(PublishError::Full) {
                    if tries < FULL_RETRIES {
                        tries += 1;
                        thread::yield_now();
                        got = producer.try_batch_publish(n, write);
                    } else {
                        got = producer.batch_publish(n, write);
                    }
                }
                if n == 0 || n > size {
                    let want = Err(PublishError::BatchSize { requested: n, size });
                    assert_eq!(got, want, "a batch of {n} in a ring of {size}");
                    continue;
                }
                (n, got)
            }
        };
        match got {
            Ok(hi) => {
                let after = saw_halt || done.halted;
                assert!(!after, "producer {t}: {op:?} published after a halt");
                done.sequences.extend(hi - n as Sequence + 1..=hi);
            }
            Err(PublishError::Halted) => saw_halt = true,
            Err(e) => panic!("producer {t}: {op:?} failed: {e}"),
        }
    }
    done
}

fuzz_target!(|input: Input| {
    let size = 1usize << (input.size % 4);
    let producers = if input.three { 3 } else { 2 };
    let errors = Arc::new(Mutex::new(Vec::new()));
    let calls: [Arc<Mutex<Vec<Call>>>; 2] = Default::default();
    let first_done = Arc::new(AtomicI64::new(-1));
    let recorder = |h: usize, done, after, stamped| Recorder {
        calls: Arc::clone(&calls[h]),
        done,
        after,
        stamped,
        errors: Arc::clone(&errors),
    };

    let mut builder = wait_strategy(Disruptor::builder(size, Event::default), input.waits[0]);
    let (handlers, pipeline) = match input.layout {
        Layout::One => {
            builder = builder.handle_events_with_handler(recorder(0, None, None, false));
            (1, false)
        }
        Layout::Parallel => {
            builder = builder.handle_events_with_handler(recorder(0, None, None, false));
            builder = wait_strategy(builder, input.waits[1]);
            builder = builder.handle_events_with_handler(recorder(1, None, None, false));
            (2, false)
        }
        Layout::Pipeline | Layout::MutPipeline => {
            let stamped = matches!(input.layout, Layout::MutPipeline);
            let first = recorder(0, Some(Arc::clone(&first_done)), None, false);
            builder = if stamped {
                builder.handle_events_mut_with_handler(Stamper(first))
            } else {
                builder.handle_events_with_handler(first)
            };
            builder = wait_strategy(builder.then(), input.waits[1]);
            let after = Some(Arc::clone(&first_done));
            builder = builder.handle_events_with_handler(recorder(1, None, after, stamped));
            (2, true)
        }
    };
    let first = builder.build_multi_producer().expect("build");

    let mut handles: Vec<MultiProducer<Event>> = (0..producers).map(|_| first.clone()).collect();
    let first = if input.release_first {
        assert_eq!(
            first.shutdown(),
            Ok(()),
            "release of a handle that is not the last"
        );
        None
    } else {
        Some(first)
    };
    // Released together, so the producers' calls overlap (a thread spawned
    // late often starts after the others have finished).
    let gate = StartGate::new(producers);
    let published: Vec<Published> = thread::scope(|s| {
        let threads: Vec<_> = handles
            .drain(..)
            .enumerate()
            .map(|(t, mut producer)| {
                let (ops, shutdown, gate) = (&input.producers[t], input.shutdowns[t], &gate);
                s.spawn(move || {
                    gate.wait();
                    let published = produce(&mut producer, t as u32, ops, size);
                    if shutdown {
                        assert_eq!(producer.shutdown(), Ok(()), "producer {t}'s shutdown");
                    }
                    published
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).collect()
    });
    if let Some(first) = first {
        assert_eq!(first.shutdown(), Ok(()), "the last handle's shutdown");
    }
    let halted = published.iter().any(|p| p.halted);

    // The sequences the producers got: 0.. with no gap and no repeat.
    let total: usize = published.iter().map(|p| p.sequences.len()).sum();
    let mut owner: Vec<Option<Item>> = vec![None; total];
    for (t, p) in published.iter().enumerate() {
        for (i, &s) in p.sequences.iter().enumerate() {
            let slot = usize::try_from(s)
                .ok()
                .and_then(|s| owner.get_mut(s))
                .unwrap_or_else(|| panic!("producer {t} got sequence {s} of {total} published"));
            let item = Item {
                producer: t as u32,
                seq: i as u32,
            };
            if let Some(other) = slot.replace(item) {
                panic!("sequence {s} went to both {other:?} and {item:?}");
            }
        }
    }
    let errors = errors.lock().unwrap();
    let what = format!("size {size}, {:?}, halted {halted}", input.layout);
    assert!(errors.is_empty(), "{what}: {:?}", &errors[..]);
    let counts: Vec<u32> = published.iter().map(|p| p.sequences.len() as u32).collect();
    let mut seen_before = total;
    for (h, calls) in calls.iter().take(handlers).enumerate() {
        let events = events_of(&calls.lock().unwrap())
            .unwrap_or_else(|e| panic!("{what}: handler {h}'s calls: {e}"));
        // Without a halt, every event; after one, those up to some point.
        if halted {
            assert!(
                events.len() <= total,
                "{what}: handler {h} saw more than published"
            );
        } else {
            assert_eq!(events.len(), total, "{what}: handler {h}'s event count");
        }
        for (at, &(seq, item)) in events.iter().enumerate() {
            assert_eq!(seq, at as Sequence, "{what}: handler {h}'s sequences");
            assert_eq!(Some(item), owner[at], "{what}: handler {h}, event {seq}");
        }
        if pipeline && h == 1 {
            assert!(
                events.len() <= seen_before,
                "{what}: stage 2 saw {} events, stage 1 {seen_before}",
                events.len()
            );
        }
        seen_before = events.len();
        if !halted {
            let items: Vec<Item> = events.iter().map(|&(_, item)| item).collect();
            let streams = [(format!("handler {h}"), &items[..])];
            if let Err(e) = check_exactly_once_in_order(&counts, &streams) {
                panic!("{what}: {e}");
            }
        }
    }
});
