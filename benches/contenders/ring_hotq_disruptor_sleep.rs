//! hotq-disruptor with 10 µs sleeps's disruptor-suite topologies, in a binary of its own (`isolated`).

fn main() {
    hotq_benches::isolated::serve_ring::<hotq_benches::sequenced::HotqDisruptorSleeping>();
}
