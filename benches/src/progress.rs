//! What the report shows while it runs, on stderr: a progress bar with the
//! time left on a terminal (indicatif), nothing when stderr is a file or a
//! pipe (a log would fill with redrawn bars), and with `--verbose` one line
//! per round of each workload, as the report printed before it had a bar.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How much the report says on the terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verbosity {
    /// Errors only: no bar, no summary (`--quiet`).
    Quiet,
    /// The bar (on a terminal) and the summary at the end.
    Normal,
    /// Also a line per round of each workload (`--verbose`).
    Verbose,
}

/// The run's progress, counted in runs of a contender (calibration runs
/// included), which share the time budget about evenly: so the bar's rate
/// gives a fair estimate of the time left.
pub struct Progress {
    bar: ProgressBar,
    verbose: bool,
}

impl Progress {
    /// Progress shown as `verbosity` asks; the bar only where stderr is a
    /// terminal. Its length is set by [`Progress::start`].
    pub fn new(verbosity: Verbosity) -> Progress {
        let shown = verbosity != Verbosity::Quiet && std::io::stderr().is_terminal();
        let bar = if shown {
            ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed:>4} [{bar:30}] {percent:>3}% · about {eta} left · {wide_msg}",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        // Redrawn every second even while one long run holds the count
        // still, so the clock visibly moves.
        bar.enable_steady_tick(Duration::from_secs(1));
        Progress {
            bar,
            verbose: verbosity == Verbosity::Verbose,
        }
    }

    /// No output at all (the tests', and `--quiet`'s before the run).
    pub fn hidden() -> Progress {
        Progress {
            bar: ProgressBar::hidden(),
            verbose: false,
        }
    }

    /// The run has `runs` runs in all: the clock starts.
    pub fn start(&self, runs: u64) {
        self.bar.set_length(runs);
        self.bar.reset_eta();
    }

    /// `contender` of `workload` is about to run (`round` counts from 0;
    /// `None` while it is being calibrated).
    pub fn running(&self, workload: &str, round: Option<(usize, usize)>, contender: &str) {
        let msg = match round {
            Some((r, rounds)) => format!("[{workload}] round {}/{rounds}: {contender}", r + 1),
            None => format!("[{workload}] calibrating {contender}"),
        };
        self.bar.set_message(msg);
    }

    /// A round of `workload` starts (a line of its own with `--verbose`).
    pub fn round(&self, workload: &str, round: usize, rounds: usize) {
        if self.verbose {
            let line = format!("[{workload}] round {}/{rounds}", round + 1);
            if self.bar.is_hidden() {
                eprintln!("{line}");
            } else {
                self.bar.println(line);
            }
        }
    }

    /// `n` more runs done.
    pub fn done(&self, n: u64) {
        self.bar.inc(n);
    }

    /// The rounds are over: the bar goes, leaving the terminal clean for
    /// the summary.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
