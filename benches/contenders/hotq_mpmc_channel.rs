//! hotq-mpmc's channel, blocking send/recv: the channels suite's shapes and its `select!`, in a binary of its own (`isolated`).

use hotq_benches::contenders::HotqMpmcChannel;
use hotq_benches::workloads::select;

fn main() {
    hotq_benches::isolated::serve_shared_select::<HotqMpmcChannel>(select::hotq);
}
