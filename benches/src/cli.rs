//! The report's command line.

use std::path::PathBuf;
use std::time::Duration;

use std::sync::Arc;

use crate::progress::Verbosity;
use crate::rounds::{Plan, Schedule};

/// The examples' positional argument `i` (1 for the first) as a number,
/// or `default` when it is absent; a malformed one stops the example.
pub fn positional(i: usize, default: u64) -> u64 {
    std::env::args()
        .nth(i)
        .map_or(default, |s| s.parse().expect("a positive integer"))
}

/// Which workloads to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suite {
    /// SPSC throughput and the round trips.
    Spsc,
    /// MPMC throughput.
    Mpmc,
    /// The disruptor topologies.
    Disruptor,
    /// Blocking and async waits (`waiting/`).
    Waiting,
    /// Channels in their own blocking calls (`channels.rs`).
    Channels,
    /// The SPSC regime grid (`regimes.rs`): only when asked for, it is
    /// not part of `all` (144 workloads).
    Regimes,
    /// The SPSC batch regime grid (`regimes.rs`), as [`Suite::Regimes`].
    BatchRegimes,
    /// The MPMC regime grid (`regimes.rs`), as [`Suite::Regimes`].
    MpmcRegimes,
    /// All of them but the regime grids.
    All,
}

/// What the user asked for.
#[derive(Debug, Clone)]
pub struct Options {
    /// Which workloads.
    pub suite: Suite,
    /// Rounds per workload.
    pub rounds: usize,
    /// Rounds of the workloads that decide a goal (`None`: `rounds`).
    pub goal_rounds: Option<usize>,
    /// Items per round of a throughput workload (fewer for the slow shapes,
    /// see the header).
    pub items: u64,
    /// A smoke run: few rounds, few items.
    pub quick: bool,
    /// Where report.md, report.json, README-tables.md and the plots go.
    pub out: PathBuf,
    /// A README whose generated summary (between the `hotq-summary`
    /// markers) to replace with this run's.
    pub readme: Option<PathBuf>,
    /// A document whose generated tables (between the `hotq-report`
    /// markers) to replace with this run's, e.g. docs/performance.md.
    pub docs: Option<PathBuf>,
    /// How much to say on the terminal.
    pub verbosity: Verbosity,
    /// Pin threads to cores where there are enough.
    pub pin: bool,
    /// Run the contenders of the throughput rows (all but the selects) and
    /// of the round trips in the report's own binary instead of each in
    /// its own (`isolated`).
    pub in_process: bool,
    /// The time the whole run's rounds share (`None` for `--quick`, whose
    /// runs get a fixed 0.02 s each).
    pub time: Option<Duration>,
    /// The shared budget of this run, when there is one.
    pub schedule: Option<Arc<Schedule>>,
    /// Two report.json files to compare instead of running.
    pub compare: Option<(PathBuf, PathBuf)>,
    /// How many fresh processes the rounds are spread over (see
    /// `rounds::processes`).
    pub processes: usize,
    /// Set in a worker process: which of the `processes` it is. A worker
    /// runs its share of the rounds and time and writes only
    /// `rounds.json`.
    pub worker: Option<usize>,
    /// Internal: run one queue's hot path (`NAME ROUNDS`) and exit, for
    /// callgrind (`instructions`).
    pub hot_path: Option<(String, u64)>,
}

/// Rounds per workload by default (see the README's "How to read the
/// report" for the measurement that chose it).
pub const DEFAULT_ROUNDS: usize = 25;

/// Rounds of the workloads that decide a goal, by default (unless
/// `--rounds` or `--quick` is given): in one loaded default run each
/// (2 cores, load average 14–18), 50 instead of 25 in the same 150 s
/// narrowed the goals' 95 % intervals from 2.31× to 1.42× (geometric mean
/// of hi ÷ lo over 35 goals; 1.64× to 1.16× for the 8 with a floor) and
/// took 226 s against 195 s; 75 took 303 s and narrowed nothing more.
pub const DEFAULT_GOAL_ROUNDS: usize = 50;

/// Items per run at most, by default: high enough that the time budget,
/// not this cap, sets a run's length for every contender.
pub const DEFAULT_ITEMS: u64 = 50_000_000;

/// The time every default run's rounds share, calibration included: the
/// whole run, with thread starts, plots and the slow disruptor shutdowns,
/// stays under 4 minutes on 2 cores.
pub const DEFAULT_TIME: Duration = Duration::from_secs(150);

