//! The goals: each one's interval and per-round ratios against its
//! target.

use std::path::Path;

use plotters::prelude::*;

use super::style::{Res, log_range, marker, mode_label};
use crate::report::floor::{self, Mode};
use crate::report::goals::{Evidence, Goal, Verdict};
use crate::results::Workload;

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
        let Some(Evidence::PerRound {
            workload, ratios, ..
        }) = &g.evidence
        else {
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
