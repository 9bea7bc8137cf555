//! SVG plots that say what the tables say: per workload, every round of
//! every contender (the table's median is the tick among them), each round
//! marked by the mode the machine's floor was in; the goals with their
//! intervals and per-round ratios; for the round trips also each
//! contender's latency percentiles over all rounds.

mod files;
mod goals;
mod percentiles;
mod rounds;
mod style;

pub use files::{GOALS_FILE, file_name, percentiles_file_name};
pub use goals::goals;
pub use percentiles::percentiles;
pub use rounds::rounds;
pub use style::Res;
