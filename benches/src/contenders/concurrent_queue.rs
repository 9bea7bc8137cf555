//! concurrent-queue's bounded queue (try-only: the harness spins).

use std::sync::Arc;

use concurrent_queue::ConcurrentQueue;

use crate::channel::{Channel, Kind, Shared};
use crate::wait::until;

/// `concurrent_queue::ConcurrentQueue::<u64>::bounded`.
pub struct ConcurrentQueueBounded;

impl Channel for ConcurrentQueueBounded {
    const NAME: &'static str = "concurrent-queue";
    const KIND: Kind = Kind::Peer;
    const CRATE: Option<&'static str> = Some("concurrent-queue");
    type Tx = Arc<ConcurrentQueue<u64>>;
    type Rx = Arc<ConcurrentQueue<u64>>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        let q = Arc::new(ConcurrentQueue::bounded(capacity));
        (q.clone(), q)
    }
    #[inline]
    fn send(tx: &mut Self::Tx, v: u64) {
        until(|| tx.push(v).ok())
    }
    #[inline]
    fn recv(rx: &mut Self::Rx) -> u64 {
        until(|| rx.pop().ok())
    }
}

impl Shared for ConcurrentQueueBounded {}
