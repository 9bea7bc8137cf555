//! The performance goals, read off the workloads of this run: each
//! a per-round ratio (or a ratio of medians, where the two figures come
//! from different workloads) against its target, decided by the 95 %
//! bootstrap interval of the median ratio: met when the whole interval is
//! on the goal's side, missed when it is all on the other, undecided when
//! it straddles the target. The machine has modes (a core pair that keeps
//! pace, one that falls behind), read off each round's floor by
//! [`floor::classify`]: a goal's verdict and interval are those of all its
//! rounds (interleaved over the whole run, so they sample its modes as the
//! machine had them), undecided where one mode with [`MIN_ROUNDS`] rounds
//! meets it and another misses it; each mode's own interval and verdict
//! are kept beside. Goals, not tests: the report states where we stand,
//! nothing fails on them.

use super::bootstrap::{self, Interval};
use super::floor;
use crate::results::{Row, Workload};
use crate::sequenced::{self, Topology};
use crate::summary::Summary;

/// What a goal is read from.
#[derive(Debug, Clone)]
pub enum Evidence {
    /// `a / b` in each round of one workload (paired: both ran in the same
    /// round, so drift of the machine cancels).
    PerRound {
        /// The workload.
        workload: String,
        /// One ratio per round, in round order.
        ratios: Vec<f64>,
    },
    /// `median(a) / median(b)` where `a` and `b` come from two workloads
    /// (their rounds are not paired; each side is resampled on its own).
    Medians {
        /// The workloads of `a` and of `b`.
        workloads: [String; 2],
        /// `a`'s figure per round.
        a: Vec<f64>,
        /// `b`'s figure per round.
        b: Vec<f64>,
    },
    /// A ratio with no rounds behind it (no interval: never decided).
    Point(Summary),
}

impl Evidence {
    /// The workloads the figures come from.
    pub fn workloads(&self) -> Vec<&str> {
        match self {
            Evidence::PerRound { workload, .. } => vec![workload],
            Evidence::Medians { workloads, .. } => workloads.iter().map(String::as_str).collect(),
            Evidence::Point(_) => Vec::new(),
        }
    }

    /// How many rounds back the ratio (the fewer side's, for two workloads).
    pub fn rounds(&self) -> usize {
        match self {
            Evidence::PerRound { ratios, .. } => ratios.len(),
            Evidence::Medians { a, b, .. } => a.len().min(b.len()),
            Evidence::Point(_) => 1,
        }
    }

    /// The ratio's median, minimum and maximum: over rounds, or of the
    /// two medians.
    pub fn summary(&self) -> Summary {
        match self {
            Evidence::PerRound { ratios, .. } => Summary::of(ratios),
            Evidence::Medians { a, b, .. } => {
                Summary::of(&[Summary::of(a).median / Summary::of(b).median])
            }
            Evidence::Point(s) => *s,
        }
    }

    /// The 95 % bootstrap interval of the median ratio (seeded by `seed`).
    pub fn interval(&self, seed: u64) -> Option<Interval> {
        match self {
            Evidence::PerRound { ratios, .. } => Some(bootstrap::median(ratios, seed)),
            Evidence::Medians { a, b, .. } => Some(bootstrap::ratio_of_medians(a, b, seed)),
            Evidence::Point(_) => None,
        }
    }
}

/// The floor's mode in each round of a goal's evidence: one per ratio, or
/// one per figure of each side.
#[derive(Debug, Clone, PartialEq)]
pub enum RoundModes {
    /// For [`Evidence::PerRound`].
    PerRound(Vec<floor::Mode>),
    /// For [`Evidence::Medians`]: `a`'s rounds, then `b`'s.
    Medians(Vec<floor::Mode>, Vec<floor::Mode>),
}

impl RoundModes {
    /// Every round's mode, across the goal's workloads.
    pub fn all(&self) -> Vec<floor::Mode> {
        match self {
            RoundModes::PerRound(m) => m.clone(),
            RoundModes::Medians(a, b) => a.iter().chain(b).copied().collect(),
        }
    }
}

impl Evidence {
    /// The modes of `self`'s rounds, classified from the floors of its
    /// workloads (`None` when one has no floor row). Two workloads' floors
    /// are classified together: the goals that read two workloads read
    /// two that run the same floor.
    pub fn modes(&self, ws: &[Workload]) -> Option<RoundModes> {
        let floor_of = |name: &str| floor::of(workload(ws, name)?);
        match self {
            Evidence::PerRound { workload, ratios } => {
                let f = floor_of(workload)?;
                (f.per_round.len() == ratios.len()).then_some(RoundModes::PerRound(f.modes))
            }
            Evidence::Medians { workloads, a, b } => {
                let (fa, fb) = (floor_of(&workloads[0])?, floor_of(&workloads[1])?);
                if fa.per_round.len() != a.len() || fb.per_round.len() != b.len() {
                    return None;
                }
                let both: Vec<f64> = fa.per_round.iter().chain(&fb.per_round).copied().collect();
                let mut modes = floor::classify(&both, fa.unit);
                let of_b = modes.split_off(a.len());
                Some(RoundModes::Medians(modes, of_b))
            }
            Evidence::Point(_) => None,
        }
    }

    /// The rounds of `self` whose mode is `mode` (`None` if a side has
    /// none).
    pub fn of_mode(&self, modes: &RoundModes, mode: floor::Mode) -> Option<Evidence> {
        fn pick(v: &[f64], modes: &[floor::Mode], mode: floor::Mode) -> Vec<f64> {
            v.iter()
                .zip(modes)
                .filter(|(_, m)| **m == mode)
                .map(|(x, _)| *x)
                .collect()
        }
        match (self, modes) {
            (Evidence::PerRound { workload, ratios }, RoundModes::PerRound(m)) => {
                let ratios = pick(ratios, m, mode);
                (!ratios.is_empty()).then(|| Evidence::PerRound {
                    workload: workload.clone(),
                    ratios,
                })
            }
            (Evidence::Medians { workloads, a, b }, RoundModes::Medians(ma, mb)) => {
                let (a, b) = (pick(a, ma, mode), pick(b, mb, mode));
                (!a.is_empty() && !b.is_empty()).then(|| Evidence::Medians {
                    workloads: workloads.clone(),
                    a,
                    b,
                })
            }
            _ => None,
        }
    }
}

/// What the goal's functions accept as evidence: what `per_round` and
/// `medians` return, or (as goals were first written) a bare summary.
#[derive(Debug, Clone)]
pub struct Measure(Option<Evidence>);

impl From<Option<Evidence>> for Measure {
    fn from(e: Option<Evidence>) -> Self {
        Measure(e)
    }
}

