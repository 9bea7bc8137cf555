//! Instructions per send+receive on the try path, counted by callgrind:
//! the report runs its own binary's hidden `--hot-path NAME ROUNDS` mode
//! (`workloads::hot_path`) under `valgrind --tool=callgrind`, with
//! [`ROUNDS`] rounds and with none, and divides the difference by the
//! items. Deterministic, so unlike the throughput it reads the same on a
//! busy machine: the table beside the throughput that says when a try
//! path grew (issue 37: hotq-spsc's push+pop went from 35 to 44).

use std::path::Path;
use std::process::{Command, Stdio};

use crate::workloads::hot_path::CAPACITY;

/// Rounds of the counted run: 102,400 send+receive pairs.
pub const ROUNDS: u64 = 100;

/// The queues counted, in the table's order: the SPSC rings, the MPMC
/// queues, and the channels' blocking `send`/`recv` (and hotq-mpmc's
/// `try_send`/`try_recv`).
pub const COUNTED: [&str; 14] = [
    "hotq-spsc",
    "hotq-spsc stamped",
    "rtrb",
    "ringbuf",
    "omango",
    "hotq-mpmc",
    "ArrayQueue",
    "lfqueue",
    "concurrent-queue",
    "hotq-mpmc-channel-try",
    "hotq-mpmc-channel",
    "crossbeam-channel",
    "kanal",
    "flume",
];

/// Whether `valgrind` runs here.
pub fn available() -> bool {
    Command::new("valgrind")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The instructions `exe --hot-path name rounds` executed, from
/// callgrind's `Collected : N` line.
fn collected(exe: &Path, name: &str, rounds: u64) -> Result<u64, String> {
    let out = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(exe)
        .args(["--hot-path", name, &rounds.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .output()
        .map_err(|e| format!("valgrind: {e}"))?;
    if !out.status.success() {
        return Err(format!("valgrind on {name}: {}", out.status));
    }
    parse_collected(&String::from_utf8_lossy(&out.stderr))
        .ok_or_else(|| format!("valgrind on {name}: no `Collected` line"))
}

/// The count of callgrind's `==PID== Collected : N` line.
fn parse_collected(stderr: &str) -> Option<u64> {
    stderr
        .lines()
        .find_map(|l| l.split_once("Collected :").map(|(_, n)| n.trim()))
        .and_then(|n| n.parse().ok())
}

/// Instructions per send+receive pair of `name`'s hot path, in `exe`.
pub fn per_pair(exe: &Path, name: &str) -> Result<f64, String> {
    let (all, setup) = (collected(exe, name, ROUNDS)?, collected(exe, name, 0)?);
    Ok(all.saturating_sub(setup) as f64 / (ROUNDS * CAPACITY as u64) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_is_read_off_callgrinds_summary() {
        let stderr = "==7== Callgrind, a call-graph generating cache profiler\n\
                      ==7== Events    : Ir\n==7== Collected : 9338530\n==7==\n==7== I   refs:      9,338,530\n";
        assert_eq!(parse_collected(stderr), Some(9_338_530));
        assert_eq!(parse_collected("==7== no summary\n"), None);
    }
}
