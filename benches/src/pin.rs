//! Pinning a workload's threads to distinct cores, where there are enough.

use std::sync::OnceLock;

/// The cores threads may be pinned to, if pinning is on.
static CORES: OnceLock<Vec<core_affinity::CoreId>> = OnceLock::new();

/// Turns pinning on (`true`) or off for the rest of the run. Call once,
/// before any workload.
///
/// The cores are those the process may run on, in the order of their
/// numbers, unless `HOTQ_CORES` lists them (`0,2,4,1,3,5`): then those, in
/// that order, so that a two-thread workload can be put on two physical
/// cores of a machine whose neighbouring numbers are hyperthreads of one.
///
/// # Panics
///
/// If `HOTQ_CORES` is set but is not a comma-separated list of numbers.
pub fn configure(on: bool) {
    let cores = if on {
        match std::env::var("HOTQ_CORES") {
            Ok(list) => parse_cores(&list).unwrap_or_else(|e| panic!("HOTQ_CORES: {e}")),
            Err(_) => core_affinity::get_core_ids().unwrap_or_default(),
        }
    } else {
        Vec::new()
    };
    let _ = CORES.set(cores);
}

/// `HOTQ_CORES`'s list: core numbers, comma-separated, each once.
fn parse_cores(list: &str) -> Result<Vec<core_affinity::CoreId>, String> {
    let mut ids: Vec<usize> = Vec::new();
    for part in list.split(',') {
        let id = part
            .trim()
            .parse()
            .map_err(|_| format!("`{part}` in `{list}` is not a core number"))?;
        if ids.contains(&id) {
            return Err(format!("core {id} is listed twice in `{list}`"));
        }
        ids.push(id);
    }
    Ok(ids
        .into_iter()
        .map(|id| core_affinity::CoreId { id })
        .collect())
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

#[cfg(test)]
mod tests {
    use super::parse_cores;

    #[test]
    fn hotq_cores_keeps_the_order_given_and_refuses_what_is_not_a_list() {
        let ids = |l: &str| parse_cores(l).map(|v| v.iter().map(|c| c.id).collect::<Vec<_>>());
        assert_eq!(ids("0,2,4,1, 3"), Ok(vec![0, 2, 4, 1, 3]));
        assert!(ids("0,x").unwrap_err().contains("`x`"));
        assert!(ids("").is_err());
        assert!(ids("1,1").unwrap_err().contains("twice"));
    }
}