impl From<Option<Summary>> for Measure {
    fn from(s: Option<Summary>) -> Self {
        Measure(s.map(Evidence::Point))
    }
}

/// Where a goal stands, from the 95 % interval of its median ratio.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The whole interval is on the goal's side of the target.
    Met,
    /// The whole interval is on the wrong side.
    Missed,
    /// The interval straddles the target, or too few rounds back it.
    Undecided,
}

impl Verdict {
    /// The name the JSON and the tables use.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Met => "met",
            Verdict::Missed => "missed",
            Verdict::Undecided => "undecided",
        }
    }
}

/// Fewer rounds than this give no verdict: with four, the 95 % interval
/// of a median cannot be narrower than the rounds' whole range (and covers
/// less than 95 %).
pub const MIN_ROUNDS: usize = 5;

/// The verdict of a goal `≥ target` (`at_least`) or `≤ target` whose
/// median ratio has interval `i` over `rounds` rounds.
pub fn verdict(at_least: bool, target: f64, i: Option<Interval>, rounds: usize) -> Verdict {
    let Some(i) = i else {
        return Verdict::Undecided;
    };
    if rounds < MIN_ROUNDS {
        return Verdict::Undecided;
    }
    let (good, bad) = if at_least {
        (i.lo >= target, i.hi < target)
    } else {
        (i.hi <= target, i.lo > target)
    };
    match (good, bad) {
        (true, _) => Verdict::Met,
        (_, true) => Verdict::Missed,
        _ => Verdict::Undecided,
    }
}

/// One goal and where this run stands.
#[derive(Debug, Clone)]
pub struct Goal {
    /// What is compared, in words.
    pub what: String,
    /// The target, e.g. `≥ 1.20`.
    pub target: String,
    /// Whether the ratio must reach the target (`≥`) or stay under it (`≤`).
    pub at_least: bool,
    /// The target's number.
    pub threshold: f64,
    /// The figures behind it, if both rows ran.
    pub evidence: Option<Evidence>,
    /// The measured ratio (median, min–max) over all rounds, if both rows
    /// ran.
    pub measured: Option<Summary>,
    /// The 95 % bootstrap interval of the median ratio over all rounds.
    pub interval: Option<Interval>,
    /// The verdict of those rounds, or undecided where one mode with
    /// [`MIN_ROUNDS`] meets the goal and another misses it
    /// (`modes_disagree`); `None` when a row is missing.
    pub verdict: Option<Verdict>,
    /// The interval over every round, whatever the floor's mode.
    pub all_interval: Option<Interval>,
    /// The verdict of every round.
    pub all_verdict: Option<Verdict>,
    /// The dominant mode: the one with most rounds over the goal's
    /// workloads (ties go to the fast mode); `None` when a workload behind
    /// the goal has no floor.
    pub decided_by: Option<floor::Mode>,
    /// The rounds over the goal's workloads (a goal that reads two
    /// workloads counts both), of all modes.
    pub rounds: usize,
    /// The goal's two workloads ran in different modes (no mode has rounds
    /// of both): decided by all rounds, and flagged.
    pub modes_apart: bool,
    /// Rounds per floor mode over the goal's workloads (empty without a
    /// floor).
    pub mode_rounds: Vec<(floor::Mode, usize)>,
    /// One mode with [`MIN_ROUNDS`] meets the goal and another misses it:
    /// a run that the other mode dominated would say otherwise, so the
    /// goal is undecided.
    pub modes_disagree: bool,
    /// The floor of a workload behind the goal moved by more than
    /// [`floor::MOVED`] (for a workload with no floor row: some floor of the
    /// run did), so the verdict mixes two modes of the machine.
    pub flagged: bool,
    /// Other processes used more than [`BUSY`] cores' worth of CPU (median
    /// over the rounds of the workloads behind the goal).
    pub busy: bool,
    /// The goal read off the rounds of each floor mode alone (one entry,
    /// `steady`, when the floor did not move; none without a floor).
    pub by_mode: Vec<ByMode>,
}

/// A goal read off the rounds of one floor mode.
#[derive(Debug, Clone)]
pub struct ByMode {
    /// The floor's mode in those rounds.
    pub mode: floor::Mode,
    /// How many rounds, over the goal's workloads.
    pub rounds: usize,
    /// How many back the interval (for two workloads, the fewer side's).
    pub paired: usize,
    /// The interval of their median ratio.
    pub interval: Interval,
    /// The verdict those rounds alone would give.
    pub verdict: Verdict,
}

/// Cores' worth of other processes' CPU past which a goal's rounds count
/// as taken on a busy machine.
pub const BUSY: f64 = 0.2;

fn workload<'a>(ws: &'a [Workload], name: &str) -> Option<&'a Workload> {
    ws.iter().find(|w| w.name == name)
}

fn row<'a>(w: &'a Workload, name: &str) -> Option<&'a Row> {
    w.rows.iter().find(|r| r.name == name)
}

fn figures(r: &Row) -> Vec<f64> {
    r.rounds.iter().map(|x| x.figure).collect()
}

/// `a / b` per round of one workload.
fn per_round(w: &Workload, a: &str, b: &str) -> Option<Evidence> {
    let (a, b) = (row(w, a)?, row(w, b)?);
    let ratios: Vec<f64> = a
        .rounds
        .iter()
        .zip(&b.rounds)
        .map(|(x, y)| x.figure / y.figure)
        .collect();
    (!ratios.is_empty()).then(|| Evidence::PerRound {
        workload: w.name.clone(),
        ratios,
    })
}

/// `median(a of wa) / median(b of wb)`, for two workloads.
fn medians(wa: &Workload, a: &str, wb: &Workload, b: &str) -> Option<Evidence> {
    let (a, b) = (figures(row(wa, a)?), figures(row(wb, b)?));
    (!a.is_empty() && !b.is_empty()).then(|| Evidence::Medians {
        workloads: [wa.name.clone(), wb.name.clone()],
        a,
        b,
    })
}

/// Of `names`, the row of `w` with the best (highest) median.
fn best<'a>(w: &Workload, names: &[&'a str]) -> Option<&'a str> {
    names
        .iter()
        .filter_map(|n| row(w, n).map(|r| (*n, Summary::of(&figures(r)).median)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(n, _)| n)
}

