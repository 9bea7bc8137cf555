//! Interleaved rounds: every contender of a workload runs once per round,
//! in an order that rotates each round (A B C, B C A, …), so drift of the
//! machine hits all alike, and the load of other processes is recorded
//! beside each figure; and the one time budget all workloads of a run
//! share ([`Schedule`]).

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;

use crate::channel::Kind;
use crate::load;

/// What one run of a contender measured.
pub struct Measured {
    /// Throughput in M items/s, or a round trip in ns.
    pub figure: f64,
    /// Every round trip of the run, for latency workloads.
    pub histogram: Option<Histogram<u64>>,
}

impl From<f64> for Measured {
    fn from(figure: f64) -> Self {
        Measured {
            figure,
            histogram: None,
        }
    }
}

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
    /// shape (see `workloads::floor::probe`).
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

/// One round of one contender.
#[derive(Debug, Clone)]
pub struct Round {
    /// Items (or trips, or events) the run moved.
    pub items: u64,
    /// The figure of the run.
    pub figure: f64,
    /// Cores' worth of CPU other processes used during it (`None`: unknown).
    pub others_load: Option<f64>,
    /// Median, p99 and p99.9 of the run's round trips (latency only).
    pub percentiles: Option<[f64; 3]>,
}

/// A contender's rounds.
#[derive(Debug)]
pub struct Row {
    /// The row name.
    pub name: String,
    /// Ours, peer, baseline or limit.
    pub kind: Kind,
    /// Items (or trips, or events) for the next run: the workload's number,
    /// or fewer for a contender so slow that a run would outlast the time
    /// budget (each round records what it ran).
    pub items: u64,
    /// One per round, in round order.
    pub rounds: Vec<Round>,
    /// Every round trip of every round (latency only).
    pub histogram: Option<Histogram<u64>>,
}

/// What the workload measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Throughput, higher is better.
    MItemsPerSec,
    /// Round-trip time, lower is better.
    Nanos,
}

impl Unit {
    /// How the tables write it.
    pub fn label(self) -> &'static str {
        match self {
            Unit::MItemsPerSec => "M items/s",
            Unit::Nanos => "ns",
        }
    }
    /// Whether a bigger figure is better.
    pub fn higher_is_better(self) -> bool {
        self == Unit::MItemsPerSec
    }
}

/// A workload's results.
#[derive(Debug)]
pub struct Workload {
    /// `spsc`, `latency`, `mpmc` or `disruptor`.
    pub suite: &'static str,
    /// A short name, unique in the report (also the plot's file name).
    pub name: String,
    /// The workload's parameters, in words.
    pub params: String,
    /// What the figures are.
    pub unit: Unit,
    /// One per contender.
    pub rows: Vec<Row>,
    /// The time each run was planned to last: its share of the run's
    /// budget, or the fixed budget per run without one.
    pub per_run: Duration,
}

/// How many rounds, how many items, how long a run may last.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Rounds per workload.
    pub rounds: usize,
    /// Rounds of a workload that decides a goal (see
    /// [`crate::report::goals::goal_workloads`]), if other than `rounds`.
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

/// One time budget that every workload of a run shares: the run is first
/// counted (every workload's contenders × (rounds + calibration), its
/// *slots*), then each workload, when it starts, gets the time still left
/// divided by the slots still to run, per run. A workload that overran
/// (an oversubscribed shape that the scheduler slowed down) shortens the
/// runs of those after it, so the whole run stays near the budget however
/// many suites it has.
#[derive(Debug)]
pub struct Schedule {
    total: Duration,
    state: Mutex<ScheduleState>,
}

#[derive(Debug, Default)]
struct ScheduleState {
    counting: bool,
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

    /// Calls `run` twice: first to count its workloads' slots (every
    /// [`interleave`] returns at once, with no rounds), then for real.
    pub fn run<T>(&self, mut run: impl FnMut() -> T) -> T {
        self.state().counting = true;
        run();
        {
            let mut s = self.state();
            s.counting = false;
            s.start = Some(Instant::now());
        }
        run()
    }

    /// Slots counted so far (all of them, once [`run`](Schedule::run) has
    /// counted).
    pub fn slots(&self) -> u64 {
        self.state().slots
    }

