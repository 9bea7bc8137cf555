//! What the benchmarks in `benches/` share: running two contenders in
//! alternating rounds, and summarising the rounds.

use std::fmt;

/// Median, minimum and maximum of a set of rounds.
#[derive(Debug, Clone, Copy)]
pub struct Summary {
    /// The middle value (the mean of the two middle ones for an even count).
    pub median: f64,
    /// The smallest value.
    pub min: f64,
    /// The largest value.
    pub max: f64,
}

impl Summary {
    /// Summarises `values` (at least one).
    pub fn of(values: &[f64]) -> Self {
        assert!(!values.is_empty(), "no rounds to summarise");
        let mut v = values.to_vec();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let median = if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        };
        Summary {
            median,
            min: v[0],
            max: v[n - 1],
        }
    }
}

impl fmt::Display for Summary {
    /// `median (min … max)`, to the precision the caller asks for.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = f.precision().unwrap_or(1);
        write!(
            f,
            "{:.p$} (min {:.p$}, max {:.p$})",
            self.median, self.min, self.max
        )
    }
}

/// The figures of two contenders over the same rounds, and the ratio of
/// ours to the peer's in each round.
#[derive(Debug, Clone, Default)]
pub struct Paired {
    /// Our figure, per round.
    pub ours: Vec<f64>,
    /// The peer's figure, per round.
    pub peer: Vec<f64>,
    /// `ours / peer`, per round: pairs contenders that ran back to back, so
    /// the machine's drift cancels out.
    pub ratios: Vec<f64>,
}

/// Runs `ours` and `peer` for `rounds` rounds, alternating which goes
/// first (so neither always runs on a machine the other just warmed), and
/// calls `each(round, ours, peer)` after every round.
pub fn interleave(
    rounds: usize,
    mut ours: impl FnMut() -> f64,
    mut peer: impl FnMut() -> f64,
    mut each: impl FnMut(usize, f64, f64),
) -> Paired {
    let mut paired = Paired::default();
    for r in 0..rounds {
        let (a, b) = if r % 2 == 0 {
            let a = ours();
            (a, peer())
        } else {
            let b = peer();
            (ours(), b)
        };
        each(r, a, b);
        paired.ours.push(a);
        paired.peer.push(b);
        paired.ratios.push(a / b);
    }
    paired
}

impl Paired {
    /// Prints each contender's summary and the median per-round ratio.
    pub fn report(&self, label: &str, names: [&str; 2], unit: &str, precision: usize) {
        for (name, v) in names.iter().zip([&self.ours, &self.peer]) {
            println!(
                "{label} {name:>10}: median {:.precision$} {unit}",
                Summary::of(v)
            );
        }
        println!(
            "{label} {} / {} per round: median {:.2}",
            names[0],
            names[1],
            Summary::of(&self.ratios)
        );
    }
}
