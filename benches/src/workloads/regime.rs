//! One cell of a regime grid: the throughput of a ring under a given work
//! per item on each side, wait loop and capacity, one item at a time
//! through its own try calls or in batches through its slice calls. The
//! report's SPSC suite measures one regime (no work, spin-then-yield, the
//! same few capacities); a user's program sits somewhere else on the grid,
//! and a ring that leads in one cell can trail in the next (issue 37 §2:
//! hotq-spsc at 0.24–0.55× ringbuf in one harness's cell).

use std::hint::black_box;
use std::time::Instant;

use crate::channel::TryChannel;
use crate::pin;
use crate::wait::SPINS;
use crate::workloads::pair::pair;
use crate::workloads::placement;
use crate::workloads::spsc::Ops;

/// How the caller waits after a failed try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitLoop {
    /// [`SPINS`] spin hints, then a yield on each further try (the
    /// report's own loop, `wait::Backoff`).
    SpinThenYield,
    /// A spin hint on every try: never gives the core away.
    Spin,
    /// A yield on every try.
    Yield,
}

impl WaitLoop {
    /// Every wait loop, in the grid's order.
    pub const ALL: [WaitLoop; 3] = [WaitLoop::SpinThenYield, WaitLoop::Spin, WaitLoop::Yield];

    /// Its name in the workload's name.
    pub fn label(self) -> &'static str {
        match self {
            WaitLoop::SpinThenYield => "spin-then-yield",
            WaitLoop::Spin => "spin",
            WaitLoop::Yield => "yield",
        }
    }

    /// One failed try, the `tries`-th of this wait (from 0).
    #[inline]
    fn wait(self, tries: u32) {
        match self {
            WaitLoop::SpinThenYield if tries < SPINS => std::hint::spin_loop(),
            WaitLoop::Spin => std::hint::spin_loop(),
            _ => std::thread::yield_now(),
        }
    }
}

/// One cell of the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Regime {
    /// Steps of [`work`] the producer does before each send.
    pub producer_work: u32,
    /// Steps of [`work`] the consumer does after each receive.
    pub consumer_work: u32,
    /// How both sides wait.
    pub wait: WaitLoop,
    /// The ring's capacity.
    pub capacity: usize,
    /// One item per try call, or batches of up to this many items through
    /// the ring's slice calls ([`crate::channel::Channel::send_slice`]).
    pub ops: Ops,
}

/// `steps` of a fixed dependent computation (a 64-bit LCG step each, its
/// result through `black_box` so the chain cannot be folded): the work a
/// program does per item, about 2 ns a step here.
#[inline(never)]
pub fn work(mut x: u64, steps: u32) -> u64 {
    for _ in 0..steps {
        x = black_box(
            x.wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407),
        );
    }
    x
}

/// One round of `items` items in regime `r`; M items/s from the start
/// signal to the last receive. Checks that every item arrives once, in
/// order.
///
/// # Panics
///
/// On a batch regime for a contender without slice calls
/// ([`crate::channel::Channel::SLICES`]).
pub fn throughput<C: TryChannel>(items: u64, r: Regime) -> f64 {
    placement::at_drawn_offset!(placed::<C>(items, r))
}

/// [`throughput`] with both sides' loops at `OFFSET` past a 64-byte
/// boundary (see [`placement`]).
fn placed<C: TryChannel, const OFFSET: usize>(items: u64, r: Regime) -> f64 {
    match r.ops {
        Ops::Single => single::<C, OFFSET>(items, r),
        Ops::Batch(b) => {
            assert!(C::SLICES, "{} has no slice calls: no batch regime", C::NAME);
            batches::<C, OFFSET>(items, r, b.max(1))
        }
    }
}

