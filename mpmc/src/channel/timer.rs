//! Timer channels: [`after`], [`tick`] and [`never`](fn@never), receivers with no
//! sender that a select can wait on beside real channels, as
//! `crossbeam_channel`'s.
//!
//! A timer receiver is an ordinary [`Receiver`] whose channel never holds
//! an item and never disconnects (its sender count starts at 1 with no
//! sender behind it), plus a [`Timer`] in its shared state. A receive
//! pops the empty queue and fails, as on any empty channel, and only
//! then, off the hot path (`Receiver::empty_or_disconnected`), asks the
//! timer: so the queue channels' `try_recv` costs not one instruction
//! more. [`never`](fn@never) is the same channel without a timer.
//!
//! Nothing sends, so nothing notifies: a receive that waits on a timer
//! parks until its next firing (or its own deadline, if sooner) and asks
//! again; a select includes its timers' next firings in its deadline. An
//! async receive asks the process's one alarm thread (`alarm.rs`) to wake
//! the task at the firing time.
//! Timers read the real clock: they are not for loom models.

use core::task::{Context, Poll};
use std::time::{Duration, Instant};

use super::{Receiver, RecvTimeoutError, Shared, alarm};
use crate::Queue;
use crate::sync::blocking::{self, AtomicBool, Mutex, Ordering};

/// What a timer receiver's shared state holds: when its messages come,
/// and how an `Instant` becomes the channel's item type (the identity for
/// the `Receiver<Instant>` that [`after`] and [`tick`] return).
pub(crate) struct Timer<T> {
    kind: Kind,
    make: fn(Instant) -> T,
}

enum Kind {
    /// One message, at `at`; `taken` once a receiver has it.
    At { at: Instant, taken: AtomicBool },
    /// A message every `period`, the next one due at `next`.
    Tick {
        period: Duration,
        next: Mutex<Instant>,
    },
}

impl<T> Timer<T> {
    /// The message if one is due now (the time it was due), and takes it.
    pub(crate) fn try_recv(&self) -> Option<T> {
        let now = Instant::now();
        let due = match &self.kind {
            Kind::At { at, taken } => {
                // Relaxed: the swap only decides which receiver gets the
                // one message (a read-modify-write is atomic whatever its
                // ordering); the message is a copy of `at`, published by
                // the channel's creation.
                (now >= *at && !taken.swap(true, Ordering::Relaxed)).then_some(*at)
            }
            Kind::Tick { period, next } => {
                let mut next = next.lock().unwrap_or_else(|e| e.into_inner());
                (now >= *next).then(|| {
                    let due = *next;
                    // The next one a whole period from now: ticks a slow
                    // receiver missed are dropped, as crossbeam's are.
                    *next = now + *period;
                    due
                })
            }
        };
        due.map(self.make)
    }

    /// When the next message is due; `None` when no more will come.
    pub(crate) fn next_fire(&self) -> Option<Instant> {
        match &self.kind {
            // Relaxed: a hint for how long to park (see `try_recv`).
            Kind::At { at, taken } => (!taken.load(Ordering::Relaxed)).then_some(*at),
            Kind::Tick { next, .. } => Some(*next.lock().unwrap_or_else(|e| e.into_inner())),
        }
    }

    /// Whether a message is due now (without taking it).
    pub(crate) fn is_ready(&self) -> bool {
        self.next_fire().is_some_and(|at| Instant::now() >= at)
    }

    /// One poll of an async receive: the message if due; else the alarm
    /// thread wakes the task when it is due (nothing else would: a timer
    /// has no sender; `alarm.rs`). With no message to come (an [`after`]
    /// already taken), pending for ever, as a blocking `recv` would block
    /// for ever.
    pub(crate) fn poll(&self, cx: &mut Context<'_>) -> Poll<T> {
        if let Some(v) = self.try_recv() {
            return Poll::Ready(v);
        }
        if let Some(at) = self.next_fire() {
            alarm::wake_at(at, cx.waker());
        }
        Poll::Pending
    }

