//! What the report says about where and how it was measured.

use std::time::{SystemTime, UNIX_EPOCH};

/// Versions of the contenders' crates, from Cargo.lock at build time.
pub const CRATE_VERSIONS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/versions.rs"));

/// The machine, the toolchain, the crates and the run's parameters.
#[derive(Debug, Clone)]
pub struct Header {
    /// UTC date and time the run started, `YYYY-MM-DD HH:MM UTC`.
    pub date: String,
    /// The CPU's model name from /proc/cpuinfo.
    pub cpu: String,
    /// Cores the process may use.
    pub cores: usize,
    /// `rustc -V` of the compiler that built the report.
    pub rustc: String,
    /// Whether two-thread workloads ran pinned to distinct cores.
    pub pinned: bool,
    /// Whether the report was built with optimisations.
    pub optimised: bool,
    /// The run's parameters, in words.
    pub params: Vec<(String, String)>,
    /// Instructions per send+receive pair on each counted queue's try
    /// path (`instructions`), in its order; empty where callgrind did not
    /// run.
    pub instructions: Vec<(String, f64)>,
}

impl Header {
    /// Reads the machine's facts now.
    pub fn now(pinned: bool, params: Vec<(String, String)>) -> Header {
        let cpu = crate::cpuinfo::field("model name").unwrap_or_else(|| "unknown".into());
        Header {
            date: utc_now(),
            cpu,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            rustc: env!("HOTQ_RUSTC_VERSION").to_string(),
            pinned,
            optimised: !cfg!(debug_assertions),
            params,
            instructions: Vec::new(),
        }
    }
}

/// `YYYY-MM-DD HH:MM UTC` from the system clock.
fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
/// algorithm: eras of 400 years, years starting in March).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::civil_from_days;

    #[test]
    fn dates_from_days() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_788), (2026, 12, 1));
    }
}
