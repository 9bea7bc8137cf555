//! Building and running one crate's tests on each mutant: the hotq queue
//! crates' loom models and stress tests ([`CrateRunner`]), or any crate's
//! own test command ([`CommandRunner`], `--path`).

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hotq_loom_tests::sites::Mutant;

use crate::scratch::Scratch;

/// What happened to one mutant.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// `killed`, `timeout` (a test ran past its limit: killed too),
    /// `survived`.
    pub result: &'static str,
    /// Which test killed it, or what ran.
    pub detail: String,
    /// Wall-clock seconds, builds included.
    pub seconds: f64,
}

/// How a test binary ended.
enum Ended {
    Passed,
    Failed,
    TimedOut,
}

/// One crate's loom models and stress tests, built in the scratch copy.
pub struct CrateRunner<'a> {
    work: &'a Scratch,
    krate: String,
    package: String,
    /// Models by name, fastest first, with their unmutated run time.
    models: Vec<(String, Duration)>,
    /// The unmutated stress run's time, when the crate has stress tests
    /// and they are wanted.
    stress: Option<Duration>,
    /// Whether the loom models run (not with `--stress-only`).
    loom: bool,
    logs: PathBuf,
}

impl<'a> CrateRunner<'a> {
    /// Builds the unmutated crate's loom models and stress tests, runs
    /// them all (each must pass: a mutant can only be judged against a
    /// suite that passes), and records their times for the timeouts.
    ///
    /// Without `loom` (`--stress-only`), the loom models are neither run
    /// nor listed: the mutants go straight to the stress tests.
    pub fn new(work: &'a Scratch, krate: &str, stress: bool, loom: bool) -> Result<Self, String> {
        let package = package_name(&work.root.join(krate).join("Cargo.toml"))?;
        let logs = work.root.join("target").join("mutants-logs");
        fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
        if !work
            .root
            .join(format!("loom-tests/tests/{krate}.rs"))
            .is_file()
        {
            return Err(format!(
                "{krate}: no loom models (loom-tests/tests/{krate}.rs): nothing could kill a mutant"
            ));
        }
        let mut runner = CrateRunner {
            work,
            krate: krate.to_string(),
            package,
            models: Vec::new(),
            stress: None,
            loom,
            logs,
        };
        if loom {
            runner.baseline_models()?;
        }
        let has_stress = work.root.join(krate).join("tests/stress.rs").is_file();

        if stress && has_stress {
            eprintln!("mutants: {krate}: building and running the unmutated stress tests");
            let exe = runner.build(false)?;
            let log = runner.logs.join(format!("{krate}-baseline-stress.log"));
            let t = Instant::now();
            match runner.run_stress(&exe, Duration::from_secs(1800), &log) {
                Ended::Passed => runner.stress = Some(t.elapsed()),
                _ => {
                    return Err(format!(
                        "{krate}: the stress tests fail without any mutation (log: {})",
                        log.display()
                    ));
                }
            }
        } else if stress {
            eprintln!("mutants: {krate}: no {krate}/tests/stress.rs; loom models only");
        }
        let total: Duration = runner.models.iter().map(|m| m.1).sum();
        eprintln!(
            "mutants: {krate}: {} models, {:.1} s in all; stress {}",
            runner.models.len(),
            total.as_secs_f64(),
            runner
                .stress
                .map_or("not run".into(), |d| format!("{:.1} s", d.as_secs_f64()))
        );
        Ok(runner)
    }

    /// Runs the unmutated loom models, one by one, and records their times.
    fn baseline_models(&mut self) -> Result<(), String> {
        eprintln!(
            "mutants: {}: building and running the unmutated loom models",
            self.krate
        );
        let exe = self.build(true)?;
        let list = Command::new(&exe)
            .args(["--list", "--format", "terse"])
            .output()
            .map_err(|e| format!("{}: {e}", exe.display()))?;
        let names: Vec<String> = String::from_utf8_lossy(&list.stdout)
            .lines()
            .filter_map(|l| l.strip_suffix(": test"))
            .map(str::to_string)
            .collect();
        if names.is_empty() {
            return Err(format!(
                "{}: the loom test binary lists no models",
                self.krate
            ));
        }
        for name in names {
            let log = self
                .logs
                .join(format!("{}-baseline-{name}.log", self.krate));
            let t = Instant::now();
            match self.run_model(&exe, &name, Duration::from_secs(1200), &log) {
                Ended::Passed => self.models.push((name, t.elapsed())),
                _ => {
                    return Err(format!(
                        "{}: loom model {name} fails without any mutation (log: {})",
                        self.krate,
                        log.display()
                    ));
                }
            }
        }
        self.models.sort_by_key(|m| m.1);
        Ok(())
    }

