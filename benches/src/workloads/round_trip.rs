//! Round-trip latency: one thread sends a u64 through one queue, the other
//! sends it back through a second; every trip is timed (the timer call is
//! included, as it would be in a user's measurement) into an HdrHistogram.

use std::time::{Duration, Instant};

use hdrhistogram::Histogram;

use crate::channel::Channel;
use crate::results::Measured;
use crate::workloads::pair::pair;
use crate::workloads::placement;

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

/// Makes `WARM_UP_TRIPS + trips` trips with `trip` (given the trip's
/// number), timing each one after the warm-up, timer call included, into
/// a histogram; the figure is the median.
pub fn time_each(trips: u64, mut trip: impl FnMut(u64)) -> Measured {
    let mut h = histogram();
    for i in 0..WARM_UP_TRIPS + trips {
        let t0 = Instant::now();
        trip(i);
        if i >= WARM_UP_TRIPS {
            record(&mut h, t0);
        }
    }
    Measured {
        figure: h.value_at_quantile(0.5) as f64,
        histogram: Some(h),
    }
}

/// Makes `trips` trips with `trip`, with no timer call between them (for
/// counting what a trip costs, `probes/spsc_lines.rs`); returns the wall
/// time of all of them.
pub fn time_all(trips: u64, mut trip: impl FnMut(u64)) -> Duration {
    let t0 = Instant::now();
    (0..trips).for_each(&mut trip);
    t0.elapsed()
}

/// The pinger's end of two queues: [`trip`](Self::trip) sends an item
/// through one and waits for it back through the other.
pub struct Pinger<C: Channel> {
    tx: C::Tx,
    rx: C::Rx,
}

impl<C: Channel> Pinger<C> {
    /// One round trip of `i`; panics if something else comes back.
    #[inline]
    pub fn trip(&mut self, i: u64) {
        C::send(&mut self.tx, i);
        // A no-op but for a contender that gathers items (the batch row).
        C::flush(&mut self.tx);
        let back = C::recv(&mut self.rx);
        assert_eq!(back, i, "{}: the round trip lost its item", C::NAME);
    }
}

/// Two queues of `capacity` between two threads: the echo (core 1) sends
/// back each of `trips` items it receives, the pinger (core 0) runs
/// `pinger`, which makes exactly `trips` trips; returns what it returns.
/// Both threads' code starts at `OFFSET` past a 64-byte boundary
/// ([`placement`]).
pub fn bounce<C: Channel, R: Send, const OFFSET: usize>(
    trips: u64,
    capacity: usize,
    pinger: impl FnOnce(Pinger<C>) -> R + Send,
) -> R {
    let (tx, mut ping_rx) = C::with_capacity(capacity);
    let (mut pong_tx, rx) = C::with_capacity(capacity);
    pair(
        0,
        move || {
            placement::align::<OFFSET>();
            for _ in 0..trips {
                let v = C::recv(&mut ping_rx);
                C::send(&mut pong_tx, v);
                C::flush(&mut pong_tx);
            }
        },
        move || {
            placement::align::<OFFSET>();
            pinger(Pinger { tx, rx })
        },
    )
}

/// One round of `trips` round trips over two queues of `capacity`; the
/// figure is the round's median. Its loops start at the next of the
/// [`placement`] offsets.
pub fn round_trip<C: Channel>(trips: u64, capacity: usize) -> Measured {
    placement::at_drawn_offset!(placed::<C>(trips, capacity))
}

/// [`round_trip`] at `OFFSET` past a 64-byte boundary.
fn placed<C: Channel, const OFFSET: usize>(trips: u64, capacity: usize) -> Measured {
    bounce::<C, _, OFFSET>(WARM_UP_TRIPS + trips, capacity, |mut p| {
        time_each(trips, |i| p.trip(i))
    })
}
