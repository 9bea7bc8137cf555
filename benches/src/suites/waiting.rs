//! The `waiting` suite: queues whose ends sleep while they wait, blocking
//! and async, against the peers people use for that: throughput at
//! capacities 8 and 1024 and the blocking round trip (the SPSC suite's
//! workloads over the blocking contenders), the async throughput, and the
//! wake-up latency and idle CPU of a parked consumer.

use super::probe;
use super::sizes::trips;
use super::wake::{Rows, WAKES};
use crate::channel::Channel;
use crate::cli::Options;
use crate::contenders::ChannelVisitor;
use crate::isolated;
use crate::results::{Measured, Unit};
use crate::rounds::{Entry, Pending, workload};
use crate::waiting::asynchronous::{self, AsyncChannel, AsyncVisitor};
use crate::waiting::{blocking, wake};
use crate::workloads::spsc::Ops;

/// Capacities of the throughput workloads.
pub const CAPACITIES: [usize; 2] = [8, 1024];

/// Items per round of a throughput workload: a quarter of the other
/// suites' (parking makes the slow contenders much slower).
pub fn items(o: &Options) -> u64 {
    (o.items / 4).max(1000)
}

/// The suite's parameters, for the header.
pub fn params(o: &Options) -> (String, String) {
    (
        "waiting".to_string(),
        format!(
            "u64, up to {} items per round at capacities {CAPACITIES:?}, blocking calls / async on tokio with 2 workers; wake-up latency over up to {WAKES} wake-ups after {:?} pauses; idle CPU over {:?} blocked",
            items(o),
            wake::PAUSE,
            wake::IDLE
        ),
    )
}

/// Runs the suite's workloads.
pub fn suite(o: &Options, out: &mut Vec<Pending>) {
    /// Entries made by `make` for each contender a visitor is given.
    struct Each<W> {
        make: W,
        entries: Vec<Entry>,
    }
    /// How one workload runs a contender.
    trait Make {
        fn make<C: Channel>(&self) -> Box<dyn FnMut(u64) -> Measured>;
    }
    impl<W: Make> ChannelVisitor for Each<W> {
        fn visit<C: Channel>(&mut self) {
            let run = self.make.make::<C>();
            self.entries.push(Entry::new(C::NAME, C::KIND, run));
        }
    }

    struct Throughput(usize);
    impl Make for Throughput {
        fn make<C: Channel>(&self) -> Box<dyn FnMut(u64) -> Measured> {
            let capacity = self.0;
            Box::new(move |items| isolated::spsc::<C>(items, capacity, Ops::Single).into())
        }
    }
    struct Trip;
    impl Make for Trip {
        fn make<C: Channel>(&self) -> Box<dyn FnMut(u64) -> Measured> {
            Box::new(|trips| isolated::round_trip::<C>(trips, 8))
        }
    }
    fn blocking_entries(make: impl Make) -> Vec<Entry> {
        let mut each = Each {
            make,
            entries: Vec::new(),
        };
        blocking::each_blocking(&mut each);
        each.entries
    }
    /// `entries` and the floor's probe beside them.
    fn probed(mut entries: Vec<Entry>, unit: Unit) -> Vec<Entry> {
        entries.push(probe::probe(unit));
        entries
    }

    for capacity in CAPACITIES {
        out.push(workload(
            "waiting",
            format!("blocking, cap {capacity}"),
            format!(
                "1 producer, 1 consumer, u64 items, capacity {capacity}, each end in its queue's blocking call (ours: push_timeout / pop_timeout){}",
                probe::PROBE_WORDS
            ),
            Unit::MItemsPerSec,
            o.plan(items(o)),
            probed(blocking_entries(Throughput(capacity)), Unit::MItemsPerSec),
        ));
    }

    struct Async {
        capacity: usize,
        entries: Vec<Entry>,
    }
    impl AsyncVisitor for Async {
        fn visit<C: AsyncChannel>(&mut self) {
            let capacity = self.capacity;
            self.entries
                .push(Entry::new(C::NAME, C::KIND, move |items| {
                    isolated::asynchronous::<C>(items, capacity).into()
                }));
        }
    }
    for capacity in CAPACITIES {
        let mut v = Async {
            capacity,
            entries: Vec::new(),
        };
        asynchronous::each_async(&mut v);
        v.entries.push(probe::probe(Unit::MItemsPerSec));
        out.push(workload(
            "waiting",
            format!("async, cap {capacity}"),
            format!(
                "a producer task and a consumer task on a tokio multi-thread runtime with 2 workers, u64 items, capacity {capacity} (a fresh runtime per run){}",
                probe::PROBE_WORDS
            ),
            Unit::MItemsPerSec,
            o.plan(items(o)),
            v.entries,
        ));
    }

    out.push(workload(
        "waiting",
        "blocking round trip".into(),
        format!("ping-pong over two queues of 8, both ends in blocking calls, timed trips per round (timer call included){}", probe::PROBE_WORDS),
        Unit::Nanos,
        o.plan(trips(items(o))),
        probed(blocking_entries(Trip), Unit::Nanos),
    ));
    let mut wake = Rows::default();
    blocking::each_blocking(&mut wake);
    out.extend(wake.workloads("waiting", "", o));
}
