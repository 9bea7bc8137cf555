//! Mutex<VecDeque>'s SPSC and MPMC throughput runs, in a binary of its own (`isolated`).

fn main() {
    hotq_benches::isolated::serve_shared::<hotq_benches::contenders::MutexDeque>();
}
