//! Interleaved rounds: every contender of a workload runs once per round,
//! in an order that rotates each round (A B C, B C A, …), so drift of the
//! machine hits all alike, and the load of other processes is recorded
//! beside each figure; the rounds of all workloads are interleaved too
//! ([`run`]: round 1 of every workload, then round 2, …), so each
//! workload's rounds sample the machine over the whole run, not over the
//! few seconds a workload alone would last; and the one time budget all
//! workloads of a run share ([`Schedule`]).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::channel::Kind;
use crate::load;
use crate::progress::Progress;
use crate::results::{Measured, Round, Row, Unit, Workload};
use crate::workloads::floor;

/// One contender of a workload: its name and how to run it once with a
/// given number of items.
pub struct Entry {
    /// The row name.
    pub name: String,
    /// Ours, peer, baseline or limit.
    pub kind: Kind,
    /// One run of that many items (or round trips, or events).
    pub run: Box<dyn FnMut(u64) -> Measured>,
    /// For a mode probe (see [`Entry::probe`]): the most items one of its
    /// runs gets, in place of the workload's.
    pub probe: Option<u64>,
}

impl Entry {
    /// An entry from a name, a kind and a run.
    pub fn new(
        name: impl Into<String>,
        kind: Kind,
        run: impl FnMut(u64) -> Measured + 'static,
    ) -> Entry {
        Entry {
            name: name.into(),
            kind,
            run: Box::new(run),
            probe: None,
        }
    }

    /// A short run beside a workload's contenders, up to `max_items` items
    /// of its own: each of its runs is planned at [`MIN_RUN`] (or the
    /// workload's time per run, if less), whatever the workload's share of
    /// the budget, and it is not counted in the schedule's slots (the time
    /// it takes comes out of the time left for the workloads after it).
    /// The floor of a workload whose floor is not a contender of its own
    /// shape (see `suites::probe`).
    pub fn probe(
        name: impl Into<String>,
        kind: Kind,
        max_items: u64,
        run: impl FnMut(u64) -> Measured + 'static,
    ) -> Entry {
        Entry {
            probe: Some(max_items),
            ..Entry::new(name, kind, run)
        }
    }

    /// The time one run of this entry is planned to last, in a workload of
    /// `budget` per run.
    fn budget(&self, budget: Duration) -> Duration {
        match self.probe {
            Some(_) => budget.min(MIN_RUN),
            None => budget,
        }
    }

    /// `plan` with this entry's item ceiling.
    fn plan(&self, plan: &Plan) -> Plan {
        Plan {
            items: self.probe.unwrap_or(plan.items),
            ..plan.clone()
        }
    }
}

/// How many rounds, how many items, how long a run may last.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Rounds per workload.
    pub rounds: usize,
    /// Rounds of a workload that decides a goal (see
    /// [`Pending::deciding_a_goal`]), if other than `rounds`.
    pub goal_rounds: Option<usize>,
    /// Items per run, at most.
    pub items: u64,
    /// How long one run may last when there is no [`Schedule`]: a contender
    /// slower than this much work per budget gets fewer items, so slow
    /// baselines do not dominate the run time.
    pub budget: Duration,
    /// The run's shared time budget; it sets each workload's time per run
    /// instead of `budget`.
    pub schedule: Option<Arc<Schedule>>,
}

/// Runs of one contender's calibration, counted in runs of the workload's
/// length (it ramps up from 1,000 items, then runs once or twice at the
/// fitted size; see `calibrate`).
pub const CALIBRATION_RUNS: u64 = 2;

/// No run is planned shorter than this (a few scheduler ticks; shorter
/// runs measure the timer and the thread start).
pub const MIN_RUN: Duration = Duration::from_millis(10);

/// Nor longer than this.
pub const MAX_RUN: Duration = Duration::from_secs(1);

/// One time budget that every workload of a run shares: [`run`] counts
/// the run first (every workload's contenders × (rounds + calibration),
/// its *slots*), then each workload, when it is calibrated, gets the time
/// still left divided by the slots still to run, per run. A workload whose
/// calibration overran (an oversubscribed shape that the scheduler slowed
/// down) shortens the runs of those calibrated after it, so the whole run
/// stays near the budget however many suites it has.
#[derive(Debug)]
pub struct Schedule {
    total: Duration,
    state: Mutex<ScheduleState>,
}

#[derive(Debug, Default)]
struct ScheduleState {
    slots: u64,
    done: u64,
    start: Option<Instant>,
}

