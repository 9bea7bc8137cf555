//! Facts about the CPU from /proc/cpuinfo: the report's header names the
//! model, the hardware counters pick their events by the vendor.

use std::fs;

/// The first value of `name` in /proc/cpuinfo (`model name`,
/// `vendor_id`), trimmed; `None` where there is no such file or field.
pub fn field(name: &str) -> Option<String> {
    fs::read_to_string("/proc/cpuinfo").ok().and_then(|s| {
        s.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split(':').nth(1))
            .map(|v| v.trim().to_string())
    })
}
