//! Context switches per 1M events of each disruptor-suite contender in the
//! 1P-3C topologies (and the others with `all`): do the crossbeam-channel
//! arcs park where the disruptors spin? Counts, not timings, so they hold
//! on a busy machine (the M/s column does not).
//!
//! ```sh
//! cargo run --release -p hotq-benches --example topology_switches -- 1000000 65536
//! ```
//!
//! Arguments: events per run (default 1,000,000), ring (and channel) size
//! (default the report's 65,536), runs per cell (default 3, the median
//! run by throughput is shown), and `all` to add unicast and sequencer.
//! Per 1M events: `handlers vol/invol` sums the three consumer threads
//! (each read as its thread ends, so from spawn to drain), `producer
//! vol/invol` the publishing thread from its start to its shutdown.
//! Linux counts a `yield_now` that gave the core away as involuntary (the
//! thread stayed runnable); a park or a sleep as voluntary.
use hotq_benches::sequenced::{self, Counted, Ring, RingVisitor, Switches, Topology};

struct Row {
    topology: Topology,
    events: u64,
    size: usize,
    runs: usize,
}

fn sum(s: &[Option<Switches>]) -> Option<Switches> {
    s.iter().try_fold(Switches::default(), |acc, x| {
        x.map(|x| Switches {
            voluntary: acc.voluntary + x.voluntary,
            involuntary: acc.involuntary + x.involuntary,
        })
    })
}

impl RingVisitor for Row {
    fn visit<R: Ring>(&mut self) {
        let mut runs: Vec<Counted> = (0..self.runs)
            .map(|_| sequenced::counted::<R>(self.topology, self.events, self.size))
            .collect();
        runs.sort_by(|a, b| a.throughput.total_cmp(&b.throughput));
        let c = &runs[runs.len() / 2];
        let per_m = |n: u64| n as f64 * 1e6 / c.events as f64;
        let cell = |s: Option<Switches>| match s {
            Some(s) => format!("{:.0} / {:.0}", per_m(s.voluntary), per_m(s.involuntary)),
            None => "n/a".into(),
        };
        println!(
            "| {} | {} | {:.1} | {} | {} |",
            self.topology.name(),
            R::NAME,
            c.throughput,
            cell(sum(&c.handlers)),
            cell(sum(&c.producers)),
        );
    }
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, d: u64| a.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let (events, size, runs) = (
        num(0, 1_000_000),
        num(1, 65_536) as usize,
        num(2, 3) as usize,
    );
    let all = a.iter().any(|s| s == "all");
    println!(
        "{events} events per run, ring {size}, median of {runs} runs, {} cores; switches per 1M events, voluntary / involuntary\n",
        sequenced::cores()
    );
    println!("| topology | contender | M events/s | handlers vol / invol | producer vol / invol |");
    println!("|---|---|---|---|---|");
    for topology in Topology::ALL {
        let one_p_three_c = topology.producers() == 1 && topology.consumers() == 3;
        if one_p_three_c || all {
            sequenced::each_ring(&mut Row {
                topology,
                events,
                size,
                runs,
            });
        }
    }
}
