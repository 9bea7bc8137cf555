//! The machine's mode in each round: the two cores' distance measured just
//! before it (one cache line bounced, [`workloads::floor::distance`]), or,
//! in a workload without it (a report from before 2026-12-02 17:40 UTC,
//! the tests' fixtures), its `limit` row's figures. When it moves (the two
//! vCPUs sharing a cache, then not; another process taking a core) the
//! report says so instead of averaging over it.
//!
//! [`workloads::floor::distance`]: crate::workloads::floor::distance

use crate::channel::Kind;
use crate::results::{Unit, Workload};
use crate::summary::Summary;

/// A floor that moved by more than this factor (max ÷ min over the
/// workload's rounds) flags the run: its verdicts mix two machines.
pub const MOVED: f64 = 2.0;

/// Which of two modes a round's floor was in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The floor stayed within [`MOVED`]: one mode.
    Steady,
    /// The better side of a floor that moved (see [`classify`]).
    Fast,
    /// The worse side.
    Slow,
}

impl Mode {
    /// The name the JSON and the plots use.
    pub fn label(self) -> &'static str {
        match self {
            Mode::Steady => "steady",
            Mode::Fast => "fast",
            Mode::Slow => "slow",
        }
    }
}

/// A workload's floor, round by round.
#[derive(Debug, Clone)]
pub struct Floor {
    /// What tells the mode: the cores' distance, or the `limit` row.
    pub source: Source,
    /// Its figure in each round, in round order.
    pub per_round: Vec<f64>,
    /// The figures' unit (ns for the distance).
    pub unit: Unit,
    /// Median, min and max of those.
    pub summary: Summary,
    /// `max / min`.
    pub spread: f64,
    /// Whether the spread passed [`MOVED`].
    pub moved: bool,
    /// Each round's mode.
    pub modes: Vec<Mode>,
}

/// What a [`Floor`] was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// [`Workload::distance`]: one cache line bounced before each round.
    Distance,
    /// The workload's `limit` row.
    Limit,
}

impl Source {
    /// How the tables and the JSON name it.
    pub fn label(self) -> &'static str {
        match self {
            Source::Distance => {
                "core distance (ns per round trip of one cache line, before each round)"
            }
            Source::Limit => "limit row",
        }
    }
}

/// The floor of `w`: its cores' distance per round if measured, else its
/// `limit` row's figures, if it has one that ran.
pub fn of(w: &Workload) -> Option<Floor> {
    if !w.distance.is_empty() {
        return Some(from_figures(
            Source::Distance,
            w.distance.clone(),
            Unit::Nanos,
        ));
    }
    let row = w.rows.iter().find(|r| r.kind == Kind::Limit)?;
    let per_round: Vec<f64> = row.rounds.iter().map(|r| r.figure).collect();
    if per_round.is_empty() {
        return None;
    }
    Some(from_figures(Source::Limit, per_round, w.unit))
}

/// The floor from its figures per round.
pub fn from_figures(source: Source, per_round: Vec<f64>, unit: Unit) -> Floor {
    let summary = Summary::of(&per_round);
    let spread = summary.max / summary.min;
    let moved = spread > MOVED;
    let modes = classify(&per_round, unit);
    Floor {
        source,
        unit,
        per_round,
        summary,
        spread,
        moved,
        modes,
    }
}

