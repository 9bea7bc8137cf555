//! The bare two-thread loop of the SPSC pace examples (`spsc_pace`,
//! `spsc_regimes`): hotq-spsc, rtrb or ringbuf at capacity 1024, u64 items,
//! each side retrying a failed try after one spin hint (no yield: for a
//! quiet machine with two cores), every item checked in order on arrival,
//! and the failed tries on each side counted, so that the examples can
//! tell which side waited.

use std::hint::spin_loop;
use std::time::Instant;

use crate::workloads::pair::pair;

/// Every ring's capacity: the report's.
pub const CAP: usize = 1024;

/// The rings, in the order [`ring`] numbers them.
pub const RINGS: [&str; 3] = ["hotq-spsc", "rtrb", "ringbuf"];

/// One run of one ring.
#[derive(Debug, Clone, Copy)]
pub struct Paced {
    /// ns per item: the consumer's wall time ÷ items.
    pub ns: f64,
    /// Failed pushes.
    pub full: u64,
    /// Failed pops.
    pub empty: u64,
}

/// One run of one ring built as `(tx, rx)`: the producer runs
/// `before_push` and pushes `0..items`, the consumer pops, checks each
/// item and runs `after_pop`. Each side on a core of its own ([`pair`]).
pub fn run<Tx: Send, Rx: Send>(
    items: u64,
    (mut tx, mut rx): (Tx, Rx),
    before_push: impl Fn() + Send,
    after_pop: impl Fn() + Send,
    push: impl Fn(&mut Tx, u64) -> bool + Send,
    pop: impl Fn(&mut Rx) -> Option<u64> + Send,
) -> Paced {
    let mut full = 0u64;
    let full_out = &mut full;
    let (ns, empty) = pair(
        1,
        move || {
            for i in 0..items {
                before_push();
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
                after_pop();
            }
            (t0.elapsed().as_nanos() as f64 / items as f64, empty)
        },
    );
    Paced { ns, full, empty }
}

/// [`run`] of ring `r` of [`RINGS`] (0 hotq-spsc, 1 rtrb, 2 ringbuf).
pub fn ring(
    r: usize,
    items: u64,
    before_push: impl Fn() + Send,
    after_pop: impl Fn() + Send,
) -> Paced {
    match r {
        0 => run(
            items,
            hotq_spsc::RingBuffer::<u64>::new(CAP),
            before_push,
            after_pop,
            |tx: &mut hotq_spsc::Producer<u64>, i| tx.push(i).is_ok(),
            |rx: &mut hotq_spsc::Consumer<u64>| rx.pop().ok(),
        ),
        1 => run(
            items,
            rtrb::RingBuffer::<u64>::new(CAP),
            before_push,
            after_pop,
            |tx: &mut rtrb::Producer<u64>, i| tx.push(i).is_ok(),
            |rx: &mut rtrb::Consumer<u64>| rx.pop().ok(),
        ),
        _ => {
            use ringbuf::traits::{Consumer as _, Producer as _, Split as _};
            run(
                items,
                ringbuf::HeapRb::<u64>::new(CAP).split(),
                before_push,
                after_pop,
                |tx: &mut ringbuf::HeapProd<u64>, i| tx.try_push(i).is_ok(),
                |rx: &mut ringbuf::HeapCons<u64>| rx.try_pop(),
            )
        }
    }
}
