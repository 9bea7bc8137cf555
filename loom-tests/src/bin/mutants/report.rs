//! The score, and `MUTANTS.md`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use hotq_loom_tests::sites::{self, Mutant, Row, Site};

use crate::run::Outcome;

/// Prints killed/total per crate for this run.
pub fn print_scores(results: &[(Mutant, Outcome)], allowed: &BTreeMap<String, String>) {
    let rows: Vec<Row> = results.iter().map(|(m, o)| row(m, o)).collect();
    for line in score_lines(&rows, allowed) {
        eprintln!("{line}");
    }
}

fn row(m: &Mutant, o: &Outcome) -> Row {
    Row {
        krate: m.site.krate.clone(),
        site: m.site.key(),
        mutation: m.mutation.to_string(),
        location: m.site.location(),
        result: o.result.to_string(),
        detail: o.detail.replace('|', "/"),
        seconds: format!("{:.0} s", o.seconds),
    }
}

fn score_lines(rows: &[Row], allowed: &BTreeMap<String, String>) -> Vec<String> {
    let mut by_crate: BTreeMap<&str, Vec<&Row>> = BTreeMap::new();
    for r in rows {
        by_crate.entry(&r.krate).or_default().push(r);
    }
    let order = |c: &str| sites::CRATES.iter().position(|k| *k == c).unwrap_or(99);
    let mut crates: Vec<_> = by_crate.into_iter().collect();
    crates.sort_by_key(|(c, _)| order(c));
    let mut out = vec![
        "| crate | sites | mutants | killed | survived, justified | survived, NOT justified | score (killed / mutants) |".to_string(),
        "|---|---|---|---|---|---|---|".to_string(),
    ];
    for (krate, rows) in crates {
        // Rows never run (`not run`) count nowhere: the table says how
        // many there are.
        let rows: Vec<&Row> = rows.into_iter().filter(|r| r.result != "not run").collect();
        let sites: BTreeSet<&str> = rows.iter().map(|r| r.site.as_str()).collect();
        let killed = rows
            .iter()
            .filter(|r| r.result == "killed" || r.result == "timeout")
            .count();
        let survivors: Vec<_> = rows.iter().filter(|r| r.result == "survived").collect();
        let justified = survivors
            .iter()
            .filter(|r| allowed.contains_key(&r.key()))
            .count();
        out.push(format!(
            "| {krate} | {} | {} | {killed} | {justified} | {} | {killed}/{} = {:.0} % |",
            sites.len(),
            rows.len(),
            survivors.len() - justified,
            rows.len(),
            100.0 * killed as f64 / rows.len().max(1) as f64
        ));
    }
    out
}

/// What a `MUTANTS.md` is about: the hotq workspace's table, or any
/// crate's (`--path`).
pub struct Table<'a> {
    /// The file as it is now (its runs and hand-made section are kept).
    pub md_path: &'a Path,
    /// The paragraph under the title: how the table was made.
    pub intro: String,
    /// The crates this run ran, for the run's line.
    pub crates_run: Vec<String>,
    /// The command line of this run, for the run's line.
    pub args: String,
}

impl Table<'_> {
    /// The hotq workspace's `loom-tests/MUTANTS.md`.
    pub fn workspace<'a>(md_path: &'a Path, crates_run: &[&str]) -> Table<'a> {
        Table {
            md_path,
            intro: format!(
                "Written by `{}` (see `README.md`, \"Ordering mutants\"); \
                 edit the allow-list (`mutants-allow.txt`), not this file. Each non-`Relaxed` \
                 ordering of the queue crates is weakened alone; a mutant is *killed* when a loom \
                 model of `tests/<crate>.rs` fails on it (each model alone, fastest first), or, \
                 second line, the crate's release stress tests; *timeout* means a test ran past its \
                 limit (4× its unmutated time + 30 s), which counts as killed. The fast test \
                 `tests/ordering_sites.rs` checks that the sites below are the sources' sites.\n",
                sites::WRITE_COMMAND
            ),
            crates_run: crates_run.iter().map(|c| c.to_string()).collect(),
            args: command_line(),
        }
    }
}

