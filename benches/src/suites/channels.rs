//! The `channels` suite: channels that wait in their own blocking calls,
//! at 1P1C up to 8P8C (oversubscribed on a 2-core machine: that is the
//! point: whoever sleeps well moves the most), capacities 1024 and 8;
//! then how a parked receiver wakes and what it costs while it waits (the
//! `waiting` suite's [`wake`] workloads, over these channels).

use super::channels_async;
use super::probe;
use super::wake::{self, WAKES};
use crate::channel::Kind;
use crate::channel::{Channel, Shared};
use crate::cli::Options;
use crate::contenders::{
    self, BATCH, CrossbeamChannel, HotqMpmcChannel, HotqMpmcChannelBatch, HotqMpmcChannelRecvMany,
    SharedVisitor, SyncChannel,
};
use crate::isolated;
use crate::results::Unit;
use crate::rounds::{Entry, Pending, workload};
use crate::waiting::wake::{IDLE, PAUSE};
use crate::workloads::select::{self, Shape};

/// Shapes (producers, consumers).
pub const SHAPES: [(u64, u64); 4] = [(1, 1), (2, 2), (4, 4), (8, 8)];
/// Capacities: roomy, and small enough that both sides block often.
pub const CAPACITIES: [usize; 2] = [1024, 8];

/// The suite's line in the report's header.
pub fn params(o: &Options) -> (String, String) {
    (
        "channels (blocking)".to_string(),
        format!(
            "up to {} u64 items per round, capacities {CAPACITIES:?}, shapes 1P1C 2P2C 4P4C 8P8C, each channel in its own blocking send/recv; wake-up latency over up to {} wake-ups after {:?} pauses; idle CPU over {:?} blocked",
            o.items, WAKES, PAUSE, IDLE
        ),
    )
}

/// Runs the suite's workloads into `out`: the blocking shapes, the
/// async ones (`async_channels`), then the wake-up latency and idle CPU.
pub fn suite(o: &Options, out: &mut Vec<Pending>) {
    blocking(o, out);
    batches(o, out);
    rendezvous(o, out);
    selects(o, out);
    channels_async::suite(o, out);
    waits(o, out);
}

/// The blocking batch rows' shapes (issue 39), at capacity 1024.
pub const BATCH_SHAPES: [(u64, u64); 2] = [(1, 1), (4, 4)];

/// `send_many` and `recv_many` against the same channel's `send` and
/// `recv`, and against crossbeam-channel's (which has no batch calls).
fn batches(o: &Options, out: &mut Vec<Pending>) {
    fn row<C: Shared>(p: u64, c: u64) -> Entry {
        Entry::new(C::NAME, C::KIND, move |items| {
            isolated::mpmc::<C>(p, c, items, CAPACITIES[0]).into()
        })
    }
    for (p, c) in BATCH_SHAPES {
        let entries = vec![
            row::<HotqMpmcChannelBatch>(p, c),
            row::<HotqMpmcChannelRecvMany>(p, c),
            row::<HotqMpmcChannel>(p, c),
            row::<CrossbeamChannel>(p, c),
            probe::probe(Unit::MItemsPerSec),
        ];
        let params = format!(
            "{p} producers, {c} consumers, u64 items, capacity {}; the send_many+recv_many row sends {BATCH} at a time with send_many and receives up to {BATCH} with recv_many, the send+recv_many row sends one item at a time and receives up to {BATCH} with recv_many, the others one item per send/recv{}",
            CAPACITIES[0],
            probe::PROBE_WORDS
        );
        out.push(workload(
            "channels (blocking)",
            format!("batch {p}P{c}C limit {BATCH}"),
            params,
            Unit::MItemsPerSec,
            o.plan(o.items),
            entries,
        ));
    }
}

/// The rendezvous workloads' names (`bounded(0)`: a send returns once a
/// receiver has taken the item), and their shapes.
pub const RENDEZVOUS: [&str; 2] = ["rendezvous 1P1C", "rendezvous 4P4C"];
const RENDEZVOUS_SHAPES: [(u64, u64); 2] = [(1, 1), (4, 4)];

