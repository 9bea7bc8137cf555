//! Median with minimum and maximum.

use std::fmt;

/// Median, minimum and maximum of a set of rounds.
#[derive(Debug, Clone, Copy, PartialEq)]
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
    /// `median (min–max)`, to the precision the caller asks for.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = f.precision().unwrap_or(1);
        write!(f, "{:.p$} ({:.p$}–{:.p$})", self.median, self.min, self.max)
    }
}

#[cfg(test)]
mod tests {
    use super::Summary;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(Summary::of(&[3.0, 1.0, 2.0]).median, 2.0);
        assert_eq!(Summary::of(&[4.0, 1.0, 2.0, 3.0]).median, 2.5);
        let s = Summary::of(&[5.0, -1.0, 2.0]);
        assert_eq!((s.min, s.max), (-1.0, 5.0));
        assert_eq!(format!("{s:.1}"), "2.0 (-1.0–5.0)");
    }
}
