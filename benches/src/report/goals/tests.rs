//! The goals' tests, and the fixtures the report's other tests borrow
//! ([`single_all_fast`], [`batch_fast_then_slow`], [`workload`]).

use super::catalogue::{decides_a_goal, evaluate, goal_workloads};
use super::disruptor_goals::topologies;
use super::goal::{Goal, goal};
use super::lookup::per_round;
use super::verdict::Verdict;
use crate::channel::Kind;
use crate::report::floor;
use crate::results::{Round, Row, Unit, Workload};
use crate::summary::Summary;

/// A throughput workload with these rows' figures per round (no load).
/// A single-item workload whose rounds (and floor) all ran fast.
pub(crate) fn single_all_fast() -> Workload {
    workload(
        "cap 1024, single",
        &[
            ("hotq-spsc", Kind::Ours, &[100.0; 6]),
            ("limit", Kind::Limit, &[800.0; 6]),
        ],
    )
}

/// A batch-16 workload whose floor ran fast for two rounds, then slow.
pub(crate) fn batch_fast_then_slow() -> Workload {
    workload(
        "cap 1024, batch 16",
        &[
            (
                "hotq-spsc",
                Kind::Ours,
                &[500.0, 500.0, 150.0, 150.0, 150.0, 150.0],
            ),
            (
                "limit",
                Kind::Limit,
                &[800.0, 800.0, 250.0, 250.0, 250.0, 250.0],
            ),
        ],
    )
}

pub(crate) fn workload(name: &str, rows: &[(&str, Kind, &[f64])]) -> Workload {
    Workload {
        suite: "SPSC throughput",
        name: name.into(),
        params: String::new(),
        unit: Unit::MItemsPerSec,
        per_run: std::time::Duration::from_millis(50),
        distance: Vec::new(),
        rows: rows
            .iter()
            .map(|(n, kind, figs)| Row {
                name: n.to_string(),
                kind: *kind,
                items: 1000,
                rounds: figs
                    .iter()
                    .map(|&figure| Round {
                        items: 1000,
                        figure,
                        others_load: Some(0.0),
                        percentiles: None,
                        process: 0,
                    })
                    .collect(),
                histogram: None,
            })
            .collect(),
    }
}

#[test]
fn a_goal_reads_its_verdict_from_the_paired_rounds() {
    let ours = [130.0, 126.0, 140.0, 128.0, 133.0, 131.0, 129.0];
    let peer = [100.0, 101.0, 99.0, 102.0, 100.0, 98.0, 100.0];
    let limit = [800.0, 790.0, 810.0, 805.0, 800.0, 795.0, 802.0];
    let w = workload(
        "cap 1024, single",
        &[
            ("hotq-spsc", Kind::Ours, &ours),
            ("rtrb", Kind::Peer, &peer),
            ("limit", Kind::Limit, &limit),
        ],
    );
    let g = goal("x".into(), true, 1.2, per_round(&w, "hotq-spsc", "rtrb"));
    assert_eq!(g.verdict, Some(Verdict::Met), "{g:?}");
    let g = goal("x".into(), true, 1.3, per_round(&w, "hotq-spsc", "rtrb"));
    assert_eq!(g.verdict, Some(Verdict::Undecided), "{g:?}");
    let g = goal("x".into(), true, 1.5, per_round(&w, "hotq-spsc", "rtrb"));
    assert_eq!(g.verdict, Some(Verdict::Missed), "{g:?}");
    let g = goal("x".into(), true, 1.2, per_round(&w, "hotq-spsc", "nobody"));
    assert_eq!((g.verdict, g.measured.is_none()), (None, true));
    // The older form, a bare summary, is accepted and never decided.
    let g = goal("x".into(), true, 1.2, Some(Summary::of(&[2.0])));
    assert_eq!(g.verdict, Some(Verdict::Undecided));
}

