//! How many items a contender's run gets: fitted to its share of the
//! time before the rounds start.
//!
//! A run's time is a fixed part (the contender's process started at its
//! first run, a topology built and its threads started, a busy-spinning
//! handler that first lands on its producer's core and holds it for a
//! scheduler slice) and a part per item. A size fitted from one short run
//! takes the fixed part for a slow rate and stays short: until
//! 2026-12-07 the unicast rounds were 29k–121k events, 0.1–0.5 ms of
//! events in a 10.7 ms run, and read the start-up, not the ring
//! (docs/goals-missed.md, "The runs of 2026-12-07 14:42 and 14:47 UTC").
//! So the first run is not timed, and the fit is corrected until a run
//! lasts half the budget.

use std::time::{Duration, Instant};

use super::plan::Plan;
use super::schedule::CALIBRATION_RUNS;
use crate::results::Measured;

/// Corrections of the first guess at most (each is one run at the size
/// the last run's time fits to the budget).
const CORRECTIONS: usize = 4;

/// Items (at most `plan.items`) that `run` gets through in about
/// `budget`: one untimed run of 1,000 items (it starts the contender's
/// process, and warms up caches and the allocator); then runs of 1,000,
/// 8,000, … items until one lasts a tenth of the budget or reaches
/// `plan.items`; then runs at the size the last one's time fits to the
/// budget, until one lasts half of it (see [`fit`]). Their results are
/// discarded.
pub(super) fn calibrate(
    plan: &Plan,
    budget: Duration,
    run: &mut dyn FnMut(u64) -> Measured,
) -> u64 {
    fit(plan.items, budget, &mut |n| {
        let t0 = Instant::now();
        run(n);
        t0.elapsed()
    })
}

/// [`calibrate`]'s fit, from runs that `timed` times: one run whose time
/// is dropped (the process's start), the ramp, then up to
/// [`CORRECTIONS`] runs at the fitted size while the last run lasted
/// less than half the budget (a fixed part made it short; each
/// correction scales the size by the budget over the last run's time, so
/// the fixed part's share shrinks each time) and the calibration has not
/// used [`CALIBRATION_RUNS`] budgets. A run that a busy machine or a
/// stall slowed down gives a smaller size, and the next correction
/// scales it back up.
fn fit(ceiling: u64, budget: Duration, timed: &mut dyn FnMut(u64) -> Duration) -> u64 {
    timed(ceiling.min(1000));
    let mut spent = Duration::ZERO;
    let mut time = |n: u64, spent: &mut Duration| {
        let took = timed(n).max(Duration::from_nanos(1));
        *spent += took;
        took
    };
    let scaled = |n: u64, took: Duration| {
        let f = budget.as_secs_f64() / took.as_secs_f64() * n as f64;
        (f as u64).clamp(n.min(ceiling).min(1000), ceiling)
    };
    let mut n = ceiling.min(1000);
    let mut took = time(n, &mut spent);
    while took < budget / 10 && n < ceiling {
        n = (n * 8).min(ceiling);
        took = time(n, &mut spent);
    }
    for i in 0..CORRECTIONS {
        let settled = i > 0 && took >= budget / 2;
        if n >= ceiling || settled || spent >= budget * CALIBRATION_RUNS as u32 {
            break;
        }
        n = scaled(n, took);
        took = time(n, &mut spent);
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUDGET: Duration = Duration::from_millis(10);

    /// A contender whose runs take `fixed` plus `per_item` each, and
    /// `stall` more in the runs that `stalls` picks (by the run's index).
    fn model(
        fixed: Duration,
        per_item: Duration,
        stall: Duration,
        stalls: impl Fn(usize) -> bool,
    ) -> impl FnMut(u64) -> Duration {
        let mut i = 0;
        move |n| {
            i += 1;
            let stalled = if stalls(i - 1) { stall } else { Duration::ZERO };
            fixed + per_item * n as u32 + stalled
        }
    }

    /// The share of the budget that `n` items' own time fills.
    fn filled(n: u64, per_item: Duration) -> f64 {
        (per_item * n as u32).as_secs_f64() / BUDGET.as_secs_f64()
    }

    #[test]
    fn a_fixed_cost_per_run_does_not_shrink_the_rounds() {
        // The unicast topology: 0.3 ms to build and start, 1.5 ns an
        // event, and 3 ms more in the first run, which starts the
        // contender's process.
        let per_item = Duration::from_nanos(1) + Duration::from_nanos(1) / 2;
        let start = Duration::from_millis(3);
        let n = fit(
            50_000_000,
            BUDGET,
            &mut model(Duration::from_micros(300), per_item, start, |i| i == 0),
        );
        let f = filled(n, per_item);
        assert!(
            (0.45..=1.0).contains(&f),
            "{n} events fill {f:.2} of the budget"
        );
    }

    #[test]
    fn a_stall_in_the_ramp_is_corrected_away() {
        // 4 ms lost in the ramp's second run (8,000 events): the
        // ramp stops there, and its first guess is 20,000 events.
        let per_item = Duration::from_nanos(1) + Duration::from_nanos(1) / 2;
        let n = fit(
            50_000_000,
            BUDGET,
            &mut model(
                Duration::from_micros(200),
                per_item,
                Duration::from_millis(4),
                |i| i == 1,
            ),
        );
        let f = filled(n, per_item);
        assert!(
            (0.3..=1.0).contains(&f),
            "{n} events fill {f:.2} of the budget"
        );
    }

    #[test]
    fn a_slow_contender_gets_fewer_items_and_a_fast_one_the_ceiling() {
        let slow = Duration::from_micros(1);
        let n = fit(
            50_000_000,
            BUDGET,
            &mut model(Duration::ZERO, slow, Duration::ZERO, |_| false),
        );
        assert!((0.45..=1.0).contains(&filled(n, slow)), "{n} items");
        let fast = Duration::from_nanos(1);
        let mut runs = 0;
        let mut fast_model = model(Duration::ZERO, fast, Duration::ZERO, |_| false);
        let n = fit(1_000_000, BUDGET, &mut |n| {
            runs += 1;
            fast_model(n)
        });
        assert_eq!(n, 1_000_000);
        assert!(runs <= 6, "{runs} runs: none once the ceiling fits");
    }

    #[test]
    fn a_machine_that_stalls_every_run_ends_the_calibration_in_its_time() {
        // Every run loses 30 ms: no size fits, and the calibration stops
        // after its budget of runs, not after a run per correction.
        let mut runs = 0;
        let mut m = model(
            Duration::ZERO,
            Duration::from_nanos(10),
            Duration::from_millis(30),
            |_| true,
        );
        let n = fit(50_000_000, BUDGET, &mut |n| {
            runs += 1;
            m(n)
        });
        assert_eq!(runs, 2, "the first timed run used the calibration's time");
        assert_eq!(n, 1000);
    }
}
