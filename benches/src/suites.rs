//! Which workloads the report runs, with which contenders and sizes.

use crate::channel::{Channel, Kind, Shared};
use crate::cli::{Options, Suite};
use crate::contenders::{self, ChannelVisitor, SharedVisitor};
use crate::rounds::{Entry, Pending, Unit, workload};
use crate::sequenced::{self, Ring, RingVisitor, Topology};
use crate::workloads::floor::{self, LIMIT};
use crate::workloads::spsc::Ops;
use crate::workloads::{mpmc, round_trip, spsc};

/// SPSC capacities.
pub const SPSC_CAPACITIES: [usize; 3] = [2, 1024, 65_536];
/// Batch sizes for the contenders with slice operations.
pub const BATCHES: [usize; 2] = [16, 256];
/// Capacity of the round-trip and MPMC queues.
pub const CAPACITY: usize = 1024;
/// Size of the disruptor rings and of each crossbeam-channel arc (as the
/// LMAX perf tests: 64 Ki events). On a machine with fewer cores than the
/// topology has threads, busy-spinning handlers move at most a ring's worth
/// of events per time slice, so a small ring would measure the scheduler.
pub const RING: usize = 65_536;
/// MPMC shapes (producers, consumers).
pub const MPMC_SHAPES: [(u64, u64); 3] = [(1, 1), (2, 2), (4, 4)];

/// Round trips per round.
pub fn trips(items: u64) -> u64 {
    (items / 50).max(10)
}

/// Events per round of a disruptor topology: three or four threads on the
/// cores, each shape in turn.
pub fn events(items: u64) -> u64 {
    (items / 4).max(3)
}

/// The run's parameters, for the header.
pub fn params(o: &Options) -> Vec<(String, String)> {
    let p = |k: &str, v: String| (k.to_string(), v);
    vec![
        p(
            "rounds per workload",
            match o.goal_rounds.filter(|&g| g != o.rounds) {
                Some(g) => format!("{} ({g} for the workloads that decide a goal)", o.rounds),
                None => o.rounds.to_string(),
            },
        ),
        p("time budget", o.budget_words()),
        p(
            "SPSC throughput",
            format!(
                "u64 items, up to {} per round, capacities {:?}, single items and batches of {:?}",
                o.items, SPSC_CAPACITIES, BATCHES
            ),
        ),
        p(
            "round trip",
            format!(
                "up to {} trips per round over two queues of {CAPACITY}, timer call included",
                trips(o.items)
            ),
        ),
        p(
            "MPMC throughput",
            format!(
                "up to {} u64 items per round, capacity {CAPACITY}, shapes 1P1C 2P2C 4P4C; every try-only queue waits with the report's one loop (spin {} tries, then yield on each), the channels in their own send/recv",
                o.items,
                crate::wait::SPINS
            ),
        ),
        p(
            "disruptor topologies",
            format!(
                "up to {} events per round, ring (and each channel) of {RING}; each disruptor busy-spinning and sleeping 10 µs per empty poll from the first (the `disruptor` crate's only strategy that gives the core away, and ours with `with_tries(0, 0)`), the row names say which; a topology with more threads than cores ({}) is decided by the two sleeping rows, else by the busy-spin rows",
                events(o.items),
                sequenced::cores()
            ),
        ),
        crate::waiting::params(o),
        crate::channels::params(o),
        crate::async_channels::params(o),
    ]
}

/// Every selected workload, set up (run by [`crate::rounds::run`]).
pub fn run(o: &Options) -> Vec<Pending> {
    let mut out = Vec::new();
    if o.runs(Suite::Spsc) {
        spsc_suite(o, &mut out);
    }
    if o.runs(Suite::Mpmc) {
        mpmc_suite(o, &mut out);
    }
    if o.runs(Suite::Disruptor) {
        disruptor_suite(o, &mut out);
    }
    if o.runs(Suite::Waiting) {
        crate::waiting::suite(o, &mut out);
    }
    if o.runs(Suite::Channels) {
        crate::channels::suite(o, &mut out);
    }
    out
}

