//! `mutants`: weakens every non-`Relaxed` memory ordering of the queue
//! crates, one at a time, and checks that a loom model (or, second line,
//! a release stress test) fails on each; with `--path`, the same for any
//! crate, judged by that crate's own test command.
//!
//! ```text
//! cargo run --release -p hotq-loom-tests --bin mutants -- [OPTIONS]
//!
//!   --list            print the ordering sites and their mutants, run nothing
//!   --check           compare the sites with loom-tests/MUTANTS.md (the fast test does this)
//!   --crate NAME      only this crate (spsc, mpmc, disruptor); repeatable
//!   --site TEXT       only mutants whose key contains TEXT; repeatable
//!   --stale           only mutants MUTANTS.md has no result for (new or changed sites)
//!   --no-stress       loom models only
//!   --stress-only     only the stress tests, only on mutants MUTANTS.md records as loom survivors
//!   --write           merge the results into loom-tests/MUTANTS.md
//!   --path DIR        any crate instead: the orderings of DIR/src/**/*.rs; writes DIR/MUTANTS.md
//!   --test-cmd CMD    its test command (default `RUSTFLAGS="--cfg loom" cargo test --release`)
//! ```
//!
//! For each crate it runs `loom-tests/tests/<crate>.rs` (each model alone,
//! `--exact`, fastest first, stopping at the first failure, each with a
//! timeout) and then, if the mutant survived, `<crate>/tests/stress.rs` in
//! release. It works in a scratch copy of the workspace,
//! `target/mutants/workspace`, with persistent target dirs there, so each
//! mutant is an incremental rebuild of one crate. One build or test binary
//! runs at a time, under `nice`.
//!
//! With `--path` (module `foreign`) the crate is copied to
//! `target/mutants/foreign/<name>/crate` with a persistent target dir
//! beside it; the test command, run with `sh -c` there, must pass
//! unmutated (its time sets each mutant's limit, 4× + 30 s), and then runs
//! once per mutant. The table (the same as `MUTANTS.md`'s, written by the
//! same code) is printed and written to `DIR/MUTANTS.md`.
//!
//! Exit status: 0 when every survivor is in `loom-tests/mutants-allow.txt`
//! (`DIR/mutants-allow.txt`), 1 when one is not (or `--check` found a
//! difference), 2 on an error (the unmutated models, stress tests or test
//! command fail, a build breaks).

#[cfg(not(loom))]
mod foreign;
#[cfg(not(loom))]
mod report;
#[cfg(not(loom))]
mod run;
#[cfg(not(loom))]
mod scratch;

#[cfg(loom)]
fn main() {
    eprintln!("mutants: build it without `--cfg loom` (it runs the loom models itself)");
    std::process::exit(2);
}

#[cfg(not(loom))]
fn main() {
    std::process::exit(match app() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("mutants: {e}");
            2
        }
    });
}

/// The command line.
#[cfg(not(loom))]
#[derive(Debug, Default)]
struct Options {
    list: bool,
    check: bool,
    crates: Vec<String>,
    sites: Vec<String>,
    stale: bool,
    stress: bool,
    stress_only: bool,
    write: bool,
    /// `--path`: any crate, instead of the hotq workspace.
    path: Option<std::path::PathBuf>,
    /// `--test-cmd`: that crate's test command.
    test_cmd: Option<String>,
}

