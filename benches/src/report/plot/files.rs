//! The plots' file names.

use crate::results::Workload;

/// A file name from a workload's suite and name: lower-case letters and
/// digits, one dash between words (`spsc-throughput-cap-2-single.svg`).
pub fn file_name(w: &Workload) -> String {
    let words: Vec<String> = format!("{} {}", w.suite, w.name)
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|s| !s.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    format!("{}.svg", words.join("-"))
}

/// The file of a latency workload's percentile plot.
pub fn percentiles_file_name(w: &Workload) -> String {
    file_name(w).replace(".svg", "-percentiles.svg")
}

/// The file of the goals plot.
pub const GOALS_FILE: &str = "goals.svg";
