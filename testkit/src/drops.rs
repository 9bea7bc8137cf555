//! Drop accounting: an item type that records every drop of itself in a
//! counter, so a test can assert "dropped exactly once" (never twice, and
//! never leaked where leaking is not allowed) whichever way an item leaves
//! a queue. Items may be dropped on any thread.

use std::cell::Cell;
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// A value that counts its drops in a per-test [`DropCounter`], and can be
/// told to panic when dropped (the first time only: a second, erroneous,
/// drop of the same item in place is counted rather than aborting the test
/// as a panic during unwinding would).
pub struct Counted<'a> {
    pub id: usize,
    pub drops: &'a DropCounter,
    pub panic_on_drop: bool,
}

impl fmt::Debug for Counted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Counted({})", self.id)
    }
}

impl PartialEq for Counted<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
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
    /// The ids this counter is for (`0..ids`), when made by
    /// [`with_ids`](Self::with_ids): [`assert_drops`](Self::assert_drops)
    /// checks those and counts any other as a stray.
    ids: usize,
    /// The next id [`fresh`](Self::fresh) hands out.
    issued: AtomicUsize,
}

impl DropCounter {
    /// A counter for any ids.
    pub fn new() -> Self {
        Self::default()
    }

    /// A counter for the ids `0..ids`: [`item`](Self::item) refuses others,
    /// and [`assert_drops`](Self::assert_drops) checks exactly these.
    pub fn with_ids(ids: usize) -> Self {
        DropCounter {
            ids,
            ..Self::default()
        }
    }

    /// An item with this `id`.
    pub fn item(&self, id: usize) -> Counted<'_> {
        assert!(
            self.ids == 0 || id < self.ids,
            "id {id} beyond the counter's {} ids",
            self.ids
        );
        Counted {
            id,
            drops: self,
            panic_on_drop: false,
        }
    }

    /// An item with this `id` that panics the first time it is dropped.
    pub fn item_panicking_on_drop(&self, id: usize) -> Counted<'_> {
        let mut item = self.item(id);
        item.panic_on_drop = true;
        item
    }

    /// A new counter that lives for the rest of the test binary, for
    /// `Counted<'static>` (which is what `Default` makes).
    ///
    /// The counter stays reachable from a static, so miri's leak check
    /// (which reports memory no static can reach when the program ends)
    /// does not count it: only what a test under test leaks is reported.
    pub fn leaked() -> &'static DropCounter {
        static LEAKED: Mutex<Vec<&'static DropCounter>> = Mutex::new(Vec::new());
        let counter = Box::leak(Box::default());
        LEAKED
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(counter);
        counter
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

    fn per_id(&self) -> MutexGuard<'_, Vec<usize>> {
        // A panicking drop (on request) may poison the lock while another
        // thread records: the counts stay right, so ignore the poison.
        self.per_id.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn record(&self, id: usize) {
        self.total.fetch_add(1, Ordering::Relaxed);
        let mut per_id = self.per_id();
        if per_id.len() <= id {
            per_id.resize(id + 1, 0);
        }
        per_id[id] += 1;
    }

    /// How many times `id` was dropped.
    pub fn drops_of(&self, id: usize) -> usize {
        self.per_id().get(id).copied().unwrap_or(0)
    }

    /// Drops of all ids together.
    pub fn total(&self) -> usize {
        self.total.load(Ordering::Relaxed)
    }

    /// Asserts that no id was dropped more than once (leaks are allowed).
    pub fn assert_none_dropped_twice(&self) {
        let twice: Vec<(usize, usize)> = self
            .per_id()
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

    /// Asserts that ids `0..n` were each dropped exactly once, and no other.
    pub fn assert_each_dropped_once(&self, n: usize) {
        self.check("", n, |_| 1);
    }

    /// Asserts that each id of [`with_ids`](Self::with_ids) was dropped
    /// exactly `expected(id)` times, and no other id at all.
    pub fn assert_drops(&self, context: &str, expected: impl Fn(usize) -> usize) {
        self.check(context, self.ids, expected);
    }

    fn check(&self, context: &str, n: usize, expected: impl Fn(usize) -> usize) {
        let mut counts = self.per_id().clone();
        counts.resize(n.max(counts.len()), 0);
        let wrong: Vec<String> = counts
            .iter()
            .enumerate()
            .filter_map(|(id, &got)| {
                let want = if id < n { expected(id) } else { 0 };
                (got != want).then(|| format!("id {id}: dropped {got} times, expected {want}"))
            })
            .take(10)
            .collect();
        assert!(wrong.is_empty(), "{context}: {wrong:?}");
    }

    /// Makes `Counted::default()` on this thread draw fresh ids from this
    /// counter until the returned guard drops.
    pub fn use_for_defaults(&'static self) -> DefaultsGuard {
        let previous = DEFAULTS.replace(Some(self));
        DefaultsGuard { previous }
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
/// [`DropCounter::use_for_defaults`] on this thread (for chunk types that
/// need `T: Default`).
impl Default for Counted<'static> {
    fn default() -> Self {
        DEFAULTS
            .get()
            .expect("Counted::default() needs DropCounter::use_for_defaults on this thread")
            .fresh()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_each_drop_and_flags_a_double_or_missing_one() {
        let drops = DropCounter::with_ids(3);
        drop(drops.item(0));
        drop(drops.item(1));
        drops.assert_drops("two of three", |id| usize::from(id < 2));
        let missing = std::panic::catch_unwind(|| drops.assert_drops("all", |_| 1));
        assert!(missing.is_err(), "a missing drop went unnoticed");
        drop(drops.item(1));
        let twice = std::panic::catch_unwind(|| drops.assert_none_dropped_twice());
        assert!(twice.is_err(), "a double drop went unnoticed");
    }

    #[test]
    fn panics_in_drop_once_and_still_counts() {
        let drops = DropCounter::new();
        let item = drops.item_panicking_on_drop(7);
        assert!(std::panic::catch_unwind(move || drop(item)).is_err());
        assert_eq!(drops.drops_of(7), 1);
    }
}
