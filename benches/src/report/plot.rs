//! SVG plots that say what the tables say: per workload, every round of
//! every contender (the table's median is the tick among them), each round
//! marked by the mode the machine's floor was in; the goals with their
//! intervals and per-round ratios; for the round trips also each
//! contender's latency percentiles over all rounds.

use std::path::Path;

use plotters::prelude::*;

use super::floor::{self, Mode};
use super::goals::{Evidence, Goal, Verdict};
use super::stats;
use crate::results::{Unit, Workload};

/// A file name from a workload's suite and name: lower-case letters and
/// digits, one dash between words (`spsc-throughput-cap-2-single.svg`).
pub fn file_name(w: &Workload) -> String {
    let words: Vec<String> = format!("{} {}", w.suite, w.name)
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|s| !s.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    format!("{}.svg", words.join("-"))
}

/// The file of a latency workload's percentile plot.
pub fn percentiles_file_name(w: &Workload) -> String {
    file_name(w).replace(".svg", "-percentiles.svg")
}

/// The file of the goals plot.
pub const GOALS_FILE: &str = "goals.svg";

type Res = Result<(), Box<dyn std::error::Error>>;

/// How a round's dot is drawn: by the mode the workload's floor was in
/// during that round, so rounds of a machine that changed mode stand apart
/// instead of blending into one median.
/// (`None`: the workload has no floor row.)
fn marker(mode: Option<Mode>) -> (RGBColor, bool) {
    match mode {
        None => (RGBColor(120, 120, 120), true),
        Some(Mode::Steady) => (RGBColor(40, 90, 170), true),
        Some(Mode::Fast) => (RGBColor(30, 140, 60), true),
        Some(Mode::Slow) => (RGBColor(200, 60, 40), false),
    }
}

/// The legend's text for a mode.
fn mode_label(mode: Option<Mode>) -> &'static str {
    match mode {
        None => "a round (no floor row in this workload)",
        Some(Mode::Steady) => "a round (floor steady)",
        Some(Mode::Fast) => "a round with the floor in its fast mode",
        Some(Mode::Slow) => "a round with the floor in its slow mode",
    }
}

/// A log axis that holds every value of `v` (all positive).
fn log_range(v: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
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

/// Every round of every contender as a dot on a log axis, one line per
/// contender, the median (the table's figure) as a tick, each dot marked by
/// the floor's mode in that round.
pub fn rounds(w: &Workload, path: &Path) -> Res {
    let st = stats::of(w);
    let modes = floor::of(w).map(|f| f.modes);
    let mode = |k: usize| modes.as_ref().and_then(|m| m.get(k).copied());
    let n = w.rows.len();
    let x = log_range(
        w.rows
            .iter()
            .flat_map(|r| r.rounds.iter().map(|x| x.figure)),
    );
    // Two empty lines at the top hold the legend.
    let root = SVGBackend::new(path, (900, 120 + 32 * n as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    let names: Vec<String> = w.rows.iter().map(|r| r.name.clone()).collect();
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "{}: every round ({}, log scale; tick = median)",
                w.name,
                w.unit.label()
            ),
            ("sans-serif", 18),
        )
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(190)
        .build_cartesian_2d(x.log_scale(), (0..n + 1).into_segmented())?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(n + 2)
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => names.get(*i).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .draw()?;
    for m in [None, Some(Mode::Steady), Some(Mode::Fast), Some(Mode::Slow)] {
        let (color, filled) = marker(m);
        let dots: Vec<(f64, usize)> = w
            .rows
            .iter()
            .enumerate()
            .flat_map(|(i, r)| {
                r.rounds
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| mode(k) == m)
                    .map(move |(_, x)| (x.figure, i))
            })
            .collect();
        if dots.is_empty() {
            continue;
        }
        let style = if filled {
            color.filled()
        } else {
            color.stroke_width(2)
        };
        chart
            .draw_series(
                dots.into_iter()
                    .map(|(f, i)| Circle::new((f, SegmentValue::CenterOf(i)), 4, style)),
            )?
            .label(mode_label(m))
            .legend(move |(x, y)| Circle::new((x + 10, y), 4, style));
    }
    chart.draw_series(st.rows.iter().enumerate().map(|(i, rs)| {
        PathElement::new(
            vec![
                (rs.figure.median, SegmentValue::Exact(i)),
                (rs.figure.median, SegmentValue::Exact(i + 1)),
            ],
            BLACK.stroke_width(2),
        )
    }))?;
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()?;
    root.present()?;
    Ok(())
}

