//! `--path`: the mutants of any crate, judged by that crate's own test
//! command (by default its loom suite).
//!
//! The crate at `<path>` is copied to `target/mutants/foreign/<name>/crate`
//! (this workspace's `target/`), with its own persistent target dir beside
//! it, so that each mutant is an incremental rebuild of that crate. Its
//! sites are those of `<path>/src/**/*.rs`, found as for the hotq crates;
//! the table is printed and written to `<path>/MUTANTS.md`, and survivors
//! are judged against `<path>/mutants-allow.txt` when there is one.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::time::Instant;

use hotq_loom_tests::sites::{self, Mutant};

use crate::{Options, report, run, scratch};

/// The test command when `--test-cmd` is not given.
pub const DEFAULT_TEST_CMD: &str = r#"RUSTFLAGS="--cfg loom" cargo test --release"#;

/// The tool on the crate at `path`.
pub fn app(o: &Options, path: &Path) -> Result<i32, String> {
    let manifest = path.join("Cargo.toml");
    if !manifest.is_file() {
        return Err(format!(
            "--path {}: no Cargo.toml there (give a crate's directory)",
            path.display()
        ));
    }
    let name = run::package_name(&manifest)?;
    let dir = path
        .canonicalize()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let found = sites::find_crate_sites(&dir, &name)?;
    if found.is_empty() {
        return Err(format!(
            "{name}: no ordering stronger than `Relaxed` and no fence in {}/src: nothing to mutate",
            path.display()
        ));
    }
    let md_path = dir.join("MUTANTS.md");
    let old_rows = sites::parse_rows(&fs::read_to_string(&md_path).unwrap_or_default());
    let recorded: BTreeSet<String> = old_rows.iter().map(|r| r.key()).collect();
    let allow_label = format!("{}/mutants-allow.txt", path.display());
    let allowed = sites::parse_allow_list_in(
        &fs::read_to_string(dir.join("mutants-allow.txt")).unwrap_or_default(),
        &allow_label,
    )?;
    let mutants: Vec<Mutant> = found
        .iter()
        .flat_map(|s| s.mutants())
        .filter(|m| o.sites.is_empty() || o.sites.iter().any(|f| m.key().contains(f)))
        .filter(|m| !o.stale || !recorded.contains(&m.key()))
        .collect();
    if o.list {
        crate::list(&found);
        return Ok(0);
    }
    if mutants.is_empty() {
        eprintln!("mutants: {name}: nothing to run");
        return Ok(0);
    }

    let command = o.test_cmd.as_deref().unwrap_or(DEFAULT_TEST_CMD);
    let base = sites::workspace_root()
        .join("target")
        .join("mutants")
        .join("foreign")
        .join(&name);
    let start = Instant::now();
    let work = scratch::Scratch::prepare_crate(&dir, &base.join("crate"))?;
    let mut runner =
        run::CommandRunner::new(&work, command, base.join("target"), base.join("logs"))?;
    let mut results = Vec::new();
    run::run_each(&name, &mutants, &mut results, |m| runner.run(m))?;
    let elapsed = start.elapsed();
    eprintln!(
        "mutants: {} mutants in {:.1} min",
        results.len(),
        elapsed.as_secs_f64() / 60.0
    );

    let table = report::Table {
        md_path: &md_path,
        intro: format!(
            "Written by hotq's ordering-mutation tool, \
             `cargo run --release -p hotq-loom-tests --bin mutants -- --path <this crate> \
             --test-cmd <command>` (see hotq's `loom-tests/README.md`, \"Ordering mutants\"), \
             the test command being `{command}`. \
             Each non-`Relaxed` ordering and each fence of `{name}`'s `src/` (test-only modules \
             skipped) is weakened alone in a scratch copy of the crate, and the command runs on \
             it; a mutant is *killed* when the command fails, *timeout* when it ran past its \
             limit (4× the unmutated run + 30 s), which counts as killed. The unmutated run \
             passed in {:.0} s (crate rebuild included, as in each row's time). A survivor is \
             justified by a line `<mutant key> | <reason>` in `mutants-allow.txt` beside this \
             file.\n",
            runner.baseline.as_secs_f64()
        ),
        crates_run: vec![name.clone()],
        args: report::command_line(),
    };
    let text = report::write_md(&table, &found, old_rows, &results, &allowed, elapsed);
    println!("{text}");
    report::print_scores(&results, &allowed);
    fs::write(&md_path, &text).map_err(|e| format!("{}: {e}", md_path.display()))?;
    eprintln!("mutants: wrote {}", md_path.display());
    Ok(crate::verdict(&results, &allowed, &allow_label))
}