    /// Applies `mutant` in the scratch copy, runs the models and then the
    /// stress tests until one fails, and restores the file.
    pub fn run(&mut self, mutant: &Mutant) -> Result<Outcome, String> {
        let file = &mutant.site.file;
        let original =
            fs::read_to_string(self.work.root.join(file)).map_err(|e| format!("{file}: {e}"))?;
        self.work.write(file, &mutant.apply(&original))?;
        let outcome = self.judge(mutant);
        self.work.write(file, &original)?;
        outcome
    }

    fn judge(&mut self, mutant: &Mutant) -> Result<Outcome, String> {
        let start = Instant::now();
        let id = mutant_id(mutant);
        let done = |result, detail: String| {
            Ok(Outcome {
                result,
                detail,
                seconds: start.elapsed().as_secs_f64(),
            })
        };
        let loom = if self.loom {
            let exe = self.build(true)?;
            for (name, baseline) in self.models.clone() {
                let log = self.logs.join(format!("{id}-{name}.log"));
                let limit = baseline * 4 + Duration::from_secs(30);
                match self.run_model(&exe, &name, limit, &log) {
                    Ended::Passed => {
                        let _ = fs::remove_file(&log);
                    }
                    Ended::Failed => return done("killed", format!("loom `{name}`")),
                    Ended::TimedOut => {
                        return done("timeout", format!("loom `{name}` ran past its limit"));
                    }
                }
            }
            format!("{} loom models", self.models.len())
        } else {
            "the loom models (earlier run)".to_string()
        };
        let Some(baseline) = self.stress else {
            return done("survived", format!("{loom} passed"));
        };
        let exe = self.build(false)?;
        let log = self.logs.join(format!("{id}-stress.log"));
        match self.run_stress(&exe, baseline * 3 + Duration::from_secs(60), &log) {
            Ended::Passed => {
                let _ = fs::remove_file(&log);
                done("survived", format!("{loom} and the stress tests passed"))
            }
            Ended::Failed => done("killed", format!("stress {}", failed_tests(&log))),
            Ended::TimedOut => done("timeout", "stress tests ran past their limit".into()),
        }
    }

    /// Builds the loom models (`loom`) or the release stress tests of the
    /// crate in the scratch copy, and returns the test binary.
    fn build(&self, loom: bool) -> Result<PathBuf, String> {
        let (package, test, dir, flags) = if loom {
            (
                "hotq-loom-tests",
                self.krate.as_str(),
                "loom",
                Some("--cfg loom"),
            )
        } else {
            (self.package.as_str(), "stress", "release", None)
        };
        let mut cmd = niced("cargo");
        cmd.args([
            "test",
            "--release",
            "--locked",
            "--no-run",
            "--message-format=json",
        ])
        .args(["-p", package, "--test", test])
        .current_dir(&self.work.root)
        .env("CARGO_TARGET_DIR", self.work.root.join("target").join(dir))
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_RUSTFLAGS")
        .stdin(Stdio::null());
        match flags {
            Some(f) => cmd.env("RUSTFLAGS", f),
            None => cmd.env_remove("RUSTFLAGS"),
        };
        let out = cmd.output().map_err(|e| format!("cargo: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "building {package} --test {test} failed:\n{}",
                tail(&String::from_utf8_lossy(&out.stderr), 40)
            ));
        }
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| l.contains(&format!("\"name\":\"{test}\"")) && l.contains("\"test\""))
            .find_map(|l| {
                let rest = l.split("\"executable\":\"").nth(1)?;
                Some(PathBuf::from(rest.split('"').next()?))
            })
            .ok_or_else(|| format!("cargo built no test binary {test} of {package}"))
    }

    fn run_model(&self, exe: &Path, name: &str, limit: Duration, log: &Path) -> Ended {
        let mut cmd = niced(exe.as_os_str());
        cmd.args([name, "--exact", "--test-threads=1", "--nocapture"])
            .current_dir(self.work.root.join("loom-tests"))
            // The models' own bounds, as ./test.sh runs them.
            .env_remove("LOOM_MAX_PREEMPTIONS")
            .env_remove("HOTQ_LOOM_DEEP");
        run_with_limit(cmd, limit, log)
    }

    fn run_stress(&self, exe: &Path, limit: Duration, log: &Path) -> Ended {
        let mut cmd = niced(exe.as_os_str());
        cmd.current_dir(self.work.root.join(&self.krate));
        run_with_limit(cmd, limit, log)
    }
}

