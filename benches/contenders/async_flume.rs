//! flume's send_async / recv_async's async throughput runs (the waiting suite's async rows), in a binary of its own (`isolated`).

fn main() {
    hotq_benches::isolated::serve_async::<hotq_benches::waiting::asynchronous::FlumeAsync>();
}
