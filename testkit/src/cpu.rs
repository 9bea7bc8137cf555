//! A thread's own CPU clock: how much CPU a blocked thread used, whatever
//! else the machine runs (wall time would count the others' load).

use std::time::Duration;

/// The CPU time (user + system) the calling thread has used so far, from
/// its own clock (`CLOCK_THREAD_CPUTIME_ID`, nanoseconds); `None` where
/// there is no such clock here.
///
/// ```
/// let before = hotq_testkit::thread_cpu_time();
/// std::thread::sleep(std::time::Duration::from_millis(10)); // asleep: no CPU
/// if let (Some(before), Some(after)) = (before, hotq_testkit::thread_cpu_time()) {
///     assert!(after >= before);
/// }
/// ```
#[cfg(all(target_os = "linux", not(miri)))]
pub fn thread_cpu_time() -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec, and the clock id is a
    // constant the kernel knows.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    Some(Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

/// No thread CPU clock here (not Linux, or under miri).
#[cfg(not(all(target_os = "linux", not(miri))))]
pub fn thread_cpu_time() -> Option<Duration> {
    None
}
