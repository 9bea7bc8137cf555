//! The physical floor, the `limit` rows: what two cores of this machine
//! can do with no queue logic at all.
//!
//! - Round trip: two threads bounce one `AtomicU64` (one cache line).
//! - Throughput: a ring of cache lines, each holding a stamp and seven u64
//!   items; the producer fills a whole line and flips its stamp, the
//!   consumer reads the line and flips it back. No head, no tail, no
//!   capacity arithmetic: one line moves to the consumer and back per
//!   seven items, which is as few transfers as a queue of u64 can make.
//!
//! The SPSC and MPMC suites run these as a contender of their own (the
//! 1P1C floor of a 1P1C shape, or beside the MPMC shapes as the mode of
//! the same two cores). Every other workload, whatever its threads
//! (disruptor topologies of three and four, blocking and async shapes up
//! to 8P8C, a tokio runtime of two workers, wake-ups), runs on the same
//! two cores, and what it meets there (a core pair that keeps pace or
//! falls behind, another process holding a core) is what the two-core
//! floor measures: it gets the floor as a probe (`suites::probe`), one
//! short run per round, so its goals are decided by its rounds' mode too.

use std::hint::spin_loop;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use crossbeam_utils::CachePadded;

use crate::results::Measured;
use crate::workloads::pair::pair;
use crate::workloads::round_trip::{WARM_UP_TRIPS, time_each};

/// Name of the floor rows.
pub const LIMIT: &str = "limit";

/// Items per cache line (the eighth word is the stamp).
const PER_LINE: usize = 7;

/// One cache line: `stamp` is `2 * lap` while the line is free for the
/// producer's lap `lap`, `2 * lap + 1` once it holds that lap's items.
#[repr(align(64))]
struct Line {
    stamp: AtomicU64,
    items: [AtomicU64; PER_LINE],
}

/// One round of the throughput floor with about `capacity` items in flight
/// (at least two lines); returns M items/s.
pub fn throughput(items: u64, capacity: usize) -> f64 {
    let lines = capacity.div_ceil(PER_LINE).max(2);
    let ring: Vec<Line> = (0..lines)
        .map(|_| Line {
            stamp: AtomicU64::new(0),
            items: Default::default(),
        })
        .collect();
    let full_lines = items / PER_LINE as u64;
    let ring = &ring;
    let elapsed = pair(
        1,
        move || {
            for n in 0..full_lines {
                let line = &ring[(n % lines as u64) as usize];
                let lap = n / lines as u64;
                // Acquire pairs with the consumer's Release store: its reads
                // of the last lap are done before we overwrite the items.
                while line.stamp.load(Ordering::Acquire) != 2 * lap {
                    spin_loop();
                }
                for (k, item) in line.items.iter().enumerate() {
                    item.store(n * PER_LINE as u64 + k as u64, Ordering::Relaxed);
                }
                // Release pairs with the consumer's Acquire load: the items
                // are written before the line reads as full.
                line.stamp.store(2 * lap + 1, Ordering::Release);
            }
        },
        move || {
            let t0 = Instant::now();
            for n in 0..full_lines {
                let line = &ring[(n % lines as u64) as usize];
                let lap = n / lines as u64;
                // Acquire pairs with the producer's Release store.
                while line.stamp.load(Ordering::Acquire) != 2 * lap + 1 {
                    spin_loop();
                }
                for (k, item) in line.items.iter().enumerate() {
                    let v = item.load(Ordering::Relaxed);
                    assert_eq!(v, n * PER_LINE as u64 + k as u64, "limit: lost an item");
                }
                // Release pairs with the producer's Acquire load.
                line.stamp.store(2 * (lap + 1), Ordering::Release);
            }
            t0.elapsed()
        },
    );
    (full_lines * PER_LINE as u64) as f64 / elapsed.as_secs_f64() / 1e6
}

/// One `AtomicU64` bounced between two threads: odd values there, even
/// ones back.
pub struct Ball(CachePadded<AtomicU64>);

impl Ball {
    /// The pinger's trip `i`: throws `2i + 1`, waits for `2i + 2`.
    #[inline]
    pub fn trip(&self, i: u64) {
        // Release/Acquire pair with the echo's Acquire/Release.
        self.0.store(2 * i + 1, Ordering::Release);
        while self.0.load(Ordering::Acquire) != 2 * i + 2 {
            spin_loop();
        }
    }

    /// The echo's side of trip `i`.
    #[inline]
    fn echo(&self, i: u64) {
        // Acquire/Release pair with the pinger's Release/Acquire.
        while self.0.load(Ordering::Acquire) != 2 * i + 1 {
            spin_loop();
        }
        self.0.store(2 * i + 2, Ordering::Release);
    }
}

/// A ball between two threads: the echo (core 1) returns `trips` throws,
/// the pinger (core 0) runs `pinger`, which makes exactly `trips` trips;
/// returns what it returns.
pub fn bounce<R: Send>(trips: u64, pinger: impl FnOnce(&Ball) -> R + Send) -> R {
    let ball = &Ball(CachePadded::new(AtomicU64::new(0)));
    pair(
        0,
        move || (0..trips).for_each(|i| ball.echo(i)),
        move || pinger(ball),
    )
}

/// Trips of [`distance`]: 0.3 ms on cores that share a cache here (about
/// 140 ns a trip), 1 ms on cores that do not (about 480 ns).
pub const DISTANCE_TRIPS: u64 = 2_000;

/// The machine's mode before a round: how far apart the two cores are, as
/// the median round trip of one cache line between them (ns), over
/// [`DISTANCE_TRIPS`]. This VM's two vCPUs switch, every 20-40 s, between
/// sharing a cache (round trip 140 ns) and not (470-490 ns), and every
/// two-core figure follows: in the runs of 2026-12-02 17:28 and 17:31 UTC,
/// hotq-spsc's single items ran at 70-77 M/s in the near phases and 26-27
/// in the far ones, rtrb's at 84-88 and 44-50, while the line-handover
/// floor (seven items a line) moved by 10-20 % only and could not tell the
/// phases apart. [`rounds::run`](crate::rounds::run) runs this before
/// every round of every workload.
pub fn distance() -> f64 {
    round_trip(DISTANCE_TRIPS).figure
}

/// One round of the round-trip floor: `trips` bounces of one `AtomicU64`;
/// the figure is the round's median, timer call included as for the queues.
pub fn round_trip(trips: u64) -> Measured {
    bounce(WARM_UP_TRIPS + trips, |ball| {
        time_each(trips, |i| ball.trip(i))
    })
}
