//! What waiting costs when there is nothing to do: how long a parked
//! consumer takes to wake for an item, and how much CPU it burns while it
//! waits (the workloads; `suites::wake` makes them a suite's rows).

use std::thread;
use std::time::{Duration, Instant};

use crate::channel::Channel;
use crate::results::Measured;
use crate::workloads::round_trip::histogram;
use hotq_testkit::thread_cpu_time;

/// How long the producer lets the consumer wait before each item: long
/// enough for any bounded spin before parking to be over.
pub const PAUSE: Duration = Duration::from_micros(500);

/// `wakes` times: the consumer waits in `recv`, the producer sleeps
/// [`PAUSE`], then sends the time it sends at (ns since a shared epoch);
/// each wake-up is the consumer's clock at its return minus that. The
/// figure is the run's median (ns, timer calls included).
pub fn wake_up_latency<C: Channel>(wakes: u64) -> Measured {
    let (mut tx, mut rx) = C::with_capacity(8);
    let epoch = Instant::now();
    let stamp = move || epoch.elapsed().as_nanos() as u64;
    let h = thread::scope(|s| {
        s.spawn(move || {
            for _ in 0..wakes {
                thread::sleep(PAUSE);
                C::send(&mut tx, stamp());
                // Each item is the last before a pause (for a contender
                // that gathers items; a no-op for the others).
                C::flush(&mut tx);
            }
        });
        let mut h = histogram();
        for _ in 0..wakes {
            let sent = C::recv(&mut rx);
            let ns = stamp().saturating_sub(sent).clamp(1, 60_000_000_000);
            h.record(ns).expect("within bounds");
        }
        h
    });
    Measured {
        figure: h.value_at_quantile(0.5) as f64,
        histogram: Some(h),
    }
}

/// How long the consumer blocks per run of [`idle_cpu`].
pub const IDLE: Duration = Duration::from_millis(100);

/// The consumer blocks in `recv` on an empty queue for [`IDLE`] (then one
/// item releases it); the figure is the CPU time its thread used, per
/// second blocked (ns/s), read from the thread's own CPU clock. The item
/// count is ignored.
pub fn idle_cpu<C: Channel>(_items: u64) -> Measured {
    let (mut tx, mut rx) = C::with_capacity(8);
    let used = thread::scope(|s| {
        let consumer = s.spawn(move || {
            let before = thread_cpu_time();
            let v = C::recv(&mut rx);
            // No thread CPU clock here: reported as zero.
            let used = thread_cpu_time()
                .zip(before)
                .map_or(Duration::ZERO, |(after, before)| {
                    after.saturating_sub(before)
                });
            assert_eq!(v, 7);
            used
        });
        thread::sleep(IDLE);
        C::send(&mut tx, 7);
        C::flush(&mut tx);
        consumer.join().expect("idle consumer")
    });
    (used.as_nanos() as f64 / IDLE.as_secs_f64()).into()
}
