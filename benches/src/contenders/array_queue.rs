//! crossbeam-queue's `ArrayQueue`: the MPMC peer hotq-mpmc is held to.

use std::sync::Arc;

use crossbeam_queue::ArrayQueue as Queue;

use crate::channel::{Channel, Kind, Shared, TryChannel};
use crate::wait::until;

/// `crossbeam_queue::ArrayQueue<u64>`.
pub struct ArrayQueue;

impl Channel for ArrayQueue {
    const NAME: &'static str = "ArrayQueue";
    const KIND: Kind = Kind::Peer;
    const CRATE: Option<&'static str> = Some("crossbeam-queue");
    type Tx = Arc<Queue<u64>>;
    type Rx = Arc<Queue<u64>>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        let q = Arc::new(Queue::new(capacity));
        (q.clone(), q)
    }
    #[inline]
    fn send(tx: &mut Self::Tx, v: u64) {
        until(|| tx.push(v).ok())
    }
    #[inline]
    fn recv(rx: &mut Self::Rx) -> u64 {
        until(|| rx.pop())
    }
}

impl Shared for ArrayQueue {}

impl TryChannel for ArrayQueue {
    #[inline]
    fn try_send(tx: &mut Self::Tx, v: u64) -> Result<(), u64> {
        tx.push(v)
    }
    #[inline]
    fn try_recv(rx: &mut Self::Rx) -> Option<u64> {
        rx.pop()
    }
}
