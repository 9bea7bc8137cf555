//! The uncontended hot path of one queue, for counting instructions: fill
//! a queue of [`CAPACITY`] to the brim with single sends, drain it with
//! single receives, `rounds` times, on one thread. Deterministic, so
//! `valgrind --tool=callgrind` gives the same count on a busy machine;
//! the count of `rounds = 0` (setup only) subtracted, it is the cost of a
//! send+receive pair times `rounds × CAPACITY`. The report counts it
//! (`instructions`); the probe `hot_path` runs it by hand.

use std::hint::black_box;

use crate::channel::{Channel, Shared};
use crate::contenders::{self, ChannelVisitor, SharedVisitor};

/// The queue's capacity, and the items of one round.
pub const CAPACITY: usize = 1024;

struct Run<'a> {
    name: &'a str,
    rounds: u64,
    batch: bool,
    found: bool,
}

impl SharedVisitor for Run<'_> {
    fn visit<C: Shared>(&mut self) {
        ChannelVisitor::visit::<C>(self);
    }
}

impl ChannelVisitor for Run<'_> {
    fn visit<C: Channel>(&mut self) {
        if C::NAME != self.name || self.found {
            return;
        }
        self.found = true;
        one::<C>(self.rounds, self.batch);
    }
}

/// The hot path of contender `C`: `rounds` fills and drains of a queue of
/// [`CAPACITY`], with single calls, or with slices of 256 when `batch`.
/// A contender's own binary runs it for a `hot_path` request (with the
/// code of `C` alone beside it: the count the report shows), and
/// [`run`] in the binary that links them all.
pub fn one<C: Channel>(rounds: u64, batch: bool) {
    let (mut tx, mut rx) = C::with_capacity(CAPACITY);
    let mut sum = 0u64;
    if batch {
        assert!(C::SLICES, "{} has no slice operations", C::NAME);
        let items: Vec<u64> = (0..256).collect();
        let mut out = vec![0u64; 256];
        for _ in 0..rounds {
            for _ in 0..CAPACITY / 256 {
                assert_eq!(C::send_slice(&mut tx, black_box(&items)), 256);
            }
            for _ in 0..CAPACITY / 256 {
                assert_eq!(C::recv_slice(&mut rx, black_box(&mut out)), 256);
                sum = sum.wrapping_add(out[255]);
            }
        }
    } else {
        for r in 0..rounds {
            for i in 0..CAPACITY as u64 {
                C::send(&mut tx, black_box(r + i));
            }
            for _ in 0..CAPACITY {
                sum = sum.wrapping_add(C::recv(&mut rx));
            }
        }
    }
    black_box(sum);
}

/// Runs the hot path of the queue called `name` (any contender of the
/// SPSC, MPMC or channel suites, `hotq-mpmc-channel-try` or
/// `hotq-spsc-fenced`); `false` when there is none of that name. With
/// `batch`, the same items move as slices of 256.
pub fn run(name: &str, rounds: u64, batch: bool) -> bool {
    let mut run = Run {
        name,
        rounds,
        batch,
        found: false,
    };
    contenders::each_channel(&mut run);
    contenders::each_waiting_channel(&mut run);
    ChannelVisitor::visit::<contenders::HotqMpmcChannelTry>(&mut run);
    // The alternative to hotq-spsc's asymmetric barrier (issue #13).
    ChannelVisitor::visit::<contenders::HotqSpscFenced>(&mut run);
    run.found
}
