//! The performance goals, read off the workloads of this run: each
//! a per-round ratio (or a ratio of medians, where the two figures come
//! from different workloads) against its target, decided by the 95 %
//! bootstrap interval of the median ratio: met when the whole interval is
//! on the goal's side, missed when it is all on the other, undecided when
//! it straddles the target. The machine has modes (a core pair that keeps
//! pace, one that falls behind), read off each round's floor by
//! [`crate::report::floor::classify`]: a goal's verdict and interval are those of all its
//! rounds (interleaved over the whole run, so they sample its modes as the
//! machine had them), undecided where one mode with [`MIN_ROUNDS`] rounds
//! meets it and another misses it; each mode's own interval and verdict
//! are kept beside. Goals, not tests: the report states where we stand,
//! nothing fails on them.
//!
//! - [`catalogue`]: the goals, and which workloads decide one (the
//!   disruptor, channels and waiting suites' in files of their own);
//! - [`goal`]: one goal, its modes and its flags;
//! - [`evidence`]: what a goal is read from, and [`lookup`]: reading it off
//!   the workloads;
//! - [`verdict`](mod@verdict): met, missed or undecided.

pub mod catalogue;
mod channel_goals;
mod disruptor_goals;
pub mod evidence;
pub mod goal;
pub mod lookup;
pub mod regime_goals;
#[cfg(test)]
pub(crate) mod tests;
pub mod verdict;
mod waiting_goals;

pub use catalogue::{decides_a_goal, evaluate, goal_workloads};
pub use evidence::{Evidence, Measure, RoundModes};
pub use goal::{BUSY, ByMode, Goal, decide};
pub use verdict::{MIN_ROUNDS, Verdict, verdict};
