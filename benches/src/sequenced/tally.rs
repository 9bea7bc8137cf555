//! What each handler of the disruptor suite checks: every producer's
//! events arrive once each, in order. It never panics inside the handler
//! (the `disruptor` crate's producers spin forever when a handler thread
//! dies); the verdict is read after the run.

use std::sync::{Arc, Mutex};

use super::switches::Switches;

/// What a handler saw, reported when its thread drops it.
#[derive(Debug, Clone, Default)]
struct Seen {
    /// Per producer, how many events arrived.
    counts: Vec<u64>,
    /// The first broken expectation, if any.
    error: Option<String>,
    /// The handler thread's context switches when it dropped the handler
    /// (its whole life: the thread is the topology's), if counted.
    switches: Option<Switches>,
}

/// One handler's record, shared between the handler and the harness.
pub struct Tally {
    seen: Arc<Mutex<Option<Seen>>>,
    producers: usize,
    shift: u32,
    count_switches: bool,
}

impl Tally {
    /// A tally for a topology with `producers` producers whose values carry
    /// the producer's id above bit `shift`.
    pub fn new(producers: usize, shift: u32) -> Tally {
        Tally {
            seen: Arc::new(Mutex::new(None)),
            producers,
            shift,
            count_switches: false,
        }
    }

    /// The same, and its handler reads its thread's context switches when
    /// dropped ([`switches`](Self::switches)); off in the report's runs.
    pub fn counting_switches(producers: usize, shift: u32) -> Tally {
        Tally {
            count_switches: true,
            ..Tally::new(producers, shift)
        }
    }

    /// The handler thread's context switches over its life, once it
    /// dropped the handler (`None` if not counted or not readable).
    pub fn switches(&self) -> Option<Switches> {
        self.seen.lock().ok()?.as_ref()?.switches
    }

    /// The handler: counts in its own state, hands the result over when it
    /// is dropped (its thread ends, after the last event).
    pub fn handler(&self) -> Handler {
        Handler {
            seen: Seen {
                counts: vec![0; self.producers],
                error: None,
                switches: None,
            },
            out: self.seen.clone(),
            shift: self.shift,
            count_switches: self.count_switches,
        }
    }

    /// Whether the handler saw `per_producer` events of every producer, in
    /// order.
    pub fn verdict(&self, per_producer: u64) -> Result<(), String> {
        let seen = self.seen.lock().map_err(|_| "poisoned".to_string())?;
        let seen = seen
            .as_ref()
            .ok_or("the handler was never dropped: its thread did not finish")?;
        if let Some(e) = &seen.error {
            return Err(e.clone());
        }
        match seen.counts.iter().position(|&n| n != per_producer) {
            Some(p) => Err(format!(
                "producer {p}: {} events arrived, {per_producer} were published",
                seen.counts[p]
            )),
            None => Ok(()),
        }
    }
}

/// A consumer of the topology: [`on`](Self::on) is called with every
/// event's value, in order. A concrete type, not a `dyn FnMut`, so that a
/// contender's consumer loop calls it directly (an indirect call per event
/// on both sides would dilute the ratios the suite reports).
pub struct Handler {
    seen: Seen,
    out: Arc<Mutex<Option<Seen>>>,
    shift: u32,
    count_switches: bool,
}

impl Handler {
    /// Counts the event `v`: its producer's next, or the first error.
    #[inline]
    pub fn on(&mut self, v: u64) {
        let shift = self.shift;
        let (p, seq) = ((v >> shift) as usize, v & ((1 << shift) - 1));
        let seen = &mut self.seen;
        match seen.counts.get_mut(p) {
            Some(n) if *n == seq => *n += 1,
            _ if seen.error.is_some() => {}
            Some(n) => seen.error = Some(format!("producer {p}: expected event {n}, got {seq}")),
            None => seen.error = Some(format!("an event from no producer: {v:#x}")),
        }
    }
}

impl Drop for Handler {
    fn drop(&mut self) {
        // Every contender drops its handlers on their own threads, as the
        // threads end.
        if self.count_switches {
            self.seen.switches = Switches::of_this_thread();
        }
        if let Ok(mut out) = self.out.lock() {
            *out = Some(std::mem::take(&mut self.seen));
        }
    }
}
