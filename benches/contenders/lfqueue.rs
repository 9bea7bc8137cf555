//! lfqueue's SPSC, MPMC and regime-grid runs, in a binary of its own (`isolated`).

fn main() {
    hotq_benches::isolated::serve_shared_try::<hotq_benches::contenders::Lfqueue>();
}
