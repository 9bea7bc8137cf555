//! Round-trip latency: one thread sends a u64 through one queue, the other
//! sends it back through a second; every trip is timed (the timer call is
//! included, as it would be in a user's measurement) into an HdrHistogram.

use std::sync::Barrier;
use std::thread;
use std::time::Instant;

use hdrhistogram::Histogram;

use crate::channel::Channel;
use crate::pin;
use crate::rounds::Measured;

/// Trips not recorded at the start of a run (caches and branch predictors
/// warming up).
pub const WARM_UP_TRIPS: u64 = 100;

/// A histogram for round trips: 1 ns to 60 s, 3 significant digits.
pub fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 60_000_000_000, 3).expect("valid bounds")
}

/// Records the time since `t0` in `h`, in ns.
pub fn record(h: &mut Histogram<u64>, t0: Instant) {
    let ns = t0.elapsed().as_nanos().clamp(1, 60_000_000_000) as u64;
    h.record(ns).expect("within bounds");
}

/// One round of `trips` round trips over two queues of `capacity`; the
/// figure is the round's median.
pub fn round_trip<C: Channel>(trips: u64, capacity: usize) -> Measured {
    let (mut ping_tx, mut ping_rx) = C::with_capacity(capacity);
    let (mut pong_tx, mut pong_rx) = C::with_capacity(capacity);
    let start = Barrier::new(2);
    let h = thread::scope(|s| {
        let start = &start;
        s.spawn(move || {
            pin::thread(1, 2);
            start.wait();
            for _ in 0..WARM_UP_TRIPS + trips {
                let v = C::recv(&mut ping_rx);
                C::send(&mut pong_tx, v);
            }
        });
        let pinger = s.spawn(move || {
            pin::thread(0, 2);
            start.wait();
            let mut h = histogram();
            for i in 0..WARM_UP_TRIPS + trips {
                let t0 = Instant::now();
                C::send(&mut ping_tx, i);
                let back = C::recv(&mut pong_rx);
                if i >= WARM_UP_TRIPS {
                    record(&mut h, t0);
                }
                assert_eq!(back, i, "{}: the round trip lost its item", C::NAME);
            }
            h
        });
        pinger.join().expect("pinger panicked")
    });
    Measured {
        figure: h.value_at_quantile(0.5) as f64,
        histogram: Some(h),
    }
}
