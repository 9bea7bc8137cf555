//! lfqueue's `AllocBoundedQueue`: Nikolaev's SCQ, a bounded MPMC queue
//! whose claims are fetch-and-adds, not CAS loops (issue 37 asks for it
//! beside `ArrayQueue`: the fetch-and-add designs claim to scale better).

use std::sync::Arc;

use lfqueue::AllocBoundedQueue;

use crate::channel::{Channel, Kind, Shared, TryChannel};
use crate::wait::until;

/// `lfqueue::AllocBoundedQueue<u64>`.
pub struct Lfqueue;

impl Channel for Lfqueue {
    const NAME: &'static str = "lfqueue";
    const KIND: Kind = Kind::Peer;
    const CRATE: Option<&'static str> = Some("lfqueue");
    type Tx = Arc<AllocBoundedQueue<u64>>;
    type Rx = Arc<AllocBoundedQueue<u64>>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        let q = Arc::new(AllocBoundedQueue::new(capacity));
        (q.clone(), q)
    }
    #[inline]
    fn send(tx: &mut Self::Tx, v: u64) {
        until(|| tx.enqueue(v).ok())
    }
    #[inline]
    fn recv(rx: &mut Self::Rx) -> u64 {
        until(|| rx.dequeue())
    }
}

impl Shared for Lfqueue {}

impl TryChannel for Lfqueue {
    #[inline]
    fn try_send(tx: &mut Self::Tx, v: u64) -> Result<(), u64> {
        tx.enqueue(v)
    }
    #[inline]
    fn try_recv(rx: &mut Self::Rx) -> Option<u64> {
        rx.dequeue()
    }
}
