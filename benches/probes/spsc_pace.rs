//! Keep-pace throughput of hotq-spsc, rtrb and ringbuf side by side, with
//! how often each side found its ring full or empty, and the cores'
//! distance (one line's round trip, the report's mode figure) before each
//! round: for telling whether a gap between the rings is in one of the
//! machine's modes or in all of them, and whether the rings sit in the
//! same traffic pattern (the failed tries per item) while they differ.
//!
//! Each ring is driven by the same bare loop (a failed try, a spin hint,
//! try again; no yield, so run it on a quiet machine with two cores), u64
//! items, capacity 1024, each thread pinned to a core of its own; every
//! item is checked in order on arrival. One line per round:
//!
//! ```sh
//! cargo build --release -p hotq-benches --example spsc_pace
//! target/release/examples/spsc_pace [ITEMS per ring and round, default 2000000] [ROUNDS, default 20]
//! ```
//!
//! `dist` is the cores' round trip in ns; per ring, ns per item (the
//! consumer's wall time ÷ items) and failed pushes (`full`) and pops
//! (`empty`) per item; `h/t` is rtrb's time ÷ hotq-spsc's (above 1:
//! hotq-spsc faster).

use hotq_benches::pin;
use hotq_benches::workloads::floor;
use hotq_benches::workloads::pace::{self, Paced};

fn main() {
    let items: u64 = std::env::args()
        .nth(1)
        .map(|s| s.parse().expect("ITEMS: a positive integer"))
        .unwrap_or(2_000_000);
    let rounds: usize = std::env::args()
        .nth(2)
        .map(|s| s.parse().expect("ROUNDS: a positive integer"))
        .unwrap_or(20);
    pin::configure(true);
    for r in 0..rounds {
        let d = floor::distance();
        let [h, t, b] = [0, 1, 2].map(|r| pace::ring(r, items, || {}, || {}));
        let per = |o: &Paced| {
            format!(
                "{:6.2} ns  full/item {:5.3} empty/item {:5.3}",
                o.ns,
                o.full as f64 / items as f64,
                o.empty as f64 / items as f64
            )
        };
        println!(
            "r{r:02} dist {d:6.1} | hotq {} | rtrb {} | ringbuf {} | h/t {:.2}",
            per(&h),
            per(&t),
            per(&b),
            t.ns / h.ns
        );
    }
}