fn spsc_suite(o: &Options, out: &mut Vec<Pending>) {
    struct Throughput {
        capacity: usize,
        ops: Ops,
        entries: Vec<Entry>,
    }
    impl ChannelVisitor for Throughput {
        fn visit<C: Channel>(&mut self) {
            if self.ops != Ops::Single && !C::SLICES {
                return;
            }
            let (capacity, ops) = (self.capacity, self.ops);
            self.entries
                .push(Entry::new(C::NAME, C::KIND, move |items| {
                    spsc::throughput::<C>(items, capacity, ops).into()
                }));
        }
    }
    for capacity in SPSC_CAPACITIES {
        let ops = std::iter::once(Ops::Single).chain(
            BATCHES
                .iter()
                .filter(|&&b| b <= capacity)
                .map(|&b| Ops::Batch(b)),
        );
        for ops in ops {
            let mut v = Throughput {
                capacity,
                ops,
                entries: Vec::new(),
            };
            contenders::each_channel(&mut v);
            v.entries.push(Entry::new(LIMIT, Kind::Limit, move |items| {
                floor::throughput(items, capacity).into()
            }));
            let (name, how) = match ops {
                Ops::Single => (
                    format!("cap {capacity}, single"),
                    "one item per operation".to_string(),
                ),
                Ops::Batch(b) => (
                    format!("cap {capacity}, batch {b}"),
                    format!("slices of up to {b} items"),
                ),
            };
            let params = format!(
                "1 producer, 1 consumer, u64 items, capacity {capacity}, {how}; `limit` hands over whole cache lines of 7 items"
            );
            out.push(workload(
                "SPSC throughput",
                name,
                params,
                Unit::MItemsPerSec,
                o.plan(o.items),
                v.entries,
            ));
        }
    }

    struct Trips {
        entries: Vec<Entry>,
    }
    impl ChannelVisitor for Trips {
        fn visit<C: Channel>(&mut self) {
            self.entries
                .push(Entry::new(C::NAME, C::KIND, move |trips| {
                    round_trip::round_trip::<C>(trips, CAPACITY)
                }));
        }
    }
    let mut v = Trips {
        entries: Vec::new(),
    };
    contenders::each_channel(&mut v);
    v.entries
        .push(Entry::new(LIMIT, Kind::Limit, floor::round_trip));
    let params = format!(
        "ping-pong over two queues of {CAPACITY}, timed trips (the `items` column) per round; `limit` bounces one AtomicU64"
    );
    out.push(workload(
        "round-trip latency",
        "round trip".into(),
        params,
        Unit::Nanos,
        o.plan(trips(o.items)),
        v.entries,
    ));
}

fn mpmc_suite(o: &Options, out: &mut Vec<Pending>) {
    struct Shape {
        producers: u64,
        consumers: u64,
        entries: Vec<Entry>,
    }
    impl SharedVisitor for Shape {
        fn visit<C: Shared>(&mut self) {
            let (p, c) = (self.producers, self.consumers);
            self.entries
                .push(Entry::new(C::NAME, C::KIND, move |items| {
                    mpmc::throughput::<C>(p, c, items, CAPACITY).into()
                }));
        }
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    for (producers, consumers) in MPMC_SHAPES {
        let mut v = Shape {
            producers,
            consumers,
            entries: Vec::new(),
        };
        contenders::each_shared(&mut v);
        v.entries.push(Entry::new(LIMIT, Kind::Limit, move |items| {
            floor::throughput(items, CAPACITY).into()
        }));
        let threads = producers + consumers;
        let over = if threads > cores {
            format!(", {threads} threads on {cores} cores (oversubscribed)")
        } else {
            String::new()
        };
        let params = format!(
            "{producers} producers, {consumers} consumers, u64 items, capacity {CAPACITY}{over}; `limit` is the 1P1C cache-line floor; mpsc::sync_channel is absent (its receiver cannot be shared)"
        );
        out.push(workload(
            "MPMC throughput",
            format!("{producers}P{consumers}C"),
            params,
            Unit::MItemsPerSec,
            o.plan(o.items),
            v.entries,
        ));
    }
}

fn disruptor_suite(o: &Options, out: &mut Vec<Pending>) {
    struct Topo {
        topology: Topology,
        entries: Vec<Entry>,
    }
    impl RingVisitor for Topo {
        fn visit<R: Ring>(&mut self) {
            let t = self.topology;
            self.entries
                .push(Entry::new(R::NAME, R::KIND, move |events| {
                    sequenced::throughput::<R>(t, events, RING).into()
                }));
        }
    }
    for topology in Topology::ALL {
        let mut v = Topo {
            topology,
            entries: Vec::new(),
        };
        sequenced::each_ring(&mut v);
        v.entries.push(floor::probe(Unit::MItemsPerSec));
        let cores = sequenced::cores();
        let over = if sequenced::oversubscribed(topology, cores) {
            format!(
                " ({} threads on {cores} cores: oversubscribed, the goal reads the two sleeping rows)",
                topology.threads()
            )
        } else {
            String::new()
        };
        let params = format!(
            "events (u64), ring (and each channel) of {RING}, {} producer thread(s) and {} consumer threads, not pinned{over}; rows without a strategy in their name busy-spin{}",
            topology.producers(),
            topology.consumers(),
            floor::PROBE_WORDS
        );
        out.push(workload(
            "disruptor topologies",
            topology.name().into(),
            params,
            Unit::MItemsPerSec,
            o.plan(events(o.items)),
            v.entries,
        ));
    }
}
