//! Per workload: every round of every contender, marked by the machine's
//! mode.

use std::path::Path;

use plotters::prelude::*;

use super::style::{Res, log_range, marker, mode_label};
use crate::report::floor::{self, Mode};
use crate::report::stats;
use crate::results::Workload;

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
