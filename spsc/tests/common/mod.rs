//! Helpers the integration tests share.
#![allow(dead_code)] // each test binary uses its own subset

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crossbeam_utils::Backoff;

/// How long any waiting loop may take before the test fails as a hang.
pub const DEADLINE: Duration = Duration::from_secs(120);

/// Retries `attempt` until it returns `Some`, backing off (spin, then
/// yield, so a starved peer on a busy 2-core machine gets to run), and
/// panics naming `what` once [`DEADLINE`] has passed.
pub fn wait_for<R>(what: &str, mut attempt: impl FnMut() -> Option<R>) -> R {
    let backoff = Backoff::new();
    let mut start = None;
    let mut tries = 0u32;
    loop {
        if let Some(r) = attempt() {
            return r;
        }
        tries = tries.wrapping_add(1);
        if tries % 1024 == 0 {
            let start = *start.get_or_insert_with(Instant::now);
            assert!(start.elapsed() < DEADLINE, "hang: {what} after {DEADLINE:?}");
        }
        backoff.snooze();
    }
}

/// A value that counts its drops in a per-test counter, and can be told to
/// panic when dropped.
#[derive(Debug)]
pub struct Counted<'a> {
    pub id: usize,
    pub drops: &'a DropCounter,
    pub panic_on_drop: bool,
}

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.drops.record(self.id);
        if self.panic_on_drop {
            panic!("Counted({}) panics in drop, as asked", self.id);
        }
    }
}

/// How many times each id was dropped.
#[derive(Debug, Default)]
pub struct DropCounter {
    total: AtomicUsize,
    per_id: Mutex<Vec<usize>>,
}

impl DropCounter {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn item(&self, id: usize) -> Counted<'_> {
        Counted {
            id,
            drops: self,
            panic_on_drop: false,
        }
    }

    fn record(&self, id: usize) {
        self.total.fetch_add(1, Ordering::Relaxed);
        let mut per_id = self.per_id.lock().unwrap_or_else(|e| e.into_inner());
        if per_id.len() <= id {
            per_id.resize(id + 1, 0);
        }
        per_id[id] += 1;
    }

    pub fn total(&self) -> usize {
        self.total.load(Ordering::Relaxed)
    }

    /// Asserts that ids `0..n` were each dropped exactly once, and no other.
    pub fn assert_each_dropped_once(&self, n: usize) {
        let per_id = self.per_id.lock().unwrap_or_else(|e| e.into_inner());
        let mut counts = per_id.clone();
        counts.resize(n.max(counts.len()), 0);
        let wrong: Vec<(usize, usize)> = counts
            .iter()
            .enumerate()
            .filter(|&(id, &c)| c != usize::from(id < n))
            .map(|(id, &c)| (id, c))
            .collect();
        assert!(wrong.is_empty(), "(id, drop count) not dropped exactly once: {wrong:?}");
    }
}
