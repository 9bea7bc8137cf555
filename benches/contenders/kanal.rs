//! kanal's blocking send/recv: the waiting suite's throughput rows and the channels suite's shapes, in a binary of its own (`isolated`).

fn main() {
    hotq_benches::isolated::serve_shared::<hotq_benches::contenders::Kanal>();
}