    fn state(&self) -> std::sync::MutexGuard<'_, ScheduleState> {
        self.state
            .lock()
            .expect("the schedule is only used by the main thread")
    }

    /// `Some(())` in the counting pass, after counting `slots`.
    fn counted(&self, slots: u64) -> Option<()> {
        let mut s = self.state();
        s.counting.then(|| s.slots += slots)
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

/// Runs `entries` for `plan.rounds` interleaved rounds.
pub fn interleave(
    suite: &'static str,
    name: String,
    params: String,
    unit: Unit,
    plan: Plan,
    mut entries: Vec<Entry>,
) -> Workload {
    let rounds = match plan.goal_rounds {
        Some(g) if crate::report::goals::decides_a_goal(&name) => g,
        _ => plan.rounds,
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let n = entries.len();
    let counted = entries.iter().filter(|e| e.probe.is_none()).count();
    let slots = counted as u64 * (rounds as u64 + CALIBRATION_RUNS);
    let budget = match &plan.schedule {
        Some(s) if s.counted(slots).is_some() => {
            return Workload {
                suite,
                name,
                params,
                unit,
                rows: Vec::new(),
                per_run: Duration::ZERO,
            };
        }
        Some(s) => s.per_run(slots),
        None => plan.budget,
    };
    let mut rows: Vec<Row> = entries
        .iter()
        .map(|e| Row {
            name: e.name.clone(),
            kind: e.kind,
            items: 0,
            rounds: Vec::with_capacity(rounds),
            histogram: None,
        })
        .collect();
    let tty = std::io::stderr().is_terminal();
    for (e, row) in entries.iter_mut().zip(&mut rows) {
        progress(
            tty,
            false,
            &name,
            0,
            rounds,
            &format!("calibrating {}", e.name),
        );
        row.items = calibrate(&e.plan(&plan), e.budget(budget), &mut *e.run);
    }
    for r in 0..rounds {
        for i in 0..n {
            let idx = (i + r) % n;
            progress(tty, i == 0, &name, r, rounds, &entries[idx].name);
            let before = load::Sample::now();
            let items = rows[idx].items;
            let t0 = Instant::now();
            let m = (entries[idx].run)(items);
            let took = t0.elapsed();
            let after = load::Sample::now();
            // A machine that got busier than during calibration: later
            // rounds of this contender get fewer items, so one slow phase
            // cannot stretch the whole report.
            let (budget, ceiling) = (entries[idx].budget(budget), entries[idx].plan(&plan).items);
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
        }
    }
    if tty {
        eprint!("\r\x1b[K");
    }
    if let Some(s) = &plan.schedule {
        s.finished(slots);
    }
    Workload {
        suite,
        name,
        params,
        unit,
        rows,
        per_run: budget,
    }
}

/// Progress on stderr: which workload, which round, which contender
/// (rewritten in place on a terminal; one line per round otherwise).
fn progress(tty: bool, first: bool, workload: &str, round: usize, rounds: usize, contender: &str) {
    let mut err = std::io::stderr();
    if tty {
        let _ = write!(
            err,
            "\r\x1b[K[{workload}] round {}/{rounds}: {contender}",
            round + 1
        );
        let _ = err.flush();
    } else if first {
        let _ = writeln!(err, "[{workload}] round {}/{rounds}", round + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::rc::Rc;

    #[test]
    fn a_scheduled_run_is_counted_first_and_runs_once() {
        let s = Schedule::new(Duration::from_secs(2));
        let calls = Rc::new(Cell::new(0u32));
        let plan = Plan {
            rounds: 3,
            goal_rounds: None,
            items: 5000,
            budget: Duration::from_secs(1),
            schedule: Some(s.clone()),
        };
        let mut passes = 0;
        let w = s.run(|| {
            passes += 1;
            let calls = calls.clone();
            let entries = vec![Entry::new("a", Kind::Ours, move |n| {
                calls.set(calls.get() + 1);
                Measured::from(n as f64)
            })];
            interleave(
                "t",
                "w".into(),
                String::new(),
                Unit::MItemsPerSec,
                plan.clone(),
                entries,
            )
        });
        assert_eq!(passes, 2);
        assert_eq!(s.slots(), 3 + CALIBRATION_RUNS);
        assert_eq!(w.rows[0].rounds.len(), 3, "the real pass ran every round");
        // The counting pass ran nothing: the calls are calibration (it ramps
        // 1,000 → 5,000 at once on a run that takes no time) and the rounds.
        assert!(
            calls.get() >= 3 && calls.get() <= 3 + 4,
            "{} runs",
            calls.get()
        );
        assert!(w.rows[0].rounds.iter().all(|r| r.items == 5000));
    }

    #[test]
    fn a_probe_runs_every_round_short_and_outside_the_slots() {
        let s = Schedule::new(Duration::from_secs(100));
        let plan = Plan {
            rounds: 4,
            goal_rounds: None,
            items: 5000,
            budget: Duration::from_secs(1),
            schedule: Some(s.clone()),
        };
        let w = s.run(|| {
            let entries = vec![
                Entry::new("a", Kind::Ours, |n| Measured::from(n as f64)),
                // 1 ms per 100 items: its 10 ms runs fit about 1,000.
                Entry::probe("limit", Kind::Limit, 1_000_000, |n| {
                    std::thread::sleep(Duration::from_micros(10 * n));
                    Measured::from(n as f64)
                }),
            ];
            interleave(
                "t",
                "w".into(),
                String::new(),
                Unit::MItemsPerSec,
                plan.clone(),
                entries,
            )
        });
        assert_eq!(s.slots(), 4 + CALIBRATION_RUNS, "the probe takes no slots");
        let probe = &w.rows[1];
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
