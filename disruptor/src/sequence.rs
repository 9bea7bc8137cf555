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
///
/// ```
/// use hotq_disruptor::{Disruptor, Sequence};
///
/// let mut producer = Disruptor::builder(4, || 0u64)
///     .handle_events_with(|_e: &u64, seq: Sequence, _eob| assert!(seq >= 0))
///     .build_single_producer()?;
/// let first: Sequence = producer.publish(|e| *e = 10)?;
/// let last: Sequence = producer.batch_publish(3, |_| {})?;
/// assert_eq!((first, last), (0, 3)); // the batch is 1..=3
/// producer.shutdown()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
// 32-bit targets: sequences stay `i64` (an `AtomicI64`, which i686 and
// 32-bit ARM have) whatever the width of `usize`, so the 292 years hold
// there too. Only a slot index is a `usize`: `sequence as usize & mask`
// keeps the low bits of the sequence, and the mask (ring size - 1, a
// `usize`) has no bits above them, so the index is the same as on a 64-bit
// target; laps are computed from whole `i64` sequences (an availability
// flag keeps a lap's low byte, on every target alike).
pub type Sequence = i64;

/// The value of every counter before the first event: "nothing published,
/// nothing processed".
pub(crate) const INITIAL: Sequence = -1;

/// A sequence shared between threads, alone on its cache line so that the
/// producer's cursor and each consumer's progress never false-share.
///
/// Invariant: it only grows (a consumer's sequence may jump to
/// [`Sequence::MAX`] when the consumer is dropped and stops gating anyone).
/// Its owner's `Release` store publishes everything the owner did up to
/// that sequence (events written, events read); a load that decides to
/// touch an event is an `Acquire` pairing with it. Every call site names
/// its own ordering, and says why, so that each one can be weakened alone
/// (the `mutants` tool of `hotq-loom-tests` does).
#[derive(Debug)]
pub(crate) struct AtomicSequence(CachePadded<AtomicI64>);

impl AtomicSequence {
    pub(crate) fn new(value: Sequence) -> Self {
        AtomicSequence(CachePadded::new(AtomicI64::new(value)))
    }

    /// The sequence, loaded with the caller's `order`.
    #[inline]
    pub(crate) fn load(&self, order: Ordering) -> Sequence {
        self.0.load(order)
    }

    /// Moves the sequence to `value`, stored with the caller's `order`.
    #[inline]
    pub(crate) fn store(&self, value: Sequence, order: Ordering) {
        self.0.store(value, order);
    }

    /// The raw atomic, for the multi-producer claim (a CAS).
    #[inline]
    pub(crate) fn atomic(&self) -> &AtomicI64 {
        &self.0
    }
}
