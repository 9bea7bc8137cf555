//! How one figure, ratio or interval is written in a table cell.

use super::super::bootstrap::Interval;
use crate::results::Unit;
use crate::summary::Summary;

/// `median (min–max)` or a dash.
pub(super) fn cell(s: Option<Summary>, precision: usize) -> String {
    s.map_or_else(|| "—".into(), |s| format!("{s:.precision$}"))
}

/// `median [lo–hi]` of a per-round ratio, or a dash.
pub(super) fn interval_cell(i: Option<Interval>) -> String {
    i.map_or_else(
        || "—".into(),
        |i| format!("{:.2} [{:.2}–{:.2}]", i.median, i.lo, i.hi),
    )
}

/// A figure's cell, with about three significant digits for the median
/// (slow baselines run at a few thousand items per second).
pub(super) fn figure_cell(s: Summary, unit: Unit) -> String {
    format!("{s:.*}", precision(unit, s.median))
}

/// Decimals that give `v` about three significant digits (none for ns).
pub(super) fn precision(unit: Unit, v: f64) -> usize {
    match unit {
        Unit::Nanos => 0,
        Unit::MItemsPerSec if v >= 100.0 => 0,
        Unit::MItemsPerSec if v >= 10.0 => 1,
        Unit::MItemsPerSec if v >= 1.0 => 2,
        Unit::MItemsPerSec => 3,
    }
}

/// `median [lo–hi]`.
pub(super) fn iv(i: Interval) -> String {
    format!("{:.2} [{:.2}–{:.2}]", i.median, i.lo, i.hi)
}