/// The ceiling of cell `r`: one thread, pinned as a pair's measured one,
/// does the busier side's work for `items` items with no queue at all
/// (the producer's loop without its sends: [`work`] on each item's
/// index, `max(producer_work, consumer_work)` steps); M items/s. No pair
/// of threads passing items through any queue can run faster than its
/// slower side, so a queue whose figure is near this one has nothing left
/// to win in that cell, and no queue can lead another there by much.
pub fn alone(items: u64, r: Regime) -> f64 {
    let steps = r.producer_work.max(r.consumer_work);
    // On a thread of its own, as a pair's threads are: pinning the
    // caller's thread (the report's, with `--in-process`) would leave it
    // pinned after the run.
    std::thread::scope(|s| {
        s.spawn(move || {
            pin::thread(1, 2);
            let t0 = Instant::now();
            let mut acc = 0u64;
            for i in 0..items {
                acc = work(acc ^ i, steps);
            }
            black_box(acc);
            items as f64 / t0.elapsed().as_secs_f64() / 1e6
        })
        .join()
        .expect("the ceiling's thread panicked")
    })
}

/// One item at a time, through the ring's own try calls.
fn single<C: TryChannel, const OFFSET: usize>(items: u64, r: Regime) -> f64 {
    let (mut tx, mut rx) = C::with_capacity(r.capacity);
    let elapsed = pair(
        1,
        move || {
            placement::align::<OFFSET>();
            let mut acc = 0u64;
            for i in 0..items {
                if r.producer_work > 0 {
                    acc = work(acc ^ i, r.producer_work);
                }
                let (mut v, mut tries) = (i, 0);
                while let Err(back) = C::try_send(&mut tx, v) {
                    v = back;
                    r.wait.wait(tries);
                    tries = tries.saturating_add(1);
                }
            }
            black_box(acc);
        },
        move || {
            placement::align::<OFFSET>();
            let t0 = Instant::now();
            let mut acc = 0u64;
            for i in 0..items {
                let mut tries = 0;
                let v = loop {
                    match C::try_recv(&mut rx) {
                        Some(v) => break v,
                        None => {
                            r.wait.wait(tries);
                            tries = tries.saturating_add(1);
                        }
                    }
                };
                assert_eq!(v, i, "{}: lost, duplicated or reordered an item", C::NAME);
                if r.consumer_work > 0 {
                    acc = work(acc ^ v, r.consumer_work);
                }
            }
            black_box(acc);
            t0.elapsed()
        },
    );
    items as f64 / elapsed.as_secs_f64() / 1e6
}

/// Batches of up to `b` items: the producer works out `b` items, then
/// sends them through `send_slice` (what it cannot place now it offers
/// again after a wait); the consumer takes up to `b` at a time through
/// `recv_slice`, then works on each. A wait starts only when a call moved
/// nothing.
fn batches<C: TryChannel, const OFFSET: usize>(items: u64, r: Regime, b: usize) -> f64 {
    let (mut tx, mut rx) = C::with_capacity(r.capacity);
    let elapsed = pair(
        1,
        move || {
            placement::align::<OFFSET>();
            let (mut acc, mut buf, mut next) = (0u64, vec![0u64; b], 0u64);
            while next < items {
                let n = (items - next).min(b as u64) as usize;
                for (slot, i) in buf[..n].iter_mut().zip(next..) {
                    if r.producer_work > 0 {
                        acc = work(acc ^ i, r.producer_work);
                    }
                    *slot = i;
                }
                let (mut sent, mut tries) = (0, 0);
                while sent < n {
                    match C::send_slice(&mut tx, &buf[sent..n]) {
                        0 => {
                            r.wait.wait(tries);
                            tries = tries.saturating_add(1);
                        }
                        k => (sent, tries) = (sent + k, 0),
                    }
                }
                next += n as u64;
            }
            black_box(acc);
        },
        move || {
            placement::align::<OFFSET>();
            let t0 = Instant::now();
            let (mut acc, mut buf, mut next, mut tries) = (0u64, vec![0u64; b], 0u64, 0);
            while next < items {
                let want = (items - next).min(b as u64) as usize;
                let k = C::recv_slice(&mut rx, &mut buf[..want]);
                if k == 0 {
                    r.wait.wait(tries);
                    tries = tries.saturating_add(1);
                    continue;
                }
                tries = 0;
                for &v in &buf[..k] {
                    assert_eq!(
                        v,
                        next,
                        "{}: lost, duplicated or reordered an item",
                        C::NAME
                    );
                    next += 1;
                    if r.consumer_work > 0 {
                        acc = work(acc ^ v, r.consumer_work);
                    }
                }
            }
            black_box(acc);
            t0.elapsed()
        },
    );
    items as f64 / elapsed.as_secs_f64() / 1e6
}