#[test]
fn a_floor_that_moved_flags_the_goals_of_its_run() {
    let ours = [301.0, 264.0, 73.0, 45.0, 73.0];
    let peer = [263.0, 271.0, 233.0, 68.0, 66.0];
    let fell = [888.0, 870.0, 280.0, 281.0, 279.0];
    let w = workload(
        "cap 1024, single",
        &[
            ("hotq-spsc", Kind::Ours, &ours),
            ("rtrb", Kind::Peer, &peer),
            ("ringbuf", Kind::Peer, &peer),
            ("Mutex<VecDeque>", Kind::Baseline, &peer),
            ("limit", Kind::Limit, &fell),
        ],
    );
    let goals = evaluate(&[w]);
    let measured: Vec<&Goal> = goals.iter().filter(|g| g.evidence.is_some()).collect();
    assert!(!measured.is_empty());
    assert!(measured.iter().all(|g| g.flagged), "{goals:?}");
    // Read apart, the two fast rounds and the three slow ones.
    let g = &measured[0];
    let modes: Vec<(floor::Mode, usize)> = g.by_mode.iter().map(|m| (m.mode, m.rounds)).collect();
    assert_eq!(modes, [(floor::Mode::Fast, 2), (floor::Mode::Slow, 3)]);
    assert!(
        g.by_mode.iter().all(|m| m.verdict == Verdict::Undecided),
        "too few rounds each"
    );
    let steady = [800.0, 790.0, 810.0, 805.0, 800.0];
    let w = workload(
        "cap 1024, single",
        &[
            ("hotq-spsc", Kind::Ours, &ours),
            ("rtrb", Kind::Peer, &peer),
            ("limit", Kind::Limit, &steady),
        ],
    );
    assert!(evaluate(&[w]).iter().all(|g| !g.flagged && !g.busy));
}

#[test]
fn the_chunk_goals_compare_hotq_spsc_with_ringbuf_per_round_in_each_batch_workload() {
    let ringbuf = [100.0, 101.0, 99.0, 102.0, 100.0, 98.0, 100.0];
    let ahead = ringbuf.map(|f| f * 1.1);
    let behind = ringbuf.map(|f| f * 0.9);
    let limit = [800.0, 790.0, 810.0, 805.0, 800.0, 795.0, 802.0];
    let batch = |name: &str, ours: &[f64]| {
        workload(
            name,
            &[
                ("hotq-spsc", Kind::Ours, ours),
                ("rtrb", Kind::Peer, &limit),
                ("ringbuf", Kind::Peer, &ringbuf),
                ("limit", Kind::Limit, &limit),
            ],
        )
    };
    let goals = evaluate(&[
        batch("cap 1024, batch 16", &ahead),
        batch("cap 1024, batch 256", &behind),
    ]);
    let verdict = |name: &str| {
        let what = format!("SPSC {name}: hotq-spsc ÷ ringbuf, per round");
        goals.iter().find(|g| g.what == what).map(|g| g.verdict)
    };
    // Against ringbuf, not the faster rtrb row of the fixture.
    assert_eq!(verdict("cap 1024, batch 16"), Some(Some(Verdict::Met)));
    assert_eq!(verdict("cap 1024, batch 256"), Some(Some(Verdict::Missed)));
    // No batch workload in the run: no chunk goal.
    let goals = evaluate(&[batch("cap 1024, single", &ahead)]);
    assert!(
        !goals.iter().any(|g| g.what.contains("÷ ringbuf")),
        "{goals:?}"
    );
}

/// A run of 25 rounds whose floor sat in one mode for `fast` of them
/// (800 M items/s, hotq-spsc 1.3 × rtrb) and in the other for the rest
/// (250 M items/s, 0.9 × rtrb), the modes interleaved.
fn two_modes(fast: usize) -> Workload {
    let mut ours = Vec::new();
    let mut limit = Vec::new();
    for k in 0..25 {
        let wobble = 1.0 + 0.01 * (k % 5) as f64;
        let in_fast = (k * fast) % 25 < fast;
        ours.push(if in_fast { 130.0 } else { 90.0 } * wobble);
        limit.push(if in_fast { 800.0 } else { 250.0 } * wobble);
    }
    let fast_rounds = limit.iter().filter(|f| **f >= 800.0).count();
    assert_eq!(fast_rounds, fast, "the helper's own arithmetic");
    let peer = [100.0; 25];
    workload(
        "cap 1024, single",
        &[
            ("hotq-spsc", Kind::Ours, &ours),
            ("rtrb", Kind::Peer, &peer),
            ("ringbuf", Kind::Peer, &[50.0; 25]),
            ("limit", Kind::Limit, &limit),
        ],
    )
}