/// Zero-capacity channels, each in its own blocking calls.
fn rendezvous(o: &Options, out: &mut Vec<Pending>) {
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
                    isolated::mpmc::<C>(p, c, items, 0).into()
                }));
        }
    }
    for (name, (producers, consumers)) in RENDEZVOUS.into_iter().zip(RENDEZVOUS_SHAPES) {
        let mut v = Shape {
            producers,
            consumers,
            entries: Vec::new(),
        };
        contenders::each_rendezvous_channel(&mut v);
        if consumers == 1 {
            v.entries.push(Entry::new(
                SyncChannel::NAME,
                SyncChannel::KIND,
                move |items| isolated::mpsc::<SyncChannel>(producers, items, 0).into(),
            ));
        }
        v.entries.push(probe::probe(Unit::MItemsPerSec));
        let params = format!(
            "{producers} producers, {consumers} consumers, u64 items, capacity 0 (each send hands its item to a receiver), every channel in its own blocking send/recv{}",
            probe::PROBE_WORDS
        );
        out.push(workload(
            "channels (blocking)",
            name.to_string(),
            params,
            Unit::MItemsPerSec,
            // A hand-off per item, each a wake-up: a tenth of the items.
            o.plan((o.items / 10).max(1)),
            v.entries,
        ));
    }
}

/// The select workloads' names: one producer on a data channel and a
/// control channel; four producers on four channels.
pub const SELECTS: [&str; 2] = ["select data+control", "select 4 channels"];

/// One thread selecting over several channels, with each crate's own
/// select (`workloads::select`).
fn selects(o: &Options, out: &mut Vec<Pending>) {
    for (name, shape) in SELECTS.into_iter().zip(Shape::ALL) {
        let mut entries: Vec<Entry> = select::CONTENDERS
            .iter()
            .map(|&(c, _)| {
                let kind = if c == "hotq-mpmc-channel" {
                    Kind::Ours
                } else {
                    Kind::Peer
                };
                Entry::new(c, kind, move |items| {
                    isolated::select(c, shape, items).into()
                })
            })
            .collect();
        entries.push(probe::probe(Unit::MItemsPerSec));
        let what = match shape {
            Shape::DataAndControl => {
                "1 producer streams u64 items on a data channel, then one message on a control channel of capacity 1; the consumer selects over both"
            }
            Shape::Four => {
                "4 producers each stream u64 items on a channel of their own; the consumer selects over the four"
            }
        };
        let params = format!(
            "{what}; channels of {} (hotq-mpmc's and crossbeam-channel's `select!`, flume's `Selector`){}",
            select::CAPACITY,
            probe::PROBE_WORDS
        );
        out.push(workload(
            "channels (blocking)",
            name.to_string(),
            params,
            Unit::MItemsPerSec,
            o.plan(o.items),
            entries,
        ));
    }
}

/// Prefix of the wake-up and idle workloads' names (the `waiting` suite
/// has workloads of the same names without it).
pub const WAITS: &str = "channel ";

/// Every channel of the blocking shapes, and `mpsc::sync_channel` (one
/// receiver is all these workloads need).
fn waits(o: &Options, out: &mut Vec<Pending>) {
    let mut rows = wake::Rows::default();
    contenders::each_waiting_channel(&mut rows);
    rows.add::<SyncChannel>();
    out.extend(rows.workloads("channels (blocking)", WAITS, o));
}

fn blocking(o: &Options, out: &mut Vec<Pending>) {
    struct Shape {
        producers: u64,
        consumers: u64,
        capacity: usize,
        entries: Vec<Entry>,
    }
    impl SharedVisitor for Shape {
        fn visit<C: Shared>(&mut self) {
            let (p, c, cap) = (self.producers, self.consumers, self.capacity);
            self.entries
                .push(Entry::new(C::NAME, C::KIND, move |items| {
                    isolated::mpmc::<C>(p, c, items, cap).into()
                }));
        }
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    for capacity in CAPACITIES {
        for (producers, consumers) in SHAPES {
            let mut v = Shape {
                producers,
                consumers,
                capacity,
                entries: Vec::new(),
            };
            contenders::each_waiting_channel(&mut v);
            if consumers == 1 {
                // One receiver: std's channel runs this shape (the only
                // one-consumer shape of the blocking half).
                v.entries.push(Entry::new(
                    SyncChannel::NAME,
                    SyncChannel::KIND,
                    move |items| isolated::mpsc::<SyncChannel>(producers, items, capacity).into(),
                ));
            }
            let threads = producers + consumers;
            let over = if threads > cores {
                format!(", {threads} threads on {cores} cores (oversubscribed)")
            } else {
                String::new()
            };
            let sync = if consumers == 1 {
                ""
            } else {
                " (mpsc::sync_channel is absent: its receiver cannot be shared)"
            };
            v.entries.push(probe::probe(Unit::MItemsPerSec));
            let params = format!(
                "{producers} producers, {consumers} consumers, u64 items, capacity {capacity}{over}; every channel blocks in its own send/recv{sync}{}",
                probe::PROBE_WORDS
            );
            out.push(workload(
                "channels (blocking)",
                format!("{producers}P{consumers}C cap {capacity}"),
                params,
                Unit::MItemsPerSec,
                o.plan(o.items),
                v.entries,
            ));
        }
    }
}
