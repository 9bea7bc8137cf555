//! One SPSC ring in one traffic mode, nothing else in the process, for
//! counting what the two cores exchange per item (`perf stat`, `perf c2c`):
//! `benches/probes/spsc_line_counts.sh` runs every ring × mode under perf
//! and divides the counts by the items this prints.
//!
//! ```sh
//! cargo build --release -p hotq-benches --example spsc_lines
//! target/release/examples/spsc_lines hotq-spsc keep-pace 10000000
//! target/release/examples/spsc_lines rtrb round-trip 1000000
//! target/release/examples/spsc_lines floor round-trip 1000000
//! ```
//!
//! Rings: `hotq-spsc`, `rtrb`, `ringbuf` (through the report's adapters, so
//! they wait in the report's one wait loop), and `floor`: the report's
//! `limit` rows, no queue at all (round trip: one `AtomicU64` bounced, two
//! line transfers per trip; throughput: lines of seven items handed over
//! by a stamp, two transfers per seven items).
//!
//! Modes (u64 items, capacity 1024, each thread pinned to a core of its
//! own where there are two):
//! - `keep-pace`: both sides free-running, the consumer spinning on an
//!   empty ring: the ring stays nearly empty and every item (or every few)
//!   crosses as soon as it is pushed. The report's single-item throughput.
//! - `fall-behind`: the consumer waits [`BEHIND`] (the producer fills the
//!   ring meanwhile and then spins on a full ring), then drains one ring's
//!   worth at full speed; repeated. The counts per item include the
//!   producer's spinning on the full ring; the printed `drain_ns` is the
//!   consumer's time per item inside the drains only.
//! - `round-trip`: one item there through one ring and back through a
//!   second; ITEMS is the number of trips.
//!
//! Output, one line: `ring=… mode=… items=… ns_per_item=…` (wall time of
//! the measured part ÷ items; `drain_ns=` in fall-behind mode). Set-up
//! (allocation, thread start) is outside the timed part but inside what
//! perf counts: a few thousand events, nothing beside millions of items.
//!
//! With `HOTQ_COUNTERS=1` the example also counts the hardware events
//! itself ([`hotq_benches::counters`], for machines with a PMU but no
//! `perf`) from just before the workload's threads start to after they
//! are joined, and appends each as `EVENT=count per item`; the events that
//! would not open are named on stderr.

use std::hint::spin_loop;
use std::time::{Duration, Instant};

use hotq_benches::channel::Channel;
use hotq_benches::contenders::{self, ChannelVisitor};
use hotq_benches::pin;
use hotq_benches::workloads::pair::pair;
use hotq_benches::workloads::{floor, round_trip};

/// The ring's capacity in every mode.
const CAPACITY: usize = 1024;

/// How long the consumer leaves the producer alone before each drain in
/// `fall-behind` mode: long enough to fill 1024 slots at any rate seen
/// here (5-10 ns an item), short enough for thousands of drains a second.
const BEHIND: Duration = Duration::from_micros(30);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    KeepPace,
    FallBehind,
    RoundTrip,
}

impl Mode {
    fn parse(s: &str) -> Option<Mode> {
        match s {
            "keep-pace" => Some(Mode::KeepPace),
            "fall-behind" => Some(Mode::FallBehind),
            "round-trip" => Some(Mode::RoundTrip),
            _ => None,
        }
    }
}

/// What a run measured.
struct Timing {
    /// Wall time of the measured part.
    elapsed: Duration,
    /// Fall-behind mode: the consumer's time inside its drains.
    drains: Option<Duration>,
}

struct Run {
    ring: String,
    mode: Mode,
    items: u64,
    timing: Option<Timing>,
}

impl ChannelVisitor for Run {
    fn visit<C: Channel>(&mut self) {
        if C::NAME != self.ring {
            return;
        }
        self.timing = Some(match self.mode {
            Mode::KeepPace => keep_pace::<C>(self.items),
            Mode::FallBehind => fall_behind::<C>(self.items),
            Mode::RoundTrip => round_trip::<C>(self.items),
        });
    }
}

/// The consumer's check: every item arrives once, in order.
#[inline]
fn check(name: &str, expected: u64, got: u64) {
    assert_eq!(
        got, expected,
        "{name}: lost, duplicated or reordered an item"
    );
}

fn keep_pace<C: Channel>(items: u64) -> Timing {
    let (mut tx, mut rx) = C::with_capacity(CAPACITY);
    let elapsed = pair(
        1,
        move || (0..items).for_each(|i| C::send(&mut tx, i)),
        move || {
            let t0 = Instant::now();
            (0..items).for_each(|i| check(C::NAME, i, C::recv(&mut rx)));
            t0.elapsed()
        },
    );
    Timing {
        elapsed,
        drains: None,
    }
}

