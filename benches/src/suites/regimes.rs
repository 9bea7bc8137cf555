//! The regime grids (`--suite regimes`, `batch-regimes` and
//! `mpmc-regimes`, not in `all`): each queue through its own try calls (or
//! its slice calls, in batches), in every cell of work per item on each
//! side × the caller's wait loop × capacity, one producer and one
//! consumer. The SPSC grid runs hotq-spsc's two rings, rtrb, ringbuf and
//! omango; the SPSC batch grid the rings with slice calls (hotq-spsc's
//! `RingBuffer`, rtrb, ringbuf); the MPMC grid hotq-mpmc's `Queue`,
//! `ArrayQueue` and lfqueue (issue 37 §2). 144 workloads each: give them
//! time (`--time 900 --rounds 6`, about 16 minutes here for the SPSC
//! grid).

use crate::channel::{Kind, TryChannel};
use crate::cli::{Options, Suite};
use crate::contenders::{self, TryVisitor};
use crate::isolated;
use crate::results::Unit;
use crate::rounds::{Entry, Pending, workload};
use crate::workloads::regime::{Regime, WaitLoop};
use crate::workloads::spsc::Ops;

/// One regime grid: which queues run it, and whose cells its goals judge.
#[derive(Debug)]
pub struct Grid {
    /// The suite's name in the report.
    pub suite: &'static str,
    /// The `--suite` that runs it.
    pub selected_by: Suite,
    /// Its section's heading in the report.
    pub title: &'static str,
    /// The kind of queue it compares, `SPSC` or `MPMC`.
    pub kind: &'static str,
    /// What each workload's name starts with (`regime cap 64, ...`).
    pub prefix: &'static str,
    /// The contender each cell's goal judges.
    pub ours: &'static str,
    /// The peers it is held to: each cell's goal compares against the
    /// best of them.
    pub peers: &'static [&'static str],
    /// A peer that runs beside them and is compared in the grid's summary
    /// line, not in a goal.
    pub beside: Option<&'static str>,
    /// One item per try call, or batches through the slice calls (the
    /// queues without them sit this grid out).
    pub ops: Ops,
    /// Its queues.
    rings: fn(&mut Cell),
}

/// The SPSC grid: hotq-spsc's ring for single items (`hotq_spsc::stamped`)
/// against the best of rtrb and ringbuf, the peers issue 37 §2 names
/// (omango runs beside them, in the grid's summary line).
pub const SPSC: Grid = Grid {
    suite: "SPSC regimes",
    selected_by: Suite::Regimes,
    title: "the SPSC regime grid",
    kind: "SPSC",
    prefix: "regime",
    ours: "hotq-spsc stamped",
    peers: &["rtrb", "ringbuf"],
    beside: Some("omango"),
    ops: Ops::Single,
    rings: |c| contenders::each_try_spsc(c),
};

/// Items per batch in the SPSC batch grid: the report's smaller batch
/// (`sizes::BATCHES`), which fits the grid's smallest capacity four times.
pub const BATCH: usize = 16;

/// The SPSC batch grid: the same cells in batches of [`BATCH`] through
/// each ring's slice calls, hotq-spsc's `RingBuffer` (the stamped ring has
/// none) against the best of rtrb and ringbuf (issue 37 §2: "single items
/// and batches").
pub const SPSC_BATCH: Grid = Grid {
    suite: "SPSC batch regimes",
    selected_by: Suite::BatchRegimes,
    title: "the SPSC batch regime grid",
    kind: "SPSC",
    prefix: "batch regime",
    ours: "hotq-spsc",
    peers: &["rtrb", "ringbuf"],
    beside: None,
    ops: Ops::Batch(BATCH),
    rings: |c| contenders::each_try_spsc(c),
};

/// The MPMC grid: hotq-mpmc's `Queue` against the best of `ArrayQueue`
/// and lfqueue, with one producer and one consumer.
pub const MPMC: Grid = Grid {
    suite: "MPMC regimes",
    selected_by: Suite::MpmcRegimes,
    title: "the MPMC regime grid",
    kind: "MPMC",
    prefix: "mpmc regime",
    ours: "hotq-mpmc",
    peers: &["ArrayQueue", "lfqueue"],
    beside: None,
    ops: Ops::Single,
    rings: |c| contenders::each_try_mpmc(c),
};

