//! What a goal is read from ([`Evidence`]: paired ratios per round, a
//! ratio of two workloads' medians, or a bare figure), and its rounds split
//! by the machine's mode ([`RoundModes`]).

use crate::report::bootstrap::{self, Interval};
use crate::report::floor;
use crate::results::Workload;
use crate::summary::Summary;

/// What a goal is read from.
#[derive(Debug, Clone)]
pub enum Evidence {
    /// `a / b` in each round of one workload (paired: both ran in the same
    /// round, so drift of the machine cancels).
    PerRound {
        /// The workload.
        workload: String,
        /// One ratio per round, in round order.
        ratios: Vec<f64>,
        /// The process each round ran in ([`Round::process`]), one per
        /// ratio: the bootstrap resamples processes, then rounds.
        ///
        /// [`Round::process`]: crate::results::Round::process
        processes: Vec<usize>,
    },
    /// `median(a) / median(b)` where `a` and `b` come from two workloads
    /// (their rounds are not paired; each side is resampled on its own).
    Medians {
        /// The workloads of `a` and of `b`.
        workloads: [String; 2],
        /// `a`'s figure per round.
        a: Vec<f64>,
        /// `b`'s figure per round.
        b: Vec<f64>,
        /// The process of each of `a`'s rounds, and of `b`'s.
        processes: [Vec<usize>; 2],
    },
    /// A ratio with no rounds behind it (no interval: never decided).
    Point(Summary),
}

impl Evidence {
    /// The workloads the figures come from.
    pub fn workloads(&self) -> Vec<&str> {
        match self {
            Evidence::PerRound { workload, .. } => vec![workload],
            Evidence::Medians { workloads, .. } => workloads.iter().map(String::as_str).collect(),
            Evidence::Point(_) => Vec::new(),
        }
    }

    /// How many rounds back the ratio (the fewer side's, for two workloads).
    pub fn rounds(&self) -> usize {
        match self {
            Evidence::PerRound { ratios, .. } => ratios.len(),
            Evidence::Medians { a, b, .. } => a.len().min(b.len()),
            Evidence::Point(_) => 1,
        }
    }

    /// The ratio's median, minimum and maximum: over rounds, or of the
    /// two medians.
    pub fn summary(&self) -> Summary {
        match self {
            Evidence::PerRound { ratios, .. } => Summary::of(ratios),
            Evidence::Medians { a, b, .. } => {
                Summary::of(&[Summary::of(a).median / Summary::of(b).median])
            }
            Evidence::Point(s) => *s,
        }
    }

    /// The 95 % bootstrap interval of the median ratio (seeded by `seed`).
    pub fn interval(&self, seed: u64) -> Option<Interval> {
        match self {
            Evidence::PerRound {
                ratios, processes, ..
            } => Some(bootstrap::median_grouped(ratios, processes, seed)),
            Evidence::Medians {
                a, b, processes, ..
            } => Some(bootstrap::ratio_of_medians_grouped(
                (a, &processes[0]),
                (b, &processes[1]),
                seed,
            )),
            Evidence::Point(_) => None,
        }
    }
}

/// The floor's mode in each round of a goal's evidence: one per ratio, or
/// one per figure of each side.
#[derive(Debug, Clone, PartialEq)]
pub enum RoundModes {
    /// For [`Evidence::PerRound`].
    PerRound(Vec<floor::Mode>),
    /// For [`Evidence::Medians`]: `a`'s rounds, then `b`'s.
    Medians(Vec<floor::Mode>, Vec<floor::Mode>),
}

impl RoundModes {
    /// Every round's mode, across the goal's workloads.
    pub fn all(&self) -> Vec<floor::Mode> {
        match self {
            RoundModes::PerRound(m) => m.clone(),
            RoundModes::Medians(a, b) => a.iter().chain(b).copied().collect(),
        }
    }
}

impl Evidence {
    /// The modes of `self`'s rounds, classified from the floors of its
    /// workloads (`None` when one has no floor row). Two workloads' floors
    /// are classified together: the goals that read two workloads read
    /// two that run the same floor.
    pub fn modes(&self, ws: &[Workload]) -> Option<RoundModes> {
        let floor_of = |name: &str| floor::of(ws.iter().find(|w| w.name == name)?);
        match self {
            Evidence::PerRound {
                workload, ratios, ..
            } => {
                let f = floor_of(workload)?;
                (f.per_round.len() == ratios.len()).then_some(RoundModes::PerRound(f.modes))
            }
            Evidence::Medians {
                workloads, a, b, ..
            } => {
                let (fa, fb) = (floor_of(&workloads[0])?, floor_of(&workloads[1])?);
                if fa.per_round.len() != a.len() || fb.per_round.len() != b.len() {
                    return None;
                }
                let both: Vec<f64> = fa.per_round.iter().chain(&fb.per_round).copied().collect();
                let mut modes = floor::classify(&both, fa.unit);
                let of_b = modes.split_off(a.len());
                Some(RoundModes::Medians(modes, of_b))
            }
            Evidence::Point(_) => None,
        }
    }

    /// The rounds of `self` whose mode is `mode` (`None` if a side has
    /// none).
    pub fn of_mode(&self, modes: &RoundModes, mode: floor::Mode) -> Option<Evidence> {
        fn pick<X: Copy>(v: &[X], modes: &[floor::Mode], mode: floor::Mode) -> Vec<X> {
            v.iter()
                .zip(modes)
                .filter(|(_, m)| **m == mode)
                .map(|(x, _)| *x)
                .collect()
        }
        match (self, modes) {
            (
                Evidence::PerRound {
                    workload,
                    ratios,
                    processes,
                },
                RoundModes::PerRound(m),
            ) => {
                let ratios = pick(ratios, m, mode);
                (!ratios.is_empty()).then(|| Evidence::PerRound {
                    workload: workload.clone(),
                    ratios,
                    processes: pick(processes, m, mode),
                })
            }
            (
                Evidence::Medians {
                    workloads,
                    a,
                    b,
                    processes: [pa, pb],
                },
                RoundModes::Medians(ma, mb),
            ) => {
                let (a, b) = (pick(a, ma, mode), pick(b, mb, mode));
                (!a.is_empty() && !b.is_empty()).then(|| Evidence::Medians {
                    workloads: workloads.clone(),
                    a,
                    b,
                    processes: [pick(pa, ma, mode), pick(pb, mb, mode)],
                })
            }
            _ => None,
        }
    }
}

/// What the goal's functions accept as evidence: what `per_round` and
/// `medians` return, or (as goals were first written) a bare summary.
#[derive(Debug, Clone)]
pub struct Measure(pub(super) Option<Evidence>);

impl From<Option<Evidence>> for Measure {
    fn from(e: Option<Evidence>) -> Self {
        Measure(e)
    }
}

impl From<Option<Summary>> for Measure {
    fn from(s: Option<Summary>) -> Self {
        Measure(s.map(Evidence::Point))
    }
}
