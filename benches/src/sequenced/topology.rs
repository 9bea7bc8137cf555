//! The five topologies of the LMAX paper, and when one has more threads
//! than the machine has cores.

use std::thread;

/// The five topologies of the LMAX paper.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topology {
    /// One producer, one consumer.
    Unicast,
    /// One producer, three consumers in series: 0, then 1, then 2.
    Pipeline,
    /// One producer, three consumers in parallel, each seeing every event.
    Multicast,
    /// One producer; consumers 0 and 1 in parallel, then 2 after both.
    Diamond,
    /// Three producers, one consumer.
    Sequencer,
}

impl Topology {
    /// Every topology, in the paper's order.
    pub const ALL: [Topology; 5] = [
        Topology::Unicast,
        Topology::Pipeline,
        Topology::Multicast,
        Topology::Diamond,
        Topology::Sequencer,
    ];

    /// The name the report uses.
    pub fn name(self) -> &'static str {
        match self {
            Topology::Unicast => "unicast 1P-1C",
            Topology::Pipeline => "pipeline 1P-3C",
            Topology::Multicast => "multicast 1P-3C",
            Topology::Diamond => "diamond 1P-3C",
            Topology::Sequencer => "sequencer 3P-1C",
        }
    }

    /// How many threads publish.
    pub fn producers(self) -> usize {
        match self {
            Topology::Sequencer => 3,
            _ => 1,
        }
    }

    /// The consumers, stage by stage: a stage's handlers see an event only
    /// after every handler of the stage before has.
    pub fn stages(self) -> &'static [&'static [usize]] {
        match self {
            Topology::Unicast | Topology::Sequencer => &[&[0]],
            Topology::Pipeline => &[&[0], &[1], &[2]],
            Topology::Multicast => &[&[0, 1, 2]],
            Topology::Diamond => &[&[0, 1], &[2]],
        }
    }

    /// How many consumers (handlers) the topology has.
    pub fn consumers(self) -> usize {
        self.stages().iter().map(|s| s.len()).sum()
    }

    /// How many threads it runs: producers and consumers.
    pub fn threads(self) -> usize {
        self.producers() + self.consumers()
    }
}

/// Whether `topology` has more threads than `cores`: then its goal reads
/// the rows that give the core away (see the module docs).
pub fn oversubscribed(topology: Topology, cores: usize) -> bool {
    topology.threads() > cores
}

/// The cores this process may run on.
pub fn cores() -> usize {
    thread::available_parallelism().map_or(1, |n| n.get())
}
