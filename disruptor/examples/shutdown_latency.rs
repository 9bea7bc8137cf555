//! How long `shutdown()` takes on a running 1P-1C disruptor, per wait
//! strategy, as the median and quartiles of `RUNS` shutdowns:
//!
//! - `call→return`: from the call to its return, after a burst of `BURST`
//!   events that the consumer is still handling;
//! - `drained→return`: the drain's own latency: the last event's handler
//!   works `LAST_WORK` (so the drain has spun out and waits), records when
//!   it is done, and the figure is the time from then to the return;
//! - `sleeps in a 20 ms drain`: the shutdown thread's voluntary context
//!   switches (Linux: `/proc/thread-self/status`) over a shutdown whose
//!   last event takes 20 ms: how often the waiting drain wakes to look.
//!
//! A measurement, not a test:
//! `cargo run --release -p hotq-disruptor --example shutdown_latency`.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hotq_disruptor::Disruptor;
use hotq_disruptor::wait::{Blocking, BusySpin, WaitStrategy, Yielding};

const RUNS: usize = 200;
/// Events published just before the shutdown: the drain has work to wait for.
const BURST: u64 = 4096;
/// How long the handler works on the last event.
const LAST_WORK: Duration = Duration::from_micros(500);

/// The calling thread's voluntary context switches so far (0 where the
/// kernel does not say).
fn voluntary_switches() -> u64 {
    std::fs::read_to_string("/proc/thread-self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("voluntary_ctxt_switches:"))
                .and_then(|v| v.trim().parse().ok())
        })
        .unwrap_or(0)
}

/// One shutdown: (call→return, drained→return, voluntary switches).
fn once<W: WaitStrategy>(strategy: W, last_work: Option<Duration>) -> (Duration, Duration, u64) {
    let done: Arc<Mutex<Option<Instant>>> = Arc::default();
    let d = done.clone();
    let mut producer = Disruptor::builder(1024, || 0u64)
        .wait_strategy(strategy)
        .handle_events_with(move |e: &u64, seq, _eob| {
            std::hint::black_box(*e);
            if seq as u64 == BURST - 1 {
                if let Some(work) = last_work {
                    let start = Instant::now();
                    while start.elapsed() < work {
                        std::hint::spin_loop();
                    }
                }
                *d.lock().unwrap() = Some(Instant::now());
            }
        })
        .build_single_producer()
        .expect("build");
    for i in 0..BURST {
        producer.publish(|e| *e = i).expect("publish");
    }
    let switches = voluntary_switches();
    let start = Instant::now();
    producer.shutdown().expect("shutdown");
    let end = Instant::now();
    let switches = voluntary_switches() - switches;
    let drained = done.lock().unwrap().expect("the last event was handled");
    (
        end - start,
        end.saturating_duration_since(drained),
        switches,
    )
}

fn quartiles(mut times: Vec<Duration>) -> String {
    times.sort();
    let q = |f: f64| times[((times.len() - 1) as f64 * f) as usize].as_secs_f64() * 1e6;
    format!(
        "median {:7.1} µs (q1 {:6.1}, q3 {:7.1})",
        q(0.5),
        q(0.25),
        q(0.75)
    )
}

fn measure<W: WaitStrategy + Copy>(name: &str, strategy: W) {
    let burst: Vec<Duration> = (0..RUNS).map(|_| once(strategy, None).0).collect();
    let drain: Vec<Duration> = (0..RUNS)
        .map(|_| once(strategy, Some(LAST_WORK)).1)
        .collect();
    let mut sleeps: Vec<u64> = (0..10)
        .map(|_| once(strategy, Some(Duration::from_millis(20))).2)
        .collect();
    sleeps.sort_unstable();
    println!(
        "{name:>9}: call→return {}   drained→return {}   sleeps in a 20 ms drain: median {}",
        quartiles(burst),
        quartiles(drain),
        sleeps[sleeps.len() / 2]
    );
}

fn main() {
    println!("{RUNS} shutdowns each, burst {BURST}, last event's work {LAST_WORK:?}");
    measure("BusySpin", BusySpin);
    measure("Yielding", Yielding);
    measure("Blocking", Blocking);
}
