//! Reading a goal's evidence off the workloads: a workload and a row by
//! name, and the ratios of two rows per round or of their medians.

use super::evidence::Evidence;
use crate::results::{Row, Workload};
use crate::summary::Summary;

/// The workload called `name`.
pub(super) fn workload<'a>(ws: &'a [Workload], name: &str) -> Option<&'a Workload> {
    ws.iter().find(|w| w.name == name)
}

/// The row called `name` of `w`.
pub(super) fn row<'a>(w: &'a Workload, name: &str) -> Option<&'a Row> {
    w.rows.iter().find(|r| r.name == name)
}

/// A row's figure in each round.
pub(super) fn figures(r: &Row) -> Vec<f64> {
    r.rounds.iter().map(|x| x.figure).collect()
}

/// The process of each of a row's rounds.
fn processes(r: &Row) -> Vec<usize> {
    r.rounds.iter().map(|x| x.process).collect()
}

/// `a / b` per round of one workload.
pub(super) fn per_round(w: &Workload, a: &str, b: &str) -> Option<Evidence> {
    let (a, b) = (row(w, a)?, row(w, b)?);
    let ratios: Vec<f64> = a
        .rounds
        .iter()
        .zip(&b.rounds)
        .map(|(x, y)| x.figure / y.figure)
        .collect();
    (!ratios.is_empty()).then(|| Evidence::PerRound {
        workload: w.name.clone(),
        ratios,
        processes: processes(a),
    })
}

/// `median(a of wa) / median(b of wb)`, for two workloads.
pub(super) fn medians(wa: &Workload, a: &str, wb: &Workload, b: &str) -> Option<Evidence> {
    let (ra, rb) = (row(wa, a)?, row(wb, b)?);
    let (a, b) = (figures(ra), figures(rb));
    (!a.is_empty() && !b.is_empty()).then(|| Evidence::Medians {
        workloads: [wa.name.clone(), wb.name.clone()],
        a,
        b,
        processes: [processes(ra), processes(rb)],
    })
}

/// Of `names`, the row of `w` with the best (highest) median.
pub(super) fn best<'a>(w: &Workload, names: &[&'a str]) -> Option<&'a str> {
    names
        .iter()
        .filter_map(|n| row(w, n).map(|r| (*n, Summary::of(&figures(r)).median)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(n, _)| n)
}

/// The share of a core that `ours` used per round of an idle-CPU workload
/// (CPU ns over a second, read as a ratio to one whole core, so the
/// verdict comes from its interval as for any ratio).
pub(super) fn idle_share(w: &Workload, ours: &str) -> Option<Evidence> {
    row(w, ours).map(|r| Evidence::PerRound {
        workload: w.name.clone(),
        ratios: figures(r).iter().map(|ns| ns / 1e9).collect(),
        processes: processes(r),
    })
}