    /// Waits for the next message until `deadline` (`None`: for ever).
    pub(crate) fn recv_until(&self, deadline: Option<Instant>) -> Result<T, RecvTimeoutError> {
        loop {
            if let Some(v) = self.try_recv() {
                return Ok(v);
            }
            let wake = match (self.next_fire(), deadline) {
                (Some(at), Some(d)) => Some(at.min(d)),
                (at, d) => at.or(d),
            };
            // Nobody unparks this thread: it wakes at `wake` (or
            // spuriously) and asks again.
            if !blocking::park(wake) && wake == deadline {
                return self.try_recv().ok_or(RecvTimeoutError::Timeout);
            }
        }
    }
}

/// A timer receiver's shared state: an empty channel that never
/// disconnects, with `timer` in it.
fn timer_channel<T>(timer: Option<Timer<T>>) -> Receiver<T> {
    let shared = Shared::new(Queue::new(1), timer);
    Receiver {
        shared: blocking::Arc::new(shared),
    }
}

/// A receiver that gets one message, the `Instant` it was due, once
/// `duration` has passed; then nothing more (it never disconnects). As a
/// select arm, a timeout for that one select or for a whole loop of them.
///
/// ```
/// use std::time::{Duration, Instant};
/// use hotq_mpmc::{RecvTimeoutError, TryRecvError, after, bounded, select};
///
/// let start = Instant::now();
/// let timeout = after(Duration::from_millis(20));
/// assert_eq!(timeout.try_recv(), Err(TryRecvError::Empty)); // not yet
/// let (_tx, rx) = bounded::<u32>(1);
/// let timed_out = select! {
///     recv(rx) -> _msg => false,
///     recv(timeout) -> at => at.unwrap() >= start + Duration::from_millis(20),
/// };
/// assert!(timed_out);
/// assert!(start.elapsed() >= Duration::from_millis(20));
/// // One message only.
/// let again = timeout.recv_timeout(Duration::from_millis(1));
/// assert_eq!(again, Err(RecvTimeoutError::Timeout));
/// ```
pub fn after(duration: Duration) -> Receiver<Instant> {
    // A duration too long to represent never fires.
    let Some(at) = Instant::now().checked_add(duration) else {
        return never();
    };
    timer_channel(Some(Timer {
        kind: Kind::At {
            at,
            taken: AtomicBool::new(false),
        },
        make: core::convert::identity,
    }))
}

/// A receiver that gets a message every `duration`, the first
/// `duration` from now: each the `Instant` it was due. Messages a slow
/// receiver misses are dropped, not queued (the next is due a whole
/// `duration` after the late receive).
///
/// ```
/// use std::time::{Duration, Instant};
///
/// let period = Duration::from_millis(5);
/// let start = Instant::now();
/// let ticker = hotq_mpmc::tick(period);
/// let first = ticker.recv().unwrap();
/// let second = ticker.recv().unwrap();
/// assert!(first >= start + period); // never early
/// assert!(second >= first + period);
/// assert_eq!(ticker.try_recv(), Err(hotq_mpmc::TryRecvError::Empty)); // not due yet
/// ```
pub fn tick(duration: Duration) -> Receiver<Instant> {
    // A duration too long to represent never fires.
    let Some(first) = Instant::now().checked_add(duration) else {
        return never();
    };
    timer_channel(Some(Timer {
        kind: Kind::Tick {
            period: duration,
            next: Mutex::new(first),
        },
        make: core::convert::identity,
    }))
}

/// A receiver that never gets a message and never disconnects: a select
/// arm that is never chosen (to turn an arm off without changing the
/// macro's arms), or a `recv` that waits for its deadline.
///
/// ```
/// use std::time::Duration;
/// use hotq_mpmc::{RecvTimeoutError, TryRecvError, never, select};
///
/// let rx = never::<u32>();
/// assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
/// assert_eq!(rx.recv_timeout(Duration::from_millis(1)), Err(RecvTimeoutError::Timeout));
/// let chosen = select! {
///     recv(rx) -> _msg => "never",
///     default => "default",
/// };
/// assert_eq!(chosen, "default");
/// ```
pub fn never<T>() -> Receiver<T> {
    timer_channel(None)
}
