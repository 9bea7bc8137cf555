//! hotq-spsc's stamped ring's push_async / pop_async's async throughput runs (the waiting suite's async rows), in a binary of its own (`isolated`).

use hotq_benches::waiting::asynchronous::HotqSpscStampedAsync;

fn main() {
    hotq_benches::isolated::serve_async::<HotqSpscStampedAsync>();
}