fn spsc_goal(ws: &[Workload]) -> Goal {
    evaluate(ws)
        .into_iter()
        .find(|g| g.what.contains("best SPSC peer"))
        .unwrap()
}

#[test]
fn a_goal_holds_only_if_every_mode_with_enough_rounds_agrees() {
    use floor::Mode::*;
    // 13 fast rounds at 1.3 against 12 slow at 0.9: all rounds straddle
    // 1.2, the fast mode's alone clear it, the slow mode's miss it. So
    // it is undecided, ≠.
    let g = spsc_goal(&[two_modes(13)]);
    assert_eq!(g.decided_by, Some(Fast), "{g:?}");
    assert_eq!(g.verdict, Some(Verdict::Undecided), "{g:?}");
    assert_eq!(g.all_verdict, Some(Verdict::Undecided), "{g:?}");
    let modes: Vec<_> = g
        .by_mode
        .iter()
        .map(|m| (m.mode, m.rounds, m.verdict))
        .collect();
    assert_eq!(
        modes,
        [(Fast, 13, Verdict::Met), (Slow, 12, Verdict::Missed)]
    );
    assert!(g.modes_disagree && g.flagged && g.rounds == 25, "{g:?}");
    assert_eq!(g.interval, g.all_interval, "the interval is all rounds'");
    // The other mode dominates: the same verdict (by the dominant mode,
    // a run that the machine's other mode dominated printed the other
    // one).
    let g = spsc_goal(&[two_modes(9)]);
    assert_eq!(
        (g.decided_by, g.verdict),
        (Some(Slow), Some(Verdict::Undecided))
    );
    assert!(g.modes_disagree);
    // A minority mode too small for a verdict of its own does not
    // count as disagreeing: all rounds decide.
    let g = spsc_goal(&[two_modes(21)]);
    assert_eq!((g.decided_by, g.verdict), (Some(Fast), Some(Verdict::Met)));
    assert!(!g.modes_disagree, "{g:?}");
    assert_eq!((g.interval, g.verdict), (g.all_interval, g.all_verdict));
}

/// 12 rounds of `name` in `unit`: a floor probe slow in 8 of them
/// (and the first of each pair of rows ahead 1.3× there), fast in 4
/// (and behind 0.5× there); `rows` are (name, kind) of ours, then peers.
fn probed(name: &str, unit: Unit, rows: &[(&str, Kind)]) -> Workload {
    let slow = |k: usize| k % 3 != 0;
    let better = |x: f64| if unit.higher_is_better() { x } else { 1.0 / x };
    let limit: Vec<f64> = (0..12)
        .map(|k| better(if slow(k) { 250.0 } else { 800.0 }))
        .collect();
    let ours: Vec<f64> = (0..12)
        .map(|k| better(if slow(k) { 130.0 } else { 50.0 }))
        .collect();
    let peer = [better(100.0); 12];
    let mut figs: Vec<(&str, Kind, &[f64])> = vec![(rows[0].0, rows[0].1, &ours)];
    figs.extend(rows[1..].iter().map(|&(n, k)| (n, k, &peer[..])));
    figs.push(("limit", Kind::Limit, &limit));
    Workload {
        unit,
        ..workload(name, &figs)
    }
}

