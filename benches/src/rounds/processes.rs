//! One report run's rounds, spread over fresh processes: the report runs
//! itself `--processes` times in a row as a worker (`--worker I`), each
//! with its share of the rounds and of the time, and adds up what they
//! wrote (`raw`). Each worker calibrates, allocates and lays out its heap
//! afresh and sees its own minutes of the machine, so the spread between
//! processes, which one process cannot show, is in the figures, and the
//! bootstrap resamples processes before rounds (`report::bootstrap`).
//!
//! Why: two consecutive one-process runs, each with tight intervals,
//! agreed on 25 of 37 verdicts (issue 37, 2026-12-05): what changes from
//! one process to the next was outside every interval.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::raw;
use crate::results::Workload;

/// The file a worker writes into its `--out` folder.
pub const ROUNDS_FILE: &str = "rounds.json";

/// The options a worker must not inherit from the report's command line
/// (with how many values each takes): the parent writes the documents,
/// and tells each worker its own folder and place.
const PARENT_ONLY: [(&str, usize); 5] = [
    ("--readme", 1),
    ("--docs", 1),
    ("--out", 1),
    ("--processes", 1),
    ("--worker", 1),
];

/// The command line of worker `i` of `n`: the report's own `args` (without
/// the program name), less what only the parent does, writing to `out`.
pub fn worker_args(args: &[String], i: usize, n: usize, out: &Path) -> Vec<String> {
    let mut kept = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match PARENT_ONLY.iter().find(|(name, _)| name == a) {
            Some((_, values)) => {
                for _ in 0..*values {
                    it.next();
                }
            }
            None => kept.push(a.clone()),
        }
    }
    kept.extend([
        "--worker".into(),
        i.to_string(),
        "--processes".into(),
        n.to_string(),
        "--out".into(),
        out.display().to_string(),
    ]);
    kept
}

/// Where worker `i` writes, under the report's folder `out`.
pub fn worker_out(out: &Path, i: usize) -> PathBuf {
    out.join("processes").join(i.to_string())
}

/// The report binary's path, for its workers. The `cargo build --bins`
/// that brings the contender binaries up to date relinks the report too
/// when an earlier build (a `cargo test` of one crate, with other
/// features) left it behind; Linux then names the running file
/// `PATH (deleted)`, and the workers run the new file at `PATH`, built from
/// the same sources as the contender binaries it checked. (The
/// instruction counts run it too, under callgrind: the running file's
/// `(deleted)` name made valgrind exit 127 for every queue.)
pub fn report_exe() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the report binary: {e}"))?;
    if exe.exists() {
        return Ok(exe);
    }
    let relinked = exe
        .to_str()
        .and_then(|p| p.strip_suffix(" (deleted)"))
        .map(PathBuf::from)
        .filter(|p| p.exists());
    relinked.ok_or_else(|| {
        format!(
            "the report binary {} is gone (rebuilt or removed while it ran): run it again",
            exe.display()
        )
    })
}

/// Runs `n` workers one after the other (the report's own binary, with
/// `args`, and `env` added to its environment) and returns their
/// workloads, each round marked with the process that ran it. `before(i)`
/// runs before worker `i` starts (the parent's word on the terminal).
pub fn run(
    args: &[String],
    env: &[(&str, PathBuf)],
    n: usize,
    out: &Path,
    mut before: impl FnMut(usize),
) -> Result<Vec<Workload>, String> {
    let exe = report_exe()?;
    let mut all: Option<Vec<Workload>> = None;
    for i in 0..n {
        let dir = worker_out(out, i);
        // A stale file from an earlier run must not pass for this one's.
        let _ = std::fs::remove_file(dir.join(ROUNDS_FILE));
        before(i);
        let status = Command::new(&exe)
            .args(worker_args(args, i, n, &dir))
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .status()
            .map_err(|e| format!("cannot start process {} of {n}: {e}", i + 1))?;
        if !status.success() {
            return Err(format!("process {} of {n} failed: {status}", i + 1));
        }
        let path = dir.join(ROUNDS_FILE);
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let ws = raw::from_json(&value, i)?;
        match &mut all {
            None => all = Some(ws),
            Some(all) => raw::append(all, ws)?,
        }
    }
    all.ok_or_else(|| "no process ran".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_gets_the_command_line_less_what_only_the_parent_does() {
        let args: Vec<String> =
            "--suite spsc --readme R.md --out /o --docs d.md --processes 3 --rounds 9"
                .split_whitespace()
                .map(String::from)
                .collect();
        let w = worker_args(&args, 1, 3, Path::new("/o/processes/1"));
        assert_eq!(
            w.join(" "),
            "--suite spsc --rounds 9 --worker 1 --processes 3 --out /o/processes/1"
        );
    }
}
