//! thingbuf's mpsc in the channels suite's async rows (tasks on tokio), in a binary of its own (`isolated`).

fn main() {
    hotq_benches::isolated::serve_tasks::<hotq_benches::async_channels::Thingbuf>();
}
