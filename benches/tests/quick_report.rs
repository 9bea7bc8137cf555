//! The report's smoke run: `report --quick` must finish, write every
//! file, and give every contender of every workload a figure for every
//! round. It checks presence, never speed (this runs in debug builds too).

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hotq_benches::async_channels;
use hotq_benches::channel::{Channel, Shared, TryChannel};
use hotq_benches::contenders::SyncChannel;
use hotq_benches::contenders::{self, ChannelVisitor, SharedVisitor, TryVisitor};
use hotq_benches::isolated;
use hotq_benches::sequenced::{self, Ring, RingVisitor, Topology};
use hotq_benches::waiting::asynchronous::{self, AsyncChannel, AsyncVisitor};
use hotq_benches::waiting::blocking;
use hotq_benches::workloads::select;
use serde_json::Value;

/// Past this the run counts as hung (the quick run takes seconds).
const DEADLINE: Duration = Duration::from_secs(240);

#[derive(Default)]
struct Names {
    all: Vec<&'static str>,
    slices: Vec<&'static str>,
    shared: Vec<&'static str>,
    rings: Vec<&'static str>,
}
impl ChannelVisitor for Names {
    fn visit<C: Channel>(&mut self) {
        self.all.push(C::NAME);
        if C::SLICES {
            self.slices.push(C::NAME);
        }
    }
}
impl SharedVisitor for Names {
    fn visit<C: Shared>(&mut self) {
        self.shared.push(C::NAME);
    }
}
impl RingVisitor for Names {
    fn visit<R: Ring>(&mut self) {
        self.rings.push(R::NAME);
    }
}

/// The waiting suite's contenders (its idle-CPU figures may be 0, so that
/// workload is not checked here).
#[derive(Default)]
struct WaitingNames {
    blocking: Vec<&'static str>,
    asynchronous: Vec<&'static str>,
}
impl ChannelVisitor for WaitingNames {
    fn visit<C: Channel>(&mut self) {
        self.blocking.push(C::NAME);
    }
}
impl hotq_benches::waiting::asynchronous::AsyncVisitor for WaitingNames {
    fn visit<C: hotq_benches::waiting::asynchronous::AsyncChannel>(&mut self) {
        self.asynchronous.push(C::NAME);
    }
}

/// The channels suite's contenders: blocking (the MPMC shapes), and async
/// (with whether each can share its receiver).
#[derive(Default)]
struct ChannelNames {
    blocking: Vec<&'static str>,
    asynchronous: Vec<(&'static str, bool)>,
}
impl SharedVisitor for ChannelNames {
    fn visit<C: Shared>(&mut self) {
        self.blocking.push(C::NAME);
    }
}
impl hotq_benches::async_channels::AsyncVisitor for ChannelNames {
    fn visit<C: hotq_benches::async_channels::AsyncChan>(&mut self) {
        self.asynchronous.push((C::NAME, C::MULTI_CONSUMER));
    }
}

/// A fresh folder for the test called `test` (the tests of this file run
/// at once, in one process: each needs its own).
fn out_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hotq-quick-report-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Runs `report --quick`, failing if it outlives [`DEADLINE`]. Its stdout
/// is read while it runs: a report that prints more than the pipe holds
/// (64 KiB on Linux) would otherwise block on its write and never exit.
fn run_quick(out: &PathBuf, readme: &PathBuf, docs: &PathBuf) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_report"))
        // Two processes of one round each: the parent's merge of its
        // workers' rounds is what every default run goes through.
        .args(["--quick", "--processes", "2", "--out"])
        .arg(out)
        // Cargo built the contender binaries beside the report for this
        // test; the report must not run cargo inside cargo's own run.
        .env(isolated::DIR_VAR, contender_dir())
        .arg("--readme")
        .arg(readme)
        .arg("--docs")
        .arg(docs)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the report binary starts");
    let mut pipe = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        use std::io::Read;
        let mut stdout = String::new();
        pipe.read_to_string(&mut stdout).map(|_| stdout)
    });
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            assert!(status.success(), "report --quick failed: {status}");
            break;
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            panic!("report --quick still running after {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    reader
        .join()
        .unwrap()
        .expect("the report's stdout is UTF-8")
}

