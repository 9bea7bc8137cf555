//! Two or three producer threads, each running its own list of
//! `publish`, `try_publish`, `batch_publish` and `try_batch_publish` calls
//! from the fuzz input on clones of one multi producer, into a small ring
//! consumed by one or two handler threads: one handler, two in parallel, or
//! a pipeline of two (the first possibly a mutable handler that stamps each
//! event). Each event is tagged (producer, index), and each producer
//! records the sequences its calls returned. After the shutdown's drain,
//! every handler must have seen exactly the published events, each once,
//! in sequence order from 0 with nothing skipped, each holding what its
//! producer wrote (so per-producer order holds too), the last one ending
//! its batch; a second-stage handler must never get an event before the
//! first stage has finished it. Nothing waits unboundedly: a `try_` call
//! that keeps meeting a full ring falls back to the waiting call, which the
//! running handlers always release (a hang is libFuzzer's timeout).
#![no_main]

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;

use arbitrary::Arbitrary;
use hotq_disruptor::{
    Builder, Disruptor, MultiProducer, PublishError, Sequence,
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

/// What one handler saw, in order: sequence, item, end of batch.
type Seen = Arc<Mutex<Vec<(Sequence, Item, bool)>>>;

/// Records every event into `seen`; a first-stage handler also says how
/// far it got in `done`, and a second-stage one checks that the first
/// stage has finished each event it gets (and stamped it, for `stamped`).
fn recorder(
    seen: &Seen,
    done: Option<Arc<AtomicI64>>,
    after: Option<Arc<AtomicI64>>,
    stamped: bool,
    errors: &Arc<Mutex<Vec<String>>>,
) -> impl FnMut(&Event, Sequence, bool) + Send + 'static {
    let (seen, errors) = (Arc::clone(seen), Arc::clone(errors));
    move |e, seq, end_of_batch| {
        if let Some(first) = &after {
            // Acquire: pairs with the first stage's Release below (which
            // the disruptor's own hand-over orders before this event).
            let finished = first.load(Ordering::Acquire);
            if finished < seq {
                let why = format!("stage 2 got {seq} while stage 1 had finished {finished}");
                errors.lock().unwrap().push(why);
            }
            if stamped && e.stamp != seq + 1 {
                let why = format!("stage 2 got {seq} stamped {}", e.stamp);
                errors.lock().unwrap().push(why);
            }
        }
        seen.lock().unwrap().push((seq, e.item, end_of_batch));
        if let Some(done) = &done {
            // Release: pairs with the second stage's Acquire above.
            done.store(seq, Ordering::Release);
        }
    }
}

fn wait_strategy(builder: Builder<Event>, wait: Wait) -> Builder<Event> {
    match wait {
        Wait::Yielding => builder.wait_strategy(Yielding),
        Wait::Sleeping => builder.wait_strategy(Sleeping),
        Wait::Blocking => builder.wait_strategy(Blocking),
        Wait::PhasedBackoff => builder.wait_strategy(PhasedBackoff::new(10, 10)),
    }
}

/// What one producer did: the sequence of each item it published, in order.
type Published = Vec<Sequence>;

/// Runs one producer's ops; `t` tags its items.
fn produce(producer: &mut MultiProducer<Event>, t: u32, ops: &[Op], size: usize) -> Published {
    let mut published: Published = Vec::new();
    for &op in ops.iter().take(MAX_OPS) {
        let index = published.len() as u32;
        let item = |i: usize| Item {
            producer: t,
            seq: index + i as u32,
        };
        let (n, got) = match op {
            Op::Publish => (1, producer.publish(|e| e.item = item(0))),
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
                let write = |events: hotq_disruptor::BatchIterMut<'_, Event>| {
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
        let hi = got.unwrap_or_else(|e| panic!("producer {t}: {op:?} failed: {e}"));
        published.extend(hi - n as Sequence + 1..=hi);
    }
    published
}

fuzz_target!(|input: Input| {
    let size = 1usize << (input.size % 4);
    let producers = if input.three { 3 } else { 2 };
    let errors = Arc::new(Mutex::new(Vec::new()));
    let seen: [Seen; 2] = Default::default();
    let first_done = Arc::new(AtomicI64::new(-1));

    let mut builder = wait_strategy(Disruptor::builder(size, Event::default), input.waits[0]);
    let handlers = match input.layout {
        Layout::One => {
            builder = builder.handle_events_with(recorder(&seen[0], None, None, false, &errors));
            1
        }
        Layout::Parallel => {
            builder = builder.handle_events_with(recorder(&seen[0], None, None, false, &errors));
            builder = wait_strategy(builder, input.waits[1]);
            builder = builder.handle_events_with(recorder(&seen[1], None, None, false, &errors));
            2
        }
        Layout::Pipeline | Layout::MutPipeline => {
            let done = Some(Arc::clone(&first_done));
            let mut record = recorder(&seen[0], done, None, false, &errors);
            builder = if matches!(input.layout, Layout::MutPipeline) {
                builder.handle_events_mut_with(move |e: &mut Event, seq, end_of_batch| {
                    e.stamp = seq + 1;
                    record(&*e, seq, end_of_batch)
                })
            } else {
                builder.handle_events_with(record)
            };
            builder = wait_strategy(builder.then(), input.waits[1]);
            let after = Some(Arc::clone(&first_done));
            let stamped = matches!(input.layout, Layout::MutPipeline);
            builder = builder.handle_events_with(recorder(&seen[1], None, after, stamped, &errors));
            2
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

    // The sequences the producers got: 0.. with no gap and no repeat.
    let total: usize = published.iter().map(Vec::len).sum();
    let mut owner: Vec<Option<Item>> = vec![None; total];
    for (t, seqs) in published.iter().enumerate() {
        for (i, &s) in seqs.iter().enumerate() {
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
    assert!(
        errors.is_empty(),
        "size {size}, {:?}: {:?}",
        input.layout,
        &errors[..]
    );
    let counts: Vec<u32> = published.iter().map(|p| p.len() as u32).collect();
    for (h, seen) in seen.iter().take(handlers).enumerate() {
        let seen = seen.lock().unwrap();
        let sequences: Vec<Sequence> = seen.iter().map(|&(s, _, _)| s).collect();
        let want: Vec<Sequence> = (0..total as Sequence).collect();
        assert_eq!(
            sequences, want,
            "handler {h}'s sequences, size {size}, {:?}",
            input.layout
        );
        for &(s, item, _) in seen.iter() {
            assert_eq!(Some(item), owner[s as usize], "handler {h}: event {s}");
        }
        if let Some(&(s, _, end_of_batch)) = seen.last() {
            assert!(
                end_of_batch,
                "handler {h}: the last event ({s}) did not end its batch"
            );
        }
        let items: Vec<Item> = seen.iter().map(|&(_, item, _)| item).collect();
        let streams = [(format!("handler {h}"), &items[..])];
        if let Err(e) = check_exactly_once_in_order(&counts, &streams) {
            panic!("size {size}, {:?}: {e}", input.layout);
        }
    }
});
