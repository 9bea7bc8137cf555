//! How many rounds, how many items, how long a run may last.

use std::sync::Arc;
use std::time::Duration;

use super::schedule::Schedule;

/// How many rounds, how many items, how long a run may last.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Rounds per workload.
    pub rounds: usize,
    /// Rounds of a workload that decides a goal (see
    /// [`Pending::deciding_a_goal`](super::Pending::deciding_a_goal)), if other than `rounds`.
    pub goal_rounds: Option<usize>,
    /// Items per run, at most.
    pub items: u64,
    /// How long one run may last when there is no [`Schedule`]: a contender
    /// slower than this much work per budget gets fewer items, so slow
    /// baselines do not dominate the run time.
    pub budget: Duration,
    /// The run's shared time budget; it sets each workload's time per run
    /// instead of `budget`.
    pub schedule: Option<Arc<Schedule>>,
}