#[test]
fn a_goal_of_each_probed_suite_splits_its_rounds_by_its_floor_s_modes() {
    let peer = Kind::Peer;
    let ws = [
        probed(
            "unicast 1P-1C",
            Unit::MItemsPerSec,
            &[
                ("hotq-disruptor", Kind::Ours),
                ("disruptor", peer),
                ("crossbeam-channel arcs", Kind::Baseline),
            ],
        ),
        probed(
            "sequencer 3P-1C",
            Unit::MItemsPerSec,
            // Oversubscribed where the test runs on few cores: the goal
            // then reads the two sleeping rows, else the busy ones.
            &[
                ("hotq-disruptor (sleep 10 µs)", Kind::Ours),
                ("disruptor (sleep 10 µs)", peer),
                ("hotq-disruptor", Kind::Ours),
                ("disruptor", peer),
            ],
        ),
        probed(
            "blocking, cap 1024",
            Unit::MItemsPerSec,
            &[
                ("hotq-spsc blocking", Kind::Ours),
                ("crossbeam-channel", peer),
            ],
        ),
        probed(
            "wake-up latency",
            Unit::Nanos,
            &[
                ("hotq-spsc blocking", Kind::Ours),
                ("crossbeam-channel", peer),
            ],
        ),
        probed(
            "8P8C cap 1024",
            Unit::MItemsPerSec,
            &[
                ("hotq-mpmc-channel", Kind::Ours),
                ("crossbeam-channel", peer),
            ],
        ),
        probed(
            "async 4P1C",
            Unit::MItemsPerSec,
            &[("hotq-mpmc-channel", Kind::Ours), ("tokio mpsc", peer)],
        ),
    ];
    let goals = evaluate(&ws);
    for suite in [
        "unicast 1P-1C: hotq-disruptor ÷ disruptor",
        "unicast 1P-1C: hotq-disruptor ÷ crossbeam-channel arcs",
        "sequencer 3P-1C",
        "waiting blocking, cap 1024: hotq-spsc blocking ÷ crossbeam-channel",
        "wake-up latency: hotq-spsc time",
        "channels blocking 8P8C cap 1024: hotq-mpmc-channel ÷ crossbeam-channel",
        "channels async 4P1C: hotq-mpmc-channel ÷ tokio mpsc",
    ] {
        let g = goals
            .iter()
            .find(|g| g.what.starts_with(suite))
            .unwrap_or_else(|| panic!("no goal {suite}: {goals:?}"));
        // Each goal's rounds are split by its floor's modes (8 slow, 4
        // fast), the slow mode's verdict of its own is listed, and the
        // verdict is all 12 rounds'.
        assert_eq!(g.decided_by, Some(floor::Mode::Slow), "{g:?}");
        assert_eq!(
            g.mode_rounds,
            [(floor::Mode::Fast, 4), (floor::Mode::Slow, 8)],
            "{g:?}"
        );
        let slow = g.by_mode.iter().find(|m| m.mode == floor::Mode::Slow);
        assert_eq!(slow.map(|m| m.paired), Some(8), "{g:?}");
        assert_eq!((g.interval, g.verdict), (g.all_interval, g.all_verdict));
    }
}

#[test]
fn a_steady_floor_decides_by_all_rounds() {
    let ours = [130.0, 126.0, 140.0, 128.0, 133.0, 131.0, 129.0];
    let peer = [100.0; 7];
    let limit = [800.0, 600.0, 810.0, 805.0, 500.0, 795.0, 802.0];
    let w = workload(
        "round trip",
        &[
            ("hotq-spsc", Kind::Ours, &ours),
            ("rtrb", Kind::Peer, &peer),
            ("limit", Kind::Limit, &limit),
        ],
    );
    let g = &evaluate(&[w])[0];
    assert_eq!(g.decided_by, Some(floor::Mode::Steady));
    assert_eq!((g.interval, g.verdict), (g.all_interval, g.all_verdict));
    assert_eq!(g.by_mode.len(), 1);
    assert!(!g.modes_disagree && !g.flagged);
    // No floor row: all rounds decide, and no mode is named.
    let w = workload(
        "round trip",
        &[
            ("hotq-spsc", Kind::Ours, &ours),
            ("rtrb", Kind::Peer, &peer),
        ],
    );
    let g = &evaluate(&[w])[0];
    assert_eq!((g.decided_by, g.by_mode.len()), (None, 0));
    assert_eq!(g.verdict, g.all_verdict);
}

