//! Pacing: a consumer that keeps up with a fast stream pauses between its
//! short batches, so that the next batch is long.
//!
//! Why: a consumer that handles events faster than the producer publishes
//! them catches up after every few events and looks at the cursor again.
//! Each look takes the cursor's cache line (and the line of the slot being
//! written) from the producer's core, and the producer's next stores wait
//! for them. On the 2-core VM such a pair moved 10–40 events per look, at
//! 64–160 M events/s, where a consumer that fell behind read batches of
//! thousands at 600–1,000 M events/s (`benches/probes/disruptor_regimes.rs`,
//! a handler of 0–2 steps): a slower handler made the pair *faster*.
//!
//! What: a batch of a stream (at least [`STREAM_MIN`] events already
//! waiting at the consumer's first look) whose events came at
//! [`MIN_RATE_PER_US`] or more, and that is shorter than the target, is
//! followed by a pause; the pause doubles from [`FIRST_PAUSE`] up to
//! [`MAX_PAUSE`] while the batches stay short, halves when they are long,
//! and ends with the stream. It reads no shared memory, so the producer
//! runs unhindered meanwhile, and the consumer's sequence is stored before
//! it, so the producer never waits for room on it.
//!
//! What it costs: nothing to an event that finds the consumer idle, or to a
//! stream slower than [`MIN_RATE_PER_US`] (those are never paused for);
//! an event of a faster stream may wait up to [`MAX_PAUSE`] more, behind a
//! batch it would have queued behind anyway (`disruptor_latency`: the
//! median publish-to-handler time with and without pacing alike, 170–600
//! ns, from one event per 10 µs to one per 50 ns and bursts of 64).

use std::time::{Duration, Instant};

use crate::sync::spin_until;

/// The first pause of a stream.
const FIRST_PAUSE: Duration = Duration::from_nanos(100);
/// The longest pause: the most an event of a stream waits for it.
const MAX_PAUSE: Duration = Duration::from_micros(1);
/// Batches this long need no pause (less on a small ring: a quarter of it).
const TARGET_BATCH: usize = 1024;
/// Fewer events than this waiting at the first look is no stream.
const STREAM_MIN: usize = 8;
/// Events per µs below which a stream is not paced: slower than the
/// keep-pace mode carries (some 130 per µs on the 2-core VM), so its looks
/// slow nobody and a pause would only delay its events.
const MIN_RATE_PER_US: u128 = 100;

/// One consumer's pacing state.
///
/// Invariants: `pause` is zero or within `FIRST_PAUSE / 2^k ..=
/// MAX_PAUSE`; `last` is `Some` only while every batch since it was a
/// stream's (waiting at the first look, at least `stream_min` long).
pub(crate) struct Pacing {
    pause: Duration,
    /// When the last batch of the current stream ended.
    last: Option<Instant>,
    /// A batch at least this long is long enough: `1..=TARGET_BATCH`.
    target: usize,
    /// The shortest batch that counts as a stream's: `1..=STREAM_MIN`.
    stream_min: usize,
}

impl Pacing {
    pub(crate) fn new(ring_size: usize) -> Self {
        let target = (ring_size / 4).clamp(1, TARGET_BATCH);
        Pacing {
            pause: Duration::ZERO,
            last: None,
            target,
            stream_min: STREAM_MIN.min(target),
        }
    }

    /// After a batch of `len` events, which were already waiting at the
    /// consumer's first look (`found_waiting`) or had to be waited for:
    /// pauses (busy, reading nothing shared) while a fast stream's batches
    /// are short.
    #[inline]
    pub(crate) fn after_batch(&mut self, len: usize, found_waiting: bool) {
        if !found_waiting || len < self.stream_min {
            // Idle, or a trickle: the next event is seen at once.
            self.pause = Duration::ZERO;
            self.last = None;
            return;
        }
        let now = Instant::now();
        let pause = self.next_pause(len, now);
        if !pause.is_zero() {
            spin_until(now + pause);
        }
    }

