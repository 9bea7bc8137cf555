//! What the loom models share: the model runner with its preemption bound,
//! a fair-but-bounded wait, and a drop log. Built only with
//! `RUSTFLAGS="--cfg loom"`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Runs `body` under loom, exploring every interleaving with at most
/// `preemption_bound` preemptions, and prints how many executions that took
/// and how long (run the tests with `--nocapture` to see it).
///
/// Each model names its own bound: small enough that the whole suite
/// finishes in minutes on a 2-core machine, large enough to catch each
/// weakened ordering (`README.md` lists the bound, executions and time of
/// every model). For a deep (nightly-style) run, `HOTQ_LOOM_DEEP=N` adds
/// `N` to every model's own bound, and `LOOM_MAX_PREEMPTIONS=N` replaces
/// every bound by `N`; loom's other `LOOM_*` variables work as loom
/// documents them.
pub fn model<F>(name: &str, preemption_bound: usize, body: F)
where
    F: Fn() + Sync + Send + 'static,
{
    let mut builder = loom::model::Builder::new();
    if builder.preemption_bound.is_none() {
        let deeper = std::env::var("HOTQ_LOOM_DEEP")
            .ok()
            .map(|v| {
                v.parse::<usize>()
                    .unwrap_or_else(|_| panic!("HOTQ_LOOM_DEEP={v:?}: expected a number"))
            })
            .unwrap_or(0);
        builder.preemption_bound = Some(preemption_bound + deeper);
    }
    let bound = builder.preemption_bound;
    let executions = std::sync::Arc::new(AtomicUsize::new(0));
    let counter = executions.clone();
    let start = Instant::now();
    builder.check(move || {
        counter.fetch_add(1, Ordering::Relaxed);
        body();
    });
    eprintln!(
        "loom model {name}: {} executions, preemption bound {bound:?}, {:.2?}",
        executions.load(Ordering::Relaxed),
        start.elapsed()
    );
}

/// A model's retry loop (ring full, ring empty): yields to the other
/// threads, and after [`Spin::FAIR_WAITS`] consecutive waits ends the
/// exploration of the current branch (`loom::skip_branch`).
///
/// Why: a yield lets loom switch to any thread without spending a
/// preemption, so with two threads waiting for a third, loom would also
/// explore the unfair schedule in which the two take turns forever and the
/// third never runs ("Model exceeded maximum number of branches"). After
/// the cut the execution still runs to completion, along loom's default
/// schedule (the thread that has yielded least runs next). Waiting only
/// reads shared state, so a longer wait observes nothing a shorter one
/// cannot. The queue crates' own backoff does the same under loom.
#[derive(Debug, Default)]
pub struct Spin {
    waits: usize,
}

impl Spin {
    /// Consecutive waits that loom explores in full.
    pub const FAIR_WAITS: usize = 2;

    /// A fresh wait.
    pub fn new() -> Self {
        Spin::default()
    }

    /// One more wait.
    pub fn wait(&mut self) {
        self.waits += 1;
        if self.waits > Self::FAIR_WAITS {
            loom::skip_branch();
        }
        loom::thread::yield_now();
    }
}

/// Counts drops of the values it hands out, per id, so a model can assert
/// that each was dropped exactly once. Plain std atomics: the counter is
/// read only after the model's threads are joined, and it is not part of
/// what is being checked.
#[derive(Debug, Default)]
pub struct DropLog {
    counts: Vec<AtomicUsize>,
}

impl DropLog {
    /// A log for ids `0..n`.
    pub fn new(n: usize) -> std::sync::Arc<Self> {
        std::sync::Arc::new(DropLog {
            counts: (0..n).map(|_| AtomicUsize::new(0)).collect(),
        })
    }

    /// A value with id `id` that records its drop here.
    pub fn item(self: &std::sync::Arc<Self>, id: usize) -> Tracked {
        Tracked {
            id,
            log: self.clone(),
        }
    }

    /// Asserts every id was dropped exactly once.
    pub fn assert_each_dropped_once(&self) {
        let counts: Vec<usize> = self
            .counts
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .collect();
        assert!(
            counts.iter().all(|&c| c == 1),
            "drop count per id: {counts:?}"
        );
    }
}

/// A value that records its drop in a [`DropLog`].
#[derive(Debug)]
pub struct Tracked {
    /// Which value this is.
    pub id: usize,
    log: std::sync::Arc<DropLog>,
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.log.counts[self.id].fetch_add(1, Ordering::Relaxed);
    }
}
