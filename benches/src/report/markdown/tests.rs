//! The Markdown's tests: the goals table, the floors.

use super::floors::{floor_line, floors};
use super::goals_table::goals_table;
use crate::channel::Kind;
use crate::report::floor;
use crate::report::goals;

use crate::report::goals::tests::{batch_fast_then_slow, single_all_fast, workload};

#[test]
fn the_goals_table_shows_each_interval_verdict_and_flag() {
    let ours = [301.0, 264.0, 290.0, 280.0, 275.0, 288.0, 283.0, 279.0];
    let peer = [200.0, 210.0, 205.0, 190.0, 200.0, 202.0, 199.0, 201.0];
    let fell = [888.0, 870.0, 280.0, 281.0, 279.0, 285.0, 282.0, 280.0];
    let w = workload(
        "cap 1024, single",
        &[
            ("hotq-spsc", Kind::Ours, &ours),
            ("rtrb", Kind::Peer, &peer),
            ("limit", Kind::Limit, &fell),
        ],
    );
    let ws = [w];
    let text = goals_table(&goals::evaluate(&ws));
    // Six slow rounds and two fast, all eight decide; each mode's own
    // figures are listed under the table.
    assert!(
        text.contains("| ≥ 1.20 | all 8 (fast 2, slow 6) | 1.4") && text.contains("| met ⚑ |"),
        "{text}"
    );
    assert!(text.contains("fast, 2 rounds") && text.contains("slow, 6 rounds"));
    assert!(text.contains("1 met, 0 missed") && text.contains("0 undecided because"));
    // A goal over two workloads counts the rounds of both, including
    // a mode that only one of them had.
    let single = single_all_fast();
    let batch = batch_fast_then_slow();
    let two = goals_table(&goals::evaluate(&[single, batch]));
    assert!(two.contains("| all 12 (fast 8, slow 4) |"), "{two}");
    let head = floors(&ws);
    assert!(head.contains("mode moved more than 2×") && head.contains("cap 1024, single"));
    let line = floor_line(&ws[0]).unwrap();
    assert!(
        line.starts_with("floor per round")
            && line.contains("888, 870, 280")
            && line.contains("**moved**"),
        "{line}"
    );
    // Where the cores' distance was measured, it tells the mode, not
    // the limit row: here it moved, three near rounds then five far.
    let mut w = workload(
        "cap 1024, single",
        &[
            ("hotq-spsc", Kind::Ours, &ours),
            ("rtrb", Kind::Peer, &peer),
            ("limit", Kind::Limit, &[880.0; 8]),
        ],
    );
    w.distance = vec![140.0, 141.0, 139.0, 480.0, 490.0, 470.0, 485.0, 480.0];
    let f = floor::of(&w).unwrap();
    assert_eq!(
        (f.source, f.unit),
        (floor::Source::Distance, crate::results::Unit::Nanos)
    );
    use floor::Mode::{Fast, Slow};
    assert_eq!(f.modes, [Fast, Fast, Fast, Slow, Slow, Slow, Slow, Slow]);
    let line = floor_line(&w).unwrap();
    assert!(
        line.starts_with(
            "core distance per round (round trip of one line) (ns): 140, 141, 139, 480"
        ) && line.contains("**moved**"),
        "{line}"
    );
    let text = goals_table(&goals::evaluate(&[w]));
    assert!(text.contains("| all 8 (fast 3, slow 5) |"), "{text}");
}
