//! The sizes of the report's workloads: capacities, batches, shapes, and
//! the items per round of the shapes slower than a plain transfer.

/// SPSC capacities.
pub const SPSC_CAPACITIES: [usize; 3] = [2, 1024, 65_536];
/// Batch sizes for the contenders with slice operations.
pub const BATCHES: [usize; 2] = [16, 256];
/// Capacity of the round-trip and MPMC queues.
pub const CAPACITY: usize = 1024;
/// Size of the disruptor rings and of each crossbeam-channel arc (as the
/// LMAX perf tests: 64 Ki events). On a machine with fewer cores than the
/// topology has threads, busy-spinning handlers move at most a ring's worth
/// of events per time slice, so a small ring would measure the scheduler.
pub const RING: usize = 65_536;
/// MPMC shapes (producers, consumers).
pub const MPMC_SHAPES: [(u64, u64); 3] = [(1, 1), (2, 2), (4, 4)];

/// Round trips per round.
pub fn trips(items: u64) -> u64 {
    (items / 50).max(10)
}

/// Events per round of a disruptor topology: three or four threads on the
/// cores, each shape in turn.
pub fn events(items: u64) -> u64 {
    (items / 4).max(3)
}
