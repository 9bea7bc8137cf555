//! rtrb's SPSC throughput runs, in a binary of its own (`isolated`).

fn main() {
    hotq_benches::isolated::serve::<hotq_benches::contenders::Rtrb>();
}
