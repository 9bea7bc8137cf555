//! The blocking waits (`std`): the calling thread parks until the other
//! half wakes it, or its deadline passes.

use alloc::sync::Arc;
use alloc::task::Wake;
use core::task::Waker;
use std::time::{Duration, Instant};

use super::{Check, WaitSlot};
use crate::sync::{SPIN, SPIN_TIME, spin_loop, thread};
use crate::{
    Consumer, PopTimeoutError, Producer, PushError, PushTimeoutError, RingBuffer, WaitError,
};

/// Wakes a parked thread.
struct Unparker(thread::Thread);

impl Wake for Unparker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

/// Why a blocking wait returned without its condition.
pub(crate) enum Stop {
    Timeout,
    Abandoned,
}

/// When a wait ends, read off the clock as late as the wait allows: a clock
/// read costs more than a push and a pop together (`Instant::now` took
/// 43-53 ns here, a quiet 2-core VM, 2026-12-02).
///
/// - None before the try: a `push_timeout`/`pop_timeout` that finds room
///   or an item reads none, as a plain `send`/`recv` of a channel (reading
///   it first made the blocking SPSC workload at capacity 1024 3.8 times
///   slower).
/// - None during the spin hints: a wait that ends within them (the common
///   case of a stream that keeps up) reads none either. A timeout of at
///   least [`LAZY`] starts at the wait's first clock read after them, a
///   few µs after the call at most, so it is stretched by under 1 %; a
///   shorter one starts at the failed try. Either way a wait never ends
///   before its timeout. A deadline, or a timeout, that passes during the
///   hints is seen right after them.
#[derive(Clone, Copy)]
pub(crate) enum Deadline {
    /// `push_timeout` / `pop_timeout`: not yet counted.
    After(Duration),
    /// `push_deadline` / `pop_deadline`, `wait_slots` / `wait_items`, or
    /// a counted timeout.
    At(Instant),
    /// A timeout beyond what an `Instant` can hold (`Duration::MAX`).
    Never,
}

/// Timeouts at least this long are counted from the end of the spin
/// hints (see [`Deadline`]).
const LAZY: Duration = Duration::from_millis(1);

impl Deadline {
    fn counted_from(now: Instant, timeout: Duration) -> Self {
        now.checked_add(timeout)
            .map_or(Deadline::Never, Deadline::At)
    }

    /// At the failed try: a short timeout starts now, and whether the
    /// deadline has already passed (a single check then, no spin). One
    /// clock read at most, none for a long timeout.
    fn start(self) -> (Self, bool) {
        match self {
            Deadline::After(timeout) if timeout < LAZY => (
                Deadline::counted_from(Instant::now(), timeout),
                timeout.is_zero(),
            ),
            Deadline::At(at) => (self, Instant::now() >= at),
            later => (later, false),
        }
    }

    /// The instant, a timeout not yet counted starting at `now`.
    fn at(&mut self, now: Instant) -> Option<Instant> {
        if let Deadline::After(timeout) = *self {
            *self = Deadline::counted_from(now, timeout);
        }
        match *self {
            Deadline::At(at) => Some(at),
            _ => None,
        }
    }

    fn passed(&mut self, now: Instant) -> bool {
        self.at(now).is_some_and(|at| now >= at)
    }
}

/// Spin hints of the spin phase: 2^0 … 2^6, 127 in all (crossbeam's
/// `Backoff` spins as many before it yields).
const HINT_STEPS: u32 = 7;

/// Yields of the spin phase that come whatever the clock says.
const MIN_YIELDS: u32 = 4;

/// Which phase of [`block_until`] a check is made in.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// The spin: a check may ask for more than the caller needs (a hint:
    /// the parking phase asks for exactly that, before it parks).
    Spin,
    /// Before and after each park: exact.
    Park,
}

/// A park at least this long marks the waiter *quiet*: its hand-offs are
/// sporadic, and its next wait skips the spin's yields (see
/// [`block_until`]). Ten times [`SPIN_TIME`]: a hand-off this late would
/// not have been caught by the spin anyway.
const QUIET: Duration = Duration::from_micros(200);

