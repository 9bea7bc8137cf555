//! Running every pending workload: calibration, then the rounds of all
//! workloads interleaved, each contender once per round in an order that
//! rotates.

use std::time::{Duration, Instant};

use super::calibrate::calibrate;
use super::pending::Pending;
use super::schedule::{CALIBRATION_RUNS, Schedule};
use crate::load;
use crate::progress::Progress;
use crate::results::{Round, Row, Workload};
use crate::workloads::floor;

/// Whether a workload of `rounds` rounds, `done` of them run, runs one in
/// global round `g` of `most`: its rounds are spread evenly over the run's
/// rounds (its k-th in global round ⌊k·most/rounds⌋), so a workload of
/// fewer rounds than the others does not take them all at the start.
fn due(done: usize, rounds: usize, g: usize, most: usize) -> bool {
    done < rounds && done * most / rounds <= g
}

/// Runs every workload of `pending`: each contender calibrated (workload
/// by workload, each getting its share of what is left of `schedule`'s
/// budget, or `plan.budget` per run without one), then the rounds of all
/// workloads interleaved: in each global round every workload that is due
/// (see `due`) runs one round, each of its contenders once in an order
/// that rotates with its rounds. Two runs of the report, minutes apart,
/// then sample each workload over the same spread of the machine's
/// moods: run one workload's rounds back to back and they see a few
/// seconds of it, the verdicts of two runs then read two different
/// machines (2026-12-02: 23 of 37 the same between two consecutive runs).
pub fn run(
    pending: Vec<Pending>,
    schedule: Option<&Schedule>,
    progress: &Progress,
) -> Vec<Workload> {
    if let Some(s) = schedule {
        s.start(pending.iter().map(Pending::slots).sum());
    }
    // Every run, probes included: each is one step of the bar.
    progress.start(
        pending
            .iter()
            .map(|p| p.entries.len() as u64 * (p.rounds as u64 + CALIBRATION_RUNS))
            .sum(),
    );
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut running: Vec<Running> = pending
        .into_iter()
        .map(|mut p| {
            let budget = match schedule {
                Some(s) => s.per_run(p.slots()),
                None => p.plan.budget,
            };
            let mut rows: Vec<Row> = p
                .entries
                .iter()
                .map(|e| Row {
                    name: e.name.clone(),
                    kind: e.kind,
                    items: 0,
                    rounds: Vec::with_capacity(p.rounds),
                    histogram: None,
                })
                .collect();
            for (e, row) in p.entries.iter_mut().zip(&mut rows) {
                progress.running(&p.name, None, &e.name);
                row.items = calibrate(&e.plan(&p.plan), e.budget(budget), &mut *e.run);
                progress.done(CALIBRATION_RUNS);
            }
            if let Some(s) = schedule {
                s.finished(p.counted() * CALIBRATION_RUNS);
            }
            Running {
                pending: p,
                rows,
                budget,
                distance: Vec::new(),
            }
        })
        .collect();
    let most = running.iter().map(|r| r.pending.rounds).max().unwrap_or(0);
    for g in 0..most {
        for w in &mut running {
            if !due(w.done(), w.pending.rounds, g, most) {
                continue;
            }
            one_round(w, cores, progress);
            if let Some(s) = schedule {
                s.finished(w.pending.counted());
            }
        }
    }
    progress.finish();
    running
        .into_iter()
        .map(|w| Workload {
            suite: w.pending.suite,
            name: w.pending.name,
            params: w.pending.params,
            unit: w.pending.unit,
            rows: w.rows,
            per_run: w.budget,
            distance: w.distance,
        })
        .collect()
}

/// A workload being run: what it was set up with, its rows so far, and its
/// time per run.
struct Running {
    pending: Pending,
    rows: Vec<Row>,
    budget: Duration,
    /// [`floor::distance`] before each round so far.
    distance: Vec<f64>,
}

impl Running {
    /// Rounds run so far.
    fn done(&self) -> usize {
        self.rows.first().map_or(0, |r| r.rounds.len())
    }
}