/// The report's one classifier of the machine's mode: each round's mode
/// from the floor figures measured in the rounds (`figures`, in round
/// order; a goal that reads two workloads passes both workloads' floors,
/// which are the same measurement). A floor within [`MOVED`] (max ÷ min)
/// is one mode, [`Mode::Steady`]. One that moved is split in two where the
/// split leaves the least spread on either side (the optimal two-means
/// split of the figures' logarithms, so a factor of two counts the same at
/// any scale, and one stray round cannot drag a whole mode across the
/// line, as a cut at the middle of the extremes would): the better side is
/// [`Mode::Fast`], the other [`Mode::Slow`].
pub fn classify(figures: &[f64], unit: Unit) -> Vec<Mode> {
    if figures.is_empty() {
        return Vec::new();
    }
    let s = Summary::of(figures);
    if s.max / s.min <= MOVED {
        return vec![Mode::Steady; figures.len()];
    }
    let mut logs: Vec<f64> = figures.iter().map(|f| f.ln()).collect();
    logs.sort_unstable_by(f64::total_cmp);
    // Prefix sums give each split's within-side sum of squares in O(1):
    // n·var = Σx² − (Σx)²/n.
    let (mut sum, mut sq) = (vec![0.0], vec![0.0]);
    for &x in &logs {
        sum.push(sum.last().unwrap() + x);
        sq.push(sq.last().unwrap() + x * x);
    }
    let n = logs.len();
    let sse = |a: usize, b: usize| {
        let (k, t) = ((b - a) as f64, sum[b] - sum[a]);
        sq[b] - sq[a] - t * t / k
    };
    let cut = (1..n)
        .min_by(|&i, &j| (sse(0, i) + sse(i, n)).total_cmp(&(sse(0, j) + sse(j, n))))
        .expect("a floor that moved has two figures");
    // Figures at or above the first figure of the upper side are high.
    let line = logs[cut];
    figures
        .iter()
        .map(|f| {
            if (f.ln() >= line) == unit.higher_is_better() {
                Mode::Fast
            } else {
                Mode::Slow
            }
        })
        .collect()
}

/// The floors of the workloads that moved, as `(name, floor)`.
pub fn moved(ws: &[Workload]) -> Vec<(&str, Floor)> {
    ws.iter()
        .filter_map(|w| Some((w.name.as_str(), of(w)?)))
        .filter(|(_, f)| f.moved)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_floor_within_twice_is_one_mode() {
        let f = from_figures(Source::Limit, vec![880.0, 700.0, 500.0], Unit::MItemsPerSec);
        assert!(!f.moved);
        assert!(f.modes.iter().all(|&m| m == Mode::Steady));
    }

    #[test]
    fn a_floor_that_fell_more_than_twice_flags_and_splits_the_rounds() {
        // The newcomer's run of the issue: 888 then 280 M items/s.
        let f = from_figures(
            Source::Limit,
            vec![888.0, 870.0, 280.0, 285.0, 279.0],
            Unit::MItemsPerSec,
        );
        assert!(f.moved && f.spread > 3.0);
        use Mode::*;
        assert_eq!(f.modes, [Fast, Fast, Slow, Slow, Slow]);
    }

    #[test]
    fn for_round_trips_the_fast_mode_is_the_shorter_time() {
        let f = from_figures(Source::Limit, vec![110.0, 400.0, 120.0], Unit::Nanos);
        assert!(f.moved);
        assert_eq!(f.modes, [Mode::Fast, Mode::Slow, Mode::Fast]);
    }

    #[test]
    fn one_stray_round_does_not_carry_a_whole_mode_across_the_line() {
        // The machine's two speeds, 190 and 65 M items/s, and one round
        // at 20: a cut at the middle of the extremes (62) would call the
        // 65s fast; the two-means split keeps them with the slow round.
        let mut figs = vec![190.0, 185.0, 192.0, 188.0, 65.0, 66.0, 64.0, 67.0];
        figs.push(20.0);
        use Mode::*;
        assert_eq!(
            classify(&figs, Unit::MItemsPerSec),
            [Fast, Fast, Fast, Fast, Slow, Slow, Slow, Slow, Slow]
        );
        // And one stray slow round among steady fast ones is the only slow.
        let figs = [190.0, 185.0, 60.0, 192.0, 188.0];
        assert_eq!(
            classify(&figs, Unit::MItemsPerSec),
            [Fast, Fast, Slow, Fast, Fast]
        );
        assert!(classify(&[], Unit::Nanos).is_empty());
    }
}