/// Waits in `slot` until `check` is ready or abandoned, or `deadline`
/// passes. A deadline already past makes this a single check; a spurious
/// wake-up (or a stale one from an earlier wait) only checks again.
///
/// Before it parks it spins, bounded: 127 spin hints, then yields until
/// [`SPIN_TIME`] (20 µs) has passed since the first yield (at least 4
/// yields). A hand-off that comes within them costs no park, no
/// membarrier and no wake-up. The bound is time, not a count of steps,
/// because what it must outlast is time: the other side's wake-up. Once
/// one side has parked (after a start barrier, a preemption), the other
/// side's reply comes only after the parked side's wake-up latency (some
/// 10 µs here for a thread that spun before it parked, see below); a spin
/// shorter than that parks too, and from then on every hop parks and pays
/// a wake-up: the 30 µs round trip of the queues that always park
/// (sync_channel, flume, Condvar), which is what ours read in a run of the
/// report with the earlier budget, 63 hints and 4 yields (2.5 µs + 2 µs
/// here when nothing else runs). A thread blocked for longer parks and
/// uses no CPU: 20 µs of spin per wait is 0.002 % of a second-long block.
///
/// The spin has a price when nothing comes: on the Intel VM (Linux 6.18),
/// a thread that yielded or spun for 20 µs before it parked was woken
/// 10 µs after the unpark, one that parked after the hints alone in
/// 1.5–2 µs (the report's wake-up workload: an item every 500 µs;
/// `waiting_probe wake`). So a waiter whose last wait parked for [`QUIET`]
/// or longer, one whose items (or room) come sporadically, skips the
/// yields and parks after the hints; the first wait that does not park
/// that long (a burst has begun) brings them back for the next one.
pub(crate) fn block_until<R>(
    slot: &WaitSlot,
    at: usize,
    deadline: Deadline,
    check: impl FnMut(Phase) -> Check<R>,
) -> Result<R, Stop> {
    slot.unfence_if_stale(at);
    let quiet = SPIN && slot.is_quiet();
    let mut parked_long = false;
    let done = wait(slot, at, deadline, check, quiet, &mut parked_long);
    if SPIN {
        slot.set_quiet(parked_long);
    }
    done
}

/// [`block_until`]'s wait: the spin (its hints only when `quiet`), then
/// park; sets `parked_long` when a park lasted [`QUIET`] or more.
fn wait<R>(
    slot: &WaitSlot,
    at: usize,
    deadline: Deadline,
    mut check: impl FnMut(Phase) -> Check<R>,
    quiet: bool,
    parked_long: &mut bool,
) -> Result<R, Stop> {
    let (mut deadline, passed_at_start) = deadline.start();
    if SPIN {
        let mut yields_began = None;
        for step in 0.. {
            match check(Phase::Spin) {
                Check::Ready(r) => return Ok(r),
                Check::Abandoned => return Err(Stop::Abandoned),
                // The parking phase's first check is exact, and comes first.
                Check::Wait if step == 0 && passed_at_start => break,
                Check::Wait => {}
            }
            if step < HINT_STEPS {
                (0..1 << step).for_each(|_| spin_loop());
                continue;
            }
            if quiet {
                break;
            }
            let now = Instant::now();
            if deadline.passed(now) {
                break;
            }
            let began = *yields_began.get_or_insert(now);
            if step >= HINT_STEPS + MIN_YIELDS && now.duration_since(began) >= SPIN_TIME {
                break;
            }
            thread::yield_now();
        }
    }
    let waker = Waker::from(Arc::new(Unparker(thread::current())));
    loop {
        match check(Phase::Park) {
            Check::Ready(r) => return Ok(r),
            Check::Abandoned => return Err(Stop::Abandoned),
            Check::Wait => {}
        }
        let now = Instant::now();
        if deadline.passed(now) {
            return Err(Stop::Timeout);
        }
        slot.register(&waker, at);
        // The protocol's second load: after the registration's barrier.
        match check(Phase::Park) {
            Check::Ready(r) => {
                slot.retract();
                return Ok(r);
            }
            Check::Abandoned => {
                slot.retract();
                return Err(Stop::Abandoned);
            }
            Check::Wait => {}
        }
        match deadline.at(now) {
            Some(d) => thread::park_timeout(d.saturating_duration_since(now)),
            None => thread::park(),
        }
        if SPIN && !*parked_long {
            *parked_long = now.elapsed() >= QUIET;
        }
        slot.retract();
    }
}