    /// The pause after a stream's batch of `len` events that ended at
    /// `now`. The stream's rate is this batch over the time since the last
    /// one ended (it arrived during the last batch's handling and pause).
    fn next_pause(&mut self, len: usize, now: Instant) -> Duration {
        let fast = self.last.is_some_and(|last| {
            len as u128 * 1_000 >= MIN_RATE_PER_US * now.duration_since(last).as_nanos()
        });
        self.last = Some(now);
        self.pause = if !fast {
            Duration::ZERO
        } else if len >= self.target {
            self.pause / 2
        } else {
            (self.pause * 2).clamp(FIRST_PAUSE, MAX_PAUSE)
        };
        self.pause
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `p` batches of `len` events, `gap` apart on the clock `t`
    /// (a test's own, never read from the system: miri's runs slow); returns
    /// the pauses.
    fn feed(
        p: &mut Pacing,
        t: &mut Instant,
        batches: usize,
        len: usize,
        gap: Duration,
    ) -> Vec<u128> {
        (0..batches)
            .map(|_| {
                *t += gap;
                p.next_pause(len, *t).as_nanos()
            })
            .collect()
    }

    #[test]
    fn a_fast_streams_short_batches_double_the_pause_up_to_the_cap() {
        let (mut p, mut t) = (Pacing::new(65_536), Instant::now());
        // 100 events per 200 ns: 500 per µs. The first batch only sets
        // the clock.
        let pauses = feed(&mut p, &mut t, 7, 100, Duration::from_nanos(200));
        assert_eq!(pauses, [0, 100, 200, 400, 800, 1000, 1000]);
    }

    #[test]
    fn a_stream_slower_than_the_threshold_is_never_paused() {
        let (mut p, mut t) = (Pacing::new(65_536), Instant::now());
        // 10 events per 200 ns: 50 per µs.
        let pauses = feed(&mut p, &mut t, 50, 10, Duration::from_nanos(200));
        assert!(pauses.iter().all(|&n| n == 0), "{pauses:?}");
    }

    #[test]
    fn long_batches_halve_the_pause_down_to_none() {
        let (mut p, mut t) = (Pacing::new(65_536), Instant::now());
        feed(&mut p, &mut t, 5, 100, Duration::from_nanos(200));
        assert_eq!(p.pause, Duration::from_nanos(800));
        let pauses = feed(&mut p, &mut t, 12, TARGET_BATCH, Duration::from_micros(1));
        assert_eq!(pauses, [400, 200, 100, 50, 25, 12, 6, 3, 1, 0, 0, 0]);
    }

    #[test]
    fn a_batch_that_was_waited_for_or_short_resets_the_pacing() {
        for (len, found_waiting) in [(100, false), (STREAM_MIN - 1, true)] {
            let (mut p, mut t) = (Pacing::new(65_536), Instant::now());
            feed(&mut p, &mut t, 3, 100, Duration::from_nanos(200));
            assert!(!p.pause.is_zero());
            p.after_batch(len, found_waiting);
            assert_eq!((p.pause, p.last), (Duration::ZERO, None));
        }
    }

    #[test]
    fn a_small_ring_targets_a_quarter_of_it_and_a_tiny_one_never_pauses() {
        let (mut p, mut t) = (Pacing::new(64), Instant::now());
        assert_eq!((p.target, p.stream_min), (16, 8));
        assert_eq!(
            feed(&mut p, &mut t, 3, 8, Duration::from_nanos(20)),
            [0, 100, 200]
        );
        let mut p = Pacing::new(8);
        assert_eq!((p.target, p.stream_min), (2, 2));
        assert!(
            feed(&mut p, &mut t, 10, 2, Duration::from_nanos(1))
                .iter()
                .all(|&n| n == 0)
        );
    }
}