/// The next round of one workload (its `r`-th): each contender once,
/// starting with the `r`-th (mod their number).
fn one_round(w: &mut Running, cores: usize, progress: &Progress) {
    let r = w.done();
    let Running {
        pending: p,
        rows,
        budget,
        distance,
    } = w;
    let budget = *budget;
    let n = p.entries.len();
    distance.push(floor::distance());
    progress.round(&p.name, r, p.rounds);
    for i in 0..n {
        let idx = (i + r) % n;
        progress.running(&p.name, Some((r, p.rounds)), &p.entries[idx].name);
        let before = load::Sample::now();
        let items = rows[idx].items;
        let t0 = Instant::now();
        let m = (p.entries[idx].run)(items);
        let took = t0.elapsed();
        let after = load::Sample::now();
        // A machine that got busier than during calibration: later
        // rounds of this contender get fewer items, so one slow phase
        // cannot stretch the whole report.
        let (budget, ceiling) = (
            p.entries[idx].budget(budget),
            p.entries[idx].plan(&p.plan).items,
        );
        if took > 2 * budget {
            let fit = budget.as_secs_f64() / took.as_secs_f64() * items as f64;
            rows[idx].items = (fit as u64).clamp(ceiling.min(1000), items);
        }
        let others_load = before.zip(after).map(|(b, a)| b.others_until(&a, cores));
        let percentiles = m.histogram.as_ref().map(|h| {
            [
                h.value_at_quantile(0.5) as f64,
                h.value_at_quantile(0.99) as f64,
                h.value_at_quantile(0.999) as f64,
            ]
        });
        let row = &mut rows[idx];
        if let Some(h) = m.histogram {
            match &mut row.histogram {
                Some(all) => all
                    .add(&h)
                    .expect("histograms of one workload share bounds"),
                none => *none = Some(h),
            }
        }
        row.rounds.push(Round {
            items,
            figure: m.figure,
            others_load,
            percentiles,
            process: 0,
        });
        progress.done(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::Kind;
    use crate::results::{Measured, Unit};
    use crate::rounds::entry::Entry;
    use crate::rounds::pending::workload;
    use crate::rounds::plan::Plan;
    use std::cell::Cell;
    use std::rc::Rc;
    use std::sync::Arc;

    /// A workload `name` of `rounds` rounds of `entries` under `schedule`.
    fn pending(
        name: &str,
        rounds: usize,
        schedule: &Arc<Schedule>,
        entries: Vec<Entry>,
    ) -> Pending {
        let plan = Plan {
            rounds,
            goal_rounds: None,
            items: 5000,
            budget: Duration::from_secs(1),
            schedule: Some(schedule.clone()),
        };
        workload(
            "t",
            name.into(),
            String::new(),
            Unit::MItemsPerSec,
            plan,
            entries,
        )
    }

    #[test]
    fn a_scheduled_run_counts_every_slot_and_runs_every_round() {
        let s = Schedule::new(Duration::from_secs(2));
        let calls = Rc::new(Cell::new(0u32));
        let counter = calls.clone();
        let entries = vec![Entry::new("a", Kind::Ours, move |n| {
            counter.set(counter.get() + 1);
            Measured::from(n as f64)
        })];
        let ws = run(
            vec![pending("w", 3, &s, entries)],
            Some(&s),
            &Progress::hidden(),
        );
        assert_eq!(s.slots(), 3 + CALIBRATION_RUNS);
        assert_eq!(ws[0].rows[0].rounds.len(), 3, "every round ran");
        // The calls are calibration (it ramps 1,000 → 5,000 at once on a
        // run that takes no time) and the rounds.
        assert!(
            calls.get() >= 3 && calls.get() <= 3 + 4,
            "{} runs",
            calls.get()
        );
        assert!(ws[0].rows[0].rounds.iter().all(|r| r.items == 5000));
    }

    #[test]
    fn the_rounds_of_all_workloads_are_interleaved_and_spread_over_the_run() {
        let s = Schedule::new(Duration::from_secs(2));
        // Which workload ran, in order, once calibration is over (its
        // runs are of 1,000 and 5,000 items; the rounds run 5,000 and
        // record who ran).
        let log = Rc::new(std::cell::RefCell::new(Vec::new()));
        let mut workloads = Vec::new();
        for (name, rounds) in [("two", 2), ("four", 4)] {
            let log = log.clone();
            let entries = vec![Entry::new(name, Kind::Ours, move |n| {
                log.borrow_mut().push((name, n));
                Measured::from(n as f64)
            })];
            workloads.push(pending(name, rounds, &s, entries));
        }
        let ws = run(workloads, Some(&s), &Progress::hidden());
        assert_eq!(
            ws.iter()
                .map(|w| w.rows[0].rounds.len())
                .collect::<Vec<_>>(),
            [2, 4]
        );
        let log = log.borrow();
        // Calibration of both first (two at 1,000 items then one at
        // 5,000 each), then the rounds: "two" in global rounds 0 and 2 of
        // "four"'s 0-3.
        let rounds: Vec<&str> = log[log.len() - 6..].iter().map(|(n, _)| *n).collect();
        assert_eq!(rounds, ["two", "four", "four", "two", "four", "four"]);
        assert!(log[..log.len() - 6].iter().all(|(_, n)| *n <= 5000));
        assert_eq!(log[0].0, "two");
        assert!(
            log[..log.len() - 6]
                .iter()
                .skip_while(|(n, _)| *n == "two")
                .all(|(n, _)| *n == "four")
        );
    }

    #[test]
    fn a_workload_of_fewer_rounds_spreads_them_evenly() {
        let when = |rounds: usize, most: usize| {
            let mut done = 0;
            let mut at = Vec::new();
            for g in 0..most {
                if due(done, rounds, g, most) {
                    at.push(g);
                    done += 1;
                }
            }
            at
        };
        assert_eq!(when(4, 4), [0, 1, 2, 3]);
        assert_eq!(when(2, 4), [0, 2]);
        assert_eq!(when(10, 50), [0, 5, 10, 15, 20, 25, 30, 35, 40, 45]);
        assert_eq!(when(3, 10), [0, 3, 6]);
        assert_eq!(when(1, 50), [0]);
        assert_eq!(when(0, 5), Vec::<usize>::new());
    }

    #[test]
    fn a_probe_runs_every_round_short_and_outside_the_slots() {
        let s = Schedule::new(Duration::from_secs(100));
        let entries = vec![
            Entry::new("a", Kind::Ours, |n| Measured::from(n as f64)),
            // 1 ms per 100 items: its 10 ms runs fit about 1,000.
            Entry::probe("limit", Kind::Limit, 1_000_000, |n| {
                std::thread::sleep(Duration::from_micros(10 * n));
                Measured::from(n as f64)
            }),
        ];
        let ws = run(
            vec![pending("w", 4, &s, entries)],
            Some(&s),
            &Progress::hidden(),
        );
        assert_eq!(s.slots(), 4 + CALIBRATION_RUNS, "the probe takes no slots");
        let probe = &ws[0].rows[1];
        assert_eq!((probe.kind, probe.rounds.len()), (Kind::Limit, 4));
        // Its own ceiling, not the workload's 5,000, and runs near MIN_RUN
        // (the workload's 16 s per run would have given it 1,000,000).
        assert!(
            probe.items > 100 && probe.items < 5000,
            "{} items",
            probe.items
        );
    }
}
