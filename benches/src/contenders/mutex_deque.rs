//! The baseline every ratio is taken against: a `VecDeque` behind a
//! `Mutex`, bounded by a capacity check, with try-ops (the harness spins on
//! full/empty). This is what most code starts with.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use crate::channel::{Channel, Kind, Shared};
use crate::wait::until;

/// The queue: `Mutex<VecDeque<u64>>` that refuses items past `capacity`.
pub struct Bounded {
    items: Mutex<VecDeque<u64>>,
    capacity: usize,
}

impl Bounded {
    /// Pushes `v` unless `capacity` items are inside.
    pub fn try_push(&self, v: u64) -> Result<(), u64> {
        let mut items = self.items.lock().unwrap();
        if items.len() == self.capacity {
            return Err(v);
        }
        items.push_back(v);
        Ok(())
    }

    /// Pops the oldest item, if any.
    pub fn try_pop(&self) -> Option<u64> {
        self.items.lock().unwrap().pop_front()
    }

    /// The oldest item, left inside.
    pub fn peek(&self) -> Option<u64> {
        self.items.lock().unwrap().front().copied()
    }
}

/// `Mutex<VecDeque<u64>>` with a capacity bound.
pub struct MutexDeque;

impl Channel for MutexDeque {
    const NAME: &'static str = "Mutex<VecDeque>";
    const KIND: Kind = Kind::Baseline;
    const CRATE: Option<&'static str> = None;
    type Tx = Arc<Bounded>;
    type Rx = Arc<Bounded>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        let q = Arc::new(Bounded {
            items: Mutex::new(VecDeque::with_capacity(capacity)),
            capacity,
        });
        (q.clone(), q)
    }
    #[inline]
    fn send(tx: &mut Self::Tx, v: u64) {
        until(|| tx.try_push(v).ok())
    }
    #[inline]
    fn recv(rx: &mut Self::Rx) -> u64 {
        until(|| rx.try_pop())
    }
    const PEEK: bool = true;
    fn peek(rx: &mut Self::Rx) -> Option<u64> {
        Bounded::peek(rx)
    }
}

impl Shared for MutexDeque {}
