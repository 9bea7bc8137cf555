//! How busy the rest of the machine was during a round, from `/proc/stat`
//! (all CPUs) minus `/proc/self/stat` (this process, every thread) and
//! the stat of each child process it ran a contender in ([`adopt`]).

use std::fs;
use std::sync::Mutex;

/// The child processes whose CPU time counts as this process's own.
static ADOPTED: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Counts child process `pid`'s CPU time as this process's own from now
/// on: a contender running in a binary of its own (`isolated`) is not
/// another process's load.
pub fn adopt(pid: u32) {
    ADOPTED.lock().unwrap_or_else(|e| e.into_inner()).push(pid);
}

/// User + system ticks of process `stat` (the text of a `/proc/PID/stat`).
fn cpu_ticks(stat: &str) -> Option<u64> {
    // Fields after the `(comm)`, which may hold spaces: utime and stime
    // are fields 14 and 15, so the 12th and 13th after the `)`.
    let rest = &stat[stat.rfind(')')? + 1..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
}

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
        let mut ours = cpu_ticks(&fs::read_to_string("/proc/self/stat").ok()?)?;
        for pid in ADOPTED.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            // A child that has ended reads as nothing (its time is gone
            // from both samples' view only once it is reaped, at the end).
            let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            ours += cpu_ticks(&stat).unwrap_or(0);
        }
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
