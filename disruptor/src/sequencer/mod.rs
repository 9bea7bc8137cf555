//! Claiming slots for the producers: a plain cursor for one producer, a CAS
//! on the cursor and per-slot availability flags for several.

mod multi;
mod single;

pub(crate) use multi::{AvailabilityFlags, MultiProducerSequencer};
pub(crate) use single::SingleProducerSequencer;

use std::time::{Duration, Instant};

use crate::error::PublishError;
use crate::sync::Backoff;

/// What a claim does while the ring is full.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Wait {
    /// Fail with `Full` (`try_publish`).
    No,
    /// Wait until there is room or the disruptor halts (`publish`).
    Forever,
    /// Wait at most this long, then fail with `Timeout` (`publish_timeout`).
    /// The clock is read only once the ring is found full.
    Within(Duration),
}

impl Wait {
    /// When a wait that starts now must give up (`None`: never).
    pub(crate) fn deadline(self) -> Option<Instant> {
        match self {
            Wait::Within(d) => Some(Instant::now().checked_add(d).unwrap_or_else(far_future)),
            Wait::No | Wait::Forever => None,
        }
    }
}

/// A deadline nobody reaches (for a timeout too large to add to now).
fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(60 * 60 * 24 * 365 * 30)
}

/// After a step of waiting for room: the error that ends the wait, if any.
#[inline]
pub(crate) fn give_up(wait: Wait, deadline: Option<Instant>) -> Option<PublishError> {
    match (wait, deadline) {
        (Wait::No, _) => Some(PublishError::Full),
        (_, Some(deadline)) if Instant::now() >= deadline => Some(PublishError::Timeout),
        _ => None,
    }
}

/// Waits while a producer has no room: spin, then yield (a preempted
/// consumer gets the core), and only once the wait has lasted
/// [`YIELD_FOR`] nap between checks. The caller checks the halt flag
/// between steps, so a halt wakes a blocked producer within one nap.
///
/// Napping early was measured to cost: with a ring of 8 and four producers
/// on a loaded 2-core machine, producers that napped after a thousand
/// yields published about 8 events per nap (85 s for 4 million events,
/// against 0.2 s with a ring of 1024). A consumer that frees slots within
/// milliseconds now finds the producers awake; a consumer that stays slow
/// costs the producers little CPU.
pub(crate) struct RoomWait {
    backoff: Backoff,
    /// When the yielding phase started (set at its first step).
    yielding_since: Option<Instant>,
    /// Steps of the yielding phase so far.
    steps: u32,
    napping: bool,
}

/// How long a producer yields before it naps.
const YIELD_FOR: Duration = Duration::from_millis(10);
/// The clock is read once per this many yields.
const CLOCK_EVERY: u32 = 64;
/// A nap of a producer on a ring that stays full.
const ROOM_NAP: Duration = Duration::from_micros(50);

impl RoomWait {
    pub(crate) fn new() -> Self {
        RoomWait {
            backoff: Backoff::new(),
            yielding_since: None,
            steps: 0,
            napping: false,
        }
    }

    pub(crate) fn step(&mut self) {
        if !self.backoff.is_completed() {
            self.backoff.snooze();
        } else if self.napping {
            self.backoff.sleep(ROOM_NAP);
        } else {
            let since = *self.yielding_since.get_or_insert_with(Instant::now);
            self.steps = self.steps.wrapping_add(1);
            if self.steps % CLOCK_EVERY == 0 && since.elapsed() >= YIELD_FOR {
                self.napping = true;
            }
            self.backoff.yield_now();
        }
    }
}
