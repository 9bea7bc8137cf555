//! The Markdown the report writes: report.md (a header, how to read it,
//! the goals, one table per workload) and the tables docs/performance.md
//! carries (`--docs`).

use std::fmt::Write;

use super::bootstrap::Interval;
use super::floor;
use super::goals::{self, Goal, Verdict};
use super::header::{CRATE_VERSIONS, Header};
use super::stats::{self, RowStats, WorkloadStats};
use crate::channel::Kind;
use crate::results::{Unit, Workload};
use crate::summary::Summary;

/// `median (min–max)` or a dash.
fn cell(s: Option<Summary>, precision: usize) -> String {
    s.map_or_else(|| "—".into(), |s| format!("{s:.precision$}"))
}

/// `median [lo–hi]` of a per-round ratio, or a dash.
fn interval_cell(i: Option<Interval>) -> String {
    i.map_or_else(
        || "—".into(),
        |i| format!("{:.2} [{:.2}–{:.2}]", i.median, i.lo, i.hi),
    )
}

/// A figure's cell, with about three significant digits for the median
/// (slow baselines run at a few thousand items per second).
fn figure_cell(s: Summary, unit: Unit) -> String {
    format!("{s:.*}", precision(unit, s.median))
}

/// Decimals that give `v` about three significant digits (none for ns).
fn precision(unit: Unit, v: f64) -> usize {
    match unit {
        Unit::Nanos => 0,
        Unit::MItemsPerSec if v >= 100.0 => 0,
        Unit::MItemsPerSec if v >= 10.0 => 1,
        Unit::MItemsPerSec if v >= 1.0 => 2,
        Unit::MItemsPerSec => 3,
    }
}

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

/// Above this many cores' worth of other processes' CPU (median over the
/// run), the README fragment says the run was not on a quiet machine.
const BUSY: f64 = goals::BUSY;

/// How to read the tables: one point a line, so a reader finds the one
/// they need (docs/performance.md carries the same list).
pub const HOW_TO_READ: &str = "\
## How to read it

- **Rounds.** Every contender of a workload runs once per round, in an order that rotates each round, so drift of the machine hits all alike. The rounds of all workloads are interleaved (round 1 of each, then round 2, …) and share one time budget, so each workload samples the machine over the whole run.
- **Figures.** A figure is the median over rounds, with the minimum and maximum in brackets; `items` is what one run moved (a contender too slow for its share of the time gets fewer).
- **Ratios.** Each contender against the baseline (`Mutex<VecDeque>`; crossbeam-channel arcs in the disruptor suite) and against the best peer (the peer crate with the best median), computed per round and given as the median ratio with its 95 % interval. Above 1 is faster for throughput; for round trips the ratio is of times, so below 1 is faster.
- **Verdicts.** From the 95 % interval of a goal's median ratio (a bootstrap of its per-round ratios, 2,000 resamples seeded by the goal's text; a ratio of two workloads' medians resamples each side): **met** when the whole interval is on the goal's side of the target, **missed** when it is all on the other side, undecided when it straddles the target or fewer than 5 rounds back it.
- **Floor.** `limit` is a cache line bounced or handed over with no queue logic. It runs in every round of every workload: as a contender in the SPSC and MPMC suites, as a short probe (10 ms a run at most) in the others. `of floor` is the fraction of it a contender reaches in the same round.
- **The machine's mode.** Before every round the two cores' distance is measured (one cache line bounced 2,000 times: on this kind of VM about 140 ns while the two vCPUs share a cache, 480 ns while they do not; they switch every 20–40 s and every two-core figure follows). Each round is fast or slow by it (the two-means split of the logarithms; steady when it stayed within 2×). A goal's verdict is all its rounds'; each mode's own is listed under the goals table, and **≠** marks a goal that one mode (5 rounds or more) meets and another misses: undecided, since a run with more rounds of the other mode would say otherwise.
- **Marks.** ⚑: the distance moved more than 2× (max ÷ min) over a workload behind the goal, or the goal's two workloads share no mode. busy: other processes used more than 0.2 cores' worth of CPU (median) during its rounds.
- **Load.** `others' load` is the cores' worth of CPU other processes used during a contender's runs (from /proc/stat); figures from rounds above about 0.2 are suspect. Two-thread throughput is bimodal on small machines (a consumer that keeps pace pays a cache miss per item, one that falls behind reads in runs): trust the intervals of per-round ratios over absolute throughput.
- **Plots.** Every round is a dot, marked by the machine's mode in that round, with the table's median as a tick.
";

/// `median [lo–hi]`.
fn iv(i: Interval) -> String {
    format!("{:.2} [{:.2}–{:.2}]", i.median, i.lo, i.hi)
}

