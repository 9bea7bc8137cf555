//! The comparative benchmark report: `cargo run --release -p hotq-benches
//! [-- --help]`. A progress bar on stderr (on a terminal), a short summary
//! of the verdicts on stdout, and report.md, report.json, README-tables.md
//! and SVG plots in the output folder.

use std::fs;
use std::path::PathBuf;
use std::process::{Command, ExitCode};
use std::time::Instant;

use hotq_benches::cli::{Options, USAGE};
use hotq_benches::progress::{Progress, Verbosity};
use hotq_benches::report::{
    compare, goals, header::Header, json, markdown, plot, readme, verdicts,
};
use hotq_benches::results::Unit;
use hotq_benches::rounds;
use hotq_benches::{isolated, pin, suites};

/// `--compare`: two runs' verdicts side by side; fails when any differs.
fn compare(a: &std::path::Path, b: &std::path::Path) -> ExitCode {
    let read = |p: &std::path::Path| -> Result<serde_json::Value, String> {
        let text = fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))
    };
    match (read(a), read(b)) {
        (Ok(x), Ok(y)) => {
            let (table, same) = compare::compare(&x, &y);
            print!("{table}");
            if same {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("report: {e}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    // A contender that loses or duplicates an item panics its thread; the
    // peer thread would then wait forever on a queue nobody serves. End the
    // whole run at once, with the panic's message.
    let report_panic = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        report_panic(info);
        eprintln!("report: a contender failed (the message above says how); no report is written");
        std::process::exit(101);
    }));
    let o = match Options::parse(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("report: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if let Some((a, b)) = &o.compare {
        return compare(a, b);
    }
    if let Some((name, rounds)) = &o.hot_path {
        return match hotq_benches::workloads::hot_path::run(name, *rounds, false) {
            true => ExitCode::SUCCESS,
            false => {
                eprintln!("report: no queue named `{name}`");
                ExitCode::from(2)
            }
        };
    }
    if cfg!(debug_assertions) && !o.quick && o.worker.is_none() {
        eprintln!("report: this is a debug build; its figures mean nothing (use --release)");
    }
    // A document without its markers fails now, not after the run.
    for (path, markers) in [(&o.readme, readme::SUMMARY), (&o.docs, readme::TABLES)] {
        if let Some(Err(e)) = path.as_deref().map(|p| readme::check(p, markers)) {
            eprintln!("report: {e}");
            return ExitCode::from(2);
        }
    }
    pin::configure(o.pin);
    // A worker's words would repeat the parent's; its bar still shows.
    let say = o.verbosity != Verbosity::Quiet && o.worker.is_none();
    // The workers find the contender binaries the parent built.
    let mut worker_env = Vec::new();
    // Every suite runs contenders in their own binaries (`isolated`).
    if !o.in_process {
        match contender_dir(say) {
            Ok(dir) => {
                worker_env.push((isolated::DIR_VAR, dir.clone()));
                isolated::configure(dir, o.pin);
            }
            Err(e) => {
                eprintln!("report: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let mut params = suites::params(&o);
    if let (true, Ok(list)) = (o.pin, std::env::var("HOTQ_CORES")) {
        params.push(("cores, in pinning order (HOTQ_CORES)".into(), list));
    }
    if o.processes > 1 {
        params.push((
            "processes".into(),
            format!(
                "{}, one after the other, each with its share of the rounds and the time; the intervals resample processes, then rounds",
                o.processes
            ),
        ));
    }
    let mut header = Header::now(pin::cores() >= 2, params);
    let t0 = Instant::now();
    let workloads = if o.worker.is_none() && o.processes > 1 {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let before = |i: usize| {
            if say {
                eprintln!("report: process {} of {}", i + 1, o.processes);
            }
        };
        match rounds::processes::run(&args, &worker_env, o.processes, &o.out, before) {
            Ok(ws) => ws,
            Err(e) => {
                eprintln!("report: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        run_here(&o, say)
    };
    if say {
        eprintln!("report: ran in {:.0} s", t0.elapsed().as_secs_f64());
    }
    if o.worker.is_some() {
        return write_rounds(&o.out, &workloads);
    }
    if !o.quick {
        header.instructions = count_instructions(say);
    }

    if let Err(e) = fs::create_dir_all(&o.out) {
        eprintln!("report: cannot create {}: {e}", o.out.display());
        return ExitCode::FAILURE;
    }
    let mut plots = Vec::new();
    let mut draw = |name: String, drawn: Result<(), Box<dyn std::error::Error>>| match drawn {
        Ok(()) => plots.push(name),
        Err(e) => eprintln!("report: plot {name}: {e}"),
    };
    let goals = goals::evaluate(&workloads);
    if !goals.is_empty() {
        let name = plot::GOALS_FILE.to_string();
        draw(
            name.clone(),
            plot::goals(&goals, &workloads, &o.out.join(&name)),
        );
    }
    for w in &workloads {
        let name = plot::file_name(w);
        draw(name.clone(), plot::rounds(w, &o.out.join(&name)));
        if w.unit == Unit::Nanos {
            let name = plot::percentiles_file_name(w);
            draw(name.clone(), plot::percentiles(w, &o.out.join(&name)));
        }
    }
    // The tables go to report.md, not the terminal: thousands of lines
    // there hid the verdicts; the terminal gets their summary below.
    let md = markdown::report(&header, &workloads, &plots);
    let tables = markdown::docs(&header, &workloads);
    let json = json::render(&header, &workloads);
    let written = [
        ("report.md", md),
        ("README-tables.md", tables.clone()),
        (
            "report.json",
            serde_json::to_string_pretty(&json).expect("JSON"),
        ),
    ];
    for (name, text) in written {
        if let Err(e) = fs::write(o.out.join(name), text) {
            eprintln!("report: cannot write {name}: {e}");
            return ExitCode::FAILURE;
        }
    }
    if let Some(path) = &o.docs {
        if let Err(e) = readme::update(path, readme::TABLES, &tables) {
            eprintln!("report: {e}");
            return ExitCode::FAILURE;
        }
        if say {
            eprintln!("report: updated the tables in {}", path.display());
        }
    }
    if let Some(path) = &o.readme {
        let summary = verdicts::readme(&header, &goals, &docs_link(path, o.docs.as_deref()));
        if let Err(e) = readme::update(path, readme::SUMMARY, &summary) {
            eprintln!("report: {e}");
            return ExitCode::FAILURE;
        }
        if say {
            eprintln!("report: updated the summary in {}", path.display());
        }
    }
    if say {
        // The default folder is `benches/../target/…`: say where it is.
        let out = fs::canonicalize(&o.out).unwrap_or_else(|_| o.out.clone());
        eprintln!("report: wrote {}", out.display());
        print!(
            "\n{}",
            verdicts::terminal(&goals, &out.join("report.md").display().to_string())
        );
    }
    ExitCode::SUCCESS
}

/// Runs every workload's rounds in this process.
fn run_here(o: &Options, say: bool) -> Vec<hotq_benches::results::Workload> {
    let progress = Progress::new(o.verbosity);
    // The report says which workloads decide a goal; they get
    // --goal-rounds (the scheduler below does not read the report).
    let pending = suites::run(o)
        .into_iter()
        .map(|p| match goals::decides_a_goal(p.name()) {
            true => p.deciding_a_goal(),
            false => p,
        })
        .collect();
    let workloads = rounds::run(pending, o.schedule.as_deref(), &progress);
    isolated::stop_all();
    if let (Some(s), true) = (&o.schedule, say) {
        eprintln!(
            "report: {} runs (contenders × (rounds + calibration)) shared {} s",
            s.slots(),
            s.total().as_secs()
        );
    }
    workloads
}

/// The folder of the contender binaries (`isolated`): `$HOTQ_CONTENDER_DIR`
/// where it is set (a worker, or a test that cargo built them for), else
/// this binary's own, after `cargo build --bins` with this binary's
/// profile has brought them up to date (`cargo run` builds only the
/// report).
fn contender_dir(say: bool) -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os(isolated::DIR_VAR) {
        return Ok(dir.into());
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the report binary: {e}"))?;
    let dir = exe
        .parent()
        .ok_or("the report binary is in no folder")?
        .to_path_buf();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
    let mut build = Command::new(cargo);
    build.args(["build", "-p", "hotq-benches", "--bins", "--manifest-path"]);
    build.arg(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"));
    match dir.file_name().and_then(|n| n.to_str()) {
        Some("release") => {
            build.arg("--release");
        }
        Some("debug") | None => {}
        Some(profile) => {
            build.args(["--profile", profile]);
        }
    }
    if let Some(target) = dir.parent() {
        build.arg("--target-dir").arg(target);
    }
    if say {
        // Not quiet: their first build takes a minute or two on 2 cores,
        // and cargo's lines show that it is under way.
        eprintln!("report: bringing the contender binaries up to date (cargo build --bins)");
    } else {
        build.arg("-q");
    }
    let how = format!(
        "build them with `cargo build --release -p hotq-benches --bins` and set {} to their folder, or pass --in-process",
        isolated::DIR_VAR
    );
    match build.status() {
        Ok(s) if s.success() => isolated::check(&dir).map(|()| dir),
        Ok(s) => Err(format!(
            "cargo could not build the contender binaries ({s}); {how}"
        )),
        Err(e) => Err(format!(
            "cannot run cargo to build the contender binaries ({e}); {how}"
        )),
    }
}

/// The try paths' instruction counts, where callgrind runs here (a few
/// seconds per queue; they do not depend on the machine's load).
fn count_instructions(say: bool) -> Vec<(String, f64)> {
    use hotq_benches::instructions;
    if !instructions::available() {
        if say {
            eprintln!("report: no valgrind here; the instruction counts are left out");
        }
        return Vec::new();
    }
    // Each contender's own binary, as its throughput; with `--in-process`,
    // the file at the report's path, relinked or not (see `report_exe`).
    let exe;
    let counter = match isolated::dir() {
        Some(dir) => instructions::Counter::Contenders(dir),
        None => match rounds::processes::report_exe() {
            Ok(path) => {
                exe = path;
                instructions::Counter::Report(&exe)
            }
            Err(e) => {
                eprintln!("report: {e}; the instruction counts are left out");
                return Vec::new();
            }
        },
    };
    if say {
        eprintln!("report: counting instructions with callgrind");
    }
    instructions::COUNTED
        .iter()
        .filter_map(|name| match instructions::per_pair(counter, name) {
            Ok(n) => Some((name.to_string(), n)),
            Err(e) => {
                eprintln!("report: {e}");
                None
            }
        })
        .collect()
}

/// A worker's output: its rounds, for the parent to read.
fn write_rounds(out: &std::path::Path, ws: &[hotq_benches::results::Workload]) -> ExitCode {
    let path = out.join(rounds::processes::ROUNDS_FILE);
    let text = serde_json::to_string(&rounds::raw::to_json(ws)).expect("JSON");
    match fs::create_dir_all(out).and_then(|()| fs::write(&path, text)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("report: cannot write {}: {e}", path.display());
            ExitCode::FAILURE
        }
    }
}

/// The link from the README at `readme` to the document with the tables:
/// `docs` relative to the README's folder where it lies under it, else as
/// given; docs/performance.md when there is none.
fn docs_link(readme: &std::path::Path, docs: Option<&std::path::Path>) -> String {
    let Some(docs) = docs else {
        return "docs/performance.md".into();
    };
    let folder = readme.parent().unwrap_or(std::path::Path::new(""));
    docs.strip_prefix(folder)
        .unwrap_or(docs)
        .display()
        .to_string()
}
