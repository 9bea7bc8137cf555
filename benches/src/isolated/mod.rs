//! Each contender's SPSC, MPMC and regime-grid loops in a binary of its own
//! (issue 37 §1): `hotq-contender-<name>`, built from `benches/contenders/`,
//! each linking the one contender it runs.
//!
//! Why: compiled into the report beside the others, a contender's loop
//! is inlined, split into codegen units and laid out according to what
//! else the binary holds, and its figure moved with edits to crates it
//! never calls (2026-12-05: one line in hotq-disruptor took ringbuf's
//! single items to 0.62 × and rtrb's to 0.76 ×). In a binary of its own
//! its code depends only on its own crate and the workload's loop, as it
//! would in a user's program that depends on it.
//!
//! How: the report process (or each worker of `rounds::processes`) starts
//! one child per contender at its first run and keeps it; each run is one
//! request line on the child's stdin ([`Request`]) answered by one line,
//! the M items/s. A contender that fails its checks panics in its child,
//! whose stderr is the report's; the report then stops as it does for a
//! contender in-process. The children's CPU time is the report's own for
//! the load column ([`load::adopt`]). A contender binary built from other
//! sources than the report (a report binary run after an edit, without
//! cargo) is refused before any run ([`check`]).

mod request;
mod serve;

pub use request::{Request, SOURCE};
pub use serve::{serve, serve_shared, serve_try};

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Mutex, OnceLock};

use crate::channel::Channel;
use crate::contenders::{self, ChannelVisitor};
use crate::load;

/// The environment variable that names the folder of the contender
/// binaries, for a process that must not build them (a worker of the
/// report, or a test that cargo built them for).
pub const DIR_VAR: &str = "HOTQ_CONTENDER_DIR";

/// The binary that runs contender `name` (a row name such as `hotq-spsc`
/// or `Mutex<VecDeque>`): `hotq-contender-` and the name in lower case,
/// each run of other characters one `-`.
pub fn binary(name: &str) -> String {
    let mut slug = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    format!("hotq-contender-{}", slug.trim_end_matches('-'))
}

/// Checks that every contender binary is in `dir` and was built from the
/// same sources as this process; says which is not, and how to mend it.
pub fn check(dir: &Path) -> Result<(), String> {
    struct Names(Vec<&'static str>);
    impl ChannelVisitor for Names {
        fn visit<C: Channel>(&mut self) {
            self.0.push(C::NAME);
        }
    }
    let mut names = Names(Vec::new());
    contenders::each_channel(&mut names);
    for name in names.0 {
        let path = dir.join(binary(name));
        let out = Command::new(&path)
            .arg("--source")
            .stderr(Stdio::inherit())
            .output()
            .map_err(|e| format!("{name}: cannot start {}: {e}", path.display()))?;
        let theirs = String::from_utf8_lossy(&out.stdout);
        if theirs.trim() != SOURCE {
            return Err(format!(
                "{} was built from other sources than this report (fingerprint {} against {SOURCE}): run the report with `cargo run --release -p hotq-benches`, which builds both",
                path.display(),
                theirs.trim()
            ));
        }
    }
    Ok(())
}

/// Where this process finds the contender binaries and how it starts
/// them; set once by [`configure`].
struct Config {
    dir: PathBuf,
    pin: bool,
}

static CONFIG: OnceLock<Config> = OnceLock::new();

/// Makes every later SPSC, MPMC and regime run go to the contenders' own
/// binaries in `dir`, each pinning its threads as `pin` says.
pub fn configure(dir: PathBuf, pin: bool) {
    let _ = CONFIG.set(Config { dir, pin });
}

/// Whether [`configure`] was called: the SPSC, MPMC and regime suites run
/// their contenders in their own binaries, else in this one.
pub fn enabled() -> bool {
    CONFIG.get().is_some()
}

/// A running contender binary.
struct Runner {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Drop for Runner {
    fn drop(&mut self) {
        // Its loop ends when stdin closes, but the fields close only after
        // this: end it now, and reap it so that no zombie is left.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The runners started so far, by contender name.
fn runners() -> &'static Mutex<HashMap<String, Runner>> {
    static RUNNERS: OnceLock<Mutex<HashMap<String, Runner>>> = OnceLock::new();
    RUNNERS.get_or_init(|| Mutex::new(HashMap::new()))
}

/// One run of contender `name` in its own binary; M items/s. Panics,
/// naming the contender, if its binary cannot be started or ends without
/// an answer (a failed check: its panic message is above).
pub fn run(name: &str, request: Request) -> f64 {
    let config = CONFIG.get().expect("isolated::configure first");
    let mut all = runners().lock().unwrap_or_else(|e| e.into_inner());
    if !all.contains_key(name) {
        all.insert(name.to_string(), start(&config.dir, name, config.pin));
    }
    let r = all.get_mut(name).expect("just inserted");
    let answer = writeln!(r.stdin, "{}", request.line())
        .and_then(|()| r.stdin.flush())
        .and_then(|()| {
            let mut line = String::new();
            r.stdout.read_line(&mut line).map(|_| line)
        });
    match answer.ok().and_then(|l| l.trim().parse::<f64>().ok()) {
        Some(figure) => figure,
        None => {
            all.remove(name);
            panic!("{name}: its binary ended without a figure (its message is above)");
        }
    }
}

/// Starts contender `name`'s binary from `dir`.
fn start(dir: &Path, name: &str, pin: bool) -> Runner {
    let path = dir.join(binary(name));
    let mut command = Command::new(&path);
    if !pin {
        command.arg("--no-pin");
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("{name}: cannot start {}: {e}", path.display()));
    load::adopt(child.id());
    let stdin = child.stdin.take().expect("piped stdin");
    let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
    Runner {
        child,
        stdin,
        stdout,
    }
}

/// Ends every contender binary this process started.
pub fn stop_all() {
    runners().lock().unwrap_or_else(|e| e.into_inner()).clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binary_name_is_the_row_name_in_lower_case_with_one_dash_per_gap() {
        assert_eq!(binary("hotq-spsc"), "hotq-contender-hotq-spsc");
        assert_eq!(binary("Mutex<VecDeque>"), "hotq-contender-mutex-vecdeque");
        assert_eq!(
            binary("mpsc::sync_channel"),
            "hotq-contender-mpsc-sync-channel"
        );
        assert_eq!(binary("Mutex+Condvar"), "hotq-contender-mutex-condvar");
    }
}
