//! hotq-mpmc's channel with send_many/recv_many: the channels suite's batch rows, in a binary of its own (`isolated`).

fn main() {
    hotq_benches::isolated::serve_shared::<hotq_benches::contenders::HotqMpmcChannelBatch>();
}
