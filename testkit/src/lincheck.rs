//! Linearizability checking: a Wing–Gong search with Lowe's memoisation.
//!
//! A history is linearizable if every call can be given one instant between
//! its invocation and its response such that, taken in the order of those
//! instants, the calls and their results are a run of the sequential
//! specification (a [`Model`]). The search tries, depth first, every call
//! that could come next (one invoked before every pending call's
//! response), applies it to a copy of the model, and backtracks when the
//! result differs from the recorded one. A set of (calls done, model state)
//! pairs already explored keeps it from exploring the same configuration
//! twice (Lowe's memoisation, as in porcupine and knossos): histories of a
//! few hundred calls take well under a millisecond.
//!
//! Written here rather than taken from `todc-utils` (0.1.1, which has a
//! `WGLChecker`): ours is ~100 lines, has no dependencies, takes any
//! `Clone + Eq + Hash` model (the FIFO one compares `Vec` results of chunk
//! calls), and reports how far the search got, which is what a failing
//! seed needs.

use std::collections::HashSet;
use std::fmt::Debug;
use std::hash::Hash;

use crate::history::Op;

/// A sequential specification: a state machine whose state is the model's
/// value. `step` applies one call and returns what the object must answer.
pub trait Model: Clone + Eq + Hash {
    type Call: Debug;
    type Ret: Debug + PartialEq;
    fn step(&mut self, call: &Self::Call) -> Self::Ret;
}

/// Checks `history` (in any order) against `initial`. `Err` says how far
/// the search got and lists the history by invocation.
pub fn check<M: Model>(initial: &M, history: &[Op<M::Call, M::Ret>]) -> Result<(), String> {
    let mut order: Vec<&Op<M::Call, M::Ret>> = history.iter().collect();
    order.sort_by_key(|op| op.invoked);
    let mut search = Search {
        ops: &order,
        done: Done::new(order.len()),
        seen: HashSet::new(),
        path: Vec::new(),
        deepest: Vec::new(),
    };
    if search.extend(initial, 0, 0) {
        Ok(())
    } else {
        let tail = &search.deepest[search.deepest.len().saturating_sub(6)..];
        Err(format!(
            "not linearizable: at most {} of {} calls can be ordered, the longest such \
             order ends with {:?}; history by invocation (thread, call, result, invoked ns, \
             returned ns): {:?}",
            search.deepest.len(),
            order.len(),
            tail.iter()
                .map(|&i| (order[i].thread, &order[i].call, &order[i].ret))
                .collect::<Vec<_>>(),
            order
                .iter()
                .map(|op| (op.thread, &op.call, &op.ret, op.invoked, op.returned))
                .collect::<Vec<_>>()
        ))
    }
}

/// Which calls the current prefix has linearized, one bit per call.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Done(Vec<u64>);

impl Done {
    fn new(n: usize) -> Self {
        Done(vec![0; n.div_ceil(64)])
    }
    fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    fn flip(&mut self, i: usize) {
        self.0[i / 64] ^= 1 << (i % 64);
    }
}

struct Search<'a, M: Model> {
    /// The calls, by invocation.
    ops: &'a [&'a Op<M::Call, M::Ret>],
    done: Done,
    /// (calls done, model state) already explored: Lowe's memoisation.
    seen: HashSet<(Done, M)>,
    /// The order of the calls done, as indices into `ops`.
    path: Vec<usize>,
    /// The longest `path` found, for the error message.
    deepest: Vec<usize>,
}

impl<M: Model> Search<'_, M> {
    /// Whether the calls not yet done can follow the `count` done ones,
    /// which left the model in `state`; every call before `first` is done.
    fn extend(&mut self, state: &M, count: usize, mut first: usize) -> bool {
        if count > self.deepest.len() {
            self.deepest.clone_from(&self.path);
        }
        if count == self.ops.len() {
            return true;
        }
        while self.done.get(first) {
            first += 1;
        }
        // A pending call may come next only if it was invoked before every
        // pending call returned (otherwise that one must come first). The
        // calls are sorted by invocation, so once one is invoked after the
        // earliest response so far, no later one returned earlier: the
        // scans stop there and cost the pending window, not the history.
        let mut horizon = u64::MAX;
        for (i, op) in self.ops.iter().enumerate().skip(first) {
            if op.invoked > horizon {
                break;
            }
            if !self.done.get(i) {
                horizon = horizon.min(op.returned);
            }
        }
        for i in first..self.ops.len() {
            let op = self.ops[i];
            if op.invoked > horizon {
                break; // sorted by invocation: no later call qualifies
            }
            if self.done.get(i) {
                continue;
            }
            let mut next = state.clone();
            if next.step(&op.call) != op.ret {
                continue;
            }
            self.done.flip(i);
            self.path.push(i);
            if self.seen.insert((self.done.clone(), next.clone()))
                && self.extend(&next, count + 1, first)
            {
                return true;
            }
            self.path.pop();
            self.done.flip(i);
        }
        false
    }
}
