//! tokio's mpsc, send/recv and its flow-control calls, in the channels suite's async rows (tasks on tokio), in a binary of its own (`isolated`).

fn main() {
    hotq_benches::isolated::serve_flow::<hotq_benches::async_channels::TokioMpsc>();
}