/// The goals as the table decides them: per goal, the 95 % interval of the
/// median ratio as a bar and each round's ratio as a dot (marked by the
/// floor's mode), on one log axis of `ratio ÷ target`, turned so that right
/// of the line at 1 is the goal's side (`≤` goals are drawn as target ÷
/// ratio). A goal is met when its whole bar is right of the line.
pub fn goals(goals: &[Goal], ws: &[Workload], path: &Path) -> Res {
    let shown: Vec<&Goal> = goals.iter().filter(|g| g.interval.is_some()).collect();
    let n = shown.len().max(1);
    let turn = |g: &Goal, r: f64| {
        if g.at_least {
            r / g.threshold
        } else {
            g.threshold / r
        }
    };
    let per_round = |g: &Goal| -> Vec<(f64, Option<Mode>)> {
        let Some(Evidence::PerRound { workload, ratios }) = &g.evidence else {
            return Vec::new();
        };
        let modes = ws
            .iter()
            .find(|w| &w.name == workload)
            .and_then(floor::of)
            .map(|f| f.modes);
        ratios
            .iter()
            .enumerate()
            .map(|(k, &r)| (turn(g, r), modes.as_ref().and_then(|m| m.get(k).copied())))
            .collect()
    };
    let x = log_range(shown.iter().flat_map(|g| {
        let i = g.interval.expect("shown goals have intervals");
        let mut v = vec![turn(g, i.lo), turn(g, i.hi), 1.0];
        v.extend(per_round(g).into_iter().map(|(r, _)| r));
        v
    }));
    // Four empty lines at the top hold the legend.
    let root = SVGBackend::new(path, (1100, 90 + 34 * (n as u32 + 3))).into_drawing_area();
    root.fill(&WHITE)?;
    let names: Vec<String> = shown
        .iter()
        .map(|g| format!("{} {}", g.what, g.target))
        .collect();
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "goals: ratio ÷ target (log scale; right of 1 = the goal's side; bar = 95 % interval of the median over all rounds)",
            ("sans-serif", 16),
        )
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(520)
        .build_cartesian_2d(x.log_scale(), (0..n + 3).into_segmented())?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(n + 4)
        .y_label_style(("sans-serif", 11))
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => names.get(*i).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .draw()?;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(1.0, SegmentValue::Exact(0)), (1.0, SegmentValue::Exact(n))],
        BLACK.stroke_width(1),
    )))?;
    for (i, g) in shown.iter().enumerate() {
        let iv = g.interval.expect("shown goals have intervals");
        let color = match g.verdict {
            Some(Verdict::Met) => RGBColor(30, 140, 60),
            Some(Verdict::Missed) => RGBColor(200, 60, 40),
            _ => RGBColor(150, 150, 150),
        };
        chart.draw_series(std::iter::once(PathElement::new(
            vec![
                (turn(g, iv.lo), SegmentValue::CenterOf(i)),
                (turn(g, iv.hi), SegmentValue::CenterOf(i)),
            ],
            color.mix(0.6).stroke_width(8),
        )))?;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![
                (turn(g, iv.median), SegmentValue::Exact(i)),
                (turn(g, iv.median), SegmentValue::Exact(i + 1)),
            ],
            BLACK.stroke_width(2),
        )))?;
        chart.draw_series(per_round(g).into_iter().map(|(r, m)| {
            let (c, filled) = marker(m);
            let style = if filled {
                c.filled()
            } else {
                c.stroke_width(2)
            };
            Circle::new((r, SegmentValue::CenterOf(i)), 3, style)
        }))?;
    }
    let bars = [
        (RGBColor(30, 140, 60), "interval of a goal met"),
        (RGBColor(200, 60, 40), "interval of a goal missed"),
        (RGBColor(150, 150, 150), "interval of a goal undecided"),
    ];
    for (color, label) in bars {
        chart
            .draw_series(std::iter::empty::<Circle<(f64, SegmentValue<usize>), i32>>())?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.mix(0.6).stroke_width(8))
            });
    }
    for m in [None, Some(Mode::Steady), Some(Mode::Fast), Some(Mode::Slow)] {
        let (c, filled) = marker(m);
        let style = if filled {
            c.filled()
        } else {
            c.stroke_width(2)
        };
        chart
            .draw_series(std::iter::empty::<Circle<(f64, SegmentValue<usize>), i32>>())?
            .label(mode_label(m))
            .legend(move |(x, y)| Circle::new((x + 10, y), 3, style));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 10))
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    root.present()?;
    Ok(())
}

/// The percentiles the latency plot shows.
const QUANTILES: [(f64, &str); 6] = [
    (0.5, "p50"),
    (0.9, "p90"),
    (0.99, "p99"),
    (0.999, "p99.9"),
    (0.9999, "p99.99"),
    (1.0, "max"),
];

/// `850 ns`, `12 µs`, `3 ms`: axis labels that fit.
fn duration(ns: f64) -> String {
    match ns {
        n if n < 1e3 => format!("{n:.0} ns"),
        n if n < 1e6 => format!("{:.0} µs", n / 1e3),
        n if n < 1e9 => format!("{:.0} ms", n / 1e6),
        n => format!("{:.1} s", n / 1e9),
    }
}

/// Round-trip percentiles, one line per contender, log scale.
pub fn percentiles(w: &Workload, path: &Path) -> Res {
    assert_eq!(w.unit, Unit::Nanos, "percentiles of a latency workload");
    let series: Vec<(String, Vec<f64>)> = w
        .rows
        .iter()
        .filter_map(|r| {
            let h = r.histogram.as_ref()?;
            Some((
                r.name.clone(),
                QUANTILES
                    .iter()
                    .map(|(q, _)| h.value_at_quantile(*q).max(1) as f64)
                    .collect(),
            ))
        })
        .collect();
    let lo = series
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .fold(f64::MAX, f64::min);
    let hi = series
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .fold(1.0, f64::max);
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{}: latency percentiles (log scale)", w.name),
            ("sans-serif", 18),
        )
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(60)
        .build_cartesian_2d(
            0..QUANTILES.len() - 1,
            ((lo * 0.8).max(1.0)..hi * 1.25).log_scale(),
        )?;
    chart
        .configure_mesh()
        .x_labels(QUANTILES.len())
        .x_label_formatter(&|i| QUANTILES.get(*i).map_or("", |q| q.1).to_string())
        .y_label_formatter(&|ns| duration(*ns))
        .draw()?;
    for (i, (name, v)) in series.iter().enumerate() {
        let color = Palette99::pick(i);
        chart
            .draw_series(LineSeries::new(
                v.iter().copied().enumerate(),
                color.stroke_width(2),
            ))?
            .label(name.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    root.present()?;
    Ok(())
}
