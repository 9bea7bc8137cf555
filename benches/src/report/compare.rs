//! `report --compare A.json B.json`: two runs' verdicts side by side, and
//! whether they agree (the same verdict for every goal; undecided counts
//! as the same only when it is undecided in both).

use std::fmt::Write;

use serde_json::Value;

/// A goal's key across runs: its text without the one-word names in
/// brackets (the best peer is chosen per run, `(rtrb)` or `(ringbuf)`).
fn key(goal: &str) -> String {
    let mut out = String::new();
    let mut rest = goal;
    while let Some(open) = rest.find(" (") {
        let after = &rest[open + 2..];
        match after.find(')') {
            Some(close) if !after[..close].contains(' ') && &after[..close] != "medians" => {
                out.push_str(&rest[..open]);
                rest = &after[close + 1..];
            }
            _ => {
                out.push_str(&rest[..open + 2]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `verdict median [lo–hi]` of one goal of a report.json.
fn cell(g: &Value) -> String {
    let verdict = g["verdict"].as_str().unwrap_or("not measured");
    let flag = match (g["flagged"] == true, g["busy"] == true) {
        (true, true) => " ⚑ busy",
        (true, false) => " ⚑",
        (false, true) => " busy",
        (false, false) => "",
    };
    match g["interval"].as_object() {
        Some(i) => format!(
            "{verdict}{flag} {:.2} [{:.2}–{:.2}]",
            i["median"].as_f64().unwrap_or(f64::NAN),
            i["lo"].as_f64().unwrap_or(f64::NAN),
            i["hi"].as_f64().unwrap_or(f64::NAN)
        ),
        None => format!("{verdict}{flag}"),
    }
}

/// The comparison of two report.json documents, in Markdown, and whether
/// every goal of either has the same verdict in the other.
pub fn compare(a: &Value, b: &Value) -> (String, bool) {
    let goals = |v: &Value| -> Vec<Value> { v["goals"].as_array().cloned().unwrap_or_default() };
    let (ga, gb) = (goals(a), goals(b));
    let mut s = String::new();
    let date = |v: &Value| v["header"]["date"].as_str().unwrap_or("?").to_string();
    let _ = writeln!(
        s,
        "| goal | target | A ({}) | B ({}) | same |",
        date(a),
        date(b)
    );
    let _ = writeln!(s, "|---|---|---|---|---|");
    let mut flips = Vec::new();
    let mut keys: Vec<String> = ga
        .iter()
        .map(|g| key(g["goal"].as_str().unwrap_or("")))
        .collect();
    for g in &gb {
        let k = key(g["goal"].as_str().unwrap_or(""));
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    for k in &keys {
        let find = |gs: &[Value]| {
            gs.iter()
                .find(|g| key(g["goal"].as_str().unwrap_or("")) == *k)
                .cloned()
        };
        let (x, y) = (find(&ga), find(&gb));
        let verdict = |g: &Option<Value>| {
            g.as_ref()
                .and_then(|g| g["verdict"].as_str().map(String::from))
        };
        let same = verdict(&x).is_some() && verdict(&x) == verdict(&y);
        if !same {
            flips.push(k.clone());
        }
        let target = x
            .as_ref()
            .or(y.as_ref())
            .and_then(|g| g["target"].as_str())
            .unwrap_or("");
        let show = |g: &Option<Value>| g.as_ref().map_or("not in this run".into(), cell);
        let _ = writeln!(
            s,
            "| {k} | {target} | {} | {} | {} |",
            show(&x),
            show(&y),
            if same { "yes" } else { "**no**" }
        );
    }
    let _ = writeln!(
        s,
        "\n{} of {} goals have the same verdict in both runs.",
        keys.len() - flips.len(),
        keys.len()
    );
    (s, flips.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(goals: &[(&str, &str)]) -> Value {
        json!({
            "header": {"date": "d"},
            "goals": goals.iter().map(|(g, v)| json!({
                "goal": g, "target": "≥ 1.20", "verdict": v, "flagged": false,
                "interval": {"median": 1.0, "lo": 0.9, "hi": 1.1},
            })).collect::<Vec<_>>(),
        })
    }

    #[test]
    fn the_best_peers_name_does_not_split_a_goal() {
        assert_eq!(
            key("SPSC cap 1024, single: hotq-spsc ÷ best SPSC peer (rtrb), per round"),
            key("SPSC cap 1024, single: hotq-spsc ÷ best SPSC peer (ringbuf), per round")
        );
        let m = "SPSC hotq-spsc cap 1024, batch 16 ÷ single (medians)";
        assert_eq!(key(m), m);
    }

    #[test]
    fn runs_agree_only_when_every_verdict_is_the_same() {
        let a = run(&[("g1 (rtrb)", "met"), ("g2", "undecided")]);
        let b = run(&[("g1 (ringbuf)", "met"), ("g2", "undecided")]);
        assert!(compare(&a, &b).1);
        let c = run(&[("g1 (rtrb)", "met"), ("g2", "met")]);
        let (text, same) = compare(&a, &c);
        assert!(!same && text.contains("1 of 2 goals"), "{text}");
        // A goal one run lacks is a difference too.
        let d = run(&[("g1 (rtrb)", "met")]);
        assert!(!compare(&a, &d).1);
    }
}