/// The rounds behind `g` and their modes: `all 25 (fast 17, slow 8)`,
/// `all 25 (steady)`, or `all 25 (no floor)`.
pub fn rounds_cell(g: &Goal) -> String {
    let counts: Vec<String> = g
        .mode_rounds
        .iter()
        .map(|(m, n)| match m {
            floor::Mode::Steady => "steady".to_string(),
            m => format!("{} {n}", m.label()),
        })
        .collect();
    match (g.modes_apart, counts.is_empty()) {
        (true, _) => format!(
            "all {}: its two workloads ran in different modes ({})",
            g.rounds,
            counts.join(", ")
        ),
        (false, true) => format!("all {} (no floor)", g.rounds),
        (false, false) => format!("all {} ({})", g.rounds, counts.join(", ")),
    }
}

/// A verdict's label and the goal's marks: `⚑` the floor moved, `≠` its
/// modes disagree, `busy`.
fn verdict_cell(g: &Goal, v: Verdict, rounds: usize) -> String {
    let v = match v {
        Verdict::Met => "met".to_string(),
        Verdict::Missed => "**missed**".to_string(),
        Verdict::Undecided if rounds < goals::MIN_ROUNDS => {
            format!("undecided (under {} rounds)", goals::MIN_ROUNDS)
        }
        Verdict::Undecided => "undecided".to_string(),
    };
    let mut marks = String::new();
    if g.flagged {
        marks.push_str(" ⚑");
    }
    if g.modes_disagree {
        marks.push_str(" ≠");
    }
    if g.busy {
        marks.push_str(" busy");
    }
    format!("{v}{marks}")
}

/// The performance goals and where this run stands.
pub fn goals_table(goals: &[Goal]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| goal | target | rounds (per mode of the machine) | median ratio [95 % interval] | verdict |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|");
    for g in goals {
        let row = match (&g.evidence, g.verdict) {
            (Some(e), Some(v)) => {
                let m = match g.interval {
                    Some(i) => iv(i),
                    None => format!("{:.2} (no interval)", e.summary().median),
                };
                format!(
                    "{} | {m} | {}",
                    rounds_cell(g),
                    verdict_cell(g, v, e.rounds())
                )
            }
            _ => "— | not measured (a row is missing) | —".into(),
        };
        let _ = writeln!(s, "| {} | {} | {row} |", g.what, g.target);
    }
    let count = |v: Verdict| goals.iter().filter(|g| g.verdict == Some(v)).count();
    let _ = writeln!(
        s,
        "\n{} met, {} missed, {} undecided, {} not measured; {} undecided because one mode meets the goal and another misses it (≠).",
        count(Verdict::Met),
        count(Verdict::Missed),
        count(Verdict::Undecided),
        goals.iter().filter(|g| g.verdict.is_none()).count(),
        goals.iter().filter(|g| g.modes_disagree).count(),
    );
    let split: Vec<&Goal> = goals.iter().filter(|g| g.by_mode.len() > 1).collect();
    if !split.is_empty() {
        let _ = writeln!(s);
    }
    for g in split {
        let parts: Vec<String> = g
            .by_mode
            .iter()
            .map(|m| {
                format!(
                    "{}, {} rounds: {}, {}",
                    m.mode.label(),
                    m.rounds,
                    iv(m.interval),
                    m.verdict.label()
                )
            })
            .collect();
        let _ = writeln!(
            s,
            "- {}, by the machine's mode: {}",
            g.what,
            parts.join("; ")
        );
    }
    if goals.iter().any(|g| g.busy) {
        let _ = writeln!(
            s,
            "\nbusy: other processes used more than {BUSY} cores' worth of CPU (median over the rounds behind this goal): the verdict measures the machine's other work as much as the queues."
        );
    }
    if goals.iter().any(|g| g.flagged) {
        let _ = writeln!(
            s,
            "\n⚑ the machine's mode (the cores' distance) moved more than {}× within a workload behind this goal (see above): its rounds mix two modes of the machine, in the proportions the run had them; each mode's own interval and verdict are listed above.",
            floor::MOVED
        );
    }
    if goals.iter().any(|g| g.modes_disagree) {
        let _ = writeln!(
            s,
            "\n≠ one mode of the machine meets the goal and the other misses it (each on at least {} rounds of its own), so the goal is undecided: a run with more rounds of the other mode would give the other verdict.",
            goals::MIN_ROUNDS
        );
    }
    s
}

