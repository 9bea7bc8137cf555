//! hotq-spsc's stamped ring's blocking calls (push_timeout / pop_timeout): the waiting suite's throughput rows, in a binary of its own (`isolated`).

fn main() {
    hotq_benches::isolated::serve::<hotq_benches::waiting::blocking::HotqSpscStampedBlocking>();
}
