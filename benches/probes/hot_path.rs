//! The uncontended hot path of one contender, for instruction counting:
//! fills a queue of 1024 to the brim with single sends, drains it with
//! single receives, `ROUNDS` times, on one thread. Deterministic, so
//! `valgrind --tool=callgrind` counts are reproducible on a busy machine:
//!
//! ```sh
//! cargo build --release -p hotq-benches --example hot_path
//! valgrind --tool=callgrind target/release/examples/hot_path rtrb 200
//! valgrind --tool=callgrind target/release/examples/hot_path rtrb 0   # setup only
//! ```
//! (instructions per item = difference / (200 × 1024)). With `--batch` the
//! same items move as slices of 256. Besides the report's contenders,
//! `hotq-spsc-fenced` is hotq-spsc with fenced wait slots (a
//! `fence(SeqCst)` per push and per pop, as where `membarrier` is missing):
//! its difference from `hotq-spsc` is what the asymmetric barrier saves.
//!
//! The multi-producer disruptors (`hotq-disruptor-mp`, `disruptor-mp`: one
//! producer handle of a multi-producer ring of 1024 `u64`, busy-spin, an
//! event poller as the only consumer) run the sequencer 3P-1C path without
//! the other threads: each round claims and publishes 1024 single events
//! (`publish`), then the poller takes them all in one poll, as a batch
//! processor that fell a ring behind does. `--batch`: four
//! `batch_publish(256)` instead; `--alternate`: publish one, poll one
//! (batches of one, a consumer that keeps pace). `hotq-disruptor-sp` and
//! `disruptor-sp` are the same with a single-producer ring: the unicast
//! 1P-1C path without the handler's thread. `hotq-disruptor-unicast` and
//! `disruptor-unicast` run that workload with its threads (see `unicast`).

use std::hint::black_box;

use hotq_benches::sequenced;

use hotq_benches::workloads::hot_path::{self, CAPACITY};

/// How the multi-producer disruptor cases move the events.
#[derive(Clone, Copy, PartialEq)]
enum Shape {
    /// Fill with single publishes, drain with one poll.
    Fill,
    /// Fill with batches of 256, drain with one poll.
    Batch,
    /// Publish one, poll one.
    Alternate,
}

/// hotq-disruptor's single- or multi-producer path (one handle, an event
/// poller).
fn hotq_disruptor(rounds: u64, shape: Shape, multi: bool) {
    let mut builder = hotq_disruptor::Disruptor::builder(CAPACITY, || 0u64)
        .wait_strategy(hotq_disruptor::wait::BusySpin);
    let poller = builder.event_poller();
    if multi {
        let producer = builder.build_multi_producer().expect("build");
        hotq_disruptor_run(rounds, shape, poller, producer);
    } else {
        let producer = builder.build_single_producer().expect("build");
        hotq_disruptor_run(rounds, shape, poller, producer);
    }
}

/// The rounds of [`hotq_disruptor`] through either producer.
fn hotq_disruptor_run(
    rounds: u64,
    shape: Shape,
    mut poller: hotq_disruptor::EventPoller<u64>,
    mut producer: impl hotq_disruptor::Producer<u64>,
) {
    let mut sum = 0u64;
    let mut take = |poller: &mut hotq_disruptor::EventPoller<u64>, expect: usize| {
        let n = poller
            .poll(|e, _, _| sum = sum.wrapping_add(*e))
            .expect("poll");
        assert_eq!(n, expect);
    };
    for r in 0..rounds {
        match shape {
            Shape::Fill => {
                for i in 0..CAPACITY as u64 {
                    producer
                        .publish(|e| *e = black_box(r + i))
                        .expect("publish");
                }
                take(&mut poller, CAPACITY);
            }
            Shape::Batch => {
                for _ in 0..CAPACITY / 256 {
                    producer
                        .batch_publish(256, |events| events.for_each(|e| *e = black_box(r)))
                        .expect("publish");
                }
                take(&mut poller, CAPACITY);
            }
            Shape::Alternate => {
                for i in 0..CAPACITY as u64 {
                    producer
                        .publish(|e| *e = black_box(r + i))
                        .expect("publish");
                    take(&mut poller, 1);
                }
            }
        }
    }
    black_box(sum);
    drop(producer);
}

