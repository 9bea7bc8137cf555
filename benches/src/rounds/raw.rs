//! What a worker process hands back to the report's process: every
//! workload's rows and rounds as JSON (`rounds.json`), read back as the
//! same [`Workload`]s. Round trips keep their histograms, as the values
//! and counts they recorded.

use std::time::Duration;

use serde_json::{Value, json};

use crate::channel::Kind;
use crate::results::{Round, Row, Unit, Workload};
use crate::workloads::round_trip::histogram;

/// `ws` as JSON.
pub fn to_json(ws: &[Workload]) -> Value {
    Value::Array(ws.iter().map(workload).collect())
}

fn workload(w: &Workload) -> Value {
    json!({
        "suite": w.suite,
        "name": w.name,
        "params": w.params,
        "unit": w.unit.label(),
        "per_run_s": w.per_run.as_secs_f64(),
        "distance": w.distance,
        "rows": w.rows.iter().map(|r| json!({
            "name": r.name,
            "kind": r.kind.label(),
            "items": r.items,
            "rounds": r.rounds.iter().map(|x| json!({
                "items": x.items,
                "figure": x.figure,
                "others_load": x.others_load,
                "percentiles": x.percentiles,
            })).collect::<Vec<_>>(),
            "histogram": r.histogram.as_ref().map(|h| h
                .iter_recorded()
                .map(|v| [v.value_iterated_to(), v.count_at_value()])
                .collect::<Vec<_>>()),
        })).collect::<Vec<_>>(),
    })
}

/// The workloads of `v`, each round marked as run by `process`.
pub fn from_json(v: &Value, process: usize) -> Result<Vec<Workload>, String> {
    v.as_array()
        .ok_or("rounds.json: not a list of workloads")?
        .iter()
        .map(|w| read_workload(w, process))
        .collect()
}

fn text<'a>(v: &'a Value, key: &str) -> Result<&'a str, String> {
    v[key]
        .as_str()
        .ok_or_else(|| format!("rounds.json: `{key}` is not text"))
}

fn number(v: &Value, key: &str) -> Result<f64, String> {
    v[key]
        .as_f64()
        .ok_or_else(|| format!("rounds.json: `{key}` is not a number"))
}

fn list<'a>(v: &'a Value, key: &str) -> Result<&'a Vec<Value>, String> {
    v[key]
        .as_array()
        .ok_or_else(|| format!("rounds.json: `{key}` is not a list"))
}

fn read_workload(w: &Value, process: usize) -> Result<Workload, String> {
    let unit = match text(w, "unit")? {
        u if u == Unit::MItemsPerSec.label() => Unit::MItemsPerSec,
        u if u == Unit::Nanos.label() => Unit::Nanos,
        u => return Err(format!("rounds.json: unknown unit `{u}`")),
    };
    Ok(Workload {
        // The suites' names are a handful of literals; one process reads
        // each worker's file once.
        suite: Box::leak(text(w, "suite")?.to_string().into_boxed_str()),
        name: text(w, "name")?.into(),
        params: text(w, "params")?.into(),
        unit,
        per_run: Duration::from_secs_f64(number(w, "per_run_s")?),
        distance: list(w, "distance")?
            .iter()
            .map(|d| d.as_f64().ok_or("rounds.json: a distance is not a number"))
            .collect::<Result<_, _>>()?,
        rows: list(w, "rows")?
            .iter()
            .map(|r| read_row(r, process))
            .collect::<Result<_, _>>()?,
    })
}

fn read_row(r: &Value, process: usize) -> Result<Row, String> {
    let kind = [Kind::Ours, Kind::Peer, Kind::Baseline, Kind::Limit]
        .into_iter()
        .find(|k| k.label() == text(r, "kind").unwrap_or(""))
        .ok_or("rounds.json: unknown row kind")?;
    let rounds = list(r, "rounds")?
        .iter()
        .map(|x| {
            Ok(Round {
                items: x["items"].as_u64().ok_or("rounds.json: bad items")?,
                figure: number(x, "figure")?,
                others_load: x["others_load"].as_f64(),
                percentiles: match &x["percentiles"] {
                    Value::Null => None,
                    p => Some(serde_json::from_value(p.clone()).map_err(|e| e.to_string())?),
                },
                process,
            })
        })
        .collect::<Result<_, String>>()?;
    let histogram = match &r["histogram"] {
        Value::Null => None,
        h => {
            let mut all = histogram();
            let pairs: Vec<[u64; 2]> =
                serde_json::from_value(h.clone()).map_err(|e| e.to_string())?;
            for [value, count] in pairs {
                all.record_n(value, count).map_err(|e| e.to_string())?;
            }
            Some(all)
        }
    };
    Ok(Row {
        name: text(r, "name")?.into(),
        kind,
        items: r["items"].as_u64().ok_or("rounds.json: bad items")?,
        rounds,
        histogram,
    })
}