impl<T> Producer<T> {
    /// Appends `value`, waiting up to `timeout` for room; gives the value
    /// back on [`PushTimeoutError::Timeout`], or on
    /// [`PushTimeoutError::Abandoned`] when the ring is full and the
    /// consumer is gone (no room can ever come). A zero timeout is a
    /// [`push`](Self::push). The thread parks while it waits, after a brief
    /// spin; a timeout of 1 ms or more is counted from the end of the
    /// spin's first part (a few µs), so that a wait the spin ends never
    /// reads the clock. It never returns `Timeout` early.
    ///
    /// ```
    /// use std::time::Duration;
    /// use hotq_spsc::{PushTimeoutError, RingBuffer};
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(1);
    /// tx.push_timeout(1, Duration::from_secs(1)).unwrap();
    /// // Full: waits 10 ms, then gives 2 back.
    /// assert_eq!(tx.push_timeout(2, Duration::from_millis(10)), Err(PushTimeoutError::Timeout(2)));
    /// let reader = std::thread::spawn(move || {
    ///     let first = rx.pop_timeout(Duration::from_secs(10)).unwrap();
    ///     (first, rx) // keep the consumer alive until the join
    /// });
    /// // Room comes when the reader pops.
    /// tx.push_timeout(3, Duration::from_secs(10)).unwrap();
    /// let (first, rx) = reader.join().unwrap();
    /// assert_eq!(first, 1);
    /// drop(rx);
    /// // Full and abandoned: waiting could never succeed.
    /// assert_eq!(tx.push_timeout(4, Duration::from_secs(10)), Err(PushTimeoutError::Abandoned(4)));
    /// ```
    #[inline]
    pub fn push_timeout(&mut self, value: T, timeout: Duration) -> Result<(), PushTimeoutError<T>> {
        match self.push(value) {
            Ok(()) => Ok(()),
            Err(PushError::Full(value)) => self.push_waiting_for(value, timeout),
        }
    }

    /// As [`push_timeout`](Self::push_timeout), with a deadline: a
    /// deadline already past never waits.
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    /// use hotq_spsc::{PushTimeoutError, RingBuffer};
    ///
    /// let (mut tx, _rx) = RingBuffer::new(1);
    /// let deadline = Instant::now() + Duration::from_millis(5);
    /// assert_eq!(tx.push_deadline('a', deadline), Ok(()));
    /// assert_eq!(tx.push_deadline('b', deadline), Err(PushTimeoutError::Timeout('b')));
    /// assert!(Instant::now() >= deadline);
    /// ```
    pub fn push_deadline(
        &mut self,
        value: T,
        deadline: Instant,
    ) -> Result<(), PushTimeoutError<T>> {
        match self.push(value) {
            Ok(()) => Ok(()),
            Err(PushError::Full(value)) => self.push_waiting_until(value, deadline),
        }
    }

    // `push_timeout` and `push_deadline` inline their try into the
    // caller's loop, as `push` is, and wait out of line. The timeout or
    // deadline goes to the wait as itself (two registers), not as a
    // `Deadline` (a value in memory, which the caller's loop stored on
    // every push: three stores per item on the hot path).

    #[inline(never)]
    fn push_waiting_for(&mut self, value: T, timeout: Duration) -> Result<(), PushTimeoutError<T>> {
        self.push_waiting(value, Deadline::After(timeout))
    }

    #[inline(never)]
    fn push_waiting_until(
        &mut self,
        value: T,
        deadline: Instant,
    ) -> Result<(), PushTimeoutError<T>> {
        self.push_waiting(value, Deadline::At(deadline))
    }

    #[inline(always)]
    fn push_waiting(&mut self, value: T, deadline: Deadline) -> Result<(), PushTimeoutError<T>> {
        match self.block_for_room(1, deadline) {
            Ok(_) => match self.push(value) {
                Ok(()) => Ok(()),
                Err(_) => unreachable!("room was seen, and only this producer takes it"),
            },
            Err(Stop::Timeout) => Err(PushTimeoutError::Timeout(value)),
            Err(Stop::Abandoned) => Err(PushTimeoutError::Abandoned(value)),
        }
    }