/// The floors of the run: each workload's `limit` figure per round, its
/// spread, and a warning when it moved by more than [`floor::MOVED`].
pub fn floors(workloads: &[Workload]) -> String {
    let mut s = String::new();
    let all: Vec<(&Workload, floor::Floor)> = workloads
        .iter()
        .filter_map(|w| Some((w, floor::of(w)?)))
        .collect();
    if all.is_empty() {
        return s;
    }
    let moved: Vec<String> = all
        .iter()
        .filter(|(_, f)| f.moved)
        .map(|(w, f)| {
            format!(
                "{} ({:.*}–{:.*} {}, {:.1}×)",
                w.name,
                precision(f.unit, f.summary.min),
                f.summary.min,
                precision(f.unit, f.summary.max),
                f.summary.max,
                f.unit.label(),
                f.spread
            )
        })
        .collect();
    if moved.is_empty() {
        let worst = all.iter().map(|(_, f)| f.spread).fold(1.0, f64::max);
        let _ = writeln!(
            s,
            "- the machine's mode (the two cores' distance, one cache line bounced before every round of every workload): steady, each workload's within {worst:.2}× (max ÷ min over its rounds; {}× would flag the run)",
            floor::MOVED
        );
    } else {
        let _ = writeln!(
            s,
            "- **the machine's mode moved more than {}× within this run**, in {}: the two cores' distance (one cache line bounced before every round) changed during the run (this VM's vCPUs sharing a cache, then not; or another process), so its verdicts are flagged ⚑ and each goal must hold in every mode.",
            floor::MOVED,
            moved.join("; ")
        );
    }
    s
}

/// One line under a workload's table: its mode's figure round by round.
fn floor_line(w: &Workload) -> Option<String> {
    let f = floor::of(w)?;
    let rounds: Vec<String> = f
        .per_round
        .iter()
        .map(|&v| format!("{v:.*}", precision(f.unit, v)))
        .collect();
    let what = match f.source {
        floor::Source::Distance => "core distance per round (round trip of one line)",
        floor::Source::Limit => "floor per round",
    };
    Some(format!(
        "{what} ({}): {}; spread {:.2}×{}\n",
        f.unit.label(),
        rounds.join(", "),
        f.spread,
        if f.moved { ", **moved**" } else { "" }
    ))
}