/// Adds `more`'s rounds (another process's run of the same workloads) to
/// `all`'s: rounds, floors and histograms appended workload by workload
/// and row by row, matched by name. A workload or row one side lacks is
/// an error: both processes ran the same command line.
pub fn append(all: &mut [Workload], more: Vec<Workload>) -> Result<(), String> {
    if all.len() != more.len() {
        return Err(format!(
            "one process ran {} workloads, another {}",
            all.len(),
            more.len()
        ));
    }
    for mut m in more {
        let w = all
            .iter_mut()
            .find(|w| w.name == m.name)
            .ok_or_else(|| format!("workload `{}` ran in one process only", m.name))?;
        w.distance.append(&mut m.distance);
        for r in m.rows {
            let row = w
                .rows
                .iter_mut()
                .find(|x| x.name == r.name)
                .ok_or_else(|| format!("`{}` / `{}` ran in one process only", m.name, r.name))?;
            row.rounds.extend(r.rounds);
            row.items = r.items;
            match (&mut row.histogram, r.histogram) {
                (Some(h), Some(more)) => h.add(&more).map_err(|e| e.to_string())?,
                (none @ None, more) => *none = more,
                (Some(_), None) => {}
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(process: usize) -> Workload {
        let mut h = histogram();
        h.record_n(120, 3).unwrap();
        h.record(4_000).unwrap();
        Workload {
            suite: "latency",
            name: "round trip".into(),
            params: "p".into(),
            unit: Unit::Nanos,
            per_run: Duration::from_millis(40),
            distance: vec![50.0, 51.5],
            rows: vec![Row {
                name: "hotq-spsc".into(),
                kind: Kind::Ours,
                items: 900,
                rounds: (0..2)
                    .map(|i| Round {
                        items: 900,
                        figure: 100.0 + i as f64,
                        others_load: (i == 0).then_some(0.25),
                        percentiles: Some([1.0, 2.0, 3.0]),
                        process,
                    })
                    .collect(),
                histogram: Some(h),
            }],
        }
    }

    #[test]
    fn a_workload_comes_back_as_it_went_with_its_process_marked() {
        let back = from_json(&to_json(&[one(0)]), 2).unwrap();
        let (w, r) = (&back[0], &back[0].rows[0]);
        assert_eq!(
            (w.suite, w.name.as_str(), w.unit),
            ("latency", "round trip", Unit::Nanos)
        );
        assert_eq!(
            (w.per_run, w.distance.clone()),
            (Duration::from_millis(40), vec![50.0, 51.5])
        );
        assert_eq!(
            (r.name.as_str(), r.kind, r.items),
            ("hotq-spsc", Kind::Ours, 900)
        );
        let figs: Vec<_> = r
            .rounds
            .iter()
            .map(|x| (x.figure, x.others_load, x.process))
            .collect();
        assert_eq!(figs, [(100.0, Some(0.25), 2), (101.0, None, 2)]);
        assert_eq!(r.rounds[0].percentiles, Some([1.0, 2.0, 3.0]));
        let h = r.histogram.as_ref().unwrap();
        assert_eq!(
            (h.len(), h.count_at(120), h.max()),
            (4, 3, h.highest_equivalent(4_000))
        );
    }

    #[test]
    fn appending_a_second_process_keeps_both_runs_rounds_in_order() {
        let mut all = from_json(&to_json(&[one(0)]), 0).unwrap();
        append(&mut all, from_json(&to_json(&[one(0)]), 1).unwrap()).unwrap();
        let r = &all[0].rows[0];
        let p: Vec<_> = r.rounds.iter().map(|x| x.process).collect();
        assert_eq!(p, [0, 0, 1, 1]);
        assert_eq!(all[0].distance.len(), 4);
        assert_eq!(r.histogram.as_ref().unwrap().len(), 8);
        let mut other = one(1);
        other.name = "elsewhere".into();
        assert!(
            append(&mut all, vec![other])
                .unwrap_err()
                .contains("one process only")
        );
        assert!(
            append(&mut all, Vec::new())
                .unwrap_err()
                .contains("workloads")
        );
    }
}
