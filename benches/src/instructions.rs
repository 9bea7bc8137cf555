//! Instructions per send+receive on the try path, counted by callgrind:
//! the contender's own binary (`isolated`) runs its `hot_path ROUNDS`
//! request (`workloads::hot_path::one`) under `valgrind --tool=callgrind`,
//! with [`ROUNDS`] rounds and with none, and the difference is divided by
//! the items. Deterministic, so unlike the throughput it reads the same on
//! a busy machine: the table beside the throughput that says when a try
//! path grew (issue 37: hotq-spsc's push+pop went from 35 to 44).
//!
//! In the contender's own binary, not the report's, for the reason the
//! throughput runs there (`isolated`): counted in the report's binary,
//! where every contender's loop is compiled beside the others, hotq-spsc's
//! push+pop read 46.0 and then 50.0 after an edit that added a contender
//! of another crate to the benches (2026-12-06, hotq-spsc unchanged); its
//! own binary read 46.0 both times. With `--in-process` the report's
//! binary counts, through its hidden `--hot-path NAME ROUNDS` mode.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::isolated;
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

/// Which binary runs the counted loop.
#[derive(Clone, Copy)]
pub enum Counter<'a> {
    /// Each contender's own, in this folder (`isolated`), asked with a
    /// `hot_path ROUNDS` line on its stdin.
    Contenders(&'a Path),
    /// This report binary (at this path), with `--hot-path NAME ROUNDS`.
    Report(&'a Path),
}

/// The instructions the counted loop of `name` executed with `rounds`
/// rounds, from callgrind's `Collected : N` line.
fn collected(counter: Counter, name: &str, rounds: u64) -> Result<u64, String> {
    let mut command = Command::new("valgrind");
    command.args(["--tool=callgrind", "--callgrind-out-file=/dev/null"]);
    let request = match counter {
        Counter::Contenders(dir) => {
            command
                .arg(dir.join(isolated::binary(name)))
                .arg("--no-pin");
            Some(isolated::Request::HotPath { rounds }.line())
        }
        Counter::Report(exe) => {
            command
                .arg(exe)
                .args(["--hot-path", name, &rounds.to_string()]);
            None
        }
    };
    let mut child = command
        .stdin(if request.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("valgrind: {e}"))?;
    if let Some(line) = request {
        // Dropped at the end of this block: the binary's loop ends when
        // its stdin closes.
        let mut stdin = child.stdin.take().expect("piped stdin");
        writeln!(stdin, "{line}").map_err(|e| format!("valgrind on {name}: {e}"))?;
    }
    let out = child
        .wait_with_output()
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

/// Instructions per send+receive pair of `name`'s hot path.
pub fn per_pair(counter: Counter, name: &str) -> Result<f64, String> {
    let (all, setup) = (
        collected(counter, name, ROUNDS)?,
        collected(counter, name, 0)?,
    );
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
