//! The SPSC suite: throughput at each capacity, one item and batches per
//! operation, and the round trip over two queues.

use super::sizes::{BATCHES, CAPACITY, SPSC_CAPACITIES, trips};
use crate::channel::{Channel, Kind};
use crate::cli::Options;
use crate::contenders::{self, ChannelVisitor};
use crate::isolated;
use crate::results::Unit;
use crate::rounds::{Entry, Pending, workload};
use crate::workloads::floor::{self, LIMIT};
use crate::workloads::spsc::Ops;

/// The suite's workloads, into `out`.
pub fn suite(o: &Options, out: &mut Vec<Pending>) {
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
                    isolated::spsc::<C>(items, capacity, ops).into()
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
                    isolated::round_trip::<C>(trips, CAPACITY)
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
