//! Pinning a processor's thread to a core (feature `core-affinity`).

/// Pins the calling thread to core `core`, if one was asked for. A core
/// that does not exist (or an OS that refuses) is reported on stderr and
/// the thread runs unpinned: pinning is a performance hint, not a reason to
/// lose events.
#[cfg(feature = "core-affinity")]
pub(crate) fn pin_current_thread(core: Option<usize>, handler: &str) {
    if let Some(id) = core {
        if !core_affinity::set_for_current(core_affinity::CoreId { id }) {
            eprintln!("hotq-disruptor: could not pin {handler} to core {id}; it runs unpinned");
        }
    }
}

/// Without the feature no core can be asked for.
#[cfg(not(feature = "core-affinity"))]
#[inline(always)]
pub(crate) fn pin_current_thread(_core: Option<usize>, _handler: &str) {}

#[cfg(all(test, feature = "core-affinity", target_os = "linux"))]
mod tests {
    use crate::Disruptor;
    use std::sync::mpsc;

    /// The cores the calling thread may run on, as Linux lists them.
    fn allowed_cores() -> String {
        let status = std::fs::read_to_string("/proc/thread-self/status").unwrap();
        let line = status
            .lines()
            .find(|l| l.starts_with("Cpus_allowed_list:"))
            .unwrap();
        line.split_whitespace().nth(1).unwrap().to_owned()
    }

    #[test]
    fn a_pinned_handler_runs_on_its_core_only() {
        let (tx, rx) = mpsc::channel();
        let tx2 = tx.clone();
        let mut producer = Disruptor::builder(4, || 0u64)
            .pin_to_core(0)
            .handle_events_with(move |_e: &u64, _seq, _eob| {
                tx.send(("pinned", allowed_cores())).unwrap()
            })
            .handle_events_with(move |_e: &u64, _seq, _eob| {
                tx2.send(("free", allowed_cores())).unwrap()
            })
            .build_single_producer()
            .unwrap();
        producer.publish(|e| *e = 1).unwrap();
        producer.shutdown().unwrap();
        let mut seen: Vec<_> = rx.try_iter().collect();
        seen.sort();
        assert_eq!(seen[1], ("pinned", "0".to_owned()));
        // The other handler was not pinned (unless the machine has one core).
        if std::thread::available_parallelism().unwrap().get() > 1 {
            assert_ne!(seen[0].1, "0");
        }
    }
}