/// A goal: `what`'s ratio must be `≥ target` (`at_least`) or `≤ target`.
/// The bootstrap is seeded by `what`, so a goal's interval is the same for
/// the same figures in every run.
fn goal(what: String, at_least: bool, target: f64, measured: impl Into<Measure>) -> Goal {
    let evidence = measured.into().0;
    let interval = evidence
        .as_ref()
        .and_then(|e| e.interval(bootstrap::seed_of(&what)));
    let v = evidence
        .as_ref()
        .map(|e| verdict(at_least, target, interval, e.rounds()));
    Goal {
        target: format!("{} {target:.2}", if at_least { "≥" } else { "≤" }),
        at_least,
        threshold: target,
        measured: evidence.as_ref().map(Evidence::summary),
        verdict: v,
        interval,
        all_verdict: v,
        all_interval: interval,
        decided_by: None,
        rounds: evidence.as_ref().map_or(0, |e| match e {
            Evidence::Medians { a, b, .. } => a.len() + b.len(),
            e => e.rounds(),
        }),
        modes_disagree: false,
        modes_apart: false,
        mode_rounds: Vec::new(),
        evidence,
        flagged: false,
        busy: false,
        by_mode: Vec::new(),
        what,
    }
}

/// The modes of `g`'s rounds alone: fills `by_mode`, `decided_by` (the
/// dominant mode, for the plots), `modes_disagree` (one mode with
/// [`MIN_ROUNDS`] meets the goal, another misses it), and makes such a
/// goal undecided; otherwise its verdict stays every round's.
pub fn decide(g: &mut Goal, modes: &RoundModes) {
    let Some(e) = &g.evidence else { return };
    let all = modes.all();
    g.mode_rounds = [floor::Mode::Fast, floor::Mode::Slow, floor::Mode::Steady]
        .into_iter()
        .map(|m| (m, all.iter().filter(|x| **x == m).count()))
        .filter(|(_, n)| *n > 0)
        .collect();
    g.by_mode = [floor::Mode::Fast, floor::Mode::Slow, floor::Mode::Steady]
        .into_iter()
        .filter_map(|mode| {
            let sub = e.of_mode(modes, mode)?;
            // The steady mode is every round: the same interval as all
            // rounds' (the same seed).
            let seed = match mode {
                floor::Mode::Steady => bootstrap::seed_of(&g.what),
                m => bootstrap::seed_of(&format!("{} {}", g.what, m.label())),
            };
            let interval = sub.interval(seed)?;
            Some(ByMode {
                mode,
                rounds: all.iter().filter(|m| **m == mode).count(),
                paired: sub.rounds(),
                interval,
                verdict: verdict(g.at_least, g.threshold, Some(interval), sub.rounds()),
            })
        })
        .collect();
    // Most rounds; of two modes with as many, the fast one.
    let Some(top) = g
        .by_mode
        .iter()
        .max_by_key(|m| (m.rounds, m.mode == floor::Mode::Fast))
    else {
        // Two workloads, each in its own mode: no ratio within one mode.
        g.modes_apart = true;
        g.flagged = true;
        return;
    };
    g.decided_by = Some(top.mode);
    // The verdict is every round's (set by `goal`): the rounds of all
    // workloads are interleaved over the whole run, so each goal's rounds
    // are a sample of the machine's modes in the proportions it was in
    // them. Deciding by the dominant mode instead flipped whenever the
    // modes split near half: two consecutive quiet runs (2026-12-02 17:40
    // and 17:43 UTC, modes from the cores' distance) agreed on 31 of 37
    // goals that way and on 33 of 37 by all rounds.
    // But a goal that one mode meets and another misses (each with
    // MIN_ROUNDS) holds or not by the mix of modes a run happened to see:
    // undecided, marked ≠.
    let decided: Vec<Verdict> = g
        .by_mode
        .iter()
        .filter(|m| m.paired >= MIN_ROUNDS)
        .map(|m| m.verdict)
        .collect();
    g.modes_disagree = decided.contains(&Verdict::Met) && decided.contains(&Verdict::Missed);
    if g.modes_disagree {
        g.verdict = Some(Verdict::Undecided);
    }
}

/// Flags the goals whose verdicts a moved floor or a busy machine puts in
/// doubt.
fn flag(ws: &[Workload], goals: &mut [Goal]) {
    let moved = floor::moved(ws);
    for g in goals {
        let Some(e) = &g.evidence else { continue };
        g.flagged = e
            .workloads()
            .iter()
            .any(|name| match workload(ws, name).and_then(floor::of) {
                Some(f) => f.moved,
                None => !moved.is_empty(),
            });
        let loads: Vec<f64> = e
            .workloads()
            .iter()
            .filter_map(|name| workload(ws, name))
            .flat_map(|w| &w.rows)
            .flat_map(|r| &r.rounds)
            .filter_map(|r| r.others_load)
            .collect();
        g.busy = !loads.is_empty() && Summary::of(&loads).median > BUSY;
        if let Some(modes) = e.modes(ws) {
            decide(g, &modes);
        }
    }
}

/// The workloads whose figures decide a goal (those [`evaluate`] reads),
/// less the idle-CPU ones: their runs last a fixed time each, whatever the
/// budget, and their goal is decided by orders of magnitude. `--goal-rounds`
/// gives these more rounds than the others.
pub fn goal_workloads() -> Vec<String> {
    let mut v: Vec<String> = [
        "cap 1024, single",
        "cap 1024, batch 16",
        "cap 1024, batch 256",
        "round trip",
        "1P1C",
        "2P2C",
        "4P4C",
        "unicast 1P-1C",
        "pipeline 1P-3C",
        "multicast 1P-3C",
        "diamond 1P-3C",
        "sequencer 3P-1C",
        "blocking, cap 1024",
        "async, cap 1024",
        "wake-up latency",
        "async 1P1C",
        "async 4P1C",
        "async 4P4C",
    ]
    .map(String::from)
    .into();
    v.extend(["1P1C", "2P2C", "4P4C", "8P8C"].map(|s| format!("{s} cap 1024")));
    v.push(format!("{}wake-up latency", crate::suites::channels::WAITS));
    v
}

/// Whether the workload called `name` decides a goal (see
/// [`goal_workloads`]).
pub fn decides_a_goal(name: &str) -> bool {
    goal_workloads().iter().any(|w| w == name)
}

