//! How busy the rest of the machine was during a round, from `/proc/stat`
//! (all CPUs) minus `/proc/self/stat` (this process, every thread).

use std::fs;

/// CPU time counters at one instant, in clock ticks.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    /// Ticks all CPUs spent busy (not idle, not waiting for I/O).
    busy: u64,
    /// Ticks of all CPUs, busy or not.
    total: u64,
    /// Ticks this process spent on a CPU (user + system).
    ours: u64,
}

impl Sample {
    /// Reads the counters; `None` where `/proc` is not there.
    pub fn now() -> Option<Sample> {
        let stat = fs::read_to_string("/proc/stat").ok()?;
        let cpu: Vec<u64> = stat
            .lines()
            .next()?
            .split_whitespace()
            .skip(1)
            .filter_map(|f| f.parse().ok())
            .collect();
        let total: u64 = cpu.iter().take(8).sum();
        let idle = cpu.get(3)? + cpu.get(4).unwrap_or(&0);
        let me = fs::read_to_string("/proc/self/stat").ok()?;
        // Fields after the `(comm)`, which may hold spaces: utime and stime
        // are fields 14 and 15, so the 12th and 13th after the `)`.
        let rest = &me[me.rfind(')')? + 1..];
        let f: Vec<&str> = rest.split_whitespace().collect();
        let ours = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
        Some(Sample {
            busy: total - idle,
            total,
            ours,
        })
    }

    /// Cores' worth of CPU that other processes used between `self` and
    /// `later` (0 = the machine was ours alone; 2 = two cores' worth).
    /// Ticks are 10 ms, so rounds shorter than a few ticks read coarsely.
    pub fn others_until(&self, later: &Sample, cores: usize) -> f64 {
        let total = later.total.saturating_sub(self.total);
        if total == 0 {
            return 0.0;
        }
        let busy = later.busy.saturating_sub(self.busy);
        let ours = later.ours.saturating_sub(self.ours);
        let others = busy.saturating_sub(ours);
        others as f64 / (total as f64 / cores as f64)
    }
}
