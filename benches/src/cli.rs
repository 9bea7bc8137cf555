//! The report's command line.

use std::path::PathBuf;
use std::time::Duration;

use crate::rounds::Plan;

/// Which workloads to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suite {
    /// SPSC throughput and the round trips.
    Spsc,
    /// MPMC throughput.
    Mpmc,
    /// The disruptor topologies.
    Disruptor,
    /// Channels in their own blocking calls (`channels.rs`).
    Channels,
    /// All of them.
    All,
}

/// What the user asked for.
#[derive(Debug, Clone)]
pub struct Options {
    /// Which workloads.
    pub suite: Suite,
    /// Rounds per workload.
    pub rounds: usize,
    /// Items per round of a throughput workload (fewer for the slow shapes,
    /// see the header).
    pub items: u64,
    /// A smoke run: few rounds, few items.
    pub quick: bool,
    /// Where report.md, report.json, README-tables.md and the plots go.
    pub out: PathBuf,
    /// A README whose generated part to replace with the latest tables.
    pub readme: Option<PathBuf>,
    /// Pin threads to cores where there are enough.
    pub pin: bool,
}

/// The usage text.
pub const USAGE: &str = "\
usage: report [--suite spsc|mpmc|disruptor|channels|all] [--rounds N] [--items N] [--quick]
              [--out DIR] [--readme README.md] [--no-pin]

  --suite    which workloads (default all)
  --rounds   interleaved rounds per workload (default 5; --quick: 2)
  --items    items per round of a throughput workload (default 4000000; --quick: 20000)
             (fewer for a contender too slow to move them in 0.15 s)
  --quick    a smoke run of every workload and contender, in seconds
  --out      where the report goes (default target/hotq-report)
  --readme   also replace the generated tables of this README
  --no-pin   leave every thread to the scheduler";

impl Options {
    /// Parses `args` (without the program name).
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Options, String> {
        let mut o = Options {
            suite: Suite::All,
            rounds: 0,
            items: 0,
            quick: false,
            out: default_out(),
            readme: None,
            pin: true,
        };
        let mut args = args.into_iter();
        while let Some(a) = args.next() {
            let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
            match a.as_str() {
                "--suite" => {
                    o.suite = match value("--suite")?.as_str() {
                        "spsc" => Suite::Spsc,
                        "mpmc" => Suite::Mpmc,
                        "disruptor" => Suite::Disruptor,
                        "channels" => Suite::Channels,
                        "all" => Suite::All,
                        s => return Err(format!("unknown suite `{s}`")),
                    }
                }
                "--rounds" => o.rounds = number(&value("--rounds")?, "--rounds")? as usize,
                "--items" => o.items = number(&value("--items")?, "--items")?,
                "--quick" => o.quick = true,
                "--out" => o.out = value("--out")?.into(),
                "--readme" => o.readme = Some(value("--readme")?.into()),
                "--no-pin" => o.pin = false,
                // `cargo bench` and test harnesses may pass this one.
                "--bench" => {}
                "-h" | "--help" => return Err(String::new()),
                other => return Err(format!("unknown argument `{other}`")),
            }
        }
        if o.rounds == 0 {
            o.rounds = if o.quick { 2 } else { 5 };
        }
        if o.items == 0 {
            o.items = if o.quick { 20_000 } else { 4_000_000 };
        }
        Ok(o)
    }

    /// How long one run of one contender may take before it gets fewer
    /// items than the workload's (0.15 s; 0.02 s for `--quick`). With
    /// about 100 contender-workload pairs, 5 rounds and calibration (at most
    /// about 3 budgets), even a run where every contender is slow stays
    /// under 4 minutes.
    pub fn budget(&self) -> Duration {
        Duration::from_millis(if self.quick { 20 } else { 150 })
    }

    /// The plan of a workload of up to `items` items per run.
    pub fn plan(&self, items: u64) -> Plan {
        Plan {
            rounds: self.rounds,
            items,
            budget: self.budget(),
        }
    }

    /// Whether `suite` is selected.
    pub fn runs(&self, suite: Suite) -> bool {
        self.suite == Suite::All || self.suite == suite
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
            (Suite::All, 5, 4_000_000, false, true)
        );
        let o = parse("--quick --suite mpmc --out /tmp/x --no-pin").unwrap();
        assert_eq!(
            (o.suite, o.rounds, o.items, o.pin),
            (Suite::Mpmc, 2, 20_000, false)
        );
        assert_eq!(o.out, PathBuf::from("/tmp/x"));
        assert_eq!(parse("--quick --rounds 3 --items 7").unwrap().rounds, 3);
    }

    #[test]
    fn bad_input_is_a_clear_error() {
        assert!(parse("--suite fast").unwrap_err().contains("unknown suite"));
        assert!(parse("--rounds 0").unwrap_err().contains("positive"));
        assert!(parse("--rounds").unwrap_err().contains("needs a value"));
        assert!(
            parse("--frobnicate")
                .unwrap_err()
                .contains("unknown argument")
        );
    }
}
