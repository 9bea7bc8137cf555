//! `report.json`: the header, and every round's raw figure and load.

use serde_json::{Value, json};

use super::goals;
use super::header::{CRATE_VERSIONS, Header};
use super::stats;
use crate::rounds::Workload;
use crate::summary::Summary;

fn summary(s: Option<Summary>) -> Value {
    s.map_or(
        Value::Null,
        |s| json!({"median": s.median, "min": s.min, "max": s.max}),
    )
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
        },
        "goals": goals::evaluate(workloads).iter().map(|g| json!({
            "goal": g.what,
            "target": g.target,
            "measured": summary(g.measured),
            "met": g.met,
        })).collect::<Vec<_>>(),
        "workloads": workloads.iter().map(|w| {
            let st = stats::of(w);
            json!({
                "suite": w.suite,
                "name": w.name,
                "params": w.params,
                "unit": w.unit.label(),
                "higher_is_better": w.unit.higher_is_better(),
                "baseline": st.baseline,
                "best_peer": st.best_peer,
                "rows": w.rows.iter().zip(&st.rows).map(|(row, s)| json!({
                    "name": row.name,
                    "kind": row.kind.label(),

                    "figure": summary(Some(s.figure)),
                    "others_load": summary(s.others_load),
                    "vs_baseline": summary(s.vs_baseline),
                    "vs_best_peer": summary(s.vs_best_peer),
                    "of_floor": summary(s.of_floor),
                    "percentiles": s.percentiles.map(|[p50, p99, p999]| json!({
                        "p50": p50, "p99": p99, "p99.9": p999,
                    })),
                    "rounds": row.rounds.iter().map(|r| json!({
                        "items": r.items,
                        "figure": r.figure,
                        "others_load": r.others_load,
                        "percentiles": r.percentiles,
                    })).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            })
        }).collect::<Vec<_>>(),
    })
}