    /// Waits until at least `n` slots are free, or `deadline` passes, and
    /// returns how many are free then (at least `n`): a
    /// [`write_chunk_uninit(n)`](Self::write_chunk_uninit) or a
    /// [`push_slice`](Self::push_slice) of `n` items then succeeds.
    /// [`WaitError::Timeout`] at the deadline, [`WaitError::Abandoned`]
    /// when fewer than `n` are free and the consumer is gone, and
    /// [`WaitError::ExceedsCapacity`] at once when `n` is more than the
    /// ring can ever free.
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    /// use hotq_spsc::{RingBuffer, WaitError};
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(4);
    /// let soon = Instant::now() + Duration::from_millis(10);
    /// assert_eq!(tx.wait_slots(3, soon), Ok(4));
    /// tx.push_slice(&[1, 2, 3]);
    /// assert_eq!(tx.wait_slots(2, soon), Err(WaitError::Timeout));
    /// assert_eq!(
    ///     tx.wait_slots(5, soon),
    ///     Err(WaitError::ExceedsCapacity { requested: 5, capacity: 4 })
    /// );
    /// let mut out = [0; 2];
    /// rx.pop_slice(&mut out);
    /// assert_eq!(tx.wait_slots(2, soon), Ok(3));
    /// ```
    pub fn wait_slots(&mut self, n: usize, deadline: Instant) -> Result<usize, WaitError> {
        exceeds(n, self.capacity())?;
        self.block_for_room(n, Deadline::At(deadline))
            .map_err(WaitError::from)
    }

    fn block_for_room(&self, n: usize, deadline: Deadline) -> Result<usize, Stop> {
        let ring: &RingBuffer<T> = self.ring();
        // While it spins, the producer waits for half the ring to be free,
        // as the hotq-mpmc channel's senders do. A full ring's consumer is
        // the bottleneck; retrying as soon as one slot frees puts the
        // producer on the line the consumer reads and on its `head`, and
        // every push after the wait waits again. Nothing the consumer
        // could take is delayed: half the ring still holds items. A hint
        // only: the parking phase asks for `n`, and asks before it parks.
        let ahead = n.max(ring.capacity() / 2);
        // `usize::MAX`: always the latest head, so the count returned is
        // the free slots when the wait ended, not a cached lower bound.
        block_until(&ring.waiters.room, self.tail(), deadline, |phase| {
            let free = self.free_slots(usize::MAX);
            let wanted = if phase == Phase::Spin { ahead } else { n };
            if free >= wanted {
                return Check::Ready(free);
            }
            if !ring.is_abandoned() {
                return Check::Wait;
            }
            // Gone: every slot it freed is visible now (`is_abandoned`).
            match self.free_slots(usize::MAX) {
                free if free >= n => Check::Ready(free),
                _ => Check::Abandoned,
            }
        })
    }
}

impl<T> Consumer<T> {
    /// Removes the oldest item, waiting up to `timeout` for one;
    /// [`PopTimeoutError::Timeout`] when none came, or
    /// [`PopTimeoutError::Abandoned`] when the ring is empty and the
    /// producer is gone (items it pushed before are still returned first).
    /// A zero timeout is a [`pop`](Self::pop). The thread parks while it
    /// waits, after a brief spin; a timeout of 1 ms or more is counted as
    /// [`push_timeout`](crate::Producer::push_timeout)'s.
    ///
    /// ```
    /// use std::time::Duration;
    /// use hotq_spsc::{PopTimeoutError, RingBuffer};
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(4);
    /// let writer = std::thread::spawn(move || {
    ///     for i in 0..3 {
    ///         tx.push_timeout(i, Duration::from_secs(10)).unwrap();
    ///     }
    /// });
    /// for i in 0..3 {
    ///     assert_eq!(rx.pop_timeout(Duration::from_secs(10)), Ok(i));
    /// }
    /// writer.join().unwrap(); // the producer is gone now
    /// assert_eq!(rx.pop_timeout(Duration::from_secs(10)), Err(PopTimeoutError::Abandoned));
    /// ```
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use hotq_spsc::{PopTimeoutError, RingBuffer};
    /// let (_tx, mut rx) = RingBuffer::<u8>::new(4);
    /// assert_eq!(rx.pop_timeout(Duration::from_millis(5)), Err(PopTimeoutError::Timeout));
    /// ```
    #[inline]
    pub fn pop_timeout(&mut self, timeout: Duration) -> Result<T, PopTimeoutError> {
        match self.pop() {
            Ok(value) => Ok(value),
            Err(_) => self.pop_waiting_for(timeout),
        }
    }

