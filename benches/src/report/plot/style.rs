//! What the plots share: how a round's dot is marked by the machine's
//! mode, and the log axes.

use plotters::prelude::*;

use crate::report::floor::Mode;

/// What drawing a plot returns.
pub type Res = Result<(), Box<dyn std::error::Error>>;

/// How a round's dot is drawn: by the mode the workload's floor was in
/// during that round, so rounds of a machine that changed mode stand apart
/// instead of blending into one median.
/// (`None`: the workload has no floor row.)
pub(super) fn marker(mode: Option<Mode>) -> (RGBColor, bool) {
    match mode {
        None => (RGBColor(120, 120, 120), true),
        Some(Mode::Steady) => (RGBColor(40, 90, 170), true),
        Some(Mode::Fast) => (RGBColor(30, 140, 60), true),
        Some(Mode::Slow) => (RGBColor(200, 60, 40), false),
    }
}

/// The legend's text for a mode.
pub(super) fn mode_label(mode: Option<Mode>) -> &'static str {
    match mode {
        None => "a round (no floor row in this workload)",
        Some(Mode::Steady) => "a round (floor steady)",
        Some(Mode::Fast) => "a round with the floor in its fast mode",
        Some(Mode::Slow) => "a round with the floor in its slow mode",
    }
}

/// A log axis that holds every value of `v` (all positive).
pub(super) fn log_range(v: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) = v
        .filter(|x| x.is_finite() && *x > 0.0)
        .fold((f64::MAX, f64::MIN_POSITIVE), |(lo, hi), x| {
            (lo.min(x), hi.max(x))
        });
    if lo > hi {
        return 0.1..10.0;
    }
    lo / 1.3..hi * 1.3
}
