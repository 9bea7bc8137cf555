//! The contender binaries this process runs: where they are, starting
//! each at its first run, one request and its answer per run.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Mutex, OnceLock};

use super::binaries::{async_binary, binary, tasks_binary};
use super::request::{self, Request};
use crate::load;
use crate::results::Measured;

/// Where this process finds the contender binaries and how it starts
/// them; set once by [`configure`].
struct Config {
    dir: PathBuf,
    pin: bool,
}

static CONFIG: OnceLock<Config> = OnceLock::new();

/// Makes every later run of [`isolated::spsc`](fn@super::spsc), `mpmc`,
/// `mpsc`, `regime`, `round_trip` and `asynchronous` go to the contenders' own binaries in
/// `dir`, each pinning its threads as `pin` says.
pub fn configure(dir: PathBuf, pin: bool) {
    let _ = CONFIG.set(Config { dir, pin });
}

/// Whether [`configure`] was called: [`isolated::spsc`](fn@super::spsc)
/// and the other runs run their contenders in their own binaries, else
/// in this one.
pub fn enabled() -> bool {
    CONFIG.get().is_some()
}

/// The folder of the contender binaries, once [`configure`]d.
pub fn dir() -> Option<&'static Path> {
    CONFIG.get().map(|c| c.dir.as_path())
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

/// The runners started so far, by binary.
fn runners() -> &'static Mutex<HashMap<String, Runner>> {
    static RUNNERS: OnceLock<Mutex<HashMap<String, Runner>>> = OnceLock::new();
    RUNNERS.get_or_init(|| Mutex::new(HashMap::new()))
}

/// One run of contender `name` in its own binary. Panics,
/// naming the contender, if its binary cannot be started or ends without
/// an answer (a failed check: its panic message is above).
pub fn run(name: &str, request: Request) -> Measured {
    let config = CONFIG.get().expect("isolated::configure first");
    let file = match request {
        Request::Async { .. } => async_binary(name),
        Request::Tasks { .. } => tasks_binary(name),
        _ => binary(name),
    };
    let mut all = runners().lock().unwrap_or_else(|e| e.into_inner());
    if !all.contains_key(&file) {
        let runner = start(&config.dir.join(&file), name, config.pin);
        all.insert(file.clone(), runner);
    }
    let r = all.get_mut(&file).expect("just inserted");
    let answer = writeln!(r.stdin, "{}", request.line())
        .and_then(|()| r.stdin.flush())
        .and_then(|()| {
            let mut line = String::new();
            r.stdout.read_line(&mut line).map(|_| line)
        });
    match answer.ok().and_then(|l| request::read_answer(&l)) {
        Some(measured) => measured,
        None => {
            all.remove(&file);
            panic!("{name}: its binary ended without a figure (its message is above)");
        }
    }
}

/// Starts contender `name`'s binary, `path`.
fn start(path: &Path, name: &str, pin: bool) -> Runner {
    let mut command = Command::new(path);
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