    /// As [`pop_timeout`](Self::pop_timeout), with a deadline: a deadline
    /// already past never waits.
    ///
    /// ```
    /// use std::time::Instant;
    /// use hotq_spsc::{PopTimeoutError, RingBuffer};
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(2);
    /// tx.push(7).unwrap();
    /// let past = Instant::now();
    /// assert_eq!(rx.pop_deadline(past), Ok(7));
    /// assert_eq!(rx.pop_deadline(past), Err(PopTimeoutError::Timeout));
    /// ```
    pub fn pop_deadline(&mut self, deadline: Instant) -> Result<T, PopTimeoutError> {
        match self.pop() {
            Ok(value) => Ok(value),
            Err(_) => self.pop_waiting_until(deadline),
        }
    }

    // As the producer's: the try inlined, the wait out of line, given the
    // timeout or deadline in registers.

    #[inline(never)]
    fn pop_waiting_for(&mut self, timeout: Duration) -> Result<T, PopTimeoutError> {
        self.pop_waiting(Deadline::After(timeout))
    }

    #[inline(never)]
    fn pop_waiting_until(&mut self, deadline: Instant) -> Result<T, PopTimeoutError> {
        self.pop_waiting(Deadline::At(deadline))
    }

    #[inline(always)]
    fn pop_waiting(&mut self, deadline: Deadline) -> Result<T, PopTimeoutError> {
        match self.block_for_items(1, deadline) {
            // SAFETY: an item was seen ready, and only this consumer takes it.
            Ok(_) => Ok(unsafe { self.take_front() }),
            Err(Stop::Timeout) => Err(PopTimeoutError::Timeout),
            Err(Stop::Abandoned) => Err(PopTimeoutError::Abandoned),
        }
    }

    /// Waits until at least `n` items are ready, or `deadline` passes, and
    /// returns how many are ready then (at least `n`): a
    /// [`read_chunk(n)`](Self::read_chunk) or a
    /// [`pop_slice`](Self::pop_slice) of `n` then succeeds.
    /// [`WaitError::Timeout`] at the deadline, [`WaitError::Abandoned`]
    /// when fewer than `n` are ready and the producer is gone, and
    /// [`WaitError::ExceedsCapacity`] at once when `n` is more than the
    /// ring can ever hold.
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    /// use hotq_spsc::{RingBuffer, WaitError};
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(4);
    /// let soon = Instant::now() + Duration::from_millis(10);
    /// tx.push_slice(&[1, 2]);
    /// assert_eq!(rx.wait_items(2, soon), Ok(2));
    /// assert_eq!(rx.wait_items(3, soon), Err(WaitError::Timeout));
    /// assert_eq!(
    ///     rx.wait_items(5, soon),
    ///     Err(WaitError::ExceedsCapacity { requested: 5, capacity: 4 })
    /// );
    /// drop(tx);
    /// assert_eq!(rx.wait_items(3, soon), Err(WaitError::Abandoned));
    /// assert_eq!(rx.read_chunk(2).unwrap().len(), 2);
    /// ```
    pub fn wait_items(&mut self, n: usize, deadline: Instant) -> Result<usize, WaitError> {
        exceeds(n, self.capacity())?;
        self.block_for_items(n, Deadline::At(deadline))
            .map_err(WaitError::from)
    }

    fn block_for_items(&self, n: usize, deadline: Deadline) -> Result<usize, Stop> {
        let ring: &RingBuffer<T> = self.ring();
        // `usize::MAX`: always the latest tail, so the count returned is
        // the items ready when the wait ended, not a cached lower bound.
        block_until(&ring.waiters.items, self.head(), deadline, |_| {
            let ready = self.ready_items(usize::MAX);
            if ready >= n {
                return Check::Ready(ready);
            }
            if !ring.is_abandoned() {
                return Check::Wait;
            }
            // Gone: everything it pushed is visible now (`is_abandoned`).
            match self.ready_items(usize::MAX) {
                ready if ready >= n => Check::Ready(ready),
                _ => Check::Abandoned,
            }
        })
    }
}

