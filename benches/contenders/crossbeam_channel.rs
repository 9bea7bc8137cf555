//! crossbeam-channel's SPSC and MPMC throughput runs and its `select!`, in a binary of its own (`isolated`).

use hotq_benches::contenders::CrossbeamChannel;
use hotq_benches::workloads::select;

fn main() {
    hotq_benches::isolated::serve_shared_select::<CrossbeamChannel>(select::crossbeam);
}
