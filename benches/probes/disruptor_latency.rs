//! What pacing costs in latency: the time from `publish` to the handler,
//! hotq-disruptor and the `disruptor` crate, one producer and one
//! busy-spinning handler (ring 65,536, as `disruptor_regimes`), with the
//! producer publishing at a fixed pace or in bursts.
//!
//! ```sh
//! cargo build --release -p hotq-benches --example disruptor_latency
//! taskset -c 0,1 target/release/examples/disruptor_latency [EVENTS per cell, default 200000] [ROUNDS, default 3]
//! ```
//!
//! Each event carries the nanoseconds since a shared start at its publish;
//! the handler subtracts them from its own clock on arrival. The shapes:
//! one event every `gap` ns (busy-waiting between publishes), and bursts
//! of 64 back-to-back events every 20 µs. Per cell the median, 99th and
//! 99.9th percentile in ns over all rounds, the crates alternating.
//!
//! Measured 2026-12-05 on the 2-core VM (200,000 events, 3 rounds), the
//! medians of hotq-disruptor with its pacing and, in a build without it:
//! one per 10 µs 186 and 207 ns, one per 1 µs 193 and 170, one per 200 ns
//! 204 and 215, one per 50 ns 386 and 383, bursts 600 and 566; the crate
//! 152–653 in the same runs. The tails (p99.9 up to milliseconds) are the
//! VM's preemptions, in every row alike.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use disruptor::Producer as _;

const SIZE: usize = 65_536;

#[derive(Default)]
struct Event {
    sent_ns: u64,
}

/// Collects the handler's latencies and hands them over when dropped (its
/// thread ends).
struct Sink {
    start: Instant,
    samples: Vec<u64>,
    out: Arc<Mutex<Vec<u64>>>,
}

impl Sink {
    /// A sink for `events` samples, timed from now, and the vector its
    /// samples land in when it is dropped.
    fn new(events: u64) -> (Sink, Arc<Mutex<Vec<u64>>>) {
        let out = Arc::new(Mutex::new(Vec::new()));
        let sink = Sink {
            start: Instant::now(),
            samples: Vec::with_capacity(events as usize),
            out: Arc::clone(&out),
        };
        (sink, out)
    }

    fn on(&mut self, e: &Event) {
        let now = self.start.elapsed().as_nanos() as u64;
        self.samples.push(now.saturating_sub(e.sent_ns));
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        self.out.lock().unwrap().append(&mut self.samples);
    }
}

#[derive(Clone, Copy)]
enum Shape {
    /// One event every this many ns.
    Paced(u64),
    /// 64 events back to back every 20 µs.
    Bursts,
}

/// Publishes `events` events in `shape` through `publish`.
fn drive(shape: Shape, events: u64, start: Instant, mut publish: impl FnMut(u64)) {
    let now = || start.elapsed().as_nanos() as u64;
    match shape {
        Shape::Paced(gap) => {
            let mut next = now();
            for _ in 0..events {
                while now() < next {
                    std::hint::spin_loop();
                }
                publish(now());
                next += gap;
            }
        }
        Shape::Bursts => {
            let mut sent = 0;
            while sent < events {
                let until = now() + 20_000;
                for _ in 0..64.min(events - sent) {
                    publish(now());
                    sent += 1;
                }
                while now() < until {
                    std::hint::spin_loop();
                }
            }
        }
    }
}

fn hotq(shape: Shape, events: u64) -> Vec<u64> {
    let (mut sink, out) = Sink::new(events);
    let start = sink.start;
    let mut producer = hotq_disruptor::Disruptor::builder(SIZE, Event::default)
        .wait_strategy(hotq_disruptor::wait::BusySpinWithoutHint)
        .handle_events_with(move |e: &Event, _: hotq_disruptor::Sequence, _: bool| sink.on(e))
        .build_single_producer()
        .expect("a valid disruptor");
    drive(shape, events, start, |t| {
        producer.publish(|e| e.sent_ns = t).expect("not halted");
    });
    producer.shutdown().expect("a clean shutdown");
    std::mem::take(&mut *out.lock().unwrap())
}

fn crate_disruptor(shape: Shape, events: u64) -> Vec<u64> {
    let (mut sink, out) = Sink::new(events);
    let start = sink.start;
    let mut producer = disruptor::build_single_producer(SIZE, Event::default, disruptor::BusySpin)
        .handle_events_with(move |e: &Event, _: disruptor::Sequence, _: bool| sink.on(e))
        .build();
    drive(shape, events, start, |t| {
        producer.publish(|e| e.sent_ns = t)
    });
    // Dropping the producer drains the ring and joins the handler.
    drop(producer);
    std::mem::take(&mut *out.lock().unwrap())
}

fn percentiles(mut v: Vec<u64>) -> String {
    v.sort_unstable();
    let at = |q: f64| v[((v.len() - 1) as f64 * q) as usize];
    format!("{} / {} / {}", at(0.5), at(0.99), at(0.999))
}

fn main() {
    let arg = hotq_benches::cli::positional;
    let (events, rounds) = (arg(1, 200_000), arg(2, 3) as usize);
    println!(
        "{events} events per run, ring {SIZE}, busy-spinning handler, {rounds} rounds; publish-to-handler ns: median / p99 / p99.9\n"
    );
    println!("| shape | hotq-disruptor | disruptor |");
    println!("|---|---|---|");
    let shapes = [
        ("one per 10 µs", Shape::Paced(10_000)),
        ("one per 1 µs", Shape::Paced(1_000)),
        ("one per 200 ns", Shape::Paced(200)),
        ("one per 50 ns", Shape::Paced(50)),
        ("bursts of 64 per 20 µs", Shape::Bursts),
    ];
    for (name, shape) in shapes {
        let mut got: [Vec<u64>; 2] = Default::default();
        let events = match shape {
            Shape::Paced(gap) => events.min(2_000_000_000 / gap.max(1)),
            Shape::Bursts => events,
        };
        for round in 0..rounds {
            for i in 0..2 {
                let which = (round + i) % 2;
                got[which].extend(match which {
                    0 => hotq(shape, events),
                    _ => crate_disruptor(shape, events),
                });
            }
        }
        let [h, c] = got;
        println!("| {name} | {} | {} |", percentiles(h), percentiles(c));
    }
}
