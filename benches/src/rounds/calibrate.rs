//! How many items a contender's run gets: fitted to its share of the
//! time before the rounds start.

use std::time::{Duration, Instant};

use super::plan::Plan;
use crate::results::Measured;

/// Items (at most `plan.items`) that `run` gets through in about
/// `budget`: runs of 1,000, 8,000, … items (results discarded; they
/// also warm up caches and the allocator) until one lasts a tenth of the
/// budget or reaches `plan.items`, then up to two runs at the fitted size
/// to correct a first guess that a busy machine slowed down.
pub(super) fn calibrate(
    plan: &Plan,
    budget: Duration,
    run: &mut dyn FnMut(u64) -> Measured,
) -> u64 {
    let mut timed = |n: u64| {
        let t0 = Instant::now();
        run(n);
        t0.elapsed().max(Duration::from_nanos(1))
    };
    let fit = |n: u64, took: Duration| {
        let f = budget.as_secs_f64() / took.as_secs_f64() * n as f64;
        (f as u64).clamp(n.min(plan.items), plan.items)
    };
    let mut n = plan.items.min(1000);
    let mut took = timed(n);
    while took < budget / 10 && n < plan.items {
        n = (n * 8).min(plan.items);
        took = timed(n);
    }
    for _ in 0..2 {
        if n >= plan.items {
            break;
        }
        n = fit(n, took);
        took = timed(n);
        if took >= budget / 2 {
            break;
        }
    }
    n
}
