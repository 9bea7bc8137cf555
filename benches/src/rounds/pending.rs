//! A workload set up by a suite and not yet run.

use super::entry::Entry;
use super::plan::Plan;
use super::schedule::CALIBRATION_RUNS;
use crate::results::Unit;

/// A workload set up and not yet run: its contenders and its plan. The
/// suites make one per workload; [`run`](super::run()) runs them all together.
pub struct Pending {
    pub(super) suite: &'static str,
    pub(super) name: String,
    pub(super) params: String,
    pub(super) unit: Unit,
    pub(super) plan: Plan,
    pub(super) entries: Vec<Entry>,
    /// Rounds this workload gets (`plan.goal_rounds` if it decides a goal).
    pub(super) rounds: usize,
}

impl Pending {
    /// The workload's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The same workload, given the rounds of one that decides a goal
    /// (`plan.goal_rounds`, where set). Which workloads decide a goal is
    /// the report's to say; the caller asks it (the scheduler does not
    /// read the report).
    pub fn deciding_a_goal(mut self) -> Pending {
        if let Some(g) = self.plan.goal_rounds {
            self.rounds = g;
        }
        self
    }

    /// Its contenders that the schedule counts (probes are not).
    pub(super) fn counted(&self) -> u64 {
        self.entries.iter().filter(|e| e.probe.is_none()).count() as u64
    }

    /// Its slots: runs counted in the schedule.
    pub(super) fn slots(&self) -> u64 {
        self.counted() * (self.rounds as u64 + CALIBRATION_RUNS)
    }
}

/// A workload of `entries`, to be run by [`run`](super::run()) for `plan.rounds` rounds
/// (see [`Pending::deciding_a_goal`] for `plan.goal_rounds`).
pub fn workload(
    suite: &'static str,
    name: String,
    params: String,
    unit: Unit,
    plan: Plan,
    entries: Vec<Entry>,
) -> Pending {
    Pending {
        suite,
        name,
        params,
        unit,
        rounds: plan.rounds,
        plan,
        entries,
    }
}
