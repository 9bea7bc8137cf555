//! The SPSC regime grid (`--suite regimes`, not in `all`): hotq-spsc, rtrb,
//! ringbuf and omango through their own try calls, in every cell of work per item
//! on each side × the caller's wait loop × capacity. 144 workloads of
//! four rings: give it time (`--time 900 --rounds 6`, about 16 minutes
//! here).

use crate::channel::TryChannel;
use crate::cli::Options;
use crate::contenders::{self, TryVisitor};
use crate::isolated;
use crate::results::Unit;
use crate::rounds::{Entry, Pending, workload};
use crate::workloads::regime::{Regime, WaitLoop};

/// The suite's name in the report.
pub const SUITE: &str = "SPSC regimes";

/// Steps of work per item on each side.
pub const WORK: [u32; 4] = [0, 1, 4, 16];

/// The capacities.
pub const CAPACITIES: [usize; 3] = [64, 1024, 65536];

/// The workload name of cell `r`.
pub fn name(r: &Regime) -> String {
    format!(
        "regime cap {}, {}, work {}/{}",
        r.capacity,
        r.wait.label(),
        r.producer_work,
        r.consumer_work
    )
}

/// Every cell of the grid, in the order of the tables.
pub fn cells() -> Vec<Regime> {
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
                    });
                }
            }
        }
    }
    v
}

/// The suite's workloads, into `out`.
pub fn suite(o: &Options, out: &mut Vec<Pending>) {
    struct Cell {
        regime: Regime,
        entries: Vec<Entry>,
    }
    impl TryVisitor for Cell {
        fn visit<C: TryChannel>(&mut self) {
            let r = self.regime;
            self.entries
                .push(Entry::new(C::NAME, C::KIND, move |items| {
                    isolated::regime::<C>(items, r).into()
                }));
        }
    }
    for regime in cells() {
        let mut v = Cell {
            regime,
            entries: Vec::new(),
        };
        contenders::each_try_spsc(&mut v);
        let params = format!(
            "1 producer, 1 consumer, u64 items one at a time through each ring's own try calls, capacity {}; {} steps of work before each send, {} after each receive; on a failed try: {}",
            regime.capacity,
            regime.producer_work,
            regime.consumer_work,
            regime.wait.label()
        );
        out.push(workload(
            SUITE,
            name(&regime),
            params,
            Unit::MItemsPerSec,
            o.plan(o.items),
            v.entries,
        ));
    }
}
