//! flume's SPSC and MPMC throughput runs and its `Selector`, in a binary of its own (`isolated`).

use hotq_benches::contenders::Flume;
use hotq_benches::workloads::select;

fn main() {
    hotq_benches::isolated::serve_shared_select::<Flume>(select::flume);
}
