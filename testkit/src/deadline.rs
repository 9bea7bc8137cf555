//! Waiting without hanging: every loop that waits on another thread has a
//! deadline, so a hang fails the test (with a message naming what was
//! awaited) instead of stalling the run. A timing never decides a test:
//! the deadline is two minutes, far beyond any healthy wait.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_utils::Backoff;

/// How long any waiting loop may go without progress before the test
/// fails as a hang. Under miri 20 minutes: its clock is virtual and runs
/// with the instructions it interprets (about as fast as the machine's own
/// time on this loaded machine), and a whole test's [`TimeLimit`] there
/// ran past 120 s (mpmc's drop tests across the wrap) without hanging.
pub const DEADLINE: Duration = bound(Duration::from_secs(120));

/// A limit shorter than [`DEADLINE`] for one wait that is expected to end
/// soon (a blocked call noticing a halt): `native` normally, ten times it
/// under miri, for the reason [`DEADLINE`] gives.
pub const fn bound(native: Duration) -> Duration {
    if cfg!(miri) {
        native.saturating_mul(10)
    } else {
        native
    }
}

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

/// Runs `body` on a helper thread and waits for its result for at most
/// `limit`: past it, the test fails (a panic, not an abort) as a hang,
/// naming `what`. The helper thread is left behind, which is all one can
/// do with a thread stuck inside a call. A panic of `body` is re-raised
/// here, so its message is the test's.
///
/// Unlike [`with_watchdog`] and [`TimeLimit`], which abort the process,
/// this fails only the test that hangs; the price is a `'static` body.
pub fn within<R: Send + 'static>(
    what: &str,
    limit: Duration,
    body: impl FnOnce() -> R + Send + 'static,
) -> R {
    watched(what, limit, None, body)
}

/// As [`within`], with the limit ([`DEADLINE`]) running from the last time
/// `progress` moved: a long run that keeps moving is not a hang.
pub fn within_watching<R: Send + 'static>(
    what: &str,
    progress: Arc<AtomicU64>,
    body: impl FnOnce() -> R + Send + 'static,
) -> R {
    watched(what, DEADLINE, Some(progress), body)
}

fn watched<R: Send + 'static>(
    what: &str,
    limit: Duration,
    progress: Option<Arc<AtomicU64>>,
    body: impl FnOnce() -> R + Send + 'static,
) -> R {
    let (done, result) = channel();
    let runner = thread::Builder::new()
        .name(format!("within: {what}"))
        .spawn(move || {
            let _ = done.send(body());
        })
        .expect("spawn the helper thread");
    let read = || progress.as_ref().map_or(0, |p| p.load(Ordering::Relaxed));
    let (mut since, mut seen) = (Instant::now(), read());
    loop {
        let tick = limit.min(Duration::from_millis(200));
        match result.recv_timeout(tick) {
            Ok(r) => {
                let _ = runner.join();
                return r;
            }
            Err(RecvTimeoutError::Disconnected) => match runner.join() {
                Err(panic) => std::panic::resume_unwind(panic),
                Ok(()) => unreachable!("the helper thread ended without a result"),
            },
            Err(RecvTimeoutError::Timeout) => {
                let now = read();
                if now != seen {
                    (since, seen) = (Instant::now(), now);
                } else if since.elapsed() >= limit {
                    panic!("hang: {what}: no result and no progress for {limit:?}");
                }
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::panic::catch_unwind;
    use std::sync::mpsc;

    #[test]
    fn within_returns_the_result_and_re_raises_a_panic() {
        assert_eq!(within("a quick body", DEADLINE, || 7), 7);
        let panicked = catch_unwind(|| within("a panicking body", DEADLINE, || panic!("boom")));
        let message = panicked.expect_err("the body's panic was swallowed");
        assert_eq!(message.downcast_ref::<&str>(), Some(&"boom"));
    }

    #[test]
    fn within_fails_a_body_that_runs_past_its_limit_as_a_hang() {
        let (release, held) = mpsc::channel::<()>();
        let hung = catch_unwind(|| {
            within("a stuck body", Duration::from_millis(50), move || {
                let _ = held.recv();
            })
        });
        // Let the helper thread end.
        drop(release);
        let message = hung.expect_err("a stuck body passed");
        let message = message
            .downcast_ref::<String>()
            .expect("a formatted message");
        assert!(message.starts_with("hang: a stuck body"), "{message}");
    }
}
