//! The MPMC suite: throughput of the try-only queues and the channels at
//! 1P1C, 2P2C and 4P4C, each try-only queue waiting with the report's loop.

use super::sizes::{CAPACITY, MPMC_SHAPES};
use crate::channel::{Kind, Shared};
use crate::cli::Options;
use crate::contenders::{self, SharedVisitor};
use crate::isolated;
use crate::results::Unit;
use crate::rounds::{Entry, Pending, workload};
use crate::workloads::floor::{self, LIMIT};

/// The suite's workloads, into `out`.
pub fn suite(o: &Options, out: &mut Vec<Pending>) {
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
                    isolated::mpmc::<C>(p, c, items, CAPACITY).into()
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