#[cfg(not(loom))]
fn options() -> Result<Options, String> {
    let mut o = Options {
        stress: true,
        ..Options::default()
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--list" => o.list = true,
            "--check" => o.check = true,
            "--stale" => o.stale = true,
            "--no-stress" => o.stress = false,
            "--stress-only" => o.stress_only = true,
            "--write" => o.write = true,
            "--crate" => o.crates.push(args.next().ok_or("--crate needs a name")?),
            "--site" => o.sites.push(args.next().ok_or("--site needs a text")?),
            "--path" => o.path = Some(args.next().ok_or("--path needs a crate directory")?.into()),
            "--test-cmd" => o.test_cmd = Some(args.next().ok_or("--test-cmd needs a command")?),
            "-h" | "--help" => {
                println!("{}", include_str!("usage.txt"));
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    if o.path.is_none() && o.test_cmd.is_some() {
        return Err("--test-cmd goes with --path (the hotq crates run their loom models)".into());
    }
    if o.path.is_some() && (o.check || !o.crates.is_empty() || !o.stress || o.stress_only) {
        return Err(
            "--check, --crate, --no-stress and --stress-only are for the hotq workspace, not --path"
                .into(),
        );
    }
    Ok(o)
}

#[cfg(not(loom))]
fn app() -> Result<i32, String> {
    use hotq_loom_tests::sites::{self, Mutant};
    use std::collections::BTreeSet;
    use std::time::Instant;

    let o = options()?;
    if let Some(path) = &o.path {
        return foreign::app(&o, path);
    }
    let root = sites::workspace_root();
    if o.check {
        return Ok(match sites::check(&root) {
            Ok(n) => {
                println!("{n} ordering sites, as {} records", sites::MUTANTS_MD);
                0
            }
            Err(e) => {
                eprintln!("{e}");
                1
            }
        });
    }
    let present = sites::present_crates(&root);
    for c in &o.crates {
        if !sites::CRATES.contains(&c.as_str()) {
            return Err(format!("unknown crate {c:?}; known: {:?}", sites::CRATES));
        }
        if !present.contains(&c.as_str()) {
            eprintln!("mutants: {c}/src does not exist here; skipping {c}");
        }
    }
    let crates: Vec<&str> = present
        .into_iter()
        .filter(|c| o.crates.is_empty() || o.crates.iter().any(|w| w == c))
        .collect();
    let md_path = root.join(sites::MUTANTS_MD);
    let old_rows = sites::parse_rows(&std::fs::read_to_string(&md_path).unwrap_or_default());
    let recorded: BTreeSet<String> = old_rows.iter().map(|r| r.key()).collect();
    let loom_survivors: BTreeSet<String> = old_rows
        .iter()
        .filter(|r| r.result == "survived")
        .map(|r| r.key())
        .collect();
    let allowed = sites::parse_allow_list(
        &std::fs::read_to_string(root.join(sites::ALLOW_LIST)).unwrap_or_default(),
    )?;

    let mut plan: Vec<(&str, Vec<Mutant>)> = Vec::new();
    let mut all_sites = Vec::new();
    for &krate in &crates {
        let found = sites::find_sites(&root, krate)?;
        let mutants: Vec<Mutant> = found
            .iter()
            .flat_map(|s| s.mutants())
            .filter(|m| o.sites.is_empty() || o.sites.iter().any(|f| m.key().contains(f)))
            .filter(|m| !o.stale || !recorded.contains(&m.key()))
            .filter(|m| !o.stress_only || loom_survivors.contains(&m.key()))
            .collect();
        all_sites.extend(found);
        plan.push((krate, mutants));
    }

    if o.list {
        list(&all_sites);
        return Ok(0);
    }

    let start = Instant::now();
    let work = scratch::Scratch::prepare(&root)?;
    let mut results = Vec::new();
    for (krate, mutants) in &plan {
        if mutants.is_empty() {
            eprintln!("mutants: {krate}: nothing to run");
            continue;
        }
        let mut runner = run::CrateRunner::new(&work, krate, o.stress, !o.stress_only)?;
        run::run_each(krate, mutants, &mut results, |m| runner.run(m))?;
    }
    let elapsed = start.elapsed();
    eprintln!(
        "mutants: {} mutants in {:.1} min",
        results.len(),
        elapsed.as_secs_f64() / 60.0
    );

    report::print_scores(&results, &allowed);
    if o.write {
        let current = report::workspace_sites(&root, &all_sites, &crates)?;
        let table = report::Table::workspace(&md_path, &crates);
        let text = report::write_md(&table, &current, old_rows, &results, &allowed, elapsed);
        std::fs::write(&md_path, text).map_err(|e| format!("{}: {e}", md_path.display()))?;
        eprintln!("mutants: wrote {}", sites::MUTANTS_MD);
    }
    Ok(verdict(&results, &allowed, sites::ALLOW_LIST))
}

/// `--list`: the sites and their mutants.
#[cfg(not(loom))]
fn list(sites: &[hotq_loom_tests::sites::Site]) {
    for site in sites {
        let mutants: Vec<String> = site
            .mutants()
            .iter()
            .map(|m| m.mutation.to_string())
            .collect();
        println!(
            "{}  ({})  -> {}",
            site.key(),
            site.location(),
            mutants.join(", ")
        );
    }
    let n: usize = sites.iter().map(|s| s.mutants().len()).sum();
    println!("{} sites, {n} mutants", sites.len());
}

/// The exit status: 0 when every survivor is in the allow-list (`allow`,
/// for the message), else 1, naming each survivor that is not.
#[cfg(not(loom))]
fn verdict(
    results: &[(hotq_loom_tests::sites::Mutant, run::Outcome)],
    allowed: &std::collections::BTreeMap<String, String>,
    allow: &str,
) -> i32 {
    let not_allowed: Vec<String> = results
        .iter()
        .filter(|(m, out)| out.result == "survived" && !allowed.contains_key(&m.key()))
        .map(|(m, _)| m.key())
        .collect();
    if not_allowed.is_empty() {
        return 0;
    }
    eprintln!(
        "mutants: {} survivor(s) not in {allow}: kill each with a test, or add `<key> | <reason>`:",
        not_allowed.len(),
    );
    for k in &not_allowed {
        eprintln!("    {k}");
    }
    1
}
