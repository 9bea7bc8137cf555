//! ringbuf-blocking's blocking calls: the waiting suite's throughput rows, in a binary of its own (`isolated`).

fn main() {
    hotq_benches::isolated::serve::<hotq_benches::waiting::blocking::RingbufBlocking>();
}