/// The `disruptor` crate's single- or multi-producer path (one handle, an
/// event poller).
fn disruptor_crate(rounds: u64, shape: Shape, multi: bool) {
    // The crate's poller is generic over a barrier trait it does not
    // export: each branch names its own poller type through this macro.
    macro_rules! take {
        ($poller:ident) => {
            move |expect: usize| {
                let mut guard = $poller.poll().expect("poll");
                let events = &mut guard;
                assert_eq!(events.len(), expect);
                events.fold(0u64, |sum, e| sum.wrapping_add(*e))
            }
        };
    }
    if multi {
        let (mut poller, builder) =
            disruptor::build_multi_producer(CAPACITY, || 0u64, disruptor::BusySpin)
                .new_event_poller();
        disruptor_crate_run(rounds, shape, builder.build(), take!(poller));
    } else {
        let (mut poller, builder) =
            disruptor::build_single_producer(CAPACITY, || 0u64, disruptor::BusySpin)
                .new_event_poller();
        disruptor_crate_run(rounds, shape, builder.build(), take!(poller));
    }
}

/// The rounds of [`disruptor_crate`]: `take(n)` polls once, expects `n`
/// events and returns their sum.
fn disruptor_crate_run(
    rounds: u64,
    shape: Shape,
    mut producer: impl disruptor::Producer<u64>,
    mut take: impl FnMut(usize) -> u64,
) {
    let mut sum = 0u64;
    for r in 0..rounds {
        match shape {
            Shape::Fill => {
                for i in 0..CAPACITY as u64 {
                    producer.publish(|e| *e = black_box(r + i));
                }
                sum = sum.wrapping_add(take(CAPACITY));
            }
            Shape::Batch => {
                for _ in 0..CAPACITY / 256 {
                    producer.batch_publish(256, |events| events.for_each(|e| *e = black_box(r)));
                }
                sum = sum.wrapping_add(take(CAPACITY));
            }
            Shape::Alternate => {
                for i in 0..CAPACITY as u64 {
                    producer.publish(|e| *e = black_box(r + i));
                    sum = sum.wrapping_add(take(1));
                }
            }
        }
    }
    black_box(sum);
    drop(producer);
}

/// The report's unicast 1P-1C workload itself (ring of 65,536, BusySpin, a
/// producer thread and the handler's thread) for `rounds × 1024` events.
/// Under callgrind the threads take turns, so the waits' spinning depends
/// on the scheduling: compare the per-function figures of the publish and
/// the handler loop (`--separate-threads=yes`), not the totals.
fn unicast<R: sequenced::Ring>(rounds: u64) {
    let items = rounds * CAPACITY as u64;
    if items > 0 {
        black_box(sequenced::throughput::<R>(
            sequenced::Topology::Unicast,
            items,
            65_536,
        ));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let batch = args.iter().any(|a| a == "--batch");
    let alternate = args.iter().any(|a| a == "--alternate");
    let args: Vec<&String> = args
        .iter()
        .filter(|a| *a != "--batch" && *a != "--alternate")
        .collect();
    let (Some(name), Some(rounds)) = (args.first(), args.get(1).and_then(|r| r.parse().ok()))
    else {
        eprintln!("usage: hot_path CONTENDER ROUNDS [--batch | --alternate]");
        std::process::exit(2);
    };
    let shape = match (batch, alternate) {
        (false, false) => Shape::Fill,
        (true, false) => Shape::Batch,
        (false, true) => Shape::Alternate,
        (true, true) => {
            eprintln!("hot_path: --batch or --alternate, not both");
            std::process::exit(2);
        }
    };
    match name.as_str() {
        "hotq-disruptor-mp" => return hotq_disruptor(rounds, shape, true),
        "disruptor-mp" => return disruptor_crate(rounds, shape, true),
        "hotq-disruptor-sp" => return hotq_disruptor(rounds, shape, false),
        "hotq-disruptor-unicast" => return unicast::<sequenced::HotqDisruptor>(rounds),
        "disruptor-unicast" => return unicast::<sequenced::DisruptorCrate>(rounds),
        "disruptor-sp" => return disruptor_crate(rounds, shape, false),
        _ if alternate => {
            eprintln!("hot_path: --alternate is for the disruptor cases");
            std::process::exit(2);
        }
        _ => {}
    }
    if !hot_path::run(name, rounds, batch) {
        eprintln!("hot_path: no contender named `{name}`");
        std::process::exit(2);
    }
}