fn exceeds(requested: usize, capacity: usize) -> Result<(), WaitError> {
    if requested > capacity {
        return Err(WaitError::ExceedsCapacity {
            requested,
            capacity,
        });
    }
    Ok(())
}

impl From<Stop> for WaitError {
    fn from(stop: Stop) -> Self {
        match stop {
            Stop::Timeout => WaitError::Timeout,
            Stop::Abandoned => WaitError::Abandoned,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Check, Deadline, block_until};
    use crate::RingBuffer;
    use std::sync::Barrier;
    use std::thread;
    use std::time::Duration;

    /// A wait that parks for long marks the slot quiet (its next wait
    /// skips the yields); a wait that ends without a long park clears it
    /// again. The state the spin's length is chosen by.
    #[test]
    // Under miri the clock is virtual (isolation), and there the park read
    // under 200 µs (2026-12-04): the test is about time, the state machine
    // it drives is the same code everywhere.
    #[cfg_attr(miri, ignore = "timing: miri's isolated clock")]
    fn a_long_park_makes_the_next_wait_quiet_and_a_quick_hand_off_undoes_it() {
        // A loaded machine can stretch a wait's spin (each `yield_now` may
        // give the core away for a time slice) past the other thread's
        // sleep or the wait's own timeout, and then the wait never parks:
        // rightly not quiet. So the two long waits are tried until one
        // parks; a wait that parks and is not marked quiet fails at once.
        const TRIES: usize = 20;
        let (mut tx, mut rx) = RingBuffer::<u32>::new(4);
        assert!(!rx.ring().waiters.items.is_quiet());
        let quiet_after_a_park = (0..TRIES).any(|_| {
            let start = Barrier::new(2);
            thread::scope(|s| {
                s.spawn(|| {
                    start.wait();
                    // Well past `QUIET` (200 µs): the consumer is parked by
                    // then, unless the machine delayed it.
                    thread::sleep(Duration::from_millis(20));
                    tx.push(1).unwrap();
                });
                start.wait();
                assert_eq!(rx.pop_timeout(Duration::from_secs(30)), Ok(1));
            });
            rx.ring().waiters.items.is_quiet()
        });
        let items = &rx.ring().waiters.items;
        assert!(quiet_after_a_park, "a 20 ms park, {TRIES} tries");
        // A wait whose third check succeeds: caught by the spin hints.
        let mut checks = 0;
        let quick = block_until(items, 0, Deadline::Never, |_| {
            checks += 1;
            if checks < 3 {
                Check::Wait
            } else {
                Check::Ready(())
            }
        });
        assert!(quick.is_ok());
        assert!(!items.is_quiet(), "a hand-off within the spin");
        // A wait that times out parked for the rest of its timeout: quiet
        // too. (100 ms: the spin's yields alone can take tens of ms on a
        // machine whose cores are all busy.)
        let quiet_after_a_timeout = (0..TRIES).any(|_| {
            assert!(rx.pop_timeout(Duration::from_millis(100)).is_err());
            rx.ring().waiters.items.is_quiet()
        });
        assert!(quiet_after_a_timeout, "a 100 ms timeout, {TRIES} tries");
    }

    /// A blocked push waits for half the ring while it spins, but that is
    /// a hint: one slot freed is enough for it to finish, long before its
    /// timeout, whether the slot frees during the spin or after the park.
    #[test]
    fn a_blocked_push_takes_a_single_freed_slot() {
        for delay in [Duration::ZERO, Duration::from_millis(5)] {
            let (mut tx, mut rx) = RingBuffer::<u32>::new(64);
            for i in 0..64 {
                tx.push(i).unwrap();
            }
            let start = Barrier::new(2);
            thread::scope(|s| {
                s.spawn(|| {
                    start.wait();
                    thread::sleep(delay);
                    assert_eq!(rx.pop(), Ok(0));
                });
                start.wait();
                assert_eq!(
                    tx.push_timeout(64, Duration::from_secs(30)),
                    Ok(()),
                    "pop after {delay:?}"
                );
            });
            assert_eq!(rx.slots(), 64, "pop after {delay:?}");
        }
    }
}