/// Every goal of the issue that this run's workloads can answer.
pub fn evaluate(ws: &[Workload]) -> Vec<Goal> {
    let mut goals = Vec::new();
    let single = "cap 1024, single";
    if let Some(w) = workload(ws, single) {
        if let Some(peer) = best(w, &["rtrb", "ringbuf"]) {
            goals.push(goal(
                format!("SPSC {single}: hotq-spsc ÷ best SPSC peer ({peer}), per round"),
                true,
                1.2,
                per_round(w, "hotq-spsc", peer),
            ));
        }
        goals.push(goal(
            format!("SPSC {single}: hotq-spsc ÷ Mutex<VecDeque>, per round"),
            true,
            20.0,
            per_round(w, "hotq-spsc", "Mutex<VecDeque>"),
        ));
        for batch in ["cap 1024, batch 16", "cap 1024, batch 256"] {
            let m = workload(ws, batch).and_then(|b| medians(b, "hotq-spsc", w, "hotq-spsc"));
            goals.push(goal(
                format!("SPSC hotq-spsc {batch} ÷ single (medians)"),
                true,
                3.0,
                m,
            ));
        }
    }
    // Issue 15 §2: chunked at least as fast as ringbuf's own slices, the
    // peer whose batch figures are the higher ones here.
    for batch in ["cap 1024, batch 16", "cap 1024, batch 256"] {
        if let Some(b) = workload(ws, batch) {
            goals.push(goal(
                format!("SPSC {batch}: hotq-spsc ÷ ringbuf, per round"),
                true,
                1.0,
                per_round(b, "hotq-spsc", "ringbuf"),
            ));
        }
    }
    if let Some(w) = workload(ws, "round trip") {
        goals.push(goal(
            "round trip: hotq-spsc time ÷ rtrb time, per round".into(),
            false,
            0.9,
            per_round(w, "hotq-spsc", "rtrb"),
        ));
    }
    for shape in ["1P1C", "2P2C"] {
        if let Some(w) = workload(ws, shape) {
            goals.push(goal(
                format!("MPMC {shape}: hotq-mpmc ÷ ArrayQueue, per round"),
                true,
                1.1,
                per_round(w, "hotq-mpmc", "ArrayQueue"),
            ));
        }
    }
    if let (Some(w4), Some(w2)) = (workload(ws, "4P4C"), workload(ws, "2P2C")) {
        goals.push(goal(
            "MPMC hotq-mpmc 4P4C ÷ 2P2C (medians)".into(),
            true,
            0.5,
            medians(w4, "hotq-mpmc", w2, "hotq-mpmc"),
        ));
    }
    if let Some(w) = workload(ws, "unicast 1P-1C") {
        goals.push(goal(
            "unicast 1P-1C: hotq-disruptor ÷ disruptor, per round".into(),
            true,
            1.2,
            per_round(w, "hotq-disruptor", "disruptor"),
        ));
        goals.push(goal(
            "unicast 1P-1C: hotq-disruptor ÷ crossbeam-channel arcs, per round".into(),
            true,
            3.0,
            per_round(w, "hotq-disruptor", "crossbeam-channel arcs"),
        ));
    }
    topologies(ws, sequenced::cores(), &mut goals);
    waiting(ws, &mut goals);
    channels(ws, &mut goals);
    flag(ws, &mut goals);
    goals
}

/// The oversubscribable topologies' goals (issue 15 §4): hotq-disruptor
/// at least as fast as the `disruptor` crate. With at least as many
/// `cores` as the topology has threads, the busy-spin rows (the LMAX
/// ones); with fewer, each crate's strategy that gives the core away
/// (`Sleeping` and the crate's `Sleep`, its only one that does, with the
/// same 10 µs nap, so that the two rows differ by the ring alone), as a
/// user with more threads than cores would run them: busy-spinning
/// handlers there measure the scheduler's tick as much as the ring (see
/// [`crate::sequenced`]).
fn topologies(ws: &[Workload], cores: usize, goals: &mut Vec<Goal>) {
    use crate::sequenced::{
        DisruptorCrate, DisruptorCrateSleep, HotqDisruptor, HotqDisruptorSleeping, Ring,
    };
    for t in Topology::ALL {
        if t == Topology::Unicast {
            continue;
        }
        let Some(w) = workload(ws, t.name()) else {
            continue;
        };
        let name = t.name();
        let (what, ours, peer) = if sequenced::oversubscribed(t, cores) {
            (
                format!(
                    "{name}: {} ÷ {}, per round ({} threads on {cores} cores)",
                    HotqDisruptorSleeping::NAME,
                    DisruptorCrateSleep::NAME,
                    t.threads()
                ),
                HotqDisruptorSleeping::NAME,
                DisruptorCrateSleep::NAME,
            )
        } else {
            (
                format!("{name}: hotq-disruptor ÷ disruptor, per round"),
                HotqDisruptor::NAME,
                DisruptorCrate::NAME,
            )
        };
        goals.push(goal(what, true, 1.0, per_round(w, ours, peer)));
    }
}

/// The channel suite's goals (issue 14): hotq-mpmc's channel, each side
/// blocking in its own calls (or awaiting), against crossbeam-channel (or
/// tokio mpsc) and against the best peer of the shape; its wake-up latency
/// no worse than crossbeam-channel's; no CPU while blocked (zero, read as
/// under 1 % of a core: the clock sees the park and the wake itself).
fn channels(ws: &[Workload], goals: &mut Vec<Goal>) {
    const OURS: &str = "hotq-mpmc-channel";
    for shape in ["1P1C", "2P2C", "4P4C", "8P8C"] {
        let name = format!("{shape} cap 1024");
        let Some(w) = workload(ws, &name) else {
            continue;
        };
        goals.push(goal(
            format!("channels blocking {name}: {OURS} ÷ crossbeam-channel, per round"),
            true,
            1.5,
            per_round(w, OURS, "crossbeam-channel"),
        ));
        // std's channel runs the one-consumer shape only.
        let peers = [
            "crossbeam-channel",
            "flume",
            "kanal",
            "async-channel",
            "mpsc::sync_channel",
        ];
        if let Some(peer) = best(w, &peers) {
            goals.push(goal(
                format!("channels blocking {name}: {OURS} ÷ best peer ({peer}), per round"),
                true,
                1.2,
                per_round(w, OURS, peer),
            ));
        }
    }
    let waits = crate::suites::channels::WAITS;
    if let Some(w) = workload(ws, &format!("{waits}wake-up latency")) {
        goals.push(goal(
            format!("channels wake-up latency: {OURS} time ÷ crossbeam-channel time, per round"),
            false,
            1.0,
            per_round(w, OURS, "crossbeam-channel"),
        ));
    }
    if let Some(w) = workload(ws, &format!("{waits}idle CPU")) {
        goals.push(goal(
            format!("channels idle CPU: share of a core a blocked {OURS} receiver uses"),
            false,
            0.01,
            idle_share(w, OURS),
        ));
    }
    for shape in ["1P1C", "4P1C", "4P4C"] {
        let name = format!("async {shape}");
        let Some(w) = workload(ws, &name) else {
            continue;
        };
        // tokio's mpsc has one receiver: it runs the one-consumer shapes only.
        if row(w, "tokio mpsc").is_some() {
            goals.push(goal(
                format!("channels {name}: {OURS} ÷ tokio mpsc, per round"),
                true,
                1.5,
                per_round(w, OURS, "tokio mpsc"),
            ));
        }
        let peers = ["tokio mpsc", "async-channel", "flume", "kanal", "thingbuf"];
        if let Some(peer) = best(w, &peers) {
            goals.push(goal(
                format!("channels {name}: {OURS} ÷ best peer ({peer}), per round"),
                true,
                1.2,
                per_round(w, OURS, peer),
            ));
        }
    }
}

