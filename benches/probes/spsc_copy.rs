//! Batch throughput through the report's own SPSC workload
//! (`workloads::spsc::throughput`, u64, `Ops::Batch`), for telling how
//! the producer's copy into the ring moves the figure: hotq-spsc's
//! `push_slice` (two `memcpy`s), the same ring filled an item at a time
//! through `write_chunk_uninit` (a loop the compiler vectorises with
//! 16-byte stores, as rtrb's `fill_from_iter`), rtrb and ringbuf. The
//! consumers all copy out with `memcpy` (`pop_slice`, `copy_from_slice`).
//!
//! ```sh
//! cargo build --release -p hotq-benches --example spsc_copy
//! target/release/examples/spsc_copy [BATCH, default 256] [CAPACITY, default 1024] [ITEMS, default 10000000] [ROUNDS, default 9]
//! ```
//!
//! One line per round (the contenders in an order that rotates each
//! round), M items/s; then each contender's median and the per-round ratio
//! `push_slice ÷ item loop` with its range.

use std::mem::MaybeUninit;

use hotq_benches::channel::{Channel, Kind};
use hotq_benches::contenders::{HotqSpsc, Ringbuf, Rtrb};
use hotq_benches::pin;
use hotq_benches::workloads::spsc::{Ops, throughput};

/// hotq-spsc with its producer copying an item at a time into a write
/// chunk (the consumer as [`HotqSpsc`]: `pop_slice`).
struct HotqItemLoop;

impl Channel for HotqItemLoop {
    const NAME: &'static str = "hotq-spsc item loop";
    const KIND: Kind = Kind::Ours;
    const CRATE: Option<&'static str> = None;
    type Tx = hotq_spsc::Producer<u64>;
    type Rx = hotq_spsc::Consumer<u64>;
    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        hotq_spsc::RingBuffer::new(capacity)
    }
    fn send(tx: &mut Self::Tx, v: u64) {
        HotqSpsc::send(tx, v)
    }
    fn recv(rx: &mut Self::Rx) -> u64 {
        HotqSpsc::recv(rx)
    }
    const SLICES: bool = true;
    #[inline]
    fn send_slice(tx: &mut Self::Tx, items: &[u64]) -> usize {
        let n = tx.slots().min(items.len());
        let Ok(mut chunk) = tx.write_chunk_uninit(n) else {
            return 0;
        };
        let (first, second) = chunk.as_mut_slices();
        let (a, b) = items[..n].split_at(first.len());
        let write = |to: &mut [MaybeUninit<u64>], from: &[u64]| {
            to.iter_mut().zip(from).for_each(|(slot, v)| {
                slot.write(*v);
            })
        };
        write(first, a);
        write(second, b);
        // SAFETY: all `n` slots of the chunk were written just above.
        unsafe { chunk.commit_all() };
        n
    }
    #[inline]
    fn recv_slice(rx: &mut Self::Rx, out: &mut [u64]) -> usize {
        HotqSpsc::recv_slice(rx, out)
    }
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let arg = hotq_benches::cli::positional;
    let (batch, capacity, items, rounds) = (
        arg(1, 256) as usize,
        arg(2, 1024) as usize,
        arg(3, 10_000_000),
        arg(4, 9) as usize,
    );
    pin::configure(true);
    let ops = Ops::Batch(batch);
    let names = ["push_slice", "item loop", "rtrb", "ringbuf"];
    let mut figures: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    for round in 0..rounds {
        for k in 0..names.len() {
            let i = (k + round) % names.len();
            let f = match i {
                0 => throughput::<HotqSpsc>(items, capacity, ops),
                1 => throughput::<HotqItemLoop>(items, capacity, ops),
                2 => throughput::<Rtrb>(items, capacity, ops),
                _ => throughput::<Ringbuf>(items, capacity, ops),
            };
            figures[i].push(f);
        }
        let line: Vec<String> = names
            .iter()
            .zip(&figures)
            .map(|(n, f)| format!("{n} {:7.1}", f[round]))
            .collect();
        println!("r{round:02} {}", line.join(" | "));
    }
    for (n, f) in names.iter().zip(&figures) {
        println!("median {n}: {:.1} M items/s", median(f));
    }
    let ratios: Vec<f64> = figures[0]
        .iter()
        .zip(&figures[1])
        .map(|(a, b)| a / b)
        .collect();
    let (lo, hi) = ratios
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, h), r| (l.min(*r), h.max(*r)));
    println!(
        "push_slice / item loop, per round: median {:.2} (range {lo:.2}-{hi:.2}), batch {batch}, capacity {capacity}",
        median(&ratios)
    );
}