/// Every grid.
pub const GRIDS: [&Grid; 3] = [&SPSC, &SPSC_BATCH, &MPMC];

/// Steps of work per item on each side.
pub const WORK: [u32; 4] = [0, 1, 4, 16];

/// The capacities.
pub const CAPACITIES: [usize; 3] = [64, 1024, 65536];

/// The workload name of `grid`'s cell `r`.
pub fn name(grid: &Grid, r: &Regime) -> String {
    format!(
        "{} cap {}, {}, work {}/{}",
        grid.prefix,
        r.capacity,
        r.wait.label(),
        r.producer_work,
        r.consumer_work
    )
}

/// Every cell of `grid`, in the order of the tables.
pub fn cells(grid: &Grid) -> Vec<Regime> {
    let mut v = Vec::new();
    for capacity in CAPACITIES {
        for wait in WaitLoop::ALL {
            for producer_work in WORK {
                for consumer_work in WORK {
                    v.push(Regime {
                        producer_work,
                        consumer_work,
                        wait,
                        capacity,
                        ops: grid.ops,
                    });
                }
            }
        }
    }
    v
}

/// The row of a cell's ceiling (`workloads::regime::alone`): the busier
/// side's work with no queue.
pub const ALONE: &str = "work alone";

/// What a cell's parameters end with where it runs [`ALONE`].
const ALONE_WORDS: &str = "; `work alone` is the busier side's work with no queue, one short run per round: the cell's ceiling";

/// One cell's entries, one per queue of the grid, and its ceiling.
struct Cell {
    regime: Regime,
    /// The grid's own queue, in whose binary the ceiling runs.
    ours: &'static str,
    entries: Vec<Entry>,
    /// The ceiling's entry, which goes after the queues'.
    ceiling: Option<Entry>,
}

impl TryVisitor for Cell {
    fn visit<C: TryChannel>(&mut self) {
        let r = self.regime;
        if r.ops != Ops::Single && !C::SLICES {
            return;
        }
        self.entries
            .push(Entry::new(C::NAME, C::KIND, move |items| {
                isolated::regime::<C>(items, r).into()
            }));
        if C::NAME == self.ours && has_ceiling(&r) {
            self.ceiling = Some(Entry::probe(
                ALONE,
                Kind::Limit,
                100_000_000,
                move |items| isolated::alone::<C>(items, r).into(),
            ));
        }
    }
}

/// Whether cell `r` has a ceiling worth running: some work on either
/// side (with none, the queue's own calls are all there is).
fn has_ceiling(r: &Regime) -> bool {
    r.producer_work.max(r.consumer_work) > 0
}

/// `grid`'s workloads, into `out`.
pub fn suite(o: &Options, grid: &Grid, out: &mut Vec<Pending>) {
    for regime in cells(grid) {
        let mut v = Cell {
            regime,
            ours: grid.ours,
            entries: Vec::new(),
            ceiling: None,
        };
        (grid.rings)(&mut v);
        v.entries.extend(v.ceiling.take());
        let how = match regime.ops {
            Ops::Single => "one at a time through each queue's own try calls".to_string(),
            Ops::Batch(b) => format!("in batches of up to {b} through each ring's slice calls"),
        };
        let params = format!(
            "1 producer, 1 consumer, u64 items {how}, capacity {}; {} steps of work before each item is sent, {} after each is received; on a try that moved nothing: {}{}",
            regime.capacity,
            regime.producer_work,
            regime.consumer_work,
            regime.wait.label(),
            if has_ceiling(&regime) {
                ALONE_WORDS
            } else {
                ""
            }
        );
        out.push(workload(
            grid.suite,
            name(grid, &regime),
            params,
            Unit::MItemsPerSec,
            o.plan(o.items),
            v.entries,
        ));
    }
}
