//! The machine's mode, read off the `limit` rows: the floor is measured in
//! every round of its workload, so when the floor itself moves (a core
//! pair that keeps pace, then one that falls behind; another process
//! taking a core) the report says so instead of averaging over it.

use crate::channel::Kind;
use crate::rounds::{Unit, Workload};
use crate::summary::Summary;

/// A floor that moved by more than this factor (max ÷ min over the
/// workload's rounds) flags the run: its verdicts mix two machines.
pub const MOVED: f64 = 2.0;

/// Which of two modes a round's floor was in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The floor stayed within [`MOVED`]: one mode.
    Steady,
    /// The better half of a floor that moved (at or past the geometric
    /// middle of its best and worst rounds).
    Fast,
    /// The worse half.
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
    /// The `limit` row's figure in each round, in round order.
    pub per_round: Vec<f64>,
    /// Median, min and max of those.
    pub summary: Summary,
    /// `max / min`.
    pub spread: f64,
    /// Whether the spread passed [`MOVED`].
    pub moved: bool,
    /// Each round's mode.
    pub modes: Vec<Mode>,
}

/// The floor of `w`, if it has a `limit` row that ran.
pub fn of(w: &Workload) -> Option<Floor> {
    let row = w.rows.iter().find(|r| r.kind == Kind::Limit)?;
    let per_round: Vec<f64> = row.rounds.iter().map(|r| r.figure).collect();
    if per_round.is_empty() {
        return None;
    }
    Some(from_figures(per_round, w.unit))
}

/// The floor from its figures per round.
pub fn from_figures(per_round: Vec<f64>, unit: Unit) -> Floor {
    let summary = Summary::of(&per_round);
    let spread = summary.max / summary.min;
    let moved = spread > MOVED;
    let middle = (summary.max * summary.min).sqrt();
    let modes = per_round
        .iter()
        .map(|&f| match () {
            _ if !moved => Mode::Steady,
            _ if (f >= middle) == unit.higher_is_better() => Mode::Fast,
            _ => Mode::Slow,
        })
        .collect();
    Floor {
        per_round,
        summary,
        spread,
        moved,
        modes,
    }
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
        let f = from_figures(vec![880.0, 700.0, 500.0], Unit::MItemsPerSec);
        assert!(!f.moved);
        assert!(f.modes.iter().all(|&m| m == Mode::Steady));
    }

    #[test]
    fn a_floor_that_fell_more_than_twice_flags_and_splits_the_rounds() {
        // The newcomer's run of the issue: 888 then 280 M items/s.
        let f = from_figures(vec![888.0, 870.0, 280.0, 285.0, 279.0], Unit::MItemsPerSec);
        assert!(f.moved && f.spread > 3.0);
        use Mode::*;
        assert_eq!(f.modes, [Fast, Fast, Slow, Slow, Slow]);
    }

    #[test]
    fn for_round_trips_the_fast_mode_is_the_shorter_time() {
        let f = from_figures(vec![110.0, 400.0, 120.0], Unit::Nanos);
        assert!(f.moved);
        assert_eq!(f.modes, [Mode::Fast, Mode::Slow, Mode::Fast]);
    }
}
