//! One contender of a workload, as the scheduler runs it: a name, a kind
//! and a run of so many items.

use std::time::Duration;

use super::plan::Plan;
use super::schedule::MIN_RUN;
use crate::channel::Kind;
use crate::results::Measured;

/// One contender of a workload: its name and how to run it once with a
/// given number of items.
pub struct Entry {
    /// The row name.
    pub name: String,
    /// Ours, peer, baseline or limit.
    pub kind: Kind,
    /// One run of that many items (or round trips, or events).
    pub run: Box<dyn FnMut(u64) -> Measured>,
    /// For a mode probe (see [`Entry::probe`]): the most items one of its
    /// runs gets, in place of the workload's.
    pub probe: Option<u64>,
}

impl Entry {
    /// An entry from a name, a kind and a run.
    pub fn new(
        name: impl Into<String>,
        kind: Kind,
        run: impl FnMut(u64) -> Measured + 'static,
    ) -> Entry {
        Entry {
            name: name.into(),
            kind,
            run: Box::new(run),
            probe: None,
        }
    }

    /// A short run beside a workload's contenders, up to `max_items` items
    /// of its own: each of its runs is planned at [`MIN_RUN`] (or the
    /// workload's time per run, if less), whatever the workload's share of
    /// the budget, and it is not counted in the schedule's slots (the time
    /// it takes comes out of the time left for the workloads after it).
    /// The floor of a workload whose floor is not a contender of its own
    /// shape (see `suites::probe`).
    pub fn probe(
        name: impl Into<String>,
        kind: Kind,
        max_items: u64,
        run: impl FnMut(u64) -> Measured + 'static,
    ) -> Entry {
        Entry {
            probe: Some(max_items),
            ..Entry::new(name, kind, run)
        }
    }

    /// The time one run of this entry is planned to last, in a workload of
    /// `budget` per run.
    pub(super) fn budget(&self, budget: Duration) -> Duration {
        match self.probe {
            Some(_) => budget.min(MIN_RUN),
            None => budget,
        }
    }

    /// `plan` with this entry's item ceiling.
    pub(super) fn plan(&self, plan: &Plan) -> Plan {
        Plan {
            items: self.probe.unwrap_or(plan.items),
            ..plan.clone()
        }
    }
}
