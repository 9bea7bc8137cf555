//! Loom models of the pipeline with the queues inside (`RUSTFLAGS="--cfg
//! loom"`; without it this file is empty). Each runs three threads: the
//! producer, the stage and the test's own thread as the worker, and asserts
//! the pipeline's contract: every item delivered exactly once, in order,
//! and the channel disconnected after the last one.
#![cfg(loom)]

use std::time::Duration;

use loom::future::block_on;
use loom::thread;

/// Items the producer pushes: two through rings and channels of one slot,
/// so that each side finds the other full or empty and waits.
const ITEMS: u32 = 2;

/// Items of the async model: one, since loom's `block_on` also explores a
/// spurious wake-up of each future (two items took 1.4 M executions,
/// 133 s, at preemption bound 2).
const ASYNC_ITEMS: u32 = 1;

/// The stage's transformation.
fn transform(x: u32) -> u32 {
    x + 100
}

/// What the worker must receive, in order.
fn expected() -> Vec<u32> {
    (0..ITEMS).map(transform).collect()
}

/// Runs `body` as a loom model with at most `bound` preemptions per
/// execution (`LOOM_MAX_PREEMPTIONS` overrides it), and says how many
/// executions it explored and in how long.
fn model(name: &str, bound: usize, body: impl Fn() + Sync + Send + 'static) {
    let start = std::time::Instant::now();
    let runs = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = runs.clone();
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = builder.preemption_bound.or(Some(bound));
    builder.check(move || {
        counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        body();
    });
    eprintln!(
        "{name}: {} executions in {:.2?}",
        runs.load(std::sync::atomic::Ordering::Relaxed),
        start.elapsed()
    );
}

/// Blocking calls end to end: `push_timeout` into the ring, `stage`'s
/// wait, `send` and `recv` on the channel. The shutdown is the producer's
/// drop; `recv` must then return the rest and then the disconnection.
fn blocking_pipeline(stage: fn(hotq_spsc::Consumer<u32>, hotq_mpmc::Sender<u32>)) {
    let (mut feed, input) = hotq_spsc::RingBuffer::new(1);
    let (output, results) = hotq_mpmc::bounded(1);
    let stage = thread::spawn(move || stage(input, output));
    let producer = thread::spawn(move || {
        for i in 0..ITEMS {
            feed.push_timeout(i, Duration::from_secs(10)).unwrap();
        }
    });
    let delivered: Vec<u32> = results.iter().collect();
    assert_eq!(delivered, expected(), "lost, duplicated or reordered");
    producer.join().unwrap();
    stage.join().unwrap();
}

/// The pipeline's stage, [`verify_pipeline::run_stage`], with blocking
/// calls end to end.
#[test]
fn blocking_pipeline_delivers_every_item_once_in_order() {
    model("blocking", 2, || {
        blocking_pipeline(|input, output| verify_pipeline::run_stage(input, output, transform));
    });
}

/// The same with async waits at both ends: `push_async` into the ring and
/// `recv_async` from the channel, each driven by loom's `block_on`.
#[test]
fn async_pipeline_delivers_every_item_once_in_order() {
    model("async", 2, || {
        let (mut feed, input) = hotq_spsc::RingBuffer::new(1);
        let (output, results) = hotq_mpmc::bounded(1);
        let stage = verify_pipeline::spawn_stage(input, output, transform);
        let producer = thread::spawn(move || {
            for i in 0..ASYNC_ITEMS {
                block_on(feed.push_async(i)).unwrap();
            }
        });
        let mut delivered = Vec::new();
        while let Ok(v) = block_on(results.recv_async()) {
            delivered.push(v);
        }
        let expected: Vec<u32> = (0..ASYNC_ITEMS).map(transform).collect();
        assert_eq!(delivered, expected, "lost, duplicated or reordered");
        producer.join().unwrap();
        stage.join().unwrap();
    });
}

/// The worker gives up early (drops its receiver): the stage must stop
/// rather than wait forever to send, and the producer's blocked push must
/// end (the ring's consumer is gone with the stage) instead of hanging.
///
/// At preemption bound 1: 285 executions. At 2 it took 5,233,286
/// executions and 390 s on one core (2026-12-06), most of `./test.sh`'s
/// loom step, since hotq-mpmc's sends check the disconnection flag after
/// their claim too (it was about 150 s before). Both bounds catch the
/// lost wake-up this model is for: with hotq-spsc's consumer drop not
/// waking a parked producer, each reports the deadlock.
/// `LOOM_MAX_PREEMPTIONS=2` runs it as before.
#[test]
fn a_worker_that_leaves_stops_the_pipeline() {
    model("worker leaves", 1, || {
        let (mut feed, input) = hotq_spsc::RingBuffer::new(1);
        let (output, results) = hotq_mpmc::bounded(1);
        let stage = verify_pipeline::spawn_stage(input, output, transform);
        let producer = thread::spawn(move || {
            for i in 0..ITEMS + 1 {
                if feed.push_timeout(i, Duration::from_secs(10)).is_err() {
                    return; // the stage is gone
                }
            }
        });
        drop(results);
        stage.join().unwrap();
        producer.join().unwrap();
    });
}

/// The stage as first written (`planted_bug::run_stage`, no drain after
/// seeing the producer gone): loom finds the schedule that loses an item.
#[test]
#[should_panic(expected = "lost, duplicated or reordered")]
fn the_planted_bug_is_caught() {
    model("planted bug", 2, || {
        blocking_pipeline(|input, output| {
            verify_pipeline::planted_bug::run_stage(input, output, transform)
        });
    });
}

/// The smallest pipeline a user writes first (the model of issue 41): one
/// item through a ring of 2 and a channel of 1, the stage retrying its
/// `pop` with `yield_now`, the test's thread in a blocking `recv`. At
/// preemption bound 3: 4,104 executions, where loom's default (no bound)
/// took 2,969,672.
#[test]
fn one_item_through_both_queues() {
    model("one item", 3, || {
        let (mut feed, mut input) = hotq_spsc::RingBuffer::new(2);
        let (output, results) = hotq_mpmc::bounded(1);
        let producer = thread::spawn(move || feed.push(7u32).unwrap());
        let stage = thread::spawn(move || {
            loop {
                match input.pop() {
                    Ok(v) => break output.send(v).unwrap(),
                    Err(_) => thread::yield_now(),
                }
            }
        });
        assert_eq!(results.recv(), Ok(7));
        producer.join().unwrap();
        stage.join().unwrap();
    });
}
