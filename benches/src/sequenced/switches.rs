//! Context switches of one thread, read from Linux's
//! `/proc/thread-self/status`: how often it gave its core away (voluntary:
//! it parked, slept or yielded into a wait) and how often the scheduler
//! took it (involuntary: a time slice ran out, or a woken thread
//! preempted it). The disruptor suite's `topology_switches` example reads
//! them per handler thread, to tell spinning from parking.

/// A thread's context switches so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Switches {
    /// Switches the thread asked for (it blocked, slept or yielded).
    pub voluntary: u64,
    /// Switches the scheduler made (preemption).
    pub involuntary: u64,
}

impl Switches {
    /// The calling thread's counts; `None` where `/proc` cannot say (not
    /// Linux, or no `/proc`).
    pub fn of_this_thread() -> Option<Switches> {
        let status = std::fs::read_to_string("/proc/thread-self/status").ok()?;
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.trim().parse().ok())
        };
        Some(Switches {
            voluntary: field("voluntary_ctxt_switches:")?,
            involuntary: field("nonvoluntary_ctxt_switches:")?,
        })
    }

    /// The switches from `earlier` to `self`.
    pub fn since(self, earlier: Switches) -> Switches {
        Switches {
            voluntary: self.voluntary.saturating_sub(earlier.voluntary),
            involuntary: self.involuntary.saturating_sub(earlier.involuntary),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_that_sleeps_switches_voluntarily() {
        let Some(before) = Switches::of_this_thread() else {
            return; // no /proc here: nothing to check
        };
        for _ in 0..3 {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        let d = Switches::of_this_thread().expect("read once").since(before);
        assert!(d.voluntary >= 3, "{d:?}");
    }
}
