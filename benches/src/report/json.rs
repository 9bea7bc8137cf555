//! `report.json`: the header, every round's raw figure and load, each
//! workload's floor per round, and each goal's ratios, interval and verdict
//! (with the bootstrap's parameters and seed, so a reader can redo them).

use serde_json::{Value, json};

use super::bootstrap::Interval;
use super::goals::{self, Evidence};
use super::header::{CRATE_VERSIONS, Header};
use super::stats;
use super::{bootstrap, floor};
use crate::results::Workload;
use crate::summary::Summary;

fn summary(s: Option<Summary>) -> Value {
    s.map_or(
        Value::Null,
        |s| json!({"median": s.median, "min": s.min, "max": s.max}),
    )
}

fn interval(i: Option<Interval>) -> Value {
    i.map_or(
        Value::Null,
        |i| json!({"median": i.median, "lo": i.lo, "hi": i.hi}),
    )
}

/// The figures a goal's interval was computed from.
fn evidence(e: &Evidence) -> Value {
    match e {
        Evidence::PerRound {
            workload,
            ratios,
            processes,
        } => {
            json!({"kind": "per_round", "workload": workload, "ratios": ratios, "processes": processes})
        }
        Evidence::Medians {
            workloads,
            a,
            b,
            processes,
        } => {
            json!({"kind": "medians", "workloads": workloads, "a": a, "b": b, "processes": processes})
        }
        Evidence::Point(s) => json!({"kind": "point", "value": s.median}),
    }
}

/// The whole report as JSON.
pub fn render(header: &Header, workloads: &[Workload]) -> Value {
    let versions: serde_json::Map<String, Value> = CRATE_VERSIONS
        .iter()
        .map(|(n, v)| (n.to_string(), json!(v)))
        .collect();
    let params: serde_json::Map<String, Value> = header
        .params
        .iter()
        .map(|(k, v)| (k.clone(), json!(v)))
        .collect();
    json!({
        "header": {
            "date": header.date,
            "cpu": header.cpu,
            "cores": header.cores,
            "rustc": header.rustc,
            "pinned": header.pinned,
            "optimised": header.optimised,
            "crates": versions,
            "params": params,
            "instructions_per_pair": header.instructions.iter()
                .map(|(n, i)| (n.clone(), json!(i)))
                .collect::<serde_json::Map<String, Value>>(),
        },
        "bootstrap": {
            "method": "percentile bootstrap of the median, two-stage where the rounds came from several processes (the processes with replacement, then each drawn process's rounds); SplitMix64 seeded with the FNV-1a hash of the goal's text",
            "resamples": bootstrap::RESAMPLES,
            "level": bootstrap::LEVEL,
            "min_rounds_for_a_verdict": goals::MIN_ROUNDS,
        },
        "floor_moved_factor": floor::MOVED,
        "modes": "each round's mode from its workload's floor figures (the cores' distance measured before each round, else the limit row's): steady when max ÷ min stays within floor_moved_factor, else fast or slow by the two-means split of their logarithms (a goal over two workloads splits both floors together); a goal's interval is its dominant mode's (most rounds; fast on a tie) and its verdict the one every mode with min_rounds_for_a_verdict rounds gives: undecided when two of them differ (modes_disagree); all_rounds keeps the interval over every round",
        "floor_moved_in": floor::moved(workloads).iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        "goals": goals::evaluate(workloads).iter().map(|g| json!({
            "goal": g.what,
            "target": g.target,
            "at_least": g.at_least,
            "threshold": g.threshold,
            "measured": summary(g.measured),
            "interval": interval(g.interval),
            "seed": bootstrap::seed_of(&g.what),
            "verdict": g.verdict.map(|v| v.label()),
            "met": g.verdict.map(|v| v == goals::Verdict::Met),
            // The mode whose rounds decided `interval` and `verdict`
            // (null: no floor row, all rounds decided).
            "decided_by": g.decided_by.map(|m| m.label()),
            "rounds": g.rounds,
            "all_rounds": json!({
                "interval": interval(g.all_interval),
                "verdict": g.all_verdict.map(|v| v.label()),
            }),
            "modes_disagree": g.modes_disagree,
            // Two workloads each in its own mode: decided by all rounds.
            "modes_apart": g.modes_apart,
            "flagged": g.flagged,
            "busy": g.busy,
            "by_mode": g.by_mode.iter().map(|m| json!({
                "mode": m.mode.label(),
                "rounds": m.rounds,
                "paired_rounds": m.paired,
                "interval": interval(Some(m.interval)),
                "verdict": m.verdict.label(),
            })).collect::<Vec<_>>(),
            "evidence": g.evidence.as_ref().map(evidence),
        })).collect::<Vec<_>>(),
        "workloads": workloads.iter().map(|w| {
            let st = stats::of(w);
            let n = w.rows.len();
            json!({
                "floor": floor::of(w).map(|f| json!({
                    "source": f.source.label(),
                    "unit": f.unit.label(),
                    "per_round": f.per_round,
                    "median": f.summary.median,
                    "min": f.summary.min,
                    "max": f.summary.max,
                    "spread": f.spread,
                    "moved": f.moved,
                    "modes": f.modes.iter().map(|m| m.label()).collect::<Vec<_>>(),
                })),
                "suite": w.suite,
                "name": w.name,
                "params": w.params,
                "unit": w.unit.label(),
                "per_run_s": w.per_run.as_secs_f64(),
                "higher_is_better": w.unit.higher_is_better(),
                "baseline": st.baseline,
                "best_peer": st.best_peer,
                "rows": w.rows.iter().zip(&st.rows).enumerate().map(|(i, (row, s))| json!({
                    "name": row.name,
                    "kind": row.kind.label(),

                    "figure": summary(Some(s.figure)),
                    "others_load": summary(s.others_load),
                    "vs_baseline": summary(s.vs_baseline),
                    "vs_best_peer": summary(s.vs_best_peer),
                    "vs_baseline_interval": interval(s.vs_baseline_interval),
                    "vs_best_peer_interval": interval(s.vs_best_peer_interval),
                    "of_floor": summary(s.of_floor),
                    "percentiles": s.percentiles.map(|[p50, p99, p999]| json!({
                        "p50": p50, "p99": p99, "p99.9": p999,
                    })),
                    "rounds": row.rounds.iter().enumerate().map(|(k, r)| json!({
                        "round": k,
                        // Contender `i` runs at position `(i - k) mod n` of
                        // round `k` (the order rotates each round).
                        "position": (i + n - k % n) % n,
                        "items": r.items,
                        "figure": r.figure,
                        "others_load": r.others_load,
                        "percentiles": r.percentiles,
                        "process": r.process,
                    })).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            })
        }).collect::<Vec<_>>(),
    })
}
