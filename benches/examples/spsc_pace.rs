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

use std::hint::spin_loop;
use std::time::Instant;

use hotq_benches::pin;
use hotq_benches::workloads::floor;
use hotq_benches::workloads::pair::pair;

/// Every ring's capacity: the report's.
const CAP: usize = 1024;

/// One ring's round.
struct Out {
    /// ns per item, the consumer's wall time.
    ns: f64,
    /// Failed pushes.
    full: u64,
    /// Failed pops.
    empty: u64,
}

/// One round of one ring, built as `(tx, rx)`: `push` and `pop` try once
/// (true or `Some` on success); the producer pushes `0..items`, the
/// consumer pops and checks them.
fn run<Tx: Send, Rx: Send>(
    items: u64,
    (mut tx, mut rx): (Tx, Rx),
    push: impl Fn(&mut Tx, u64) -> bool + Send,
    pop: impl Fn(&mut Rx) -> Option<u64> + Send,
) -> Out {
    let mut full = 0u64;
    let full_out = &mut full;
    let (ns, empty) = pair(
        1,
        move || {
            for i in 0..items {
                while !push(&mut tx, i) {
                    *full_out += 1;
                    spin_loop();
                }
            }
        },
        move || {
            let t0 = Instant::now();
            let mut empty = 0u64;
            for i in 0..items {
                loop {
                    if let Some(v) = pop(&mut rx) {
                        assert_eq!(v, i, "lost, duplicated or reordered an item");
                        break;
                    }
                    empty += 1;
                    spin_loop();
                }
            }
            (t0.elapsed().as_nanos() as f64 / items as f64, empty)
        },
    );
    Out { ns, full, empty }
}

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
        let h = run(
            items,
            hotq_spsc::RingBuffer::<u64>::new(CAP),
            |tx: &mut hotq_spsc::Producer<u64>, i| tx.push(i).is_ok(),
            |rx: &mut hotq_spsc::Consumer<u64>| rx.pop().ok(),
        );
        let t = run(
            items,
            rtrb::RingBuffer::<u64>::new(CAP),
            |tx: &mut rtrb::Producer<u64>, i| tx.push(i).is_ok(),
            |rx: &mut rtrb::Consumer<u64>| rx.pop().ok(),
        );
        let b = {
            use ringbuf::traits::{Consumer as _, Producer as _, Split as _};
            run(
                items,
                ringbuf::HeapRb::<u64>::new(CAP).split(),
                |tx: &mut ringbuf::HeapProd<u64>, i| tx.try_push(i).is_ok(),
                |rx: &mut ringbuf::HeapCons<u64>| rx.try_pop(),
            )
        };
        let per = |o: &Out| {
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