/// Processes a default run's rounds are spread over. Three: with one,
/// two consecutive runs agreed on 25 of 37 verdicts (the spread between
/// processes was outside every interval); each process costs its own
/// calibration, about a tenth of its share of the time.
pub const DEFAULT_PROCESSES: usize = 3;

/// The usage text.
pub const USAGE: &str = "\
usage: report [--suite spsc|mpmc|disruptor|waiting|channels|all|regimes|
                      batch-regimes|mpmc-regimes] [--rounds N]
              [--goal-rounds N] [--items N] [--time S] [--quick] [--out DIR]
              [--readme README.md] [--docs docs/performance.md] [--no-pin]
              [--processes N] [--in-process] [--quiet | --verbose]
       report --compare A/report.json B/report.json

  Prints a progress bar with the time left on stderr (on a terminal only),
  then a short summary of the goals' verdicts; the full tables go to
  DIR/report.md (with report.json, README-tables.md and the SVG plots).

  --suite    which workloads (default all; the regime grids of 144 workloads
             each run only when named: `regimes` (SPSC, single items),
             `batch-regimes` (SPSC, batches of 16), `mpmc-regimes`; give
             each --time 900 --rounds 6)
  --rounds   interleaved rounds per workload (default 25; --quick: 2)
  --goal-rounds  rounds of the workloads that decide a goal (default 50, or
             --rounds when given; --quick: 2); they share the same --time
  --items    items per run of a throughput workload at most (default 50000000;
             --quick: 20000); a run gets fewer when its share of --time ends first
  --time     seconds the whole run's rounds share, calibration included (default
             150); each workload gets the time left divided by the runs left
  --quick    a smoke run of every workload and contender, in seconds
  --out      where the report goes (default target/hotq-report)
  --readme   also write the summary between this file's hotq-summary markers
  --docs     also write the full tables between this file's hotq-report markers
  --no-pin   leave every thread to the scheduler
  --processes  fresh processes the rounds and the time are spread over, one
             after the other (default 3; --quick: 1); the intervals resample
             processes, then rounds, so they hold from one run to the next
  --in-process  run the contenders of the throughput rows (every suite's
             but the selects) and of the round trips in the report's binary
             instead of each in its own (`hotq-contender-*`, built at the
             start with cargo, or found in $HOTQ_CONTENDER_DIR): the figures
             then move with what else the report links
  --quiet    print nothing but errors (no bar, no summary); the files are
             written as usual and the exit status says whether they were
  --verbose  also print a line per round of each workload
  --compare  print two runs' verdicts side by side; exit 1 if any goal's differs
  HOTQ_CORES=0,2,4,1,3,5  pin to these cores, in this order (the first two
             take the two-thread workloads)";

