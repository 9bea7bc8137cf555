//! The blocking baseline: a bounded `VecDeque` behind a `Mutex` with two
//! `Condvar`s (not full, not empty), as in a textbook bounded buffer.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};

use crate::channel::{Channel, Kind, Shared};

/// The queue.
pub struct Blocking {
    items: Mutex<VecDeque<u64>>,
    capacity: usize,
    /// Signalled after a pop: a producer waiting on a full queue may go on.
    not_full: Condvar,
    /// Signalled after a push: a consumer waiting on an empty queue may go on.
    not_empty: Condvar,
}

impl Blocking {
    /// Pushes `v`, blocking while `capacity` items are inside.
    pub fn push(&self, v: u64) {
        let mut items = self.items.lock().unwrap();
        while items.len() == self.capacity {
            items = self.not_full.wait(items).unwrap();
        }
        items.push_back(v);
        drop(items);
        self.not_empty.notify_one();
    }

    /// Pops the oldest item, blocking while the queue is empty.
    pub fn pop(&self) -> u64 {
        let mut items = self.items.lock().unwrap();
        loop {
            if let Some(v) = items.pop_front() {
                drop(items);
                self.not_full.notify_one();
                return v;
            }
            items = self.not_empty.wait(items).unwrap();
        }
    }
}

/// `Mutex<VecDeque<u64>>` + two `Condvar`s, blocking.
pub struct CondvarQueue;

impl Channel for CondvarQueue {
    const NAME: &'static str = "Mutex+Condvar";
    const KIND: Kind = Kind::Baseline;
    const CRATE: Option<&'static str> = None;
    type Tx = Arc<Blocking>;
    type Rx = Arc<Blocking>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        let q = Arc::new(Blocking {
            items: Mutex::new(VecDeque::with_capacity(capacity)),
            capacity,
            not_full: Condvar::new(),
            not_empty: Condvar::new(),
        });
        (q.clone(), q)
    }
    #[inline]
    fn send(tx: &mut Self::Tx, v: u64) {
        tx.push(v)
    }
    #[inline]
    fn recv(rx: &mut Self::Rx) -> u64 {
        rx.pop()
    }
}

impl Shared for CondvarQueue {}