/// The waiting suite's goals (issue 13): blocking and async throughput
/// against the peers, the wake-up latency, the CPU of an idle wait.
fn waiting(ws: &[Workload], goals: &mut Vec<Goal>) {
    let suites = [
        (
            "blocking, cap 1024",
            "hotq-spsc blocking",
            "crossbeam-channel",
            &[
                "crossbeam-channel",
                "mpsc::sync_channel",
                "flume",
                "kanal",
                "ringbuf-blocking",
            ][..],
        ),
        (
            "async, cap 1024",
            "hotq-spsc async",
            "tokio mpsc",
            &[
                "tokio mpsc",
                "async-ringbuf",
                "flume async",
                "async-channel",
                "kanal async",
            ][..],
        ),
    ];
    for (name, ours, anchor, peers) in suites {
        let Some(w) = workload(ws, name) else {
            continue;
        };
        goals.push(goal(
            format!("waiting {name}: {ours} ÷ {anchor}, per round"),
            true,
            2.0,
            per_round(w, ours, anchor),
        ));
        if let Some(peer) = best(w, peers) {
            goals.push(goal(
                format!("waiting {name}: {ours} ÷ best peer ({peer}), per round"),
                true,
                1.2,
                per_round(w, ours, peer),
            ));
        }
    }
    if let Some(w) = workload(ws, "wake-up latency") {
        goals.push(goal(
            "wake-up latency: hotq-spsc time ÷ crossbeam-channel time, per round".into(),
            false,
            1.0,
            per_round(w, "hotq-spsc blocking", "crossbeam-channel"),
        ));
    }
    if let Some(w) = workload(ws, "idle CPU") {
        goals.push(goal(
            "idle CPU: share of a core a blocked hotq-spsc consumer uses".into(),
            false,
            0.01,
            idle_share(w, "hotq-spsc blocking"),
        ));
    }
}

