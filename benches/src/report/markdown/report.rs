//! report.md: the header, the floors, how to read it, the goals, every
//! workload's table, the plots.

use std::fmt::Write;

use super::floors::{floor_line, floors};
use super::goals_table::goals_table;
use super::heading::header;
use super::how_to_read::HOW_TO_READ;
use super::regime_grid::grid;
use super::table::table;
use crate::report::goals;
use crate::report::header::Header;
use crate::report::stats;
use crate::results::Workload;
use crate::suites::regimes::GRIDS;

/// The full report.
pub fn report(h: &Header, workloads: &[Workload], plots: &[String]) -> String {
    let mut s = header(h);
    s.push_str(&floors(workloads));
    let _ = writeln!(s, "\n{HOW_TO_READ}");
    let goals = goals::evaluate(workloads);
    if !goals.is_empty() {
        let _ = writeln!(s, "## goals\n\n{}", goals_table(&goals));
    }
    for g in GRIDS {
        let tables = grid(g, &goals, workloads);
        if !tables.is_empty() {
            let _ = writeln!(s, "## {}\n\n{tables}", g.title);
        }
    }
    let mut suite = "";
    for w in workloads {
        if w.suite != suite {
            suite = w.suite;
            let _ = writeln!(s, "## {suite}\n");
        }
        let _ = writeln!(s, "{}", table(w, &stats::of(w)));
        if let Some(line) = floor_line(w) {
            let _ = writeln!(s, "{line}");
        }
    }
    if !plots.is_empty() {
        let _ = writeln!(s, "## plots\n");
        for p in plots {
            let _ = writeln!(s, "- [{p}]({p})");
        }
    }
    s
}
