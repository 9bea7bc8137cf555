//! One goal and where this run stands: [`Goal`], made from its evidence
//! (`goal`), then split by the machine's modes ([`decide`]) and flagged
//! where a moved floor or a busy machine puts it in doubt (`flag`).

use super::evidence::{Evidence, Measure, RoundModes};
use super::lookup::workload;
use super::verdict::{MIN_ROUNDS, Verdict, verdict};
use crate::report::bootstrap::{self, Interval};
use crate::report::floor;
use crate::results::Workload;
use crate::summary::Summary;

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

/// A goal: `what`'s ratio must be `≥ target` (`at_least`) or `≤ target`.
/// The bootstrap is seeded by `what`, so a goal's interval is the same for
/// the same figures in every run.
pub(super) fn goal(
    what: String,
    at_least: bool,
    target: f64,
    measured: impl Into<Measure>,
) -> Goal {
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
pub(super) fn flag(ws: &[Workload], goals: &mut [Goal]) {
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