/// This run's arguments as a shell would take them back: one with a space
/// or a quote is put in single quotes.
pub fn command_line() -> String {
    std::env::args()
        .skip(1)
        .map(|a| {
            if a.chars().any(|c| c.is_whitespace() || "'\"$\\".contains(c)) {
                format!("'{}'", a.replace('\'', r"'\''"))
            } else {
                a
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The hotq workspace's sites now: `sites_now` (of the crates run) and
/// those of every other present crate.
pub fn workspace_sites(
    root: &Path,
    sites_now: &[Site],
    crates_run: &[&str],
) -> Result<Vec<Site>, String> {
    let mut current: Vec<Site> = sites_now.to_vec();
    for krate in sites::present_crates(root) {
        if !crates_run.contains(&krate) {
            current.extend(sites::find_sites(root, krate)?);
        }
    }
    Ok(current)
}

/// The new `MUTANTS.md`: this run's results, plus the recorded results of
/// mutants not run this time whose site still exists (`current`: every
/// site the table is about).
pub fn write_md(
    table: &Table,
    current: &[Site],
    old: Vec<Row>,
    results: &[(Mutant, Outcome)],
    allowed: &BTreeMap<String, String>,
    elapsed: Duration,
) -> String {
    let fresh: BTreeMap<String, Row> = results.iter().map(|(m, o)| (m.key(), row(m, o))).collect();
    let old: BTreeMap<String, Row> = old.into_iter().map(|r| (r.key(), r)).collect();
    let mut rows = Vec::new();
    let mut never_run = Vec::new();
    for site in current {
        for m in site.mutants() {
            let key = m.key();
            if let Some(r) = fresh.get(&key) {
                rows.push(r.clone());
            } else if let Some(r) = old.get(&key).filter(|r| r.result != "not run") {
                let mut r = r.clone();
                r.location = site.location();
                rows.push(r);
            } else {
                never_run.push(key.clone());
                rows.push(Row {
                    krate: site.krate.clone(),
                    site: site.key(),
                    mutation: m.mutation.to_string(),
                    location: site.location(),
                    result: "not run".into(),
                    detail: "run the tool on this crate".into(),
                    seconds: "-".into(),
                });
            }
        }
    }

    let date = std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let mut md = String::new();
    let w = &mut md;
    let _ = writeln!(w, "# Ordering mutants\n");
    let _ = writeln!(w, "{}", table.intro);
    // The runs that made this table: earlier ones kept, newest last.
    let old_md = std::fs::read_to_string(table.md_path).unwrap_or_default();
    let mut runs: Vec<String> = old_md
        .lines()
        .filter_map(|l| {
            l.strip_prefix("Last run: ")
                .map(|rest| format!("- run {}", rest.trim_end_matches('.')))
                .or_else(|| l.starts_with("- run ").then(|| l.to_string()))
        })
        .collect();
    runs.push(format!(
        "- run {date}: `{}`, crates {}, {} mutants in {:.1} min on the 2-core machine",
        table.args,
        table.crates_run.join(", "),
        results.len(),
        elapsed.as_secs_f64() / 60.0
    ));
    let _ = writeln!(w, "Runs that made this table, newest last:\n");
    for run in &runs[runs.len().saturating_sub(8)..] {
        let _ = writeln!(w, "{run}");
    }
    let _ = writeln!(w);
    let _ = writeln!(w, "## Score\n");
    for line in score_lines(&rows, allowed) {
        let _ = writeln!(w, "{line}");
    }
    if !never_run.is_empty() {
        let _ = writeln!(
            w,
            "\n{} mutants were never run (`not run` below).",
            never_run.len()
        );
    }
    let _ = writeln!(w, "\n## Mutants\n");
    let _ = writeln!(
        w,
        "| crate | site | mutation | where | result | by | time |"
    );
    let _ = writeln!(w, "|---|---|---|---|---|---|---|");
    for r in &rows {
        let _ = writeln!(
            w,
            "| {} | `{}` | `{}` | {} | {} | {} | {} |",
            r.krate, r.site, r.mutation, r.location, r.result, r.detail, r.seconds
        );
    }
    let _ = writeln!(w, "\n## Survivors\n");
    let survivors: Vec<&Row> = rows.iter().filter(|r| r.result == "survived").collect();
    if survivors.is_empty() {
        let _ = writeln!(w, "None.");
    }
    for r in survivors {
        match allowed.get(&r.key()) {
            Some(reason) => {
                let _ = writeln!(w, "- `{}` ({}): {reason}", r.key(), r.location);
            }
            None => {
                let _ = writeln!(w, "- `{}` ({}): **NOT JUSTIFIED**", r.key(), r.location);
            }
        }
    }
    // The hand-made mutations (a guarded invariant broken by hand, not an
    // ordering weakened by this tool) are kept as they were written.
    if let Some(at) = old_md.find(HAND_MADE) {
        let _ = write!(w, "\n{}", &old_md[at..]);
    }
    md
}

/// The heading of `MUTANTS.md`'s hand-written section, which `--write`
/// carries over unchanged.
const HAND_MADE: &str = "## Hand-made mutations";
