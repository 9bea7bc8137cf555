//! The two threads of every two-party workload: a measured one and one
//! beside it, each pinned to a core of its own where there are two, and
//! released together by a barrier, so that the measured thread's clock
//! does not start before its peer exists.

use std::sync::Barrier;
use std::thread;

use crate::pin;

/// Runs `beside` and `measured` on two threads pinned to cores
/// `1 - measured_core` and `measured_core` (where there are two; see
/// [`pin::thread`]), both starting at one barrier; returns what `measured`
/// returns (it takes its own time). A panic of either thread, such as a
/// contender's lost item, panics the caller.
pub fn pair<R: Send>(
    measured_core: usize,
    beside: impl FnOnce() + Send,
    measured: impl FnOnce() -> R + Send,
) -> R {
    debug_assert!(measured_core < 2, "two threads, cores 0 and 1");
    let start = Barrier::new(2);
    thread::scope(|s| {
        let start = &start;
        s.spawn(move || {
            pin::thread(1 - measured_core, 2);
            start.wait();
            beside();
        });
        s.spawn(move || {
            pin::thread(measured_core, 2);
            start.wait();
            measured()
        })
        .join()
        .expect("the measured thread panicked")
    })
}
