//! Per latency workload: each contender's round-trip percentiles over
//! all rounds.

use std::path::Path;

use plotters::prelude::*;

use super::style::Res;
use crate::results::{Unit, Workload};

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