impl Schedule {
    /// A budget of `total` for the whole run.
    pub fn new(total: Duration) -> Arc<Schedule> {
        Arc::new(Schedule {
            total,
            state: Mutex::new(ScheduleState::default()),
        })
    }

    /// The whole run's budget.
    pub fn total(&self) -> Duration {
        self.total
    }

    /// Starts the clock on a run of `slots` slots.
    fn start(&self, slots: u64) {
        let mut s = self.state();
        s.slots = slots;
        s.done = 0;
        s.start = Some(Instant::now());
    }

    /// The run's slots (zero before [`run`] starts it).
    pub fn slots(&self) -> u64 {
        self.state().slots
    }

    fn state(&self) -> std::sync::MutexGuard<'_, ScheduleState> {
        self.state
            .lock()
            .expect("the schedule is only used by the main thread")
    }

    /// The time per run of a workload of `slots` slots starting now.
    fn per_run(&self, slots: u64) -> Duration {
        let s = self.state();
        let elapsed = s.start.map_or(Duration::ZERO, |t| t.elapsed());
        let left = s.slots.saturating_sub(s.done).max(slots).max(1);
        let remaining = self.total.saturating_sub(elapsed);
        (remaining / left as u32).clamp(MIN_RUN, MAX_RUN)
    }

    fn finished(&self, slots: u64) {
        self.state().done += slots;
    }
}

/// Items (at most `plan.items`) that `run` gets through in about
/// `budget`: runs of 1,000, 8,000, … items (results discarded; they
/// also warm up caches and the allocator) until one lasts a tenth of the
/// budget or reaches `plan.items`, then up to two runs at the fitted size
/// to correct a first guess that a busy machine slowed down.
fn calibrate(plan: &Plan, budget: Duration, run: &mut dyn FnMut(u64) -> Measured) -> u64 {
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

/// A workload set up and not yet run: its contenders and its plan. The
/// suites make one per workload; [`run`] runs them all together.
pub struct Pending {
    suite: &'static str,
    name: String,
    params: String,
    unit: Unit,
    plan: Plan,
    entries: Vec<Entry>,
    /// Rounds this workload gets (`plan.goal_rounds` if it decides a goal).
    rounds: usize,
}

impl Pending {
    /// The workload's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The same workload, given the rounds of one that decides a goal
    /// (`plan.goal_rounds`, where set). Which workloads decide a goal is
    /// the report's to say; the caller asks it (the scheduler does not
    /// read the report).
    pub fn deciding_a_goal(mut self) -> Pending {
        if let Some(g) = self.plan.goal_rounds {
            self.rounds = g;
        }
        self
    }

    /// Its contenders that the schedule counts (probes are not).
    fn counted(&self) -> u64 {
        self.entries.iter().filter(|e| e.probe.is_none()).count() as u64
    }

    /// Its slots: runs counted in the schedule.
    fn slots(&self) -> u64 {
        self.counted() * (self.rounds as u64 + CALIBRATION_RUNS)
    }
}

/// A workload of `entries`, to be run by [`run`] for `plan.rounds` rounds
/// (see [`Pending::deciding_a_goal`] for `plan.goal_rounds`).
pub fn workload(
    suite: &'static str,
    name: String,
    params: String,
    unit: Unit,
    plan: Plan,
    entries: Vec<Entry>,
) -> Pending {
    Pending {
        suite,
        name,
        params,
        unit,
        rounds: plan.rounds,
        plan,
        entries,
    }
}

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
        });
        progress.done(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::rc::Rc;

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

    #[test]
    fn each_workload_gets_the_time_left_over_the_runs_left() {
        let s = Schedule::new(Duration::from_secs(10));
        {
            let mut st = s.state();
            st.slots = 100;
            st.start = Some(Instant::now());
        }
        let first = s.per_run(10);
        assert!(first <= Duration::from_millis(100) && first > Duration::from_millis(90));
        // Half the slots done in no time: the rest get twice as long.
        s.finished(50);
        let later = s.per_run(10);
        assert!(later > Duration::from_millis(180) && later <= Duration::from_millis(200));
        // Too many runs for the budget: no run is planned shorter than
        // MIN_RUN (the run then overruns, and says so in its time).
        s.state().slots = 10_000_000;
        assert_eq!(s.per_run(10), MIN_RUN);
        s.state().slots = 51;
        assert_eq!(s.per_run(1), MAX_RUN);
    }
}