/// The share of a core that `ours` used per round of an idle-CPU workload
/// (CPU ns over a second, read as a ratio to one whole core, so the
/// verdict comes from its interval as for any ratio).
fn idle_share(w: &Workload, ours: &str) -> Option<Evidence> {
    row(w, ours).map(|r| Evidence::PerRound {
        workload: w.name.clone(),
        ratios: figures(r).iter().map(|ns| ns / 1e9).collect(),
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::channel::Kind;
    use crate::results::{Round, Unit};

    /// A throughput workload with these rows' figures per round (no load).
    /// A single-item workload whose rounds (and floor) all ran fast.
    pub(crate) fn single_all_fast() -> Workload {
        workload(
            "cap 1024, single",
            &[
                ("hotq-spsc", Kind::Ours, &[100.0; 6]),
                ("limit", Kind::Limit, &[800.0; 6]),
            ],
        )
    }

    /// A batch-16 workload whose floor ran fast for two rounds, then slow.
    pub(crate) fn batch_fast_then_slow() -> Workload {
        workload(
            "cap 1024, batch 16",
            &[
                (
                    "hotq-spsc",
                    Kind::Ours,
                    &[500.0, 500.0, 150.0, 150.0, 150.0, 150.0],
                ),
                (
                    "limit",
                    Kind::Limit,
                    &[800.0, 800.0, 250.0, 250.0, 250.0, 250.0],
                ),
            ],
        )
    }

    pub(crate) fn workload(name: &str, rows: &[(&str, Kind, &[f64])]) -> Workload {
        Workload {
            suite: "SPSC throughput",
            name: name.into(),
            params: String::new(),
            unit: Unit::MItemsPerSec,
            per_run: std::time::Duration::from_millis(50),
            distance: Vec::new(),
            rows: rows
                .iter()
                .map(|(n, kind, figs)| Row {
                    name: n.to_string(),
                    kind: *kind,
                    items: 1000,
                    rounds: figs
                        .iter()
                        .map(|&figure| Round {
                            items: 1000,
                            figure,
                            others_load: Some(0.0),
                            percentiles: None,
                        })
                        .collect(),
                    histogram: None,
                })
                .collect(),
        }
    }

    fn interval(lo: f64, hi: f64) -> Option<Interval> {
        Some(Interval {
            median: (lo + hi) / 2.0,
            lo,
            hi,
        })
    }

    #[test]
    fn met_missed_or_undecided_by_where_the_interval_lies() {
        use Verdict::*;
        assert_eq!(verdict(true, 1.2, interval(1.21, 1.5), 9), Met);
        assert_eq!(verdict(true, 1.2, interval(1.2, 1.5), 9), Met);
        assert_eq!(verdict(true, 1.2, interval(0.9, 1.19), 9), Missed);
        assert_eq!(verdict(true, 1.2, interval(1.1, 1.3), 9), Undecided);
        // A ratio of times: lower is better.
        assert_eq!(verdict(false, 0.9, interval(0.8, 0.89), 9), Met);
        assert_eq!(verdict(false, 0.9, interval(0.95, 1.1), 9), Missed);
        assert_eq!(verdict(false, 0.9, interval(0.85, 0.95), 9), Undecided);
        // Too few rounds or no interval: never decided.
        assert_eq!(
            verdict(true, 1.2, interval(2.0, 3.0), MIN_ROUNDS - 1),
            Undecided
        );
        assert_eq!(verdict(true, 1.2, None, 9), Undecided);
    }

    #[test]
    fn a_goal_reads_its_verdict_from_the_paired_rounds() {
        let ours = [130.0, 126.0, 140.0, 128.0, 133.0, 131.0, 129.0];
        let peer = [100.0, 101.0, 99.0, 102.0, 100.0, 98.0, 100.0];
        let limit = [800.0, 790.0, 810.0, 805.0, 800.0, 795.0, 802.0];
        let w = workload(
            "cap 1024, single",
            &[
                ("hotq-spsc", Kind::Ours, &ours),
                ("rtrb", Kind::Peer, &peer),
                ("limit", Kind::Limit, &limit),
            ],
        );
        let g = goal("x".into(), true, 1.2, per_round(&w, "hotq-spsc", "rtrb"));
        assert_eq!(g.verdict, Some(Verdict::Met), "{g:?}");
        let g = goal("x".into(), true, 1.3, per_round(&w, "hotq-spsc", "rtrb"));
        assert_eq!(g.verdict, Some(Verdict::Undecided), "{g:?}");
        let g = goal("x".into(), true, 1.5, per_round(&w, "hotq-spsc", "rtrb"));
        assert_eq!(g.verdict, Some(Verdict::Missed), "{g:?}");
        let g = goal("x".into(), true, 1.2, per_round(&w, "hotq-spsc", "nobody"));
        assert_eq!((g.verdict, g.measured.is_none()), (None, true));
        // The older form, a bare summary, is accepted and never decided.
        let g = goal("x".into(), true, 1.2, Some(Summary::of(&[2.0])));
        assert_eq!(g.verdict, Some(Verdict::Undecided));
    }

    #[test]
    fn a_floor_that_moved_flags_the_goals_of_its_run() {
        let ours = [301.0, 264.0, 73.0, 45.0, 73.0];
        let peer = [263.0, 271.0, 233.0, 68.0, 66.0];
        let fell = [888.0, 870.0, 280.0, 281.0, 279.0];
        let w = workload(
            "cap 1024, single",
            &[
                ("hotq-spsc", Kind::Ours, &ours),
                ("rtrb", Kind::Peer, &peer),
                ("ringbuf", Kind::Peer, &peer),
                ("Mutex<VecDeque>", Kind::Baseline, &peer),
                ("limit", Kind::Limit, &fell),
            ],
        );
        let goals = evaluate(&[w]);
        let measured: Vec<&Goal> = goals.iter().filter(|g| g.evidence.is_some()).collect();
        assert!(!measured.is_empty());
        assert!(measured.iter().all(|g| g.flagged), "{goals:?}");
        // Read apart, the two fast rounds and the three slow ones.
        let g = &measured[0];
        let modes: Vec<(floor::Mode, usize)> =
            g.by_mode.iter().map(|m| (m.mode, m.rounds)).collect();
        assert_eq!(modes, [(floor::Mode::Fast, 2), (floor::Mode::Slow, 3)]);
        assert!(
            g.by_mode.iter().all(|m| m.verdict == Verdict::Undecided),
            "too few rounds each"
        );
        let steady = [800.0, 790.0, 810.0, 805.0, 800.0];
        let w = workload(
            "cap 1024, single",
            &[
                ("hotq-spsc", Kind::Ours, &ours),
                ("rtrb", Kind::Peer, &peer),
                ("limit", Kind::Limit, &steady),
            ],
        );
        assert!(evaluate(&[w]).iter().all(|g| !g.flagged && !g.busy));
    }

    #[test]
    fn the_chunk_goals_compare_hotq_spsc_with_ringbuf_per_round_in_each_batch_workload() {
        let ringbuf = [100.0, 101.0, 99.0, 102.0, 100.0, 98.0, 100.0];
        let ahead = ringbuf.map(|f| f * 1.1);
        let behind = ringbuf.map(|f| f * 0.9);
        let limit = [800.0, 790.0, 810.0, 805.0, 800.0, 795.0, 802.0];
        let batch = |name: &str, ours: &[f64]| {
            workload(
                name,
                &[
                    ("hotq-spsc", Kind::Ours, ours),
                    ("rtrb", Kind::Peer, &limit),
                    ("ringbuf", Kind::Peer, &ringbuf),
                    ("limit", Kind::Limit, &limit),
                ],
            )
        };
        let goals = evaluate(&[
            batch("cap 1024, batch 16", &ahead),
            batch("cap 1024, batch 256", &behind),
        ]);
        let verdict = |name: &str| {
            let what = format!("SPSC {name}: hotq-spsc ÷ ringbuf, per round");
            goals.iter().find(|g| g.what == what).map(|g| g.verdict)
        };
        // Against ringbuf, not the faster rtrb row of the fixture.
        assert_eq!(verdict("cap 1024, batch 16"), Some(Some(Verdict::Met)));
        assert_eq!(verdict("cap 1024, batch 256"), Some(Some(Verdict::Missed)));
        // No batch workload in the run: no chunk goal.
        let goals = evaluate(&[batch("cap 1024, single", &ahead)]);
        assert!(
            !goals.iter().any(|g| g.what.contains("÷ ringbuf")),
            "{goals:?}"
        );
    }

    /// A run of 25 rounds whose floor sat in one mode for `fast` of them
    /// (800 M items/s, hotq-spsc 1.3 × rtrb) and in the other for the rest
    /// (250 M items/s, 0.9 × rtrb), the modes interleaved.
    fn two_modes(fast: usize) -> Workload {
        let mut ours = Vec::new();
        let mut limit = Vec::new();
        for k in 0..25 {
            let wobble = 1.0 + 0.01 * (k % 5) as f64;
            let in_fast = (k * fast) % 25 < fast;
            ours.push(if in_fast { 130.0 } else { 90.0 } * wobble);
            limit.push(if in_fast { 800.0 } else { 250.0 } * wobble);
        }
        let fast_rounds = limit.iter().filter(|f| **f >= 800.0).count();
        assert_eq!(fast_rounds, fast, "the helper's own arithmetic");
        let peer = [100.0; 25];
        workload(
            "cap 1024, single",
            &[
                ("hotq-spsc", Kind::Ours, &ours),
                ("rtrb", Kind::Peer, &peer),
                ("ringbuf", Kind::Peer, &[50.0; 25]),
                ("limit", Kind::Limit, &limit),
            ],
        )
    }

    fn spsc_goal(ws: &[Workload]) -> Goal {
        evaluate(ws)
            .into_iter()
            .find(|g| g.what.contains("best SPSC peer"))
            .unwrap()
    }

    #[test]
    fn a_goal_holds_only_if_every_mode_with_enough_rounds_agrees() {
        use floor::Mode::*;
        // 13 fast rounds at 1.3 against 12 slow at 0.9: all rounds straddle
        // 1.2, the fast mode's alone clear it, the slow mode's miss it. So
        // it is undecided, ≠.
        let g = spsc_goal(&[two_modes(13)]);
        assert_eq!(g.decided_by, Some(Fast), "{g:?}");
        assert_eq!(g.verdict, Some(Verdict::Undecided), "{g:?}");
        assert_eq!(g.all_verdict, Some(Verdict::Undecided), "{g:?}");
        let modes: Vec<_> = g
            .by_mode
            .iter()
            .map(|m| (m.mode, m.rounds, m.verdict))
            .collect();
        assert_eq!(
            modes,
            [(Fast, 13, Verdict::Met), (Slow, 12, Verdict::Missed)]
        );
        assert!(g.modes_disagree && g.flagged && g.rounds == 25, "{g:?}");
        assert_eq!(g.interval, g.all_interval, "the interval is all rounds'");
        // The other mode dominates: the same verdict (by the dominant mode,
        // a run that the machine's other mode dominated printed the other
        // one).
        let g = spsc_goal(&[two_modes(9)]);
        assert_eq!(
            (g.decided_by, g.verdict),
            (Some(Slow), Some(Verdict::Undecided))
        );
        assert!(g.modes_disagree);
        // A minority mode too small for a verdict of its own does not
        // count as disagreeing: all rounds decide.
        let g = spsc_goal(&[two_modes(21)]);
        assert_eq!((g.decided_by, g.verdict), (Some(Fast), Some(Verdict::Met)));
        assert!(!g.modes_disagree, "{g:?}");
        assert_eq!((g.interval, g.verdict), (g.all_interval, g.all_verdict));
    }

    /// 12 rounds of `name` in `unit`: a floor probe slow in 8 of them
    /// (and the first of each pair of rows ahead 1.3× there), fast in 4
    /// (and behind 0.5× there); `rows` are (name, kind) of ours, then peers.
    fn probed(name: &str, unit: Unit, rows: &[(&str, Kind)]) -> Workload {
        let slow = |k: usize| k % 3 != 0;
        let better = |x: f64| if unit.higher_is_better() { x } else { 1.0 / x };
        let limit: Vec<f64> = (0..12)
            .map(|k| better(if slow(k) { 250.0 } else { 800.0 }))
            .collect();
        let ours: Vec<f64> = (0..12)
            .map(|k| better(if slow(k) { 130.0 } else { 50.0 }))
            .collect();
        let peer = [better(100.0); 12];
        let mut figs: Vec<(&str, Kind, &[f64])> = vec![(rows[0].0, rows[0].1, &ours)];
        figs.extend(rows[1..].iter().map(|&(n, k)| (n, k, &peer[..])));
        figs.push(("limit", Kind::Limit, &limit));
        Workload {
            unit,
            ..workload(name, &figs)
        }
    }

    #[test]
    fn a_goal_of_each_probed_suite_splits_its_rounds_by_its_floor_s_modes() {
        let peer = Kind::Peer;
        let ws = [
            probed(
                "unicast 1P-1C",
                Unit::MItemsPerSec,
                &[
                    ("hotq-disruptor", Kind::Ours),
                    ("disruptor", peer),
                    ("crossbeam-channel arcs", Kind::Baseline),
                ],
            ),
            probed(
                "sequencer 3P-1C",
                Unit::MItemsPerSec,
                // Oversubscribed where the test runs on few cores: the goal
                // then reads the two sleeping rows, else the busy ones.
                &[
                    ("hotq-disruptor (sleep 10 µs)", Kind::Ours),
                    ("disruptor (sleep 10 µs)", peer),
                    ("hotq-disruptor", Kind::Ours),
                    ("disruptor", peer),
                ],
            ),
            probed(
                "blocking, cap 1024",
                Unit::MItemsPerSec,
                &[
                    ("hotq-spsc blocking", Kind::Ours),
                    ("crossbeam-channel", peer),
                ],
            ),
            probed(
                "wake-up latency",
                Unit::Nanos,
                &[
                    ("hotq-spsc blocking", Kind::Ours),
                    ("crossbeam-channel", peer),
                ],
            ),
            probed(
                "8P8C cap 1024",
                Unit::MItemsPerSec,
                &[
                    ("hotq-mpmc-channel", Kind::Ours),
                    ("crossbeam-channel", peer),
                ],
            ),
            probed(
                "async 4P1C",
                Unit::MItemsPerSec,
                &[("hotq-mpmc-channel", Kind::Ours), ("tokio mpsc", peer)],
            ),
        ];
        let goals = evaluate(&ws);
        for suite in [
            "unicast 1P-1C: hotq-disruptor ÷ disruptor",
            "unicast 1P-1C: hotq-disruptor ÷ crossbeam-channel arcs",
            "sequencer 3P-1C",
            "waiting blocking, cap 1024: hotq-spsc blocking ÷ crossbeam-channel",
            "wake-up latency: hotq-spsc time",
            "channels blocking 8P8C cap 1024: hotq-mpmc-channel ÷ crossbeam-channel",
            "channels async 4P1C: hotq-mpmc-channel ÷ tokio mpsc",
        ] {
            let g = goals
                .iter()
                .find(|g| g.what.starts_with(suite))
                .unwrap_or_else(|| panic!("no goal {suite}: {goals:?}"));
            // Each goal's rounds are split by its floor's modes (8 slow, 4
            // fast), the slow mode's verdict of its own is listed, and the
            // verdict is all 12 rounds'.
            assert_eq!(g.decided_by, Some(floor::Mode::Slow), "{g:?}");
            assert_eq!(
                g.mode_rounds,
                [(floor::Mode::Fast, 4), (floor::Mode::Slow, 8)],
                "{g:?}"
            );
            let slow = g.by_mode.iter().find(|m| m.mode == floor::Mode::Slow);
            assert_eq!(slow.map(|m| m.paired), Some(8), "{g:?}");
            assert_eq!((g.interval, g.verdict), (g.all_interval, g.all_verdict));
        }
    }

    #[test]
    fn a_steady_floor_decides_by_all_rounds() {
        let ours = [130.0, 126.0, 140.0, 128.0, 133.0, 131.0, 129.0];
        let peer = [100.0; 7];
        let limit = [800.0, 600.0, 810.0, 805.0, 500.0, 795.0, 802.0];
        let w = workload(
            "round trip",
            &[
                ("hotq-spsc", Kind::Ours, &ours),
                ("rtrb", Kind::Peer, &peer),
                ("limit", Kind::Limit, &limit),
            ],
        );
        let g = &evaluate(&[w])[0];
        assert_eq!(g.decided_by, Some(floor::Mode::Steady));
        assert_eq!((g.interval, g.verdict), (g.all_interval, g.all_verdict));
        assert_eq!(g.by_mode.len(), 1);
        assert!(!g.modes_disagree && !g.flagged);
        // No floor row: all rounds decide, and no mode is named.
        let w = workload(
            "round trip",
            &[
                ("hotq-spsc", Kind::Ours, &ours),
                ("rtrb", Kind::Peer, &peer),
            ],
        );
        let g = &evaluate(&[w])[0];
        assert_eq!((g.decided_by, g.by_mode.len()), (None, 0));
        assert_eq!(g.verdict, g.all_verdict);
    }

    #[test]
    fn two_workloads_floors_are_classified_together() {
        use floor::Mode::*;
        // The single workload ran all fast, the batch one all slow but for
        // two rounds: each floor alone is steady, together they moved, and
        // the ratio of medians is read off the fast rounds of both.
        let single = single_all_fast();
        let batch = batch_fast_then_slow();
        let goals = evaluate(&[single, batch]);
        let g = goals.iter().find(|g| g.what.contains("batch 16")).unwrap();
        let modes: Vec<_> = g
            .by_mode
            .iter()
            .map(|m| (m.mode, m.rounds, m.paired))
            .collect();
        // The slow mode has no rounds of the single workload: no entry.
        assert_eq!(modes, [(Fast, 8, 2)]);
        assert_eq!(g.decided_by, Some(Fast));
        assert_eq!(g.mode_rounds, [(Fast, 8), (Slow, 4)]);
        assert!((g.by_mode[0].interval.median - 5.0).abs() < 1e-9, "{g:?}");
        assert!((g.interval.unwrap().median - 1.5).abs() < 1e-9, "{g:?}");
        assert!(!g.modes_apart);
        // Each workload wholly in its own mode: no mode to decide by; all
        // rounds decide, flagged.
        let single = single_all_fast();
        let batch = workload(
            "cap 1024, batch 16",
            &[
                ("hotq-spsc", Kind::Ours, &[150.0; 6]),
                ("limit", Kind::Limit, &[250.0; 6]),
            ],
        );
        let goals = evaluate(&[single, batch]);
        let g = goals.iter().find(|g| g.what.contains("batch 16")).unwrap();
        assert!(
            g.modes_apart && g.flagged && g.decided_by.is_none(),
            "{g:?}"
        );
        assert_eq!((g.verdict, g.interval), (g.all_verdict, g.all_interval));
    }

    #[test]
    fn an_oversubscribed_topology_is_decided_by_the_rows_that_give_the_core_away() {
        // Busy-spin rows say hotq-disruptor is ahead (2×), the two sleeping
        // rows that it is behind (0.5×): with 2 cores the four
        // threads' goal reads the latter, with 4 the former.
        let rows: [(&str, Kind, &[f64]); 4] = [
            ("hotq-disruptor", Kind::Ours, &[20.0; 6]),
            ("hotq-disruptor (sleep 10 µs)", Kind::Ours, &[5.0; 6]),
            ("disruptor", Kind::Peer, &[10.0; 6]),
            ("disruptor (sleep 10 µs)", Kind::Peer, &[10.0; 6]),
        ];
        let ws = [workload("pipeline 1P-3C", &rows)];
        for (cores, ratio, names) in [(2, 0.5, "(sleep 10 µs) ÷ disruptor (sleep"), (4, 2.0, "")]
        {
            let mut goals = Vec::new();
            topologies(&ws, cores, &mut goals);
            assert_eq!(goals.len(), 1, "{goals:?}");
            let g = &goals[0];
            assert_eq!(g.measured.map(|m| m.median), Some(ratio), "{g:?}");
            assert!(g.what.contains(names), "{}", g.what);
            let met = if ratio > 1.0 {
                Verdict::Met
            } else {
                Verdict::Missed
            };
            assert_eq!(g.verdict, Some(met), "{g:?}");
        }
    }

    #[test]
    fn the_goal_workloads_are_exactly_those_the_goals_read() {
        // Every workload a goal could read, with every contender a goal
        // names: each goal is then measured, and reads only workloads of
        // the list (or an idle-CPU one), and each listed one is read.
        let names = [
            "hotq-spsc",
            "rtrb",
            "ringbuf",
            "Mutex<VecDeque>",
            "hotq-mpmc",
            "ArrayQueue",
            "hotq-disruptor",
            "hotq-disruptor (sleep 10 µs)",
            "disruptor",
            "disruptor (sleep 10 µs)",
            "crossbeam-channel arcs",
            "hotq-spsc blocking",
            "crossbeam-channel",
            "hotq-spsc async",
            "tokio mpsc",
            "hotq-mpmc-channel",
        ];
        let figs = [1.0; 5];
        let rows: Vec<(&str, Kind, &[f64])> =
            names.iter().map(|n| (*n, Kind::Peer, &figs[..])).collect();
        let idle = [
            "idle CPU".to_string(),
            format!("{}idle CPU", crate::suites::channels::WAITS),
        ];
        let ws: Vec<Workload> = goal_workloads()
            .iter()
            .chain(&idle)
            .map(|n| workload(n, &rows))
            .collect();
        let goals = evaluate(&ws);
        assert!(goals.len() >= 35, "{} goals", goals.len());
        let mut read = Vec::new();
        for g in &goals {
            let e = g
                .evidence
                .as_ref()
                .unwrap_or_else(|| panic!("{} not measured", g.what));
            for w in e.workloads() {
                assert!(decides_a_goal(w) || idle.iter().any(|i| i == w), "{w}");
                read.push(w.to_string());
            }
        }
        for w in goal_workloads() {
            assert!(read.contains(&w), "{w} is listed but read by no goal");
        }
        assert!(!decides_a_goal("cap 65536, single") && !decides_a_goal("idle CPU"));
    }

    #[test]
    fn the_channel_wake_and_idle_goals_read_the_channel_workloads() {
        let ours = [9000.0, 9100.0, 8900.0, 9050.0, 8950.0];
        let slower = [11000.0, 11100.0, 10900.0, 11050.0, 10950.0];
        fn rows<'a>(a: &'a [f64], b: &'a [f64]) -> Vec<(&'static str, Kind, &'a [f64])> {
            vec![
                ("hotq-mpmc-channel", Kind::Ours, a),
                ("crossbeam-channel", Kind::Peer, b),
                ("hotq-spsc blocking", Kind::Ours, b),
            ]
        }
        // The waiting suite's workload of the same name without the prefix
        // comes first: the channel goals must not read it.
        let ws = [
            workload("wake-up latency", &rows(&slower, &ours)),
            workload("channel wake-up latency", &rows(&ours, &slower)),
            workload("channel idle CPU", &rows(&[2e5; 5], &[2e5; 5])),
        ];
        let goals = evaluate(&ws);
        let find = |what: &str| goals.iter().find(|g| g.what.starts_with(what)).unwrap();
        let wake = find("channels wake-up latency");
        assert_eq!(
            wake.evidence.as_ref().unwrap().workloads(),
            ["channel wake-up latency"]
        );
        assert_eq!(wake.verdict, Some(Verdict::Met), "{wake:?}");
        let idle = find("channels idle CPU");
        assert_eq!(
            idle.verdict,
            Some(Verdict::Met),
            "0.02 % of a core: {idle:?}"
        );
    }

    #[test]
    fn rounds_shared_with_other_processes_mark_the_goal_busy() {
        let ours = [130.0; 5];
        let peer = [100.0; 5];
        let mut w = workload(
            "round trip",
            &[
                ("hotq-spsc", Kind::Ours, &ours),
                ("rtrb", Kind::Peer, &peer),
            ],
        );
        assert!(evaluate(std::slice::from_ref(&w)).iter().all(|g| !g.busy));
        for r in w.rows.iter_mut().flat_map(|r| &mut r.rounds) {
            r.others_load = Some(1.0);
        }
        let goals = evaluate(&[w]);
        assert!(!goals.is_empty() && goals.iter().all(|g| g.busy));
    }
}