#[test]
fn two_workloads_floors_are_classified_together() {
    use floor::Mode::*;
    // The single workload ran all fast, the batch one all slow but for
    // two rounds: each floor alone is steady, together they moved, and
    // the ratio of medians is read off the fast rounds of both.
    let single = single_all_fast();
    let batch = batch_fast_then_slow();
    let goals = evaluate(&[single, batch]);
    let g = goals.iter().find(|g| g.what.contains("batch 16")).unwrap();
    let modes: Vec<_> = g
        .by_mode
        .iter()
        .map(|m| (m.mode, m.rounds, m.paired))
        .collect();
    // The slow mode has no rounds of the single workload: no entry.
    assert_eq!(modes, [(Fast, 8, 2)]);
    assert_eq!(g.decided_by, Some(Fast));
    assert_eq!(g.mode_rounds, [(Fast, 8), (Slow, 4)]);
    assert!((g.by_mode[0].interval.median - 5.0).abs() < 1e-9, "{g:?}");
    assert!((g.interval.unwrap().median - 1.5).abs() < 1e-9, "{g:?}");
    assert!(!g.modes_apart);
    // Each workload wholly in its own mode: no mode to decide by; all
    // rounds decide, flagged.
    let single = single_all_fast();
    let batch = workload(
        "cap 1024, batch 16",
        &[
            ("hotq-spsc", Kind::Ours, &[150.0; 6]),
            ("limit", Kind::Limit, &[250.0; 6]),
        ],
    );
    let goals = evaluate(&[single, batch]);
    let g = goals.iter().find(|g| g.what.contains("batch 16")).unwrap();
    assert!(
        g.modes_apart && g.flagged && g.decided_by.is_none(),
        "{g:?}"
    );
    assert_eq!((g.verdict, g.interval), (g.all_verdict, g.all_interval));
}

#[test]
fn an_oversubscribed_topology_is_decided_by_the_rows_that_give_the_core_away() {
    // Busy-spin rows say hotq-disruptor is ahead (2×), the two sleeping
    // rows that it is behind (0.5×): with 2 cores the four
    // threads' goal reads the latter, with 4 the former.
    let rows: [(&str, Kind, &[f64]); 4] = [
        ("hotq-disruptor", Kind::Ours, &[20.0; 6]),
        ("hotq-disruptor (sleep 10 µs)", Kind::Ours, &[5.0; 6]),
        ("disruptor", Kind::Peer, &[10.0; 6]),
        ("disruptor (sleep 10 µs)", Kind::Peer, &[10.0; 6]),
    ];
    let ws = [workload("pipeline 1P-3C", &rows)];
    for (cores, ratio, names) in [(2, 0.5, "(sleep 10 µs) ÷ disruptor (sleep"), (4, 2.0, "")] {
        let mut goals = Vec::new();
        topologies(&ws, cores, &mut goals);
        assert_eq!(goals.len(), 1, "{goals:?}");
        let g = &goals[0];
        assert_eq!(g.measured.map(|m| m.median), Some(ratio), "{g:?}");
        assert!(g.what.contains(names), "{}", g.what);
        let met = if ratio > 1.0 {
            Verdict::Met
        } else {
            Verdict::Missed
        };
        assert_eq!(g.verdict, Some(met), "{g:?}");
    }
}