impl Options {
    /// Parses `args` (without the program name).
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Options, String> {
        let mut o = Options {
            suite: Suite::All,
            rounds: 0,
            goal_rounds: None,
            items: 0,
            quick: false,
            out: default_out(),
            readme: None,
            docs: None,
            verbosity: Verbosity::Normal,
            pin: true,
            in_process: false,
            time: None,
            schedule: None,
            compare: None,
            processes: 0,
            worker: None,
            hot_path: None,
        };
        let mut time = None;
        let mut args = args.into_iter();
        while let Some(a) = args.next() {
            let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
            match a.as_str() {
                "--suite" => {
                    o.suite = match value("--suite")?.as_str() {
                        "spsc" => Suite::Spsc,
                        "mpmc" => Suite::Mpmc,
                        "disruptor" => Suite::Disruptor,
                        "waiting" => Suite::Waiting,
                        "channels" => Suite::Channels,
                        "regimes" => Suite::Regimes,
                        "batch-regimes" => Suite::BatchRegimes,
                        "mpmc-regimes" => Suite::MpmcRegimes,
                        "all" => Suite::All,
                        s => return Err(format!("unknown suite `{s}`")),
                    }
                }
                "--rounds" => o.rounds = number(&value("--rounds")?, "--rounds")? as usize,
                "--goal-rounds" => {
                    o.goal_rounds =
                        Some(number(&value("--goal-rounds")?, "--goal-rounds")? as usize)
                }
                "--items" => o.items = number(&value("--items")?, "--items")?,
                "--quick" => o.quick = true,
                "--out" => o.out = value("--out")?.into(),
                "--readme" => o.readme = Some(value("--readme")?.into()),
                "--docs" => o.docs = Some(value("--docs")?.into()),
                "-q" | "--quiet" => o.verbosity = Verbosity::Quiet,
                "-v" | "--verbose" => o.verbosity = Verbosity::Verbose,
                "--time" => time = Some(Duration::from_secs(number(&value("--time")?, "--time")?)),
                "--no-pin" => o.pin = false,
                "--in-process" => o.in_process = true,
                "--processes" => {
                    o.processes = number(&value("--processes")?, "--processes")? as usize
                }
                // Internal: what callgrind runs (`instructions`).
                "--hot-path" => {
                    let name = value("--hot-path")?;
                    let rounds = value("--hot-path")?;
                    let rounds = rounds
                        .parse()
                        .map_err(|_| format!("--hot-path rounds `{rounds}`"))?;
                    o.hot_path = Some((name, rounds));
                }
                // Internal: how the report starts its own processes.
                "--worker" => {
                    let v = value("--worker")?;
                    o.worker = Some(v.parse().map_err(|_| format!("--worker `{v}`"))?)
                }
                "--compare" => {
                    let a = value("--compare")?;
                    let b = args.next().ok_or("--compare needs two report.json files")?;
                    o.compare = Some((a.into(), b.into()));
                }
                // `cargo bench` and test harnesses may pass this one.
                "--bench" => {}
                "-h" | "--help" => return Err(String::new()),
                other => return Err(format!("unknown argument `{other}`")),
            }
        }
        if o.rounds == 0 {
            o.rounds = if o.quick { 2 } else { DEFAULT_ROUNDS };
            if !o.quick && o.goal_rounds.is_none() {
                o.goal_rounds = Some(DEFAULT_GOAL_ROUNDS);
            }
        }
        if o.items == 0 {
            o.items = if o.quick { 20_000 } else { DEFAULT_ITEMS };
        }
        o.time = match (time, o.quick) {
            (Some(t), _) => Some(t),
            (None, true) => None,
            (None, false) => Some(DEFAULT_TIME),
        };
        if o.processes == 0 {
            o.processes = if o.quick { 1 } else { DEFAULT_PROCESSES };
        }
        // A worker runs its share: the rounds (rounded up, so every
        // process runs at least one) and the time.
        if let (Some(i), n) = (o.worker, o.processes) {
            if i >= n {
                return Err(format!("--worker {i} of {n} processes"));
            }
            o.rounds = o.rounds.div_ceil(n);
            o.goal_rounds = o.goal_rounds.map(|g| g.div_ceil(n));
            o.time = o.time.map(|t| t / n as u32);
        }
        o.schedule = o.time.map(Schedule::new);
        Ok(o)
    }

    /// How long one run of one contender may take before it gets fewer
    /// items than the workload's, without a shared budget (`--quick`):
    /// 0.02 s.
    pub fn budget(&self) -> Duration {
        Duration::from_millis(20)
    }

    /// The run's time budget, in words (for the header).
    pub fn budget_words(&self) -> String {
        match self.time {
            Some(t) => format!(
                "{} s for the whole run, calibration included, shared by every contender's run of every round: each workload gets the time left divided by the runs left; a contender too slow to move the workload's items in its share gets fewer (the `items` column; 1,000 at least)",
                t.as_secs()
            ),
            None => format!(
                "{:.2} s per run: a contender too slow to move the workload's items in it gets fewer (the `items` column; 1,000 at least)",
                self.budget().as_secs_f64()
            ),
        }
    }

    /// The plan of a workload of up to `items` items per run.
    pub fn plan(&self, items: u64) -> Plan {
        Plan {
            rounds: self.rounds,
            goal_rounds: self.goal_rounds.filter(|&g| g != self.rounds),
            items,
            budget: self.budget(),
            schedule: self.schedule.clone(),
        }
    }

    /// Whether `suite` is selected.
    pub fn runs(&self, suite: Suite) -> bool {
        let grid = matches!(
            suite,
            Suite::Regimes | Suite::BatchRegimes | Suite::MpmcRegimes
        );
        self.suite == suite || (self.suite == Suite::All && !grid)
    }
}

fn number(s: &str, name: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("{name} needs a positive whole number, not `{s}`")),
    }
}

