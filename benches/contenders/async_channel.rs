//! async-channel's blocking send/recv: the channels suite's shapes, in a binary of its own (`isolated`).

fn main() {
    hotq_benches::isolated::serve_shared::<hotq_benches::contenders::AsyncChannel>();
}