fn fall_behind<C: Channel>(items: u64) -> Timing {
    let (mut tx, mut rx) = C::with_capacity(CAPACITY);
    let (elapsed, drains) = pair(
        1,
        move || (0..items).for_each(|i| C::send(&mut tx, i)),
        move || {
            let t0 = Instant::now();
            let mut drains = Duration::ZERO;
            let mut next = 0;
            while next < items {
                let idle = Instant::now();
                while idle.elapsed() < BEHIND {
                    spin_loop();
                }
                let d0 = Instant::now();
                for _ in 0..(items - next).min(CAPACITY as u64) {
                    check(C::NAME, next, C::recv(&mut rx));
                    next += 1;
                }
                drains += d0.elapsed();
            }
            (t0.elapsed(), drains)
        },
    );
    Timing {
        elapsed,
        drains: Some(drains),
    }
}

/// The report's round trip (each item checked on its way back), timed as
/// a whole: no timer call per trip.
fn round_trip<C: Channel>(trips: u64) -> Timing {
    Timing {
        elapsed: round_trip::bounce::<C, _, 0>(trips, CAPACITY, |mut p| {
            round_trip::time_all(trips, |i| p.trip(i))
        }),
        drains: None,
    }
}

/// The round-trip floor without the per-trip timer of the report's
/// `limit` row: one `AtomicU64` bounced (odd values there, even back).
fn floor_round_trip(trips: u64) -> Timing {
    Timing {
        elapsed: floor::bounce(trips, |ball| round_trip::time_all(trips, |i| ball.trip(i))),
        drains: None,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: spsc_lines RING MODE [ITEMS]  (RING: hotq-spsc, rtrb, ringbuf, floor; \
                 MODE: keep-pace, fall-behind, round-trip; ITEMS: default 10000000, trips in round-trip mode)";
    let (Some(ring), Some(mode)) = (args.first(), args.get(1).and_then(|m| Mode::parse(m))) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let items = match args.get(2).map(|n| n.parse::<u64>()) {
        None => 10_000_000,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("spsc_lines: ITEMS must be a positive integer\n{usage}");
            std::process::exit(2);
        }
    };
    if !["hotq-spsc", "rtrb", "ringbuf", "floor"].contains(&ring.as_str()) {
        eprintln!("spsc_lines: `{ring}` is not one of the rings\n{usage}");
        std::process::exit(2);
    }
    pin::configure(true);
    let pinned = pin::cores() >= 2;
    let mut counters = std::env::var_os("HOTQ_COUNTERS").map(|_| start_counters());
    let timing = if ring == "floor" {
        match mode {
            Mode::RoundTrip => floor_round_trip(items),
            Mode::KeepPace => {
                let t0 = Instant::now();
                floor::throughput(items, CAPACITY);
                Timing {
                    elapsed: t0.elapsed(),
                    drains: None,
                }
            }
            Mode::FallBehind => {
                eprintln!("spsc_lines: the floor has no fall-behind mode");
                std::process::exit(2);
            }
        }
    } else {
        let mut run = Run {
            ring: ring.clone(),
            mode,
            items,
            timing: None,
        };
        contenders::each_channel(&mut run);
        run.timing
            .expect("every SPSC ring is a contender of the report")
    };
    let per = |d: Duration| d.as_secs_f64() * 1e9 / items as f64;
    let mut line = format!(
        "ring={ring} mode={} items={items} pinned={pinned} ns_per_item={:.2}",
        args[1],
        per(timing.elapsed)
    );
    if let Some(d) = timing.drains {
        line += &format!(" drain_ns={:.2}", per(d));
    }
    for (name, count) in counters.as_mut().map(read_counters).unwrap_or_default() {
        match count {
            Some(c) => line += &format!(" {name}={:.3}", c / items as f64),
            None => line += &format!(" {name}=n/a"),
        }
    }
    println!("{line}");
}

#[cfg(target_os = "linux")]
type Counters = hotq_benches::counters::Counters;
#[cfg(not(target_os = "linux"))]
type Counters = ();

/// Opens the machine's counters, naming on stderr those it lacks.
#[cfg(target_os = "linux")]
fn start_counters() -> Counters {
    use hotq_benches::counters;
    let (open, failed) = Counters::start(&counters::events());
    for (event, why) in failed {
        eprintln!("spsc_lines: no counter {}: {why}", event.name);
    }
    open
}

#[cfg(not(target_os = "linux"))]
fn start_counters() -> Counters {
    eprintln!("spsc_lines: in-process counters need Linux");
}

#[cfg(target_os = "linux")]
fn read_counters(c: &mut Counters) -> Vec<(&'static str, Option<f64>)> {
    c.read()
}

#[cfg(not(target_os = "linux"))]
fn read_counters(_: &mut Counters) -> Vec<(&'static str, Option<f64>)> {
    Vec::new()
}
