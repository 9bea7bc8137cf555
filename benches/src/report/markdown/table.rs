//! One workload's table: each contender's figure, its ratios to the
//! baseline and the best peer, its share of the floor, the load beside it.

use std::fmt::Write;

use super::cells::{cell, figure_cell, interval_cell};
use crate::channel::Kind;
use crate::report::stats::WorkloadStats;
use crate::results::{Unit, Workload};

/// The column that compares a row with a reference row.
fn ratio_header(unit: Unit, reference: &Option<String>, what: &str) -> String {
    match reference {
        Some(r) if unit.higher_is_better() => format!("× {what} ({r}) [95 %]"),
        Some(r) => format!("time × {what} ({r}) [95 %]"),
        None => format!("× {what}"),
    }
}

/// One workload's table.
pub fn table(w: &Workload, st: &WorkloadStats) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "### {}\n\n{}; {} rounds of about {:.0} ms per contender\n",
        w.name,
        w.params,
        w.rows.first().map_or(0, |r| r.rounds.len()),
        w.per_run.as_secs_f64() * 1e3
    );
    let lat = w.unit == Unit::Nanos;
    let mut cols = vec!["contender".to_string()];
    if lat {
        cols.extend(["median ns (round medians min–max)", "p99 ns", "p99.9 ns"].map(String::from));
    } else {
        cols.push(format!("{} median (min–max)", w.unit.label()));
    }
    cols.push(if lat { "trips/run" } else { "items/run" }.into());
    cols.push(ratio_header(w.unit, &st.baseline, "baseline"));
    cols.push(ratio_header(w.unit, &st.best_peer, "best peer"));
    cols.push("of floor".into());
    cols.push("others' load, cores".into());
    let _ = writeln!(s, "| {} |", cols.join(" | "));
    let _ = writeln!(s, "|{}", "---|".repeat(cols.len()));
    for (row, rs) in w.rows.iter().zip(&st.rows) {
        let name = match row.kind {
            Kind::Ours => format!("**{}**", row.name),
            _ => row.name.clone(),
        };
        let mut c = vec![name, figure_cell(rs.figure, w.unit)];
        if lat {
            let [_, p99, p999] = rs.percentiles.unwrap_or([f64::NAN; 3]);
            c.push(format!("{p99:.0}"));
            c.push(format!("{p999:.0}"));
        }
        let items = row.rounds.iter().map(|r| r.items);
        let (lo, hi) = (items.clone().min().unwrap_or(0), items.max().unwrap_or(0));
        c.push(if lo == hi {
            lo.to_string()
        } else {
            format!("{lo}–{hi}")
        });
        c.push(interval_cell(rs.vs_baseline_interval));
        c.push(interval_cell(rs.vs_best_peer_interval));
        c.push(
            rs.of_floor
                .map_or("—".into(), |f| format!("{:.0}%", f.median * 100.0)),
        );
        c.push(cell(rs.others_load, 2));
        let _ = writeln!(s, "| {} |", c.join(" | "));
    }
    s
}
