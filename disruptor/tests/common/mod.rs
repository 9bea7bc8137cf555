//! Helpers the integration tests of `hotq-disruptor` share: a log of what
//! a handler saw, the payload producers write, the checks of a log, and the
//! kernel's view of a processor's thread. The deadline-bounded waits and
//! runs every queue crate's tests use are in `hotq-testkit`.
#![allow(dead_code)] // each test binary uses its own subset

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use hotq_disruptor::Sequence;
use hotq_testkit::wait_for;

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
