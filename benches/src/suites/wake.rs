//! The wake-up latency and idle CPU workloads of a suite (the `waiting`
//! suite's blocking queues, the `channels` suite's channels), one row per
//! contender a visitor is given.

use super::probe;
use crate::channel::{Channel, Shared};
use crate::cli::Options;
use crate::contenders::{ChannelVisitor, SharedVisitor};
use crate::isolated::{idle_cpu, wake_up_latency};
use crate::results::Unit;
use crate::rounds::{Entry, Pending, workload};
use crate::waiting::wake::{IDLE, PAUSE};

/// Wake-ups per round of the latency workload.
pub const WAKES: u64 = 100;

/// The rows of the two workloads here, one per contender a visitor is
/// given (the `waiting` suite's blocking queues, the `channels` suite's
/// channels): [`wake_up_latency`] and [`idle_cpu`].
#[derive(Default)]
pub struct Rows {
    latency: Vec<Entry>,
    idle: Vec<Entry>,
}

impl Rows {
    /// Adds `C`'s rows.
    pub fn add<C: Channel>(&mut self) {
        self.latency
            .push(Entry::new(C::NAME, C::KIND, wake_up_latency::<C>));
        self.idle.push(Entry::new(C::NAME, C::KIND, idle_cpu::<C>));
    }

    /// The two workloads of `suite`, named `{prefix}wake-up latency`
    /// and `{prefix}idle CPU` (workload names are unique in a report:
    /// goals find a workload by its name).
    pub fn workloads(mut self, suite: &'static str, prefix: &str, o: &Options) -> [Pending; 2] {
        self.latency.push(probe::probe(Unit::Nanos));
        self.idle.push(probe::probe(Unit::Nanos));
        [
            workload(
                suite,
                format!("{prefix}wake-up latency"),
                format!(
                    "a consumer blocked on an empty queue of 8, woken by one item after {PAUSE:?}: from the send's timestamp to the receive's return (median; timer calls included){}",
                    probe::PROBE_WORDS
                ),
                Unit::Nanos,
                o.plan(WAKES),
                self.latency,
            ),
            workload(
                suite,
                format!("{prefix}idle CPU"),
                format!(
                    "CPU time (ns) per second that a consumer blocked on an empty queue uses, from its thread's CPU clock, over {IDLE:?}{}",
                    probe::PROBE_WORDS
                ),
                Unit::Nanos,
                o.plan(1),
                self.idle,
            ),
        ]
    }
}

impl ChannelVisitor for Rows {
    fn visit<C: Channel>(&mut self) {
        self.add::<C>();
    }
}

impl SharedVisitor for Rows {
    fn visit<C: Shared>(&mut self) {
        self.add::<C>();
    }
}
