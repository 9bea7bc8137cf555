//! Which mode a unicast disruptor settles in, and what it costs:
//! hotq-disruptor and the `disruptor` crate, one producer and one
//! busy-spinning handler, with the handler's work per event swept from
//! nothing up. The disruptor suite's counterpart of `spsc_regimes`.
//!
//! Both rings run one algorithm, so their speed on two cores is set less by
//! their instructions than by where the pair settles: a handler that keeps
//! pace with the producer takes a few events per batch and the two threads
//! wait on each other's cache lines (*keep-pace*, tens of M events/s); a
//! handler slower than the producer falls behind, the ring fills, and it
//! reads long batches while the producer waits for room (*batching*,
//! hundreds). A few cycles of work per event moves a pair from one to the
//! other, and the two crates cross over at different points: this shows
//! where.
//!
//! ```sh
//! cargo build --release -p hotq-benches --example disruptor_regimes
//! taskset -c 0,1 target/release/examples/disruptor_regimes [EVENTS, default 20000000] [ROUNDS, default 3] [STEPS, default the sweep]
//! ```
//!
//! Each run: a ring of 65,536 `u64` events, built fresh; the handler checks
//! that every event arrives once and in order, then runs `n` steps of a
//! loop the compiler cannot remove (about a cycle each); the producer
//! publishes `EVENTS` events one at a time and then shuts the disruptor
//! down (every event handled). The threads are left to the scheduler, as
//! in the report's disruptor suite: run it under `taskset` on two cores.
//! Every cell runs the two crates in alternating order, `ROUNDS` times, and
//! prints the median M events/s (publish start to shutdown's return) and
//! the mean events per batch of each run (the handler's `end_of_batch`).
//!
//! Measured 2026-12-05 on the 2-core VM (20M events, 3 rounds, two
//! runs), before pacing: with 1–2 steps hotq-disruptor kept pace (batches
//! of 22–114, 134–362 M events/s) where the crate batched (663–790),
//! 0.19–0.53×; from 3 to 8 steps both batched and hotq-disruptor led
//! 1.55–1.85× (661–1,053 against 426–591); with 0 and 16 steps the two
//! runs disagreed (0.82 and 2.43; 0.80 and 0.99): a pair on the edge
//! between the modes lands on either side. With the consumer's pacing
//! (`hotq_disruptor`'s `wait/pacing.rs`), same day, one run: 895–989 M
//! events/s from 0 to 3 steps (batches of 1,100–6,600), 1.03–1.69× the
//! crate from 1 to 8 steps, 0.98 at 16 (both handler-bound). With the
//! prefetch too (`processor.rs`), two runs: 895–1,016 from 0 to 5 steps,
//! 1.13–2.07× the crate from 1 to 5, 1.09 and 1.31 at 8; at 16 steps 0.59
//! (142–146 against 238–249), where a build that read the prefetch
//! distance at run time gave 200–209 with the prefetch and 200–204
//! without, against 194–211: the handler's empty loop runs at the mercy
//! of its build there.

use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use disruptor::Producer as _;

/// The ring's size in every run: the report's.
const SIZE: usize = 65_536;

#[derive(Default)]
struct Event {
    value: u64,
}

/// What one run measured.
struct Run {
    /// M events/s.
    rate: f64,
    /// Events per batch, on average.
    batch: f64,
}

/// The handler both crates run: checks the order, counts batches, works.
/// Publishes its batch count through `batches` at each batch's end.
fn handler(steps: u32, batches: Arc<AtomicU64>) -> impl FnMut(u64, bool) + Send + 'static {
    let mut expected = 0u64;
    let mut seen = 0u64;
    move |value, end_of_batch| {
        if value != expected {
            panic!("lost or reordered an event: expected {expected}, got {value}");
        }
        expected += 1;
        for _ in 0..steps {
            black_box(());
        }
        if end_of_batch {
            seen += 1;
            // Relaxed: read once, after the shutdown joined this thread.
            batches.store(seen, Ordering::Relaxed);
        }
    }
}

fn hotq(events: u64, steps: u32) -> Run {
    let batches = Arc::new(AtomicU64::new(0));
    let mut on = handler(steps, Arc::clone(&batches));
    let mut producer = hotq_disruptor::Disruptor::builder(SIZE, Event::default)
        .wait_strategy(hotq_disruptor::wait::BusySpinWithoutHint)
        .handle_events_with(move |e: &Event, _: hotq_disruptor::Sequence, end: bool| {
            on(e.value, end)
        })
        .build_single_producer()
        .expect("a valid disruptor");
    let t0 = Instant::now();
    for i in 0..events {
        producer.publish(|e| e.value = i).expect("not halted");
    }
    producer.shutdown().expect("a clean shutdown");
    run(events, t0, &batches)
}

fn crate_disruptor(events: u64, steps: u32) -> Run {
    let batches = Arc::new(AtomicU64::new(0));
    let mut on = handler(steps, Arc::clone(&batches));
    let mut producer = disruptor::build_single_producer(SIZE, Event::default, disruptor::BusySpin)
        .handle_events_with(move |e: &Event, _: disruptor::Sequence, end: bool| on(e.value, end))
        .build();
    let t0 = Instant::now();
    for i in 0..events {
        producer.publish(|e| e.value = i);
    }
    // Dropping the producer drains the ring and joins the handler.
    drop(producer);
    run(events, t0, &batches)
}

fn run(events: u64, t0: Instant, batches: &AtomicU64) -> Run {
    let secs = t0.elapsed().as_secs_f64();
    Run {
        rate: events as f64 / secs / 1e6,
        batch: events as f64 / batches.load(Ordering::Relaxed).max(1) as f64,
    }
}

fn main() {
    let arg = hotq_benches::cli::positional;
    let (events, rounds) = (arg(1, 20_000_000), arg(2, 3) as usize);
    println!(
        "{events} events per run, ring {SIZE}, busy-spinning handler, median of {rounds} runs; M events/s (mean events per batch)\n"
    );
    println!("| handler steps | hotq-disruptor | disruptor | ratio |");
    println!("|---|---|---|---|");
    // A third argument runs that one step count (for `perf record`).
    let sweep = match std::env::args().nth(3) {
        Some(_) => vec![arg(3, 0) as u32],
        None => vec![0u32, 1, 2, 3, 4, 5, 8, 16],
    };
    for steps in sweep {
        let mut runs: [Vec<Run>; 2] = Default::default();
        for round in 0..rounds {
            for i in 0..2 {
                let which = (round + i) % 2;
                runs[which].push(match which {
                    0 => hotq(events, steps),
                    _ => crate_disruptor(events, steps),
                });
            }
        }
        let median = |v: &mut Vec<Run>| {
            v.sort_by(|a, b| a.rate.total_cmp(&b.rate));
            let batches: Vec<String> = v.iter().map(|r| format!("{:.0}", r.batch)).collect();
            (v[v.len() / 2].rate, batches.join("/"))
        };
        let [h, c] = &mut runs;
        let ((hr, hb), (cr, cb)) = (median(h), median(c));
        println!(
            "| {steps} | {hr:.0} ({hb}) | {cr:.0} ({cb}) | {:.2} |",
            hr / cr
        );
    }
}
