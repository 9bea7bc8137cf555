//! Recording concurrent histories: each thread logs its own calls, with
//! invocation and response instants read from one monotonic clock, into a
//! `Vec` of its own; the logs are merged after the threads are joined. The
//! recording adds no shared state for the threads to contend on (reading
//! `Instant` is a vDSO call that touches nothing another thread writes).

use std::sync::atomic::{Ordering, fence};
use std::thread;
use std::time::Instant;

use crate::gate::StartGate;

/// One call of a history: which thread made it, what it asked, what it got,
/// and when (nanoseconds of the history's [`Clock`]) it was invoked and
/// returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Op<C, R> {
    pub thread: usize,
    pub call: C,
    pub ret: R,
    pub invoked: u64,
    pub returned: u64,
}

/// The one clock all threads of a history read. `Instant` is monotonic and
/// comparable across threads.
#[derive(Clone, Copy, Debug)]
pub struct Clock(Instant);

impl Default for Clock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock {
    pub fn new() -> Self {
        Clock(Instant::now())
    }

    /// Nanoseconds since the clock was made.
    pub fn now(&self) -> u64 {
        self.0.elapsed().as_nanos() as u64
    }

    /// The invocation stamp of a call about to be made: the call's memory
    /// accesses come after it (see [`response`](Self::response)).
    pub fn invocation(&self) -> u64 {
        let t = self.now();
        // The clock read (`rdtsc` in the vDSO) is not ordered with the
        // loads after it: without this, the call's first load may be
        // served before the stamp is taken.
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        // SAFETY: `lfence` has no preconditions (SSE2, which every x86_64
        // processor has).
        unsafe {
            core::arch::x86_64::_mm_lfence()
        };
        // Pairs with the fence in `response`: if this stamp is later than
        // a call's response stamp, this fence comes after that call's in
        // the single order of SeqCst fences, so this call sees what that
        // one stored. miri, which lets loads read stale values wherever
        // the memory model allows, needs the pair (a pop that began after
        // a pop had returned saw the older state, spsc seed 0); x86
        // hardware needs only the `response` half.
        fence(Ordering::SeqCst);
        t
    }

    /// The response stamp of a call that has just returned, taken once the
    /// call's stores are visible to every thread.
    ///
    /// Real time is what linearizability is defined against, and a store
    /// is not visible the instant the call returns: x86 keeps it in the
    /// core's store buffer for a while. Stamping right away made a `push`
    /// (one plain `Release` store) look as if it returned before a `pop`
    /// that still found the ring empty began (31 ns apart, hotq-spsc seed
    /// 24). The `SeqCst` fence drains the store buffer; it touches no
    /// memory another thread uses, so recording still adds no contention.
    /// It does order a thread's consecutive calls more strongly than they
    /// would be without it, which is the price of a real-time history.
    pub fn response(&self) -> u64 {
        fence(Ordering::SeqCst);
        self.now()
    }
}

/// One thread's log of calls.
#[derive(Debug)]
pub struct Log<C, R> {
    clock: Clock,
    thread: usize,
    ops: Vec<Op<C, R>>,
}

impl<C, R> Log<C, R> {
    pub fn new(clock: Clock, thread: usize) -> Self {
        Log {
            clock,
            thread,
            ops: Vec::with_capacity(64),
        }
    }

    /// Which thread this log is for.
    pub fn thread(&self) -> usize {
        self.thread
    }

    /// The invocation instant of a call about to be made; pass it to
    /// [`respond`](Self::respond) once the call has returned (for calls that
    /// span several method calls, such as a chunk and its commit).
    pub fn invoke(&self) -> u64 {
        self.clock.invocation()
    }

    /// Logs a call invoked at `invoked` that has just returned `ret`.
    pub fn respond(&mut self, invoked: u64, call: C, ret: R) {
        let returned = self.clock.response();
        self.ops.push(Op {
            thread: self.thread,
            call,
            ret,
            invoked,
            returned,
        });
    }

    /// Runs `f` and logs it as `call` with result `ret(f())`.
    pub fn record<T>(&mut self, call: C, f: impl FnOnce() -> T, ret: impl FnOnce(T) -> R) {
        let invoked = self.invoke();
        let r = f();
        let returned = self.clock.response();
        self.ops.push(Op {
            thread: self.thread,
            call,
            ret: ret(r),
            invoked,
            returned,
        });
    }

    pub fn into_ops(self) -> Vec<Op<C, R>> {
        self.ops
    }
}

/// The body of one thread of a history: makes its calls, logging each.
pub type Body<'a, C, R> = Box<dyn FnOnce(&mut Log<C, R>) + Send + 'a>;

/// Runs each body on a thread of its own, all released together by a
/// [`StartGate`], and returns the merged history. Bodies should also pause
/// a random few spins between calls ([`Rng::pause`](crate::Rng::pause)),
/// so that the calls overlap in varied ways.
pub fn run<'a, C: Send, R: Send>(bodies: Vec<Body<'a, C, R>>) -> Vec<Op<C, R>> {
    let clock = Clock::new();
    let gate = StartGate::new(bodies.len());
    thread::scope(|s| {
        let gate = &gate;
        let handles: Vec<_> = bodies
            .into_iter()
            .enumerate()
            .map(|(t, body)| {
                s.spawn(move || {
                    let mut log = Log::new(clock, t);
                    gate.wait();
                    body(&mut log);
                    log.into_ops()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a history thread panicked"))
            .collect()
    })
}

/// The share of calls in `history` whose interval overlaps a call of
/// another thread: a history where this is near zero tests nothing
/// concurrent (report it, do not assert on it: it is a timing).
pub fn overlap<C, R>(history: &[Op<C, R>]) -> f64 {
    if history.is_empty() {
        return 0.0;
    }
    let overlapping = history
        .iter()
        .filter(|a| {
            history
                .iter()
                .any(|b| b.thread != a.thread && b.invoked < a.returned && a.invoked < b.returned)
        })
        .count();
    overlapping as f64 / history.len() as f64
}
