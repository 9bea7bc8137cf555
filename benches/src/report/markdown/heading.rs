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
    s.push_str(&instructions(h));
    s
}

/// The try paths' instruction counts as a table (empty without them).
pub fn instructions(h: &Header) -> String {
    let mut s = String::new();
    if h.instructions.is_empty() {
        return s;
    }
    let _ = writeln!(
        s,
        "\n**Instructions per send+receive** (callgrind, uncontended, one thread: a ring of 1024 filled with single sends, then drained, in the binary its figures come from: its own contender binary, or the report's with --in-process)\n"
    );
    let _ = writeln!(s, "| queue | instructions |\n|---|---:|");
    for (name, n) in &h.instructions {
        let _ = writeln!(s, "| {name} | {n:.1} |");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counts_are_a_table_and_absent_counts_say_nothing() {
        let mut h = Header::now(true, Vec::new());
        assert_eq!(instructions(&h), "");
        h.instructions = vec![("hotq-spsc".into(), 44.0), ("rtrb".into(), 65.25)];
        let t = instructions(&h);
        assert!(t.contains("| hotq-spsc | 44.0 |\n| rtrb | 65.2 |"), "{t}");
        assert!(header(&h).ends_with(&t));
    }
}
