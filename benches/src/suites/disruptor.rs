//! The disruptor suite: the five LMAX topologies through every [`Ring`].

use super::probe;
use super::sizes::{RING, events};
use crate::cli::Options;
use crate::isolated;
use crate::results::Unit;
use crate::rounds::{Entry, Pending, workload};
use crate::sequenced::{self, Ring, RingVisitor, Topology};

/// The suite's workloads, into `out`.
pub fn suite(o: &Options, out: &mut Vec<Pending>) {
    struct Topo {
        topology: Topology,
        entries: Vec<Entry>,
    }
    impl RingVisitor for Topo {
        fn visit<R: Ring>(&mut self) {
            let t = self.topology;
            self.entries
                .push(Entry::new(R::NAME, R::KIND, move |events| {
                    isolated::topology::<R>(t, events, RING).into()
                }));
        }
    }
    for topology in Topology::ALL {
        let mut v = Topo {
            topology,
            entries: Vec::new(),
        };
        sequenced::each_ring(&mut v);
        v.entries.push(probe::probe(Unit::MItemsPerSec));
        let cores = sequenced::cores();
        let over = if sequenced::oversubscribed(topology, cores) {
            format!(
                " ({} threads on {cores} cores: oversubscribed, the goal reads the two sleeping rows)",
                topology.threads()
            )
        } else {
            String::new()
        };
        let params = format!(
            "events (u64), ring (and each channel) of {RING}, {} producer thread(s) and {} consumer threads, not pinned{over}; rows without a strategy in their name busy-spin{}",
            topology.producers(),
            topology.consumers(),
            probe::PROBE_WORDS
        );
        out.push(workload(
            "disruptor topologies",
            topology.name().into(),
            params,
            Unit::MItemsPerSec,
            o.plan(events(o.items)),
            v.entries,
        ));
    }
}
