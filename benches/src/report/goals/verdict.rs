//! Met, missed or undecided: where a goal stands, from the 95 % interval
//! of its median ratio.

use crate::report::bootstrap::Interval;

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