#[test]
fn quick_report_gives_every_contender_a_figure_and_valid_json() {
    let mut names = Names::default();
    contenders::each_channel(&mut names);
    contenders::each_shared(&mut names);
    sequenced::each_ring(&mut names);

    let out = out_dir("all");
    // A README and a performance document with their markers, beside the
    // output (the report writes the summary into one, the tables into the
    // other).
    std::fs::create_dir_all(&out).unwrap();
    let (readme, docs) = (out.join("README.md"), out.join("performance.md"));
    let summary = (
        "<!-- hotq-summary:begin (generated: do not edit by hand) -->",
        "<!-- hotq-summary:end -->",
    );
    let tables = (
        "<!-- hotq-report:begin (generated: do not edit by hand) -->",
        "<!-- hotq-report:end -->",
    );
    std::fs::write(
        &readme,
        format!("# hotq\n{}\nold\n{}\nend\n", summary.0, summary.1),
    )
    .unwrap();
    std::fs::write(
        &docs,
        format!("# perf\n{}\nold\n{}\nend\n", tables.0, tables.1),
    )
    .unwrap();
    let stdout = run_quick(&out, &readme, &docs);
    let readme = std::fs::read_to_string(&readme).unwrap();
    assert!(
        readme.starts_with(&format!("# hotq\n{}\n\nMeasured ", summary.0))
            && readme.contains("performance goals (not tests)")
            && readme.contains("[performance.md](performance.md)")
            && readme.ends_with(&format!("{}\nend\n", summary.1))
            && !readme.contains("old"),
        "{readme}"
    );
    let docs = std::fs::read_to_string(&docs).unwrap();
    assert!(
        docs.contains("| contender |") && docs.contains("**goals**") && !docs.contains("old\n"),
        "{docs}"
    );
    // The terminal gets the verdicts' summary; the tables go to report.md.
    assert!(
        stdout.contains(" goals: ") && stdout.contains("report.md"),
        "the summary goes to stdout: {stdout}"
    );
    assert!(
        !stdout.contains("# hotq benchmark report") && stdout.lines().count() <= 60,
        "no tables on the terminal: {} lines",
        stdout.lines().count()
    );

    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("report.json")).expect("report.json written"),
    )
    .expect("report.json parses");
    let header = &json["header"];
    for key in [
        "date", "cpu", "cores", "rustc", "pinned", "crates", "params",
    ] {
        assert!(!header[key].is_null(), "header lacks {key}");
    }
    let rounds = 2;
    let workloads = json["workloads"].as_array().expect("workloads");
    let expect = |suite: &str, name_has: &str, contenders: &[&str]| {
        let w = workloads
            .iter()
            .find(|w| w["suite"] == suite && w["name"].as_str().unwrap().contains(name_has))
            .unwrap_or_else(|| panic!("no workload {suite} / {name_has}"));
        let rows = w["rows"].as_array().unwrap();
        for c in contenders.iter().chain(std::iter::once(&"limit")) {
            let row = rows
                .iter()
                .find(|r| r["name"] == *c)
                .unwrap_or_else(|| panic!("{suite} / {}: no row for {c}", w["name"]));
            let figs = row["rounds"].as_array().unwrap();
            assert_eq!(figs.len(), rounds, "{c}: one figure per round");
            let processes: Vec<_> = figs.iter().map(|r| r["process"].as_u64()).collect();
            assert_eq!(
                processes,
                [Some(0), Some(1)],
                "{c}: a round from each process"
            );
            for r in figs {
                let f = r["figure"].as_f64().expect("a number");
                assert!(f.is_finite() && f > 0.0, "{c}: figure {f}");
                assert!(r.get("others_load").is_some(), "{c}: the load is recorded");
            }
            assert!(row["figure"]["median"].is_number());
        }
    };
    for cap in ["cap 2,", "cap 1024,", "cap 65536,"] {
        expect("SPSC throughput", &format!("{cap} single"), &names.all);
    }
    for batch in [
        "cap 1024, batch 16",
        "cap 1024, batch 256",
        "cap 65536, batch 256",
    ] {
        expect("SPSC throughput", batch, &names.slices);
    }
    expect("round-trip latency", "round trip", &names.all);
    for shape in ["1P1C", "2P2C", "4P4C"] {
        expect("MPMC throughput", shape, &names.shared);
    }
    for t in Topology::ALL {
        expect("disruptor topologies", t.name(), &names.rings);
    }
    let mut waiting = WaitingNames::default();
    hotq_benches::waiting::blocking::each_blocking(&mut waiting);
    hotq_benches::waiting::asynchronous::each_async(&mut waiting);
    for name in [
        "blocking, cap 8",
        "blocking, cap 1024",
        "blocking round trip",
        "wake-up latency",
    ] {
        expect("waiting", name, &waiting.blocking);
    }
    for name in ["async, cap 8", "async, cap 1024"] {
        expect("waiting", name, &waiting.asynchronous);
    }
    // The channels suite, so that a broken channel workload fails here:
    // every blocking shape (std's channel at the one-consumer shape), the
    // async shapes, the wake-up latency (idle CPU may read 0).
    let mut channels = ChannelNames::default();
    contenders::each_waiting_channel(&mut channels);
    hotq_benches::async_channels::each(&mut channels);
    let blocking = "channels (blocking)";
    let with_std: Vec<&str> = channels
        .blocking
        .iter()
        .copied()
        .chain(["mpsc::sync_channel"])
        .collect();
    for cap in [1024, 8] {
        expect(blocking, &format!("1P1C cap {cap}"), &with_std);
        for shape in ["2P2C", "4P4C", "8P8C"] {
            expect(blocking, &format!("{shape} cap {cap}"), &channels.blocking);
        }
    }
    for (shape, shared) in [("1P1C", false), ("4P1C", false), ("4P4C", true)] {
        let names: Vec<&str> = channels
            .asynchronous
            .iter()
            .filter(|(_, multi)| *multi || !shared)
            .map(|(n, _)| *n)
            .collect();
        expect("channels (async)", &format!("async {shape}"), &names);
    }
    expect(blocking, "channel wake-up latency", &with_std);
    let idle = workloads
        .iter()
        .find(|w| w["suite"] == blocking && w["name"] == "channel idle CPU")
        .expect("the channels' idle CPU workload");
    // Every channel, and the floor's probe.
    assert_eq!(idle["rows"].as_array().unwrap().len(), with_std.len() + 1);
    for goal in ["channels wake-up latency", "channels idle CPU"] {
        assert!(
            json["goals"]
                .as_array()
                .unwrap()
                .iter()
                .any(|g| g["goal"].as_str().unwrap().starts_with(goal)),
            "no goal {goal}"
        );
    }

    let rt = workloads
        .iter()
        .find(|w| w["name"] == "round trip")
        .unwrap();
    assert!(
        rt["rows"][0]["percentiles"]["p99.9"].is_number(),
        "latency percentiles"
    );

    // The statistics a reader needs to redo the verdicts: every goal's
    // per-round figures, its interval and verdict, and each floor per round.
    let goals = json["goals"].as_array().expect("goals");
    assert!(!goals.is_empty(), "the quick run answers some goals");
    for g in goals {
        let verdict = g["verdict"].as_str().expect("a verdict");
        assert!(
            ["met", "missed", "undecided"].contains(&verdict),
            "{verdict}"
        );
        // Two rounds are too few to decide anything.
        assert_eq!(verdict, "undecided", "{}", g["goal"]);
        let i = &g["interval"];
        let (lo, m, hi) = (
            i["lo"].as_f64().unwrap(),
            i["median"].as_f64().unwrap(),
            i["hi"].as_f64().unwrap(),
        );
        assert!(lo <= m && m <= hi, "{}: {lo} {m} {hi}", g["goal"]);
        let e = &g["evidence"];
        let figures = match e["kind"].as_str().unwrap() {
            "per_round" => e["ratios"].as_array().unwrap().len(),
            "medians" => e["a"].as_array().unwrap().len(),
            k => panic!("evidence of kind {k}"),
        };
        assert_eq!(figures, rounds, "{}: every round's figure", g["goal"]);
        assert!(g["flagged"].is_boolean() && g["busy"].is_boolean() && g["seed"].is_u64());
        // Decided by the dominant floor mode (null: a workload without a
        // floor row), with the all-rounds verdict kept beside it.
        assert!(g["all_rounds"]["verdict"].is_string() && g["modes_disagree"].is_boolean());
        let floors = e["workload"]
            .as_str()
            .map(|w| vec![w])
            .or_else(|| {
                e["workloads"]
                    .as_array()
                    .map(|ws| ws.iter().filter_map(Value::as_str).collect())
            })
            .unwrap();
        let all_have_floors = floors.iter().all(|name| {
            workloads
                .iter()
                .any(|w| w["name"] == *name && !w["floor"].is_null())
        });
        // (Two workloads whose floors fell in different modes have no
        // mode to decide by: all rounds decide.)
        assert_eq!(
            g["decided_by"].is_string() || g["modes_apart"] == true,
            all_have_floors,
            "{}: {}",
            g["goal"],
            g["decided_by"]
        );
    }
    for w in workloads {
        // Every workload's mode is the cores' distance, measured before
        // each of its rounds (in ns), whatever its own unit.
        let f = &w["floor"];
        assert!(
            f["source"].as_str().unwrap().starts_with("core distance") && f["unit"] == "ns",
            "{}: {f}",
            w["name"]
        );
        assert_eq!(f["per_round"].as_array().unwrap().len(), rounds);
        assert_eq!(f["modes"].as_array().unwrap().len(), rounds);
        assert!(f["spread"].as_f64().unwrap() >= 1.0 && f["moved"].is_boolean());
    }
    assert!(json["floor_moved_in"].is_array());
    assert_eq!(json["bootstrap"]["resamples"], 2000);

    for file in [
        "report.md",
        "README-tables.md",
        "goals.svg",
        "round-trip-latency-round-trip.svg",
        "round-trip-latency-round-trip-percentiles.svg",
    ] {
        let text =
            std::fs::read_to_string(out.join(file)).unwrap_or_else(|_| panic!("{file} written"));
        assert!(!text.is_empty(), "{file} is empty");
    }
    let svgs = std::fs::read_dir(&out)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "svg")
        })
        .count();
    let latencies = workloads.iter().filter(|w| w["unit"] == "ns").count();
    assert_eq!(
        svgs,
        workloads.len() + latencies + 1,
        "one plot per workload, one of percentiles per latency workload, and the goals"
    );
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("median ratio [95 % interval]") && md.contains("core distance per round"));
    assert!(
        md.starts_with("# hotq benchmark report")
            && md.contains("## How to read it\n\n- **Rounds.**")
    );
    let _ = std::fs::remove_dir_all(&out);
}

