//! Helpers the integration tests share.
#![allow(dead_code)] // each test binary uses its own subset

use std::cell::Cell;
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
            assert!(
                start.elapsed() < DEADLINE,
                "hang: {what} after {DEADLINE:?}"
            );
        }
        backoff.snooze();
    }
}

/// A value that counts its drops in a per-test counter, and can be told to
/// panic when dropped (the first time only: a second, erroneous, drop of the
/// same item in place is counted rather than aborting the test as a panic
/// during unwinding would).
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
            self.panic_on_drop = false;
            panic!("Counted({}) panics in drop, as asked", self.id);
        }
    }
}

/// How many times each id was dropped.
#[derive(Debug, Default)]
pub struct DropCounter {
    total: AtomicUsize,
    per_id: Mutex<Vec<usize>>,
    /// The next id [`fresh`](Self::fresh) hands out.
    issued: AtomicUsize,
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

    /// A new counter that lives for the rest of the test binary, for
    /// `Counted<'static>` (which is what `Default` makes).
    pub fn leaked() -> &'static DropCounter {
        Box::leak(Box::default())
    }

    /// An item with the next unused id (0, 1, 2, … per counter). Do not mix
    /// with [`item`](Self::item) ids on the same counter.
    pub fn fresh(&self) -> Counted<'_> {
        self.item(self.issued.fetch_add(1, Ordering::Relaxed))
    }

    /// How many ids [`fresh`](Self::fresh) (or `Default`) has handed out.
    pub fn issued(&self) -> usize {
        self.issued.load(Ordering::Relaxed)
    }

    /// How many times `id` was dropped.
    pub fn drops_of(&self, id: usize) -> usize {
        let per_id = self.per_id.lock().unwrap_or_else(|e| e.into_inner());
        per_id.get(id).copied().unwrap_or(0)
    }

    /// Asserts that no id was dropped more than once (leaks are allowed).
    pub fn assert_none_dropped_twice(&self) {
        let per_id = self.per_id.lock().unwrap_or_else(|e| e.into_inner());
        let twice: Vec<(usize, usize)> = per_id
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c > 1)
            .map(|(id, &c)| (id, c))
            .collect();
        assert!(
            twice.is_empty(),
            "(id, drop count) dropped more than once: {twice:?}"
        );
    }

    /// Makes `Counted::default()` on this thread draw fresh ids from this
    /// counter until the returned guard drops.
    pub fn use_for_defaults(&'static self) -> DefaultsGuard {
        let previous = DEFAULTS.replace(Some(self));
        DefaultsGuard { previous }
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
        assert!(
            wrong.is_empty(),
            "(id, drop count) not dropped exactly once: {wrong:?}"
        );
    }
}

thread_local! {
    /// The counter `Counted::default()` draws from on this thread.
    static DEFAULTS: Cell<Option<&'static DropCounter>> = const { Cell::new(None) };
}

/// Restores the previous default counter of this thread when dropped.
#[must_use = "the counter is used for defaults only while the guard lives"]
pub struct DefaultsGuard {
    previous: Option<&'static DropCounter>,
}

impl Drop for DefaultsGuard {
    fn drop(&mut self) {
        DEFAULTS.set(self.previous);
    }
}

/// A fresh item of the counter installed with
/// [`DropCounter::use_for_defaults`] on this thread (for `write_chunk`,
/// which needs `T: Default`).
impl Default for Counted<'static> {
    fn default() -> Self {
        DEFAULTS
            .get()
            .expect("Counted::default() needs DropCounter::use_for_defaults on this thread")
            .fresh()
    }
}
