//! SPSC throughput: one producer sends `0..items` (u64), one consumer
//! receives them and checks each is the next one expected and that the sum
//! is right. A contender that loses, duplicates or reorders an item panics
//! the run: it never gets a number.

use std::time::Instant;

use crate::channel::Channel;
use crate::wait::Backoff;
use crate::workloads::pair::pair;
use crate::workloads::placement;

/// Single items, or batches of this many items through the contender's
/// slice operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ops {
    /// `send`/`recv` one item at a time.
    Single,
    /// `send_slice`/`recv_slice` of up to this many items.
    Batch(usize),
}

/// One round; returns M items/s from the start signal to the last receive.
/// Its loops start at the next of the [`placement`] offsets.
pub fn throughput<C: Channel>(items: u64, capacity: usize, ops: Ops) -> f64 {
    placement::at_drawn_offset!(placed::<C>(items, capacity, ops))
}

/// [`throughput`] with both loops at `OFFSET` past a 64-byte boundary.
fn placed<C: Channel, const OFFSET: usize>(items: u64, capacity: usize, ops: Ops) -> f64 {
    let (tx, rx) = C::with_capacity(capacity);
    let elapsed = pair(
        1,
        move || produce::<C, OFFSET>(tx, items, ops),
        move || {
            let t0 = Instant::now();
            let sum = consume::<C, OFFSET>(rx, items, ops);
            let elapsed = t0.elapsed();
            let want = items.wrapping_mul(items.wrapping_sub(1)) / 2;
            assert_eq!(sum, want, "{}: the sum of what arrived is wrong", C::NAME);
            elapsed
        },
    );
    items as f64 / elapsed.as_secs_f64() / 1e6
}

#[inline(never)]
fn produce<C: Channel, const OFFSET: usize>(mut tx: C::Tx, items: u64, ops: Ops) {
    placement::align::<OFFSET>();
    match ops {
        Ops::Single => {
            (0..items).for_each(|i| C::send(&mut tx, i));
            // A contender that gathers items sends the last of them.
            C::flush(&mut tx);
        }
        Ops::Batch(b) => {
            let mut buf = vec![0u64; b];
            let mut next = 0;
            while next < items {
                let n = (items - next).min(b as u64) as usize;
                buf[..n]
                    .iter_mut()
                    .zip(next..)
                    .for_each(|(slot, v)| *slot = v);
                let mut sent = 0;
                let mut backoff = Backoff::new();
                while sent < n {
                    match C::send_slice(&mut tx, &buf[sent..n]) {
                        0 => backoff.snooze(),
                        k => {
                            sent += k;
                            backoff = Backoff::new();
                        }
                    }
                }
                next += n as u64;
            }
        }
    }
}

/// Receives `items` items, checking the order; returns their sum.
#[inline(never)]
fn consume<C: Channel, const OFFSET: usize>(mut rx: C::Rx, items: u64, ops: Ops) -> u64 {
    placement::align::<OFFSET>();
    let mut sum = 0u64;
    let mut check = |expected: u64, got: u64| {
        if got != expected {
            panic!(
                "{}: lost, duplicated or reordered an item: expected {expected}, got {got}",
                C::NAME
            );
        }
        sum = sum.wrapping_add(got);
    };
    match ops {
        Ops::Single => (0..items).for_each(|i| check(i, C::recv(&mut rx))),
        Ops::Batch(b) => {
            let mut buf = vec![0u64; b];
            let mut next = 0;
            let mut backoff = Backoff::new();
            while next < items {
                let want = (items - next).min(b as u64) as usize;
                match C::recv_slice(&mut rx, &mut buf[..want]) {
                    0 => backoff.snooze(),
                    k => {
                        // This wait is over: the next one spins first again.
                        backoff = Backoff::new();
                        for &v in &buf[..k] {
                            check(next, v);
                            next += 1;
                        }
                    }
                }
            }
        }
    }
    sum
}