/// The full report.
pub fn report(h: &Header, workloads: &[Workload], plots: &[String]) -> String {
    let mut s = header(h);
    s.push_str(&floors(workloads));
    let _ = writeln!(s, "\n{HOW_TO_READ}");
    let goals = goals::evaluate(workloads);
    if !goals.is_empty() {
        let _ = writeln!(s, "## goals\n\n{}", goals_table(&goals));
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

/// The tables of docs/performance.md (and README-tables.md): the goals,
/// then per suite one matrix of medians (contenders down, workloads
/// across), then ours against the baseline and the best peer.
pub fn docs(h: &Header, workloads: &[Workload]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Measured {} on {} ({} cores), {}; generated by `cargo run --release -p hotq-benches -- --docs docs/performance.md`.\n",
        h.date, h.cpu, h.cores, h.rustc
    );
    let loads: Vec<f64> = workloads
        .iter()
        .flat_map(|w| &w.rows)
        .flat_map(|r| &r.rounds)
        .filter_map(|r| r.others_load)
        .collect();
    if !loads.is_empty() {
        let load = Summary::of(&loads);
        if load.median > BUSY {
            let _ = writeln!(
                s,
                "**This run shared the machine**: other processes used {load:.2} cores' worth of CPU (median, min–max over runs). Read its figures as a functional check, not a measurement; regenerate on a quiet machine.\n"
            );
        }
    }
    let floors = floors(workloads);
    if !floors.is_empty() {
        let _ = writeln!(s, "{floors}");
    }
    let goals = goals::evaluate(workloads);
    if !goals.is_empty() {
        let _ = writeln!(
            s,
            "**goals** (of the benchmark issue; not tests)\n\n{}",
            goals_table(&goals)
        );
    }
    // In order of first appearance: a suite's workloads need not be
    // adjacent (the channels suite's wake-up rows come after its async
    // suite), and each suite gets one table.
    let mut suites: Vec<&str> = Vec::new();
    for w in workloads {
        if !suites.contains(&w.suite) {
            suites.push(w.suite);
        }
    }
    for suite in suites {
        let ws: Vec<&Workload> = workloads.iter().filter(|w| w.suite == suite).collect();
        let sts: Vec<WorkloadStats> = ws.iter().map(|w| stats::of(w)).collect();
        let mut names: Vec<&str> = Vec::new();
        for w in &ws {
            for r in &w.rows {
                if !names.contains(&r.name.as_str()) {
                    names.push(&r.name);
                }
            }
        }
        let unit = ws[0].unit.label();
        let _ = writeln!(s, "**{suite}** (median {unit})\n");
        // A column in another unit than the table's says its own.
        let cols: Vec<String> = ws
            .iter()
            .map(|w| {
                if w.unit == ws[0].unit {
                    w.name.clone()
                } else {
                    format!("{} ({})", w.name, w.unit.label())
                }
            })
            .collect();
        let _ = writeln!(s, "| contender | {} |", cols.join(" | "));
        let _ = writeln!(s, "|---|{}", "---|".repeat(cols.len()));
        for name in names {
            let cells: Vec<String> = ws
                .iter()
                .zip(&sts)
                .map(|(w, st)| {
                    w.rows
                        .iter()
                        .position(|r| r.name == name)
                        .map_or("—".into(), |i| {
                            let m = st.rows[i].figure.median;
                            format!("{m:.*}", precision(w.unit, m))
                        })
                })
                .collect();
            let _ = writeln!(s, "| {name} | {} |", cells.join(" | "));
        }
        let _ = writeln!(s);
        for (w, st) in ws.iter().zip(&sts) {
            for (row, rs) in w.rows.iter().zip(&st.rows) {
                if row.kind == Kind::Ours {
                    let _ = writeln!(s, "- {} {}: {}", w.name, row.name, ratios(w.unit, st, rs));
                }
            }
        }
        let _ = writeln!(s);
    }
    s
}

fn ratios(unit: Unit, st: &WorkloadStats, rs: &RowStats) -> String {
    let what = if unit.higher_is_better() {
        "×"
    } else {
        "time ×"
    };
    let mut parts = Vec::new();
    if let (Some(b), Some(_)) = (&st.baseline, rs.vs_baseline_interval) {
        parts.push(format!(
            "{what} {b} {}",
            interval_cell(rs.vs_baseline_interval)
        ));
    }
    if let (Some(b), Some(_)) = (&st.best_peer, rs.vs_best_peer_interval) {
        parts.push(format!(
            "{what} {b} {}",
            interval_cell(rs.vs_best_peer_interval)
        ));
    }
    if let Some(l) = rs.others_load {
        parts.push(format!("others' load {l:.2}"));
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::goals::tests::{batch_fast_then_slow, single_all_fast, workload};

    #[test]
    fn the_goals_table_shows_each_interval_verdict_and_flag() {
        let ours = [301.0, 264.0, 290.0, 280.0, 275.0, 288.0, 283.0, 279.0];
        let peer = [200.0, 210.0, 205.0, 190.0, 200.0, 202.0, 199.0, 201.0];
        let fell = [888.0, 870.0, 280.0, 281.0, 279.0, 285.0, 282.0, 280.0];
        let w = workload(
            "cap 1024, single",
            &[
                ("hotq-spsc", Kind::Ours, &ours),
                ("rtrb", Kind::Peer, &peer),
                ("limit", Kind::Limit, &fell),
            ],
        );
        let ws = [w];
        let text = goals_table(&goals::evaluate(&ws));
        // Six slow rounds and two fast, all eight decide; each mode's own
        // figures are listed under the table.
        assert!(
            text.contains("| ≥ 1.20 | all 8 (fast 2, slow 6) | 1.4") && text.contains("| met ⚑ |"),
            "{text}"
        );
        assert!(text.contains("fast, 2 rounds") && text.contains("slow, 6 rounds"));
        assert!(text.contains("1 met, 0 missed") && text.contains("0 undecided because"));
        // A goal over two workloads counts the rounds of both, including
        // a mode that only one of them had.
        let single = single_all_fast();
        let batch = batch_fast_then_slow();
        let two = goals_table(&goals::evaluate(&[single, batch]));
        assert!(two.contains("| all 12 (fast 8, slow 4) |"), "{two}");
        let head = floors(&ws);
        assert!(head.contains("mode moved more than 2×") && head.contains("cap 1024, single"));
        let line = floor_line(&ws[0]).unwrap();
        assert!(
            line.starts_with("floor per round")
                && line.contains("888, 870, 280")
                && line.contains("**moved**"),
            "{line}"
        );
        // Where the cores' distance was measured, it tells the mode, not
        // the limit row: here it moved, three near rounds then five far.
        let mut w = workload(
            "cap 1024, single",
            &[
                ("hotq-spsc", Kind::Ours, &ours),
                ("rtrb", Kind::Peer, &peer),
                ("limit", Kind::Limit, &[880.0; 8]),
            ],
        );
        w.distance = vec![140.0, 141.0, 139.0, 480.0, 490.0, 470.0, 485.0, 480.0];
        let f = floor::of(&w).unwrap();
        assert_eq!(
            (f.source, f.unit),
            (floor::Source::Distance, crate::results::Unit::Nanos)
        );
        use floor::Mode::{Fast, Slow};
        assert_eq!(f.modes, [Fast, Fast, Fast, Slow, Slow, Slow, Slow, Slow]);
        let line = floor_line(&w).unwrap();
        assert!(
            line.starts_with(
                "core distance per round (round trip of one line) (ns): 140, 141, 139, 480"
            ) && line.contains("**moved**"),
            "{line}"
        );
        let text = goals_table(&goals::evaluate(&[w]));
        assert!(text.contains("| all 8 (fast 3, slow 5) |"), "{text}");
    }
}
