//! The disruptor suite: the five topologies of the LMAX paper, run through
//! any contender that can wire handlers into them ([`Ring`]): ours, the
//! `disruptor` crate, and the same graph built from crossbeam-channel
//! bounded channels, one per arc (the paper's ArrayBlockingQueue baseline).
//! Adding a contender is one file implementing [`Ring`] and one line in
//! [`each_ring`].
//!
//! # Wait strategies, and which rows decide the goals
//!
//! Each disruptor runs twice, and its row name says how its handlers wait:
//!
//! | row | handlers wait by |
//! |---|---|
//! | `hotq-disruptor` | `BusySpinWithoutHint`: spins with no spin-loop hint, as the crate's `BusySpin` |
//! | `hotq-disruptor (sleep 10 µs)` | `Sleeping::new(10 µs).with_tries(0, 0)`: a 10 µs sleep per poll that finds nothing, from the first |
//! | `disruptor` | `BusySpin` (the crate's README benchmark; no spin-loop hint) |
//! | `disruptor (sleep 10 µs)` | `Sleep::new(10 µs)`: 4.4 ships no yielding strategy; `Sleep` is its only one that gives the core away |
//! | `crossbeam-channel arcs` | the channel's own `recv`/`send`: crossbeam's `Backoff::snooze` (spins of 1 to 64 steps, then `yield_now` four times), then parked on a futex |
//!
//! The topologies other than unicast run four threads (one or three
//! producers, three or one consumers). With at least as many cores as
//! threads the busy-spin rows are the LMAX ones, and the goals compare
//! `hotq-disruptor ÷ disruptor`. With fewer cores (the 2-core machine the
//! README is measured on), a busy-spinning handler keeps its core until
//! the scheduler's tick takes it, so those rows measure the scheduler as
//! much as the ring (the arcs' waits yield and park, which is why they
//! beat the busy-spin rows there: `topology_switches` counts it). A user
//! with more threads than cores would pick a strategy that gives the core
//! away, so there the goals compare the two sleeping rows, `hotq-disruptor
//! (sleep 10 µs) ÷ disruptor (sleep 10 µs)` ([`oversubscribed`]): the same
//! nap from the first miss, so they differ by the ring (the crate has no
//! yielding strategy; until 2026-12-03 our side was `Yielding`, which had
//! no peer row, and until 2026-12-04 it spun and yielded before its first
//! nap, which cost the sequencer two thirds of its throughput there).
//! Unicast (two threads) always compares the busy-spin rows. Every row runs
//! on every machine, so the other pair's ratio is in the report's tables
//! either way.

mod crossbeam_arcs;
mod disruptor_crate;
mod hotq_disruptor;
mod ring;
mod switches;
mod tally;
mod throughput;
mod topology;

pub use crossbeam_arcs::CrossbeamArcs;
pub use disruptor_crate::{DisruptorCrate, DisruptorCrateSleep};
pub use hotq_disruptor::{HotqDisruptor, HotqDisruptorSleeping};
pub use ring::{NAP, Publisher, Ring, RingVisitor};
pub use switches::Switches;
pub use tally::Handler;
pub use throughput::{Counted, counted, throughput};
pub use topology::{Topology, cores, oversubscribed};

/// Every contender of the disruptor suite.
pub fn each_ring(v: &mut impl RingVisitor) {
    v.visit::<HotqDisruptor>();
    v.visit::<HotqDisruptorSleeping>();
    v.visit::<DisruptorCrate>();
    v.visit::<DisruptorCrateSleep>();
    v.visit::<CrossbeamArcs>();
}
