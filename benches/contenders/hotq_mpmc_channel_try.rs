//! hotq-mpmc's channel through try_send/try_recv: its try path's instruction count (`instructions`), in a binary of its own (`isolated`).

fn main() {
    hotq_benches::isolated::serve_shared::<hotq_benches::contenders::HotqMpmcChannelTry>();
}
