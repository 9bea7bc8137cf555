//! The floor as a probe of the machine's mode, beside the contenders of a
//! workload whose floor is not a contender of its own shape (see
//! `workloads::floor`).

use crate::channel::Kind;
use crate::results::Unit;
use crate::rounds::Entry;
use crate::workloads::floor::{LIMIT, round_trip, throughput};

/// Lines in flight of the probe's throughput floor: a ring of the MPMC
/// suite's capacity (1024 items), as its `limit` row.
const PROBE_CAPACITY: usize = 1024;

/// The floor as a mode probe beside a workload's contenders (see
/// [`Entry::probe`]): the line-handover floor for a throughput workload,
/// the bounce for one timed in ns (round trips, wake-ups, idle CPU), so
/// its fast mode is the better figure of the workload's own unit. A short
/// run each round: no run of it is planned over 10 ms, and it ignores the
/// workload's item count (the idle-CPU workload's is 1).
pub fn probe(unit: Unit) -> Entry {
    match unit {
        Unit::MItemsPerSec => Entry::probe(LIMIT, Kind::Limit, 100_000_000, |items| {
            throughput(items, PROBE_CAPACITY).into()
        }),
        Unit::Nanos => Entry::probe(LIMIT, Kind::Limit, 1_000_000, round_trip),
    }
}

/// The words a workload's parameters end with when it runs [`probe`].
pub const PROBE_WORDS: &str = "; `limit` is the two-core floor (a cache line handed over, or bounced for times), one short run per round as the probe of the machine's mode";
