//! hotq-spsc's stamped ring's SPSC throughput and regime-grid runs, in a binary of its own (`isolated`).

fn main() {
    hotq_benches::isolated::serve_try::<hotq_benches::contenders::HotqSpscStamped>();
}