#[test]
fn the_goal_workloads_are_exactly_those_the_goals_read() {
    // Every workload a goal could read, with every contender a goal
    // names: each goal is then measured, and reads only workloads of
    // the list (or an idle-CPU one), and each listed one is read.
    let names = [
        "hotq-spsc",
        "hotq-spsc stamped",
        "rtrb",
        "ringbuf",
        "Mutex<VecDeque>",
        "hotq-mpmc",
        "ArrayQueue",
        "lfqueue",
        "omango",
        "hotq-disruptor",
        "hotq-disruptor (sleep 10 µs)",
        "disruptor",
        "disruptor (sleep 10 µs)",
        "crossbeam-channel arcs",
        "hotq-spsc blocking",
        "hotq-spsc stamped blocking",
        "crossbeam-channel",
        "hotq-spsc async",
        "hotq-spsc stamped async",
        "tokio mpsc",
        "hotq-mpmc-channel",
    ];
    let figs = [1.0; 5];
    let rows: Vec<(&str, Kind, &[f64])> =
        names.iter().map(|n| (*n, Kind::Peer, &figs[..])).collect();
    let idle = [
        "idle CPU".to_string(),
        format!("{}idle CPU", crate::suites::channels::WAITS),
    ];
    let ws: Vec<Workload> = goal_workloads()
        .iter()
        .chain(&idle)
        .map(|n| workload(n, &rows))
        .collect();
    let goals = evaluate(&ws);
    assert!(goals.len() >= 35, "{} goals", goals.len());
    let mut read = Vec::new();
    for g in &goals {
        let e = g
            .evidence
            .as_ref()
            .unwrap_or_else(|| panic!("{} not measured", g.what));
        for w in e.workloads() {
            assert!(decides_a_goal(w) || idle.iter().any(|i| i == w), "{w}");
            read.push(w.to_string());
        }
    }
    for w in goal_workloads() {
        assert!(read.contains(&w), "{w} is listed but read by no goal");
    }
    assert!(!decides_a_goal("cap 65536, single") && !decides_a_goal("idle CPU"));
}

#[test]
fn the_channel_wake_and_idle_goals_read_the_channel_workloads() {
    let ours = [9000.0, 9100.0, 8900.0, 9050.0, 8950.0];
    let slower = [11000.0, 11100.0, 10900.0, 11050.0, 10950.0];
    fn rows<'a>(a: &'a [f64], b: &'a [f64]) -> Vec<(&'static str, Kind, &'a [f64])> {
        vec![
            ("hotq-mpmc-channel", Kind::Ours, a),
            ("crossbeam-channel", Kind::Peer, b),
            ("hotq-spsc blocking", Kind::Ours, b),
        ]
    }
    // The waiting suite's workload of the same name without the prefix
    // comes first: the channel goals must not read it.
    let ws = [
        workload("wake-up latency", &rows(&slower, &ours)),
        workload("channel wake-up latency", &rows(&ours, &slower)),
        workload("channel idle CPU", &rows(&[2e5; 5], &[2e5; 5])),
    ];
    let goals = evaluate(&ws);
    let find = |what: &str| goals.iter().find(|g| g.what.starts_with(what)).unwrap();
    let wake = find("channels wake-up latency");
    assert_eq!(
        wake.evidence.as_ref().unwrap().workloads(),
        ["channel wake-up latency"]
    );
    assert_eq!(wake.verdict, Some(Verdict::Met), "{wake:?}");
    let idle = find("channels idle CPU");
    assert_eq!(
        idle.verdict,
        Some(Verdict::Met),
        "0.02 % of a core: {idle:?}"
    );
}

#[test]
fn rounds_shared_with_other_processes_mark_the_goal_busy() {
    let ours = [130.0; 5];
    let peer = [100.0; 5];
    let mut w = workload(
        "round trip",
        &[
            ("hotq-spsc", Kind::Ours, &ours),
            ("rtrb", Kind::Peer, &peer),
        ],
    );
    assert!(evaluate(std::slice::from_ref(&w)).iter().all(|g| !g.busy));
    for r in w.rows.iter_mut().flat_map(|r| &mut r.rounds) {
        r.others_load = Some(1.0);
    }
    // The goals of a ring the workload lacks (the stamped one) have no
    // rounds to share.
    let goals: Vec<_> = evaluate(&[w])
        .into_iter()
        .filter(|g| g.measured.is_some())
        .collect();
    assert!(!goals.is_empty() && goals.iter().all(|g| g.busy));
}
