//! `report --compare A.json B.json`: two runs' verdicts side by side, and
//! whether they agree (the same verdict for every goal; undecided counts
//! as the same only when it is undecided in both).

use std::fmt::Write;

use serde_json::Value;

/// A goal's key across runs: its text without the one-word names in
/// brackets and the best peer's name (the best peer is chosen per run,
/// `(rtrb)` or `(ringbuf)`, `(kanal async)` or `(async-channel)`).
fn key(goal: &str) -> String {
    let mut out = String::new();
    let mut rest = goal;
    while let Some(open) = rest.find(" (") {
        let after = &rest[open + 2..];
        match after.find(')') {
            // A best peer's name may have a space (`kanal async`).
            Some(close)
                if rest[..open].ends_with("peer")
                    || (!after[..close].contains(' ') && &after[..close] != "medians") =>
            {
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

/// `verdict marks median [lo–hi], mode rounds` of one goal of a
/// report.json (runs from before the dominant-mode verdicts lack the
/// mode).
fn cell(g: &Value) -> String {
    let verdict = g["verdict"].as_str().unwrap_or("not measured");
    let mut flag = String::new();
    for (key, mark) in [
        ("flagged", " ⚑"),
        ("modes_disagree", " ≠"),
        ("busy", " busy"),
    ] {
        if g[key] == true {
            flag.push_str(mark);
        }
    }
    let decided = match (g["decided_by"].as_str(), g.get("decided_by")) {
        (Some(mode), _) => {
            let of_mode = g["by_mode"]
                .as_array()
                .and_then(|ms| ms.iter().find(|m| m["mode"] == mode))
                .and_then(|m| m["rounds"].as_u64());
            match (mode, of_mode, g["rounds"].as_u64()) {
                ("steady", _, Some(n)) => format!(", steady {n}"),
                (m, Some(k), Some(n)) => format!(", {m} {k}/{n}"),
                (m, _, _) => format!(", {m}"),
            }
        }
        (None, Some(Value::Null)) if g["modes_apart"] == true => ", modes apart".to_string(),
        (None, Some(Value::Null)) => ", no floor".to_string(),
        _ => String::new(),
    };
    match g["interval"].as_object() {
        Some(i) => format!(
            "{verdict}{flag} {:.2} [{:.2}–{:.2}]{decided}",
            i["median"].as_f64().unwrap_or(f64::NAN),
            i["lo"].as_f64().unwrap_or(f64::NAN),
            i["hi"].as_f64().unwrap_or(f64::NAN)
        ),
        None => format!("{verdict}{flag}{decided}"),
    }
}

/// A goal's verdict (the one every mode with enough rounds agrees on).
fn verdict(g: &Option<Value>) -> Option<String> {
    g.as_ref()
        .and_then(|g| g["verdict"].as_str().map(String::from))
}

/// The all-rounds verdict (the only one of runs from before the
/// dominant-mode verdicts).
fn all_rounds(g: &Option<Value>) -> Option<String> {
    g.as_ref().and_then(|g| {
        g["all_rounds"]["verdict"]
            .as_str()
            .or(g["verdict"].as_str())
            .map(String::from)
    })
}

/// The mode that decided a goal, if the run says.
fn mode(g: &Option<Value>) -> Option<String> {
    g.as_ref()
        .and_then(|g| g["decided_by"].as_str().map(String::from))
}

/// Whether two verdicts are the same: both present and equal (so
/// undecided is the same only when undecided in both).
fn same(x: Option<String>, y: Option<String>) -> bool {
    x.is_some() && x == y
}

/// The comparison of two report.json documents, in Markdown, and whether
/// every goal of either has the same verdict in the other: every goal's
/// verdict in both runs (with the dominant floor mode and its rounds), then each run's all-rounds verdict, and the counts of
/// goals that agree by each.
pub fn compare(a: &Value, b: &Value) -> (String, bool) {
    let goals = |v: &Value| -> Vec<Value> { v["goals"].as_array().cloned().unwrap_or_default() };
    let (ga, gb) = (goals(a), goals(b));
    let mut s = String::new();
    let date = |v: &Value| v["header"]["date"].as_str().unwrap_or("?").to_string();
    let _ = writeln!(
        s,
        "| goal | target | A ({}) | B ({}) | same | A all rounds | B all rounds | same by all rounds |",
        date(a),
        date(b)
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|");
    let mut flips = Vec::new();
    let (mut all_same, mut other_mode) = (0, 0);
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
        let same_verdict = same(verdict(&x), verdict(&y));
        if !same_verdict {
            flips.push(k.clone());
            if let (Some(p), Some(q)) = (mode(&x), mode(&y)) {
                other_mode += usize::from(p != q);
            }
        }
        let same_all = same(all_rounds(&x), all_rounds(&y));
        all_same += usize::from(same_all);
        let target = x
            .as_ref()
            .or(y.as_ref())
            .and_then(|g| g["target"].as_str())
            .unwrap_or("");
        let show = |g: &Option<Value>| g.as_ref().map_or("not in this run".into(), cell);
        let show_all = |g: &Option<Value>| all_rounds(g).unwrap_or_else(|| "—".into());
        let yes = |b: bool| if b { "yes" } else { "**no**" };
        let _ = writeln!(
            s,
            "| {k} | {target} | {} | {} | {} | {} | {} | {} |",
            show(&x),
            show(&y),
            yes(same_verdict),
            show_all(&x),
            show_all(&y),
            yes(same_all)
        );
    }
    let _ = writeln!(
        s,
        "\n{} of {} goals have the same verdict in both runs (undecided counts only when undecided in both); by all rounds, {} of {}.",
        keys.len() - flips.len(),
        keys.len(),
        all_same,
        keys.len()
    );
    if other_mode > 0 {
        let _ = writeln!(
            s,
            "{other_mode} of the {} that differ had a different dominant mode of the machine in the two runs.",
            flips.len()
        );
    }
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
        assert_eq!(
            key("waiting async: ours ÷ best peer (kanal async), per round"),
            key("waiting async: ours ÷ best peer (async-channel), per round")
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

    #[test]
    fn every_goal_shows_both_runs_verdicts_and_modes_and_both_counts() {
        let goal = |v: &str, mode: &str, all: &str| {
            json!({
                "goal": "g", "target": "≥ 1.20", "verdict": v, "decided_by": mode,
                "rounds": 25, "modes_disagree": mode == "slow",
                "by_mode": [{"mode": mode, "rounds": 17}],
                "all_rounds": {"verdict": all},
                "interval": {"median": 1.3, "lo": 1.21, "hi": 1.4},
            })
        };
        let a = json!({"header": {"date": "A"}, "goals": [goal("met", "fast", "undecided")]});
        let b = json!({"header": {"date": "B"}, "goals": [goal("missed", "slow", "undecided")]});
        let (text, same) = compare(&a, &b);
        assert!(!same);
        assert!(
            text.contains("| met 1.30 [1.21–1.40], fast 17/25 | missed ≠ 1.30 [1.21–1.40], slow 17/25 | **no** | undecided | undecided | yes |"),
            "{text}"
        );
        assert!(text.contains("0 of 1 goals") && text.contains("by all rounds, 1 of 1"));
        assert!(text.contains("1 of the 1 that differ had a different dominant mode"));
        // A goal with no floor row says so; not measured in both is a
        // difference (no verdict to agree on).
        let mut c = goal("met", "fast", "met");
        c["decided_by"] = Value::Null;
        assert!(cell(&c).ends_with(", no floor"), "{}", cell(&c));
        assert!(!same_verdict_of(json!({"goal": "g"}), json!({"goal": "g"})));
    }

    fn same_verdict_of(x: Value, y: Value) -> bool {
        same(verdict(&Some(x)), verdict(&Some(y)))
    }
}
