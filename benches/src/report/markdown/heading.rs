//! The report's header block: where, when, with what.

use std::fmt::Write;

use crate::report::header::{CRATE_VERSIONS, Header};

/// The header block: where, when, with what.
pub fn header(h: &Header) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# hotq benchmark report\n");
    let _ = writeln!(s, "- date: {}", h.date);
    let _ = writeln!(s, "- CPU: {}, {} cores", h.cpu, h.cores);
    let _ = writeln!(
        s,
        "- compiler: {}{}",
        h.rustc,
        if h.optimised {
            ", release build"
        } else {
            ", DEBUG build (figures meaningless)"
        }
    );
    let _ = writeln!(
        s,
        "- threads pinned to distinct cores: {}",
        if h.pinned {
            "yes, where a workload has no more threads than cores (the SPSC, round-trip, floor and 1P1C workloads); the others, and the disruptor suite's own threads, are left to the scheduler"
        } else {
            "no"
        }
    );
    let crates: Vec<String> = CRATE_VERSIONS
        .iter()
        .map(|(n, v)| format!("{n} {v}"))
        .collect();
    let _ = writeln!(s, "- crates: {}", crates.join(", "));
    for (k, v) in &h.params {
        let _ = writeln!(s, "- {k}: {v}");
    }
    s
}
