//! hotq-mpmc's channel with single sends and recv_many: the channels suite's batch rows, in a binary of its own (`isolated`).

fn main() {
    hotq_benches::isolated::serve_shared::<hotq_benches::contenders::HotqMpmcChannelRecvMany>();
}
