//! Sequences: the position of an event in the stream of everything ever
//! published, and the shared counters that say how far a producer or a
//! consumer has got.

use crossbeam_utils::CachePadded;

use crate::sync::{AtomicI64, Ordering};

/// The position of an event in the stream: the first event published is
/// sequence 0, the next 1, and so on. Event `s` lives in slot `s & (size - 1)`.
///
/// Sequences are `i64` as in LMAX, starting at `-1` ("nothing yet"). They
/// never wrap in practice: at a billion events per second, 2^63 sequences
/// last 292 years. Past `i64::MAX` events the arithmetic would overflow
/// (a panic in debug builds); the disruptor does not guard against it.
pub type Sequence = i64;

/// The value of every counter before the first event: "nothing published,
/// nothing processed".
pub(crate) const INITIAL: Sequence = -1;

/// A sequence shared between threads, alone on its cache line so that the
/// producer's cursor and each consumer's progress never false-share.
///
/// Invariant: it only grows (a consumer's sequence may jump to
/// [`Sequence::MAX`] when the consumer is dropped and stops gating anyone).
/// A `set` is a `Release` store that publishes everything its owner did up
/// to that sequence (events written, events read); every `get` that decides
/// to touch an event is an `Acquire` load pairing with it.
#[derive(Debug)]
pub(crate) struct AtomicSequence(CachePadded<AtomicI64>);

impl AtomicSequence {
    pub(crate) fn new(value: Sequence) -> Self {
        AtomicSequence(CachePadded::new(AtomicI64::new(value)))
    }

    /// Acquire: pairs with the `Release` in [`set`](Self::set), so what the
    /// owner did before reaching the value happens before what the caller
    /// does after reading it.
    #[inline]
    pub(crate) fn get(&self) -> Sequence {
        self.0.load(Ordering::Acquire)
    }

    /// Release: pairs with the `Acquire` in [`get`](Self::get).
    #[inline]
    pub(crate) fn set(&self, value: Sequence) {
        self.0.store(value, Ordering::Release);
    }

    /// The raw atomic, for the multi-producer claim (a CAS).
    #[inline]
    pub(crate) fn atomic(&self) -> &AtomicI64 {
        &self.0
    }
}

/// The smallest of `sequences`, or `default` when there are none (or all are
/// larger). Each read is an `Acquire` ([`AtomicSequence::get`]).
#[inline]
pub(crate) fn minimum(
    sequences: &[crate::sync::Arc<AtomicSequence>],
    default: Sequence,
) -> Sequence {
    sequences.iter().fold(default, |min, s| min.min(s.get()))
}
