//! Claiming slots for the producers: a plain cursor for one producer, a CAS
//! on the cursor and per-slot availability flags for several.

mod multi;
mod single;

pub(crate) use multi::{AvailabilityFlags, MultiProducerSequencer};
pub(crate) use single::SingleProducerSequencer;

use std::time::Duration;

use crate::sync::Backoff;

/// Waits while a producer has no room: spin, then yield (a preempted
/// consumer gets the core), then nap. The caller checks the halt flag
/// between steps, so a halt wakes a blocked producer within one nap.
pub(crate) struct RoomWait {
    backoff: Backoff,
    yields: u32,
}

/// Yields after the backoff is exhausted, before the producer naps.
const ROOM_YIELDS: u32 = 1_000;
/// A nap of a producer on a ring that stays full.
const ROOM_NAP: Duration = Duration::from_micros(50);

impl RoomWait {
    pub(crate) fn new() -> Self {
        RoomWait {
            backoff: Backoff::new(),
            yields: 0,
        }
    }

    pub(crate) fn step(&mut self) {
        if !self.backoff.is_completed() {
            self.backoff.snooze();
        } else if self.yields < ROOM_YIELDS {
            self.yields += 1;
            self.backoff.yield_now();
        } else {
            self.backoff.sleep(ROOM_NAP);
        }
    }
}
