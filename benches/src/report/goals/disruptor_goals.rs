//! The disruptor suite's goals for the topologies other than unicast.

use super::goal::{Goal, goal};
use super::lookup::{per_round, workload};
use crate::results::Workload;
use crate::sequenced::{self, Topology};

/// The oversubscribable topologies' goals (issue 15 §4): hotq-disruptor
/// at least as fast as the `disruptor` crate. With at least as many
/// `cores` as the topology has threads, the busy-spin rows (the LMAX
/// ones); with fewer, each crate's strategy that gives the core away
/// (`Sleeping` and the crate's `Sleep`, its only one that does, with the
/// same 10 µs nap, so that the two rows differ by the ring alone), as a
/// user with more threads than cores would run them: busy-spinning
/// handlers there measure the scheduler's tick as much as the ring (see
/// [`crate::sequenced`]).
pub(super) fn topologies(ws: &[Workload], cores: usize, goals: &mut Vec<Goal>) {
    use crate::sequenced::{
        DisruptorCrate, DisruptorCrateSleep, HotqDisruptor, HotqDisruptorSleeping, Ring,
    };
    for t in Topology::ALL {
        if t == Topology::Unicast {
            continue;
        }
        let Some(w) = workload(ws, t.name()) else {
            continue;
        };
        let name = t.name();
        let (what, ours, peer) = if sequenced::oversubscribed(t, cores) {
            (
                format!(
                    "{name}: {} ÷ {}, per round ({} threads on {cores} cores)",
                    HotqDisruptorSleeping::NAME,
                    DisruptorCrateSleep::NAME,
                    t.threads()
                ),
                HotqDisruptorSleeping::NAME,
                DisruptorCrateSleep::NAME,
            )
        } else {
            (
                format!("{name}: hotq-disruptor ÷ disruptor, per round"),
                HotqDisruptor::NAME,
                DisruptorCrate::NAME,
            )
        };
        goals.push(goal(what, true, 1.0, per_round(w, ours, peer)));
    }
}
