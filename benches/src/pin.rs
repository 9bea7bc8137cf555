//! Pinning a workload's threads to distinct cores, where there are enough.

use std::sync::OnceLock;

/// The cores threads may be pinned to, if pinning is on.
static CORES: OnceLock<Vec<core_affinity::CoreId>> = OnceLock::new();

/// Turns pinning on (`true`) or off for the rest of the run. Call once,
/// before any workload.
pub fn configure(on: bool) {
    let cores = if on {
        core_affinity::get_core_ids().unwrap_or_default()
    } else {
        Vec::new()
    };
    let _ = CORES.set(cores);
}

/// How many cores threads can be pinned to (0 when pinning is off).
pub fn cores() -> usize {
    CORES.get().map_or(0, Vec::len)
}

/// Pins the calling thread, the `i`-th of a workload's `threads`, to a
/// core of its own, when there are at least `threads` cores; otherwise
/// leaves it to the scheduler. Returns whether it pinned.
pub fn thread(i: usize, threads: usize) -> bool {
    match CORES.get() {
        Some(cores) if threads <= cores.len() => core_affinity::set_for_current(cores[i]),
        _ => false,
    }
}
