//! Benchmarks of the hotq queues; the benchmarks themselves are in `benches/`.
