//! hotq-spsc's stamped ring's push_async / pop_async's async throughput runs (the waiting suite's async rows), in a binary of its own (`isolated`).

fn main() {
    hotq_benches::isolated::serve_async::<hotq_benches::waiting::asynchronous::HotqSpscStampedAsync>(
    );
}
