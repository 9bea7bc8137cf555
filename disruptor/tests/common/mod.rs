//! Helpers the integration tests of `hotq-disruptor` share: waits and runs
//! with a deadline (a hang fails the test instead of stalling it), and a
//! log of what a handler saw.
//!
//! The shape follows `spsc/tests/common` and `mpmc/tests/common`; the
//! `testkit` crate is meant to absorb all three later, so this file stays
//! small.
#![allow(dead_code)] // each test binary uses its own subset

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_utils::Backoff;
use hotq_disruptor::Sequence;

/// How long anything may go without progress before the test fails as a
/// hang. Generous: other work shares the 2 cores.
pub const DEADLINE: Duration = Duration::from_secs(60);

/// Retries `attempt` until it returns `Some`, backing off (spin, then
/// yield, so a starved peer gets to run), and panics naming `what` once
/// [`DEADLINE`] has passed.
pub fn wait_for<R>(what: &str, mut attempt: impl FnMut() -> Option<R>) -> R {
    let backoff = Backoff::new();
    let start = Instant::now();
    let mut tries = 0u32;
    loop {
        if let Some(r) = attempt() {
            return r;
        }
        tries = tries.wrapping_add(1);
        if tries % 256 == 0 {
            assert!(
                start.elapsed() < DEADLINE,
                "hang: {what} after {DEADLINE:?}"
            );
        }
        backoff.snooze();
    }
}

/// Runs `body` on a helper thread and waits for its result for at most
/// `limit`: past it, the test fails as a hang (the helper thread is left
/// behind, which is all one can do with a thread stuck inside a call). A
/// panic of `body` is re-raised here.
pub fn within<R: Send + 'static>(
    what: &str,
    limit: Duration,
    body: impl FnOnce() -> R + Send + 'static,
) -> R {
    watched(what, limit, None, body)
}

/// As [`within`], but the limit runs from the last time `progress` moved:
/// a long run that keeps moving is not a hang.
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

/// Serialises the heavily threaded tests of one binary: each already
/// oversubscribes the 2 cores, and two at once starve each other (see
/// `mpmc/tests/common`).
pub fn one_run_at_a_time() -> MutexGuard<'static, ()> {
    static ONE: Mutex<()> = Mutex::new(());
    ONE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What a handler saw of one event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seen {
    pub seq: Sequence,
    pub value: u64,
    pub end_of_batch: bool,
}

/// A log a handler appends to and the test reads after the disruptor has
/// shut down (or while it waits for `len` to reach a count). Only the
/// handler's thread writes, so the lock is never contended for long.
#[derive(Clone, Debug, Default)]
pub struct Log {
    seen: Arc<Mutex<Vec<Seen>>>,
    count: Arc<AtomicU64>,
}

impl Log {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn record(&self, seq: Sequence, value: u64, end_of_batch: bool) {
        self.lock().push(Seen {
            seq,
            value,
            end_of_batch,
        });
        // Release: pairs with the Acquire in `len`, so a test that saw the
        // count also sees the entry.
        self.count.fetch_add(1, Ordering::Release);
    }

    /// Events recorded so far.
    pub fn len(&self) -> u64 {
        self.count.load(Ordering::Acquire)
    }

    /// The counter behind [`len`](Self::len), to watch as progress.
    pub fn progress(&self) -> Arc<AtomicU64> {
        self.count.clone()
    }

    /// Waits (with the deadline) until `n` events were recorded.
    pub fn wait_len(&self, what: &str, n: u64) {
        wait_for(what, || (self.len() >= n).then_some(()));
    }

    pub fn take(&self) -> Vec<Seen> {
        std::mem::take(&mut *self.lock())
    }

    pub fn snapshot(&self) -> Vec<Seen> {
        self.lock().clone()
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Seen>> {
        self.seen.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The payload producers write for sequence `seq` in the tests where the
/// producer knows the sequence it fills: distinct from `seq` itself and
/// from the default `0`, so a stale, default or overwritten slot shows.
pub fn payload(seq: Sequence) -> u64 {
    (seq as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1
}

/// Asserts that `seen` is exactly the sequences `0..n`, in order, each
/// with the value `value_of(seq)`.
pub fn assert_all_in_order(what: &str, seen: &[Seen], n: u64, value_of: impl Fn(Sequence) -> u64) {
    for (i, s) in seen.iter().enumerate() {
        assert_eq!(
            s.seq,
            i as Sequence,
            "{what}: event {i} has sequence {} (lost, duplicated or reordered); around it: {:?}",
            s.seq,
            &seen[i.saturating_sub(3)..(i + 3).min(seen.len())]
        );
        assert_eq!(
            s.value,
            value_of(s.seq),
            "{what}: sequence {} carries a value its producer did not write there",
            s.seq
        );
    }
    assert_eq!(seen.len() as u64, n, "{what}: events seen");
}

/// Asserts the `end_of_batch` flags of a closure handler's log: the last
/// event seen has it set (the processor hands over the last available
/// sequence of each delivery with it, and the final delivery ends there).
pub fn assert_last_ends_batch(what: &str, seen: &[Seen]) {
    if let Some(last) = seen.last() {
        assert!(
            last.end_of_batch,
            "{what}: the final event ({}) was not flagged end_of_batch",
            last.seq
        );
    }
}

/// The CPU time (user + system) a thread of this process has used, by
/// its kernel thread id: `/proc/self/task/<tid>/schedstat` (nanoseconds)
/// where the kernel keeps it, else `stat`'s utime + stime (clock ticks of
/// 10 ms).
pub fn thread_cpu_time(tid: u64) -> Duration {
    let task = format!("/proc/self/task/{tid}");
    if let Ok(s) = std::fs::read_to_string(format!("{task}/schedstat")) {
        if let Some(ns) = s.split_whitespace().next().and_then(|f| f.parse().ok()) {
            return Duration::from_nanos(ns);
        }
    }
    let stat = std::fs::read_to_string(format!("{task}/stat")).expect("read the thread's stat");
    // The command name (field 2) may hold spaces: count from its ')'.
    let rest = &stat[stat.rfind(')').expect("stat has a comm field") + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 and 15 of stat are utime and stime; `rest` starts at field 3.
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    Duration::from_millis(ticks * 10)
}

/// The kernel thread id of the calling thread.
pub fn current_tid() -> u64 {
    let link = std::fs::read_link("/proc/thread-self").expect("read /proc/thread-self");
    link.file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.parse().ok())
        .expect("/proc/thread-self ends in the thread id")
}

/// The name the kernel has for a thread of this process (at most 15 bytes).
pub fn thread_name(tid: u64) -> String {
    std::fs::read_to_string(format!("/proc/self/task/{tid}/comm"))
        .expect("read the thread's comm")
        .trim_end()
        .to_string()
}
