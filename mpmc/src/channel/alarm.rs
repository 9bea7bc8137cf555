//! The alarm that wakes async receives on timer channels ([`after`],
//! [`tick`]): nothing sends on a timer, so nothing else would wake them.
//!
//! One thread for the whole process, started when the first pending
//! receive asks for an alarm and ending when no alarm is left: it keeps
//! the wakers and the `Instant`s they asked for, sleeps until the
//! earliest, wakes every one that is due, and sleeps again. A receive
//! that is polled again while pending asks again for the same firing with
//! the same waker, which the list already holds: repeated polls add
//! nothing. A receive dropped while pending leaves its entry, which is
//! woken (harmlessly) once and removed at its time; so the list holds at
//! most one entry per (waker, firing) pair still to come.
//!
//! The hand-over between a new alarm and the sleeping thread: the caller
//! pushes its entry under the lock and unparks the thread when the entry
//! is earlier than every other; the thread computes its wake-up time under
//! the same lock before it parks. An unpark that comes between the two is
//! kept by the thread's park token (`Thread::unpark` before `park` makes
//! the park return at once), so an earlier alarm is never slept through.
//! Timers read the real clock: the alarm is not for loom models.
//!
//! [`after`]: super::after
//! [`tick`]: super::tick

use alloc::vec::Vec;
use core::task::Waker;
use std::time::Instant;

use crate::sync::blocking::real_time::{Mutex, Thread, park_until, spawn};

/// The alarms still to fire, and the thread that fires them.
struct Alarms {
    due: Vec<(Instant, Waker)>,
    /// The alarm thread while it runs; `None` once it has ended (or before
    /// the first alarm).
    thread: Option<Thread>,
}

static ALARMS: Mutex<Alarms> = Mutex::new(Alarms {
    due: Vec::new(),
    thread: None,
});

/// Wakes `waker` at `at` (or soon after), from the alarm thread. Where no
/// thread can be started, wakes it at once: the receive is then polled
/// again early, never too late.
pub(crate) fn wake_at(at: Instant, waker: &Waker) {
    let mut alarms = ALARMS.lock().unwrap_or_else(|e| e.into_inner());
    if alarms
        .due
        .iter()
        .any(|(when, w)| *when == at && w.will_wake(waker))
    {
        return; // a re-poll of a receive already waiting for this firing
    }
    let earliest = alarms.due.iter().all(|(when, _)| at < *when);
    alarms.due.push((at, waker.clone()));
    match &alarms.thread {
        Some(thread) if earliest => thread.unpark(),
        Some(_) => {}
        None => match spawn(fire_alarms) {
            Ok(thread) => alarms.thread = Some(thread),
            Err(_) => {
                alarms.due.pop();
                drop(alarms);
                waker.wake_by_ref();
            }
        },
    }
}

/// The alarm thread: wakes what is due, sleeps until the next, and ends
/// when nothing is left.
fn fire_alarms() {
    loop {
        let mut alarms = ALARMS.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let (fire, rest): (Vec<_>, Vec<_>) = alarms.due.drain(..).partition(|(at, _)| *at <= now);
        alarms.due = rest;
        let next = alarms.due.iter().map(|(at, _)| *at).min();
        if next.is_none() {
            // Under the lock: a `wake_at` after this starts a new thread.
            alarms.thread = None;
        }
        drop(alarms);
        for (_, waker) in fire {
            waker.wake();
        }
        match next {
            Some(at) => park_until(at),
            None => return,
        }
    }
}