/// `target/hotq-report` of the workspace this was built in (where `cargo
/// run` puts it), or of the current directory.
fn default_out() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../target")));
    target.join("hotq-report")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Options, String> {
        Options::parse(s.split_whitespace().map(String::from))
    }

    #[test]
    fn defaults_and_flags() {
        let o = parse("").unwrap();
        assert_eq!(
            (o.suite, o.rounds, o.items, o.quick, o.pin),
            (Suite::All, DEFAULT_ROUNDS, DEFAULT_ITEMS, false, true)
        );
        assert_eq!(o.time, Some(DEFAULT_TIME));
        assert_eq!(o.plan(7).goal_rounds, Some(DEFAULT_GOAL_ROUNDS));
        // --rounds overrides both; --quick has no extra goal rounds.
        assert_eq!(parse("--rounds 9").unwrap().plan(7).goal_rounds, None);
        assert_eq!(parse("--quick").unwrap().plan(7).goal_rounds, None);
        assert!(o.plan(7).schedule.is_some());
        let o = parse("--quick --suite mpmc --out /tmp/x --no-pin").unwrap();
        assert_eq!(
            (o.suite, o.rounds, o.items, o.pin),
            (Suite::Mpmc, 2, 20_000, false)
        );
        assert_eq!(o.out, PathBuf::from("/tmp/x"));
        assert!(o.time.is_none() && o.plan(7).schedule.is_none());
        assert_eq!(
            parse("--time 30").unwrap().time,
            Some(Duration::from_secs(30))
        );
        assert_eq!(parse("--quick --rounds 3 --items 7").unwrap().rounds, 3);
        let o = parse("--rounds 20 --goal-rounds 40").unwrap();
        assert_eq!((o.rounds, o.plan(1).goal_rounds), (20, Some(40)));
        assert_eq!(parse("--goal-rounds 25").unwrap().plan(1).goal_rounds, None);
        assert_eq!(
            parse("--goal-rounds 30").unwrap().plan(1).goal_rounds,
            Some(30)
        );
        assert!(parse("--goal-rounds 0").unwrap_err().contains("positive"));
        assert_eq!(
            (
                parse("").unwrap().processes,
                parse("--quick").unwrap().processes
            ),
            (3, 1)
        );
        let w = parse("--processes 3 --worker 2 --rounds 25 --goal-rounds 50 --time 150").unwrap();
        assert_eq!(
            (w.worker, w.rounds, w.plan(1).goal_rounds, w.time),
            (Some(2), 9, Some(17), Some(Duration::from_secs(50)))
        );
        assert!(
            parse("--processes 2 --worker 2")
                .unwrap_err()
                .contains("of 2")
        );
        assert_eq!(o.verbosity, Verbosity::Normal);
        assert_eq!(parse("--quiet").unwrap().verbosity, Verbosity::Quiet);
        assert_eq!(parse("-v").unwrap().verbosity, Verbosity::Verbose);
        let o = parse("--readme R.md --docs docs/p.md").unwrap();
        assert_eq!(
            (o.readme, o.docs),
            (Some("R.md".into()), Some("docs/p.md".into()))
        );
    }

    #[test]
    fn bad_input_is_a_clear_error() {
        assert!(parse("--suite fast").unwrap_err().contains("unknown suite"));
        let (all, grid) = (parse("").unwrap(), parse("--suite regimes").unwrap());
        assert!(all.runs(Suite::Spsc) && !all.runs(Suite::Regimes));
        assert!(grid.runs(Suite::Regimes) && !grid.runs(Suite::Spsc));
        assert!(!all.runs(Suite::MpmcRegimes) && !grid.runs(Suite::MpmcRegimes));
        let mpmc = parse("--suite mpmc-regimes").unwrap();
        assert!(mpmc.runs(Suite::MpmcRegimes) && !mpmc.runs(Suite::Regimes));
        let batch = parse("--suite batch-regimes").unwrap();
        assert!(batch.runs(Suite::BatchRegimes) && !all.runs(Suite::BatchRegimes));
        assert!(!batch.runs(Suite::Regimes) && !grid.runs(Suite::BatchRegimes));
        assert!(parse("--rounds 0").unwrap_err().contains("positive"));
        assert!(parse("--time 0").unwrap_err().contains("positive"));
        assert!(parse("--compare a.json").unwrap_err().contains("two"));
        assert_eq!(
            parse("--compare a b").unwrap().compare,
            Some(("a".into(), "b".into()))
        );
        assert!(parse("--rounds").unwrap_err().contains("needs a value"));
        assert!(
            parse("--frobnicate")
                .unwrap_err()
                .contains("unknown argument")
        );
    }
}
