//! mpsc::sync_channel's SPSC and MPSC throughput runs, in a binary of its own (`isolated`).

fn main() {
    hotq_benches::isolated::serve_mpsc::<hotq_benches::contenders::SyncChannel>();
}
