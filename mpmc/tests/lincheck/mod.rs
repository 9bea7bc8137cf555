//! Linearizability checking of queue histories: a recorder of concurrent
//! calls, and a Wing–Gong search with Lowe's memoisation against the
//! sequential specification of a bounded FIFO queue.
//!
//! A history is linearizable if every call can be given one instant between
//! its invocation and its response such that, taken in the order of those
//! instants, the calls and their results are a run of the sequential
//! queue. The search tries, depth first, every call that could come next
//! (one invoked before every pending call's response), applies it to a
//! model queue, and backtracks when the result differs; a set of
//! (calls done, model contents) pairs already explored keeps the search
//! from repeating itself (Lowe's memoisation), which makes histories of a
//! few hundred calls take milliseconds.

use std::collections::{HashSet, VecDeque};
use std::time::Instant;

/// What a thread asked of the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Call {
    Push(u64),
    ForcePush(u64),
    Pop,
}

/// What the queue answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ret {
    Pushed,
    Full,
    /// `force_push`'s answer: the evicted item, if any.
    Evicted(Option<u64>),
    Popped(Option<u64>),
}

/// One call of a history, with its invocation and response instants in
/// nanoseconds of one monotonic clock.
#[derive(Clone, Copy, Debug)]
pub struct Op {
    pub thread: usize,
    pub call: Call,
    pub ret: Ret,
    pub invoked: u64,
    pub returned: u64,
}

/// The one clock all threads of a history read. `Instant` is monotonic and
/// comparable across threads; each thread logs into its own `Vec`, so
/// recording adds no shared state to contend on.
#[derive(Clone, Copy, Debug)]
pub struct Clock(Instant);

impl Clock {
    pub fn new() -> Self {
        Clock(Instant::now())
    }

    /// Runs `f` and logs it as a call of `thread` with result `ret(f())`.
    pub fn record<R>(
        &self,
        log: &mut Vec<Op>,
        thread: usize,
        call: Call,
        f: impl FnOnce() -> R,
        ret: impl FnOnce(R) -> Ret,
    ) {
        let invoked = self.0.elapsed().as_nanos() as u64;
        let r = f();
        let returned = self.0.elapsed().as_nanos() as u64;
        log.push(Op {
            thread,
            call,
            ret: ret(r),
            invoked,
            returned,
        });
    }
}

/// The sequential specification: applies `call` to a bounded FIFO queue of
/// `capacity` holding `items`, and returns what it must answer.
pub fn apply(items: &mut VecDeque<u64>, capacity: usize, call: Call) -> Ret {
    match call {
        Call::Push(v) if items.len() < capacity => {
            items.push_back(v);
            Ret::Pushed
        }
        Call::Push(_) => Ret::Full,
        Call::ForcePush(v) => {
            let evicted = if items.len() == capacity {
                items.pop_front()
            } else {
                None
            };
            items.push_back(v);
            Ret::Evicted(evicted)
        }
        Call::Pop => Ret::Popped(items.pop_front()),
    }
}

/// Checks `history` (in any order) against a bounded FIFO queue of
/// `capacity`, empty at the start. `Err` says how far the search got.
pub fn check(history: &[Op], capacity: usize) -> Result<(), String> {
    let mut ops = history.to_vec();
    ops.sort_by_key(|op| op.invoked);
    let mut search = Search {
        ops: &ops,
        capacity,
        done: vec![false; ops.len()],
        seen: HashSet::new(),
        deepest: 0,
    };
    if search.extend(&VecDeque::new(), 0) {
        Ok(())
    } else {
        Err(format!(
            "not linearizable: at most {} of {} calls can be ordered; history by invocation: {:?}",
            search.deepest,
            ops.len(),
            ops.iter()
                .map(|op| (op.thread, op.call, op.ret, op.invoked, op.returned))
                .collect::<Vec<_>>()
        ))
    }
}

struct Search<'a> {
    ops: &'a [Op],
    capacity: usize,
    /// Which calls the current prefix has linearized.
    done: Vec<bool>,
    /// (calls done, model contents) already explored: Lowe's memoisation.
    seen: HashSet<(Vec<bool>, VecDeque<u64>)>,
    /// Longest prefix found, for the error message.
    deepest: usize,
}

impl Search<'_> {
    /// Whether the calls not yet done can follow `count` done calls that
    /// left the model holding `items`.
    fn extend(&mut self, items: &VecDeque<u64>, count: usize) -> bool {
        self.deepest = self.deepest.max(count);
        if count == self.ops.len() {
            return true;
        }
        // A pending call may come next only if it was invoked before every
        // pending call returned (otherwise that one must come first).
        let horizon = (0..self.ops.len())
            .filter(|&i| !self.done[i])
            .map(|i| self.ops[i].returned)
            .min()
            .unwrap_or(u64::MAX);
        for i in 0..self.ops.len() {
            let op = self.ops[i];
            if op.invoked > horizon {
                break; // sorted by invocation: no later call qualifies
            }
            if self.done[i] {
                continue;
            }
            let mut next = items.clone();
            if apply(&mut next, self.capacity, op.call) != op.ret {
                continue;
            }
            self.done[i] = true;
            if self.seen.insert((self.done.clone(), next.clone())) && self.extend(&next, count + 1)
            {
                return true;
            }
            self.done[i] = false;
        }
        false
    }
}