/// Where cargo put the report binary, and the contender binaries beside it.
fn contender_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_report"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Sends `requests` (one a line) to the contender binary `file` and
/// returns what it printed if it answered them all, `None` if it refused
/// one (its panic ends it). A run that never ends fails here instead of
/// stalling CI.
fn ask(file: &str, requests: &[&str]) -> Option<String> {
    use std::io::Write;
    let path = contender_dir().join(file);
    let mut child = Command::new(&path)
        .arg("--no-pin")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    {
        let mut stdin = child.stdin.take().unwrap();
        requests
            .iter()
            .for_each(|r| writeln!(stdin, "{r}").unwrap());
    }
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{file}: {requests:?} still running after 120 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().unwrap();
    out.status
        .success()
        .then(|| String::from_utf8(out.stdout).unwrap())
}

/// Every contender that runs in a binary of its own ([`isolated::names`])
/// has one under the name the report starts it by, built from the
/// report's sources, which runs it: an SPSC request, a batch one where it
/// has slice calls, an MPMC one where its ends can be cloned, an MPSC one
/// where its sender can, a regime one where it has try calls, a batch
/// regime one where it has both try and slice calls and the selects where
/// it has a select of its own, each
/// answered with a figure, a round trip and a wake-up run answered with
/// the histogram of every timed trip or wake-up, and the idle CPU run;
/// the others refused.
#[test]
fn every_contender_has_a_binary_of_its_own_that_answers_its_requests() {
    /// Name, whether it has slice operations, whether it is shared,
    /// whether it has try calls.
    struct Names(Vec<(&'static str, bool, bool, bool)>);
    impl Names {
        fn entry(
            &mut self,
            name: &'static str,
            slices: bool,
        ) -> &mut (&'static str, bool, bool, bool) {
            if !self.0.iter().any(|(n, ..)| *n == name) {
                self.0.push((name, slices, false, false));
            }
            self.0.iter_mut().find(|(n, ..)| *n == name).unwrap()
        }
    }
    impl ChannelVisitor for Names {
        fn visit<C: Channel>(&mut self) {
            self.entry(C::NAME, C::SLICES);
        }
    }
    impl TryVisitor for Names {
        fn visit<C: TryChannel>(&mut self) {
            self.entry(C::NAME, C::SLICES).3 = true;
        }
    }
    impl SharedVisitor for Names {
        fn visit<C: Shared>(&mut self) {
            self.entry(C::NAME, C::SLICES).2 = true;
        }
    }
    let mut names = Names(Vec::new());
    contenders::each_channel(&mut names);
    blocking::each_blocking(&mut names);
    contenders::each_shared(&mut names);
    contenders::each_waiting_channel(&mut names);
    SharedVisitor::visit::<contenders::HotqMpmcChannelBatch>(&mut names);
    SharedVisitor::visit::<contenders::HotqMpmcChannelRecvMany>(&mut names);
    SharedVisitor::visit::<contenders::HotqMpmcChannelTry>(&mut names);
    contenders::each_try_spsc(&mut names);
    contenders::each_try_mpmc(&mut names);
    let mut expected: Vec<_> = names.0.iter().map(|(n, ..)| *n).collect();
    let mut isolated = isolated::names();
    expected.sort_unstable();
    isolated.sort_unstable();
    assert_eq!(isolated, expected, "isolated::names lists them all, once");
    assert!(isolated::check(&contender_dir()).is_ok());
    for (name, slices, shared, try_calls) in names.0 {
        let file = isolated::binary(name);
        let ask = |request: &str| {
            ask(&file, &[request]).map(|answer| {
                let mut fields = answer.split_whitespace();
                let figure: f64 = fields.next().unwrap().parse().expect("a figure");
                assert!(figure > 0.0, "{name}: {figure}");
                // A round trip's histogram follows its median, VALUE:COUNT.
                fields
                    .map(|f| f.split_once(':').unwrap().1.parse::<u64>().unwrap())
                    .sum::<u64>()
            })
        };
        assert_eq!(ask("spsc 64 single 1000"), Some(0), "{name}: a bare figure");
        // The try path's loop that callgrind counts (`instructions`).
        assert_eq!(ask("hot_path 2"), Some(0), "{name}: its counted loop");
        assert_eq!(ask("trip 8 200"), Some(200), "{name}: a trip's histogram");
        assert_eq!(ask("wake 3"), Some(3), "{name}: a wake-up's histogram");
        // A blocked consumer's CPU may read 0: not through `ask`.
        let idle = self::ask(&file, &["idle"]).map(|a| a.trim().parse::<f64>().unwrap());
        assert!(idle.is_some_and(|ns| ns >= 0.0), "{name}: idle {idle:?}");
        assert_eq!(ask("spsc 64 batch:16 1000").is_some(), slices, "{name}");
        assert_eq!(ask("mpmc 2 2 64 1000").is_some(), shared, "{name}");
        // std's sync_channel: its sender alone can be cloned.
        let mpsc = shared || name == SyncChannel::NAME;
        assert_eq!(ask("mpsc 2 64 1000").is_some(), mpsc, "{name}");
        let regime = ask("regime 64 spin-then-yield 1 4 single 1000");
        assert_eq!(regime.is_some(), try_calls, "{name}");
        let batches = ask("regime 64 spin 4 1 batch:16 1000");
        assert_eq!(batches.is_some(), try_calls && slices, "{name}");
        // A cell's ceiling uses no queue: any contender's binary runs it.
        assert_eq!(ask("alone 64 spin 4 1 single 1000"), Some(0), "{name}");
        // A channel with a select of its own: its select's rounds.
        let selects = select::CONTENDERS.iter().any(|(n, _)| *n == name);
        for shape in ["data+control", "four"] {
            let answered = ask(&format!("select {shape} 1000"));
            assert_eq!(answered.is_some(), selects, "{name}: select {shape}");
        }
        assert!(ask("spsc 64 sideways 1000").is_none(), "{name}: took it");
    }
}

/// Every contender of the disruptor suite has a binary of its own
/// ([`isolated::binary`]), which answers each topology with a figure and
/// refuses a queue's request.
#[test]
fn every_disruptor_contender_has_a_binary_of_its_own_that_runs_the_topologies() {
    struct Names(Vec<&'static str>);
    impl RingVisitor for Names {
        fn visit<R: Ring>(&mut self) {
            self.0.push(R::NAME);
        }
    }
    let mut names = Names(Vec::new());
    sequenced::each_ring(&mut names);
    assert_eq!(isolated::ring_names(), names.0);
    for name in names.0 {
        assert!(
            isolated::names().iter().all(|&n| n != name),
            "{name}: a queue's binary too"
        );
        let topologies: Vec<String> = Topology::ALL
            .iter()
            .map(|t| {
                let first = t.name().split_whitespace().next().unwrap();
                format!("topology {first} 3000 64")
            })
            .collect();
        let requests: Vec<&str> = topologies.iter().map(String::as_str).collect();
        let file = isolated::binary(name);
        let answers = ask(&file, &requests).expect("every topology answered");
        let figures: Vec<f64> = answers
            .lines()
            .map(|l| l.parse().expect("a figure"))
            .collect();
        let spsc = ask(&file, &["spsc 64 single 1000"]);
        assert!(spsc.is_none(), "{name}: took an SPSC run");
        assert_eq!(figures.len(), Topology::ALL.len(), "{name}: {figures:?}");
        assert!(figures.iter().all(|&f| f > 0.0), "{name}: {figures:?}");
    }
}

/// Every async contender of the channels suite has a binary of its own
/// ([`isolated::tasks_binary`]), apart from the same crate's other
/// binaries, which runs its tasks: the single calls for every one, the
/// flow-control calls (`recv_many`, reserve) for the two channels that
/// have them, hotq-mpmc's and tokio's.
#[test]
fn every_async_channel_has_a_binary_of_its_own_that_runs_its_tasks() {
    struct Names(Vec<&'static str>);
    impl async_channels::AsyncVisitor for Names {
        fn visit<C: async_channels::AsyncChan>(&mut self) {
            self.0.push(C::NAME);
        }
    }
    let mut names = Names(Vec::new());
    async_channels::each(&mut names);
    assert_eq!(isolated::tasks_names(), names.0);
    let others: Vec<String> = (isolated::names().into_iter().map(isolated::binary))
        .chain(
            isolated::async_names()
                .into_iter()
                .map(isolated::async_binary),
        )
        .collect();
    for name in names.0 {
        let file = isolated::tasks_binary(name);
        assert!(!others.contains(&file), "{name}: {file} is another's too");
        let ask = |request: &str| {
            ask(&file, &[request]).map(|answer| answer.trim().parse::<f64>().expect("one figure"))
        };
        let flow = ["hotq-mpmc-channel", "tokio mpsc"].contains(&name);
        assert!(
            ask("tasks 2 1 2000 single").is_some_and(|f| f > 0.0),
            "{name}"
        );
        assert_eq!(ask("tasks 2 1 2000 recv_many:16").is_some(), flow, "{name}");
        assert_eq!(ask("tasks 2 1 2000 reserve").is_some(), flow, "{name}");
        assert!(ask("spsc 64 single 1000").is_none(), "{name}: took it");
    }
}

/// Every async contender of the waiting suite has a binary of its own
/// ([`isolated::async_binary`]), apart from any blocking binary of the
/// same crate, which answers an async request with a figure and refuses
/// the others.
#[test]
fn every_async_contender_has_a_binary_of_its_own_that_runs_its_futures() {
    struct Names(Vec<&'static str>);
    impl AsyncVisitor for Names {
        fn visit<C: AsyncChannel>(&mut self) {
            self.0.push(C::NAME);
        }
    }
    let mut names = Names(Vec::new());
    asynchronous::each_async(&mut names);
    assert_eq!(isolated::async_names(), names.0);
    for name in names.0 {
        let file = isolated::async_binary(name);
        assert!(
            isolated::names()
                .iter()
                .all(|&n| isolated::binary(n) != file),
            "{name}: {file} is a blocking contender's too"
        );
        let ask = |request: &str| {
            ask(&file, &[request]).map(|answer| answer.trim().parse::<f64>().expect("one figure"))
        };
        assert!(ask("async 64 2000").is_some_and(|f| f > 0.0), "{name}");
        assert!(ask("spsc 64 single 1000").is_none(), "{name}: took it");
    }
}

/// The hidden mode callgrind counts: one queue's hot path, by name; an
/// unknown name is an error, not a silent zero count.
#[test]
fn the_hot_path_mode_runs_a_named_queue_and_refuses_an_unknown_one() {
    let run = |name: &str| {
        Command::new(env!("CARGO_BIN_EXE_report"))
            .args(["--hot-path", name, "2"])
            .stderr(Stdio::null())
            .status()
            .expect("the report binary starts")
    };
    assert!(run("hotq-spsc").success());
    assert!(run("hotq-mpmc-channel").success());
    assert_eq!(run("no-such-queue").code(), Some(2));
}

/// Runs `suite` quickly and checks it is a regime grid: 144 cells, each
/// with `rings` in order and a goal, shown as grids, not 144 columns.
fn check_regime_grid(suite: &str, rings: &[&str], heading: &str) {
    let out = out_dir(suite);
    let status = Command::new(env!("CARGO_BIN_EXE_report"))
        .args(["--suite", suite, "--quick", "--quiet", "--out"])
        .arg(&out)
        .env(isolated::DIR_VAR, contender_dir())
        .status()
        .expect("the report binary starts");
    assert!(status.success());
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let workloads = json["workloads"].as_array().unwrap();
    assert_eq!(workloads.len(), 144);
    for w in workloads {
        let names: Vec<_> = w["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap())
            .collect();
        // A cell with work on either side ends with its ceiling's row.
        let name = w["name"].as_str().unwrap();
        let mut expected = rings.to_vec();
        if !name.ends_with("work 0/0") {
            expected.push("work alone");
        }
        assert_eq!(names, expected, "{name}");
    }
    assert_eq!(json["goals"].as_array().unwrap().len(), 144);
    let tables = std::fs::read_to_string(out.join("README-tables.md")).unwrap();
    assert!(tables.contains(heading), "{tables}");
    assert!(
        tables.contains("capacity 65536, yield: producer work down"),
        "{tables}"
    );
    assert!(
        tables.contains(" of the 135 cells with work, the best peer runs at 83 % or more of the busier side's work alone"),
        "{tables}"
    );
    // Table rows only: a warning line above the tables (the machine's
    // mode moving, which names up to four workloads) may be longer on a
    // loaded machine, and is not a table.
    assert!(
        tables
            .lines()
            .filter(|l| l.starts_with('|'))
            .all(|l| l.len() < 400),
        "no 144-column matrix"
    );
}

/// The SPSC regime grid runs only when named, every cell with the five
/// rings and a goal, and its tables are grids, not 144 columns.
#[test]
fn the_regime_grid_runs_every_cell_of_the_five_rings() {
    check_regime_grid(
        "regimes",
        &[
            "hotq-spsc",
            "hotq-spsc stamped",
            "rtrb",
            "ringbuf",
            "omango",
        ],
        "**SPSC regimes**: hotq-spsc stamped ÷ the best of rtrb and ringbuf",
    );
}

/// The SPSC batch regime grid: the same cells in batches of 16, with the
/// three rings that have slice calls, its goals hotq-spsc's `RingBuffer`
/// against the best of rtrb and ringbuf.
#[test]
fn the_batch_regime_grid_runs_every_cell_of_the_rings_with_slices() {
    check_regime_grid(
        "batch-regimes",
        &["hotq-spsc", "rtrb", "ringbuf"],
        "**SPSC batch regimes**: hotq-spsc ÷ the best of rtrb and ringbuf",
    );
}

/// The MPMC regime grid: the same cells with hotq-mpmc's `Queue`,
/// `ArrayQueue` and lfqueue, its goals against the best of the two peers.
#[test]
fn the_mpmc_regime_grid_runs_every_cell_of_the_three_queues() {
    check_regime_grid(
        "mpmc-regimes",
        &["hotq-mpmc", "ArrayQueue", "lfqueue"],
        "**MPMC regimes**: hotq-mpmc ÷ the best of ArrayQueue and lfqueue",
    );
}
