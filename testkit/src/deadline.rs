//! Waiting without hanging: every loop that waits on another thread has a
//! deadline, so a hang fails the test (with a message naming what was
//! awaited) instead of stalling the run. A timing never decides a test:
//! the deadline is two minutes, far beyond any healthy wait.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_utils::Backoff;

/// How long any waiting loop may go without progress before the test
/// fails as a hang. Under miri 20 minutes: its clock is virtual and runs
/// with the instructions it interprets (about as fast as the machine's own
/// time on this loaded machine), and a whole test's [`TimeLimit`] there
/// ran past 120 s (mpmc's drop tests across the wrap) without hanging.
pub const DEADLINE: Duration = Duration::from_secs(if cfg!(miri) { 1200 } else { 120 });

/// Backoff for one waiting loop, with a deadline: spin, then yield the
/// thread (so a preempted peer on a busy 2-core machine gets to run), and
/// panic with "hang: ..." once a run of misses has lasted [`DEADLINE`].
///
/// With [`watching`](Self::watching), the deadline runs from the last time
/// the watched progress counter moved instead: one thread may be starved
/// for a long time while its peers get everything done (the kernel's
/// scheduler is not fair to threads that yield thousands of times a
/// second), which is not a hang; all of them standing still is.
pub struct Patience<'a> {
    backoff: Backoff,
    misses: u32,
    /// When the clock for this run of misses started, and the watched
    /// progress then.
    since: Option<(Instant, u64)>,
    progress: Option<&'a AtomicU64>,
}

impl Default for Patience<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> Patience<'a> {
    pub fn new() -> Self {
        Patience {
            backoff: Backoff::new(),
            misses: 0,
            since: None,
            progress: None,
        }
    }

    /// A hang is [`DEADLINE`] without this thread's awaited event *and*
    /// without `progress` moving.
    pub fn watching(progress: &'a AtomicU64) -> Self {
        Patience {
            progress: Some(progress),
            ..Self::new()
        }
    }

    /// The awaited thing happened: the next miss starts a new run.
    pub fn hit(&mut self) {
        if self.misses != 0 {
            self.misses = 0;
            self.since = None;
            self.backoff.reset();
        }
    }

    /// The awaited thing did not happen yet: back off, and fail as a hang
    /// once this run of misses has lasted [`DEADLINE`].
    pub fn miss(&mut self, what: impl FnOnce() -> String) {
        self.misses = self.misses.wrapping_add(1);
        if self.misses % 256 == 0 {
            let progress = self.progress.map_or(0, |p| p.load(Ordering::Relaxed));
            match self.since {
                Some((since, seen)) if seen == progress => {
                    if since.elapsed() >= DEADLINE {
                        panic!("hang: {} (no progress for {DEADLINE:?})", what());
                    }
                }
                _ => self.since = Some((Instant::now(), progress)),
            }
        }
        self.backoff.snooze();
    }
}

/// Retries `attempt` until it returns `Some`, backing off, and panics
/// naming `what` once [`DEADLINE`] has passed.
pub fn wait_for<R>(what: &str, attempt: impl FnMut() -> Option<R>) -> R {
    wait_with(Patience::new(), what, attempt)
}

/// As [`wait_for`], with the deadline running from the last move of
/// `progress` (see [`Patience::watching`]).
pub fn wait_for_watching<R>(
    what: &str,
    progress: &AtomicU64,
    attempt: impl FnMut() -> Option<R>,
) -> R {
    wait_with(Patience::watching(progress), what, attempt)
}

fn wait_with<R>(
    mut patience: Patience<'_>,
    what: &str,
    mut attempt: impl FnMut() -> Option<R>,
) -> R {
    loop {
        if let Some(r) = attempt() {
            return r;
        }
        patience.miss(|| what.to_string());
    }
}

/// Writes `message` to the process's stderr and aborts. Straight to the
/// stream: `eprintln!` in a test's threads goes to the harness's capture
/// buffer, which an abort throws away unprinted.
fn abort_with(message: &str) -> ! {
    let _ = writeln!(std::io::stderr(), "{message}; aborting");
    std::process::abort();
}

/// Runs `body` while a watchdog thread watches `progress`: if the counter
/// does not move for [`DEADLINE`], the process aborts with a "hang: ..."
/// message. The test's own waiting loops have deadlines, but a thread
/// spinning forever *inside* the queue (or one that cannot be joined
/// because of it) can only be stopped this way.
pub fn with_watchdog<R>(what: &str, progress: &AtomicU64, body: impl FnOnce() -> R) -> R {
    thread::scope(|s| {
        let (stop, stopped) = channel::<()>();
        s.spawn(move || {
            let mut last = progress.load(Ordering::Relaxed);
            let mut since = Instant::now();
            loop {
                match stopped.recv_timeout(Duration::from_millis(500)) {
                    Err(RecvTimeoutError::Timeout) => {}
                    // Stopped, or `body` panicked and dropped the sender.
                    _ => return,
                }
                let now = progress.load(Ordering::Relaxed);
                if now != last {
                    last = now;
                    since = Instant::now();
                } else if since.elapsed() >= DEADLINE {
                    abort_with(&format!("hang: {what}: no progress for {DEADLINE:?}"));
                }
            }
        });
        let r = body();
        drop(stop);
        r
    })
}

/// Aborts the process with a "hang: ..." message unless dropped within
/// [`DEADLINE`]: for tests with no waiting loop of their own, so that a
/// call that never returns (a queue spinning on a slot no one will
/// change) fails the run instead of stalling it.
#[must_use = "the limit holds only while the guard lives"]
pub struct TimeLimit {
    stop: Option<Sender<()>>,
    watcher: Option<thread::JoinHandle<()>>,
}

impl TimeLimit {
    pub fn new(what: &str) -> Self {
        let (stop, stopped) = channel::<()>();
        let what = what.to_string();
        let watcher = thread::spawn(move || {
            if let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(DEADLINE) {
                abort_with(&format!("hang: {what}: still running after {DEADLINE:?}"));
            }
        });
        TimeLimit {
            stop: Some(stop),
            watcher: Some(watcher),
        }
    }
}

impl Drop for TimeLimit {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(watcher) = self.watcher.take() {
            let _ = watcher.join();
        }
    }
}

/// Serialises the heavily threaded runs within a test binary; see
/// [`one_run_at_a_time`].
static ONE_RUN_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Held for the whole of a heavily threaded run. Each such run already
/// oversubscribes the 2 cores; with two at once (64 threads yielding) the
/// kernel starved single threads for minutes and throughput fell a
/// hundredfold.
pub fn one_run_at_a_time() -> MutexGuard<'static, ()> {
    ONE_RUN_AT_A_TIME
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
}