/// `program` under `nice -n 10` where `nice` exists: the machine is shared.
fn niced(program: impl AsRef<std::ffi::OsStr>) -> Command {
    static HAS_NICE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let has_nice = *HAS_NICE.get_or_init(|| {
        Command::new("nice")
            .arg("true")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    });
    if has_nice {
        let mut cmd = Command::new("nice");
        cmd.args(["-n", "10"]).arg(program);
        cmd
    } else {
        Command::new(program)
    }
}

/// Runs `cmd` with its output in `log`, killing it after `limit`.
fn run_with_limit(cmd: Command, limit: Duration, log: &Path) -> Ended {
    run_limited(cmd, limit, log, false)
}

/// [`run_with_limit`]; with `group`, `cmd` leads a process group of its
/// own and the whole group is killed at the limit (a shell, the cargo it
/// starts and the test binaries cargo starts).
fn run_limited(mut cmd: Command, limit: Duration, log: &Path, group: bool) -> Ended {
    use std::os::unix::process::CommandExt as _;
    if group {
        cmd.process_group(0);
    }
    let Ok(out) = File::create(log) else {
        return Ended::Failed;
    };
    let Ok(err) = out.try_clone() else {
        return Ended::Failed;
    };
    let mut child = match cmd.stdin(Stdio::null()).stdout(out).stderr(err).spawn() {
        Ok(c) => c,
        Err(_) => return Ended::Failed,
    };
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => return Ended::Passed,
            Ok(Some(_)) | Err(_) => return Ended::Failed,
            Ok(None) if start.elapsed() > limit => {
                if group {
                    let _ = Command::new("kill")
                        .args(["-KILL", "--", &format!("-{}", child.id())])
                        .status();
                }
                // `nice` execs the program, so this is the test binary (or
                // the group's leader).
                let _ = child.kill();
                let _ = child.wait();
                return Ended::TimedOut;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

/// The names of the tests a libtest log reports as failed.
fn failed_tests(log: &Path) -> String {
    let text = fs::read_to_string(log).unwrap_or_default();
    let names: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("test ")?.strip_suffix(" ... FAILED"))
        .map(|n| format!("`{n}`"))
        .collect();
    if names.is_empty() {
        "(crashed)".into()
    } else {
        names.join(", ")
    }
}

/// A file-name-safe id for a mutant's logs.
fn mutant_id(m: &Mutant) -> String {
    m.key()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// The `name = "..."` of a crate's manifest (its `[package]` table).
pub fn package_name(manifest: &Path) -> Result<String, String> {
    let text = fs::read_to_string(manifest).map_err(|e| format!("{}: {e}", manifest.display()))?;
    let mut in_package = false;
    text.lines()
        .find_map(|l| {
            let l = l.trim();
            if l.starts_with('[') {
                in_package = l == "[package]";
                return None;
            }
            let v = l.strip_prefix("name")?.trim().strip_prefix('=')?;
            in_package.then(|| v.trim().trim_matches('"').to_string())
        })
        .ok_or_else(|| format!("{}: no package name", manifest.display()))
}

/// Any crate's own test command, run with `sh -c` in the crate's scratch
/// copy, on the unmutated crate and then on each mutant.
pub struct CommandRunner<'a> {
    work: &'a Scratch,
    command: String,
    target_dir: PathBuf,
    logs: PathBuf,
    /// The unmutated run's time (an incremental rebuild of the crate
    /// included, as each mutant's is).
    pub baseline: Duration,
}

impl<'a> CommandRunner<'a> {
    /// Runs `command` on the unmutated copy: it must pass (a mutant can
    /// only be judged against tests that pass). On a cold `target_dir` a
    /// first run builds the dependencies and is not timed; the timed run
    /// follows a touch of the crate root, so that it rebuilds the crate as
    /// a mutant does.
    pub fn new(
        work: &'a Scratch,
        command: &str,
        target_dir: PathBuf,
        logs: PathBuf,
    ) -> Result<Self, String> {
        fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
        let mut runner = CommandRunner {
            work,
            command: command.to_string(),
            target_dir,
            logs,
            baseline: Duration::ZERO,
        };
        let limit = Duration::from_secs(3600);
        if !runner.target_dir.is_dir() {
            eprintln!(
                "mutants: a first, untimed, unmutated run builds the dependencies: {command}"
            );
            let log = runner.logs.join("baseline-build.log");
            runner.unmutated(limit, &log)?;
        }
        for root in ["src/lib.rs", "src/main.rs"] {
            let path = work.root.join(root);
            if let Ok(text) = fs::read(&path) {
                fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
                break;
            }
        }
        eprintln!("mutants: the unmutated run: {command}");
        let log = runner.logs.join("baseline.log");
        let t = Instant::now();
        runner.unmutated(limit, &log)?;
        runner.baseline = t.elapsed();
        eprintln!(
            "mutants: the unmutated run passed in {:.1} s; a mutant's limit is {:.0} s",
            runner.baseline.as_secs_f64(),
            runner.limit().as_secs_f64()
        );
        Ok(runner)
    }

    fn unmutated(&self, limit: Duration, log: &Path) -> Result<(), String> {
        match self.run_command(limit, log) {
            Ended::Passed => Ok(()),
            ended => Err(format!(
                "the test command {} without any mutation: `{}` in {} (log: {})\n{}",
                match ended {
                    Ended::TimedOut => "ran past an hour",
                    _ => "fails",
                },
                self.command,
                self.work.root.display(),
                log.display(),
                tail(&fs::read_to_string(log).unwrap_or_default(), 30)
            )),
        }
    }

    /// 4× the unmutated run + 30 s, as for the hotq models.
    fn limit(&self) -> Duration {
        self.baseline * 4 + Duration::from_secs(30)
    }

    /// Applies `mutant` in the copy, runs the command, and restores the
    /// file.
    pub fn run(&mut self, mutant: &Mutant) -> Result<Outcome, String> {
        let file = &mutant.site.file;
        let original =
            fs::read_to_string(self.work.root.join(file)).map_err(|e| format!("{file}: {e}"))?;
        self.work.write(file, &mutant.apply(&original))?;
        let start = Instant::now();
        let log = self.logs.join(format!("{}.log", mutant_id(mutant)));
        let (result, detail) = match self.run_command(self.limit(), &log) {
            Ended::Passed => {
                let _ = fs::remove_file(&log);
                ("survived", "the test command passed".to_string())
            }
            Ended::Failed => match failed_tests(&log).as_str() {
                "(crashed)" => (
                    "killed",
                    "the command failed (its output names no failed test)".to_string(),
                ),
                names => ("killed", format!("test {names}")),
            },
            Ended::TimedOut => ("timeout", "the test command ran past its limit".to_string()),
        };
        let outcome = Outcome {
            result,
            detail,
            seconds: start.elapsed().as_secs_f64(),
        };
        self.work.write(file, &original)?;
        Ok(outcome)
    }

    fn run_command(&self, limit: Duration, log: &Path) -> Ended {
        let mut cmd = niced("sh");
        cmd.args(["-c", &self.command])
            .current_dir(&self.work.root)
            .env("CARGO_TARGET_DIR", &self.target_dir)
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .env_remove("CARGO_BUILD_RUSTFLAGS")
            .env_remove("CARGO_MANIFEST_DIR");
        run_limited(cmd, limit, log, true)
    }
}

/// Runs every mutant of `mutants` through `run`, one line each on stderr
/// (`[label i/n] key (file:line): result detail (seconds)`), and appends
/// the outcomes to `results`: the loop both the workspace mode and
/// `--path` share.
pub fn run_each(
    label: &str,
    mutants: &[Mutant],
    results: &mut Vec<(Mutant, Outcome)>,
    mut run: impl FnMut(&Mutant) -> Result<Outcome, String>,
) -> Result<(), String> {
    for (i, mutant) in mutants.iter().enumerate() {
        let outcome = run(mutant)?;
        eprintln!(
            "[{label} {}/{}] {} ({}): {} {} ({:.0} s)",
            i + 1,
            mutants.len(),
            mutant.key(),
            mutant.site.location(),
            outcome.result,
            outcome.detail,
            outcome.seconds
        );
        results.push((mutant.clone(), outcome));
    }
    Ok(())
}
