//! The one time budget every workload of a run shares, and the shortest
//! and longest a run may be planned.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Runs of one contender's calibration, counted in runs of the workload's
/// length (it ramps up from 1,000 items, then runs once or twice at the
/// fitted size; see `calibrate`).
pub const CALIBRATION_RUNS: u64 = 2;

/// No run is planned shorter than this (a few scheduler ticks; shorter
/// runs measure the timer and the thread start).
pub const MIN_RUN: Duration = Duration::from_millis(10);

/// Nor longer than this.
pub const MAX_RUN: Duration = Duration::from_secs(1);

/// One time budget that every workload of a run shares: [`run`](super::run()) counts
/// the run first (every workload's contenders × (rounds + calibration),
/// its *slots*), then each workload, when it is calibrated, gets the time
/// still left divided by the slots still to run, per run. A workload whose
/// calibration overran (an oversubscribed shape that the scheduler slowed
/// down) shortens the runs of those calibrated after it, so the whole run
/// stays near the budget however many suites it has.
#[derive(Debug)]
pub struct Schedule {
    total: Duration,
    state: Mutex<ScheduleState>,
}

#[derive(Debug, Default)]
struct ScheduleState {
    slots: u64,
    done: u64,
    start: Option<Instant>,
}

impl Schedule {
    /// A budget of `total` for the whole run.
    pub fn new(total: Duration) -> Arc<Schedule> {
        Arc::new(Schedule {
            total,
            state: Mutex::new(ScheduleState::default()),
        })
    }

    /// The whole run's budget.
    pub fn total(&self) -> Duration {
        self.total
    }

    /// Starts the clock on a run of `slots` slots.
    pub(super) fn start(&self, slots: u64) {
        let mut s = self.state();
        s.slots = slots;
        s.done = 0;
        s.start = Some(Instant::now());
    }

    /// The run's slots (zero before [`run`](super::run()) starts it).
    pub fn slots(&self) -> u64 {
        self.state().slots
    }

    fn state(&self) -> std::sync::MutexGuard<'_, ScheduleState> {
        self.state
            .lock()
            .expect("the schedule is only used by the main thread")
    }

    /// The time per run of a workload of `slots` slots starting now.
    pub(super) fn per_run(&self, slots: u64) -> Duration {
        let s = self.state();
        let elapsed = s.start.map_or(Duration::ZERO, |t| t.elapsed());
        let left = s.slots.saturating_sub(s.done).max(slots).max(1);
        let remaining = self.total.saturating_sub(elapsed);
        (remaining / left as u32).clamp(MIN_RUN, MAX_RUN)
    }

    pub(super) fn finished(&self, slots: u64) {
        self.state().done += slots;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_workload_gets_the_time_left_over_the_runs_left() {
        let s = Schedule::new(Duration::from_secs(10));
        {
            let mut st = s.state();
            st.slots = 100;
            st.start = Some(Instant::now());
        }
        let first = s.per_run(10);
        assert!(first <= Duration::from_millis(100) && first > Duration::from_millis(90));
        // Half the slots done in no time: the rest get twice as long.
        s.finished(50);
        let later = s.per_run(10);
        assert!(later > Duration::from_millis(180) && later <= Duration::from_millis(200));
        // Too many runs for the budget: no run is planned shorter than
        // MIN_RUN (the run then overruns, and says so in its time).
        s.state().slots = 10_000_000;
        assert_eq!(s.per_run(10), MIN_RUN);
        s.state().slots = 51;
        assert_eq!(s.per_run(1), MAX_RUN);
    }
}
