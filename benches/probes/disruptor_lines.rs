//! One disruptor-suite contender in one topology, nothing else in the
//! process, for counting what the threads exchange per event: the
//! disruptor suite's counterpart of `spsc_lines`, for the coherence model
//! (`benches/probes/coherence/coherence.c`) or `perf stat`.
//!
//! ```sh
//! cargo build --release -p hotq-benches --example disruptor_lines
//! target/release/examples/disruptor_lines hotq-disruptor unicast 1000000
//! qemu-x86_64 -d plugin -plugin coherence.so \
//!     target/release/examples/disruptor_lines disruptor unicast 200000 1024
//! ```
//!
//! Arguments: the contender's row name (`hotq-disruptor`, `disruptor`,
//! the sleeping rows, `crossbeam-channel arcs`), the topology (`unicast`,
//! `pipeline`, `multicast`, `diamond`, `sequencer`), the events (default
//! 1,000,000) and the ring size (default the report's 65,536). Output, one
//! line: `ring=… topology=… events=… size=… mevents_per_s=…`. Each handler
//! checks every event arrives once and in order (the report's tally).

use hotq_benches::sequenced::{self, Ring, RingVisitor, Topology};

struct Run {
    ring: String,
    topology: Topology,
    events: u64,
    size: usize,
    throughput: Option<f64>,
}

impl RingVisitor for Run {
    fn visit<R: Ring>(&mut self) {
        if R::NAME == self.ring {
            self.throughput = Some(sequenced::throughput::<R>(
                self.topology,
                self.events,
                self.size,
            ));
        }
    }
}

fn topology(name: &str) -> Option<Topology> {
    [
        Topology::Unicast,
        Topology::Pipeline,
        Topology::Multicast,
        Topology::Diamond,
        Topology::Sequencer,
    ]
    .into_iter()
    .find(|t| t.name().split_whitespace().next() == Some(name))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: disruptor_lines RING TOPOLOGY [EVENTS] [SIZE]  (RING: a disruptor-suite row \
                 name; TOPOLOGY: unicast, pipeline, multicast, diamond, sequencer)";
    let (Some(ring), Some(t)) = (args.first(), args.get(1).and_then(|t| topology(t))) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let number = |i: usize, default: u64| match args.get(i).map(|n| n.parse::<u64>()) {
        None => default,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("disruptor_lines: EVENTS and SIZE are positive integers\n{usage}");
            std::process::exit(2);
        }
    };
    let mut run = Run {
        ring: ring.clone(),
        topology: t,
        events: number(2, 1_000_000),
        size: number(3, 65_536) as usize,
        throughput: None,
    };
    sequenced::each_ring(&mut run);
    let Some(throughput) = run.throughput else {
        eprintln!("disruptor_lines: `{ring}` is not a contender of the disruptor suite\n{usage}");
        std::process::exit(2);
    };
    println!(
        "ring={ring} topology={} events={} size={} mevents_per_s={throughput:.2}",
        args[1], run.events, run.size
    );
}
