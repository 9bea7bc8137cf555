//! hotq-mpmc: ours, MPMC, shared through an `Arc`.

use std::sync::Arc;

use crate::channel::{Channel, Kind, Shared, TryChannel};
use crate::wait::until;

/// `hotq_mpmc::Queue<u64>`.
pub struct HotqMpmc;

impl Channel for HotqMpmc {
    const NAME: &'static str = "hotq-mpmc";
    const KIND: Kind = Kind::Ours;
    const CRATE: Option<&'static str> = Some("hotq-mpmc");
    type Tx = Arc<hotq_mpmc::Queue<u64>>;
    type Rx = Arc<hotq_mpmc::Queue<u64>>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        let q = Arc::new(hotq_mpmc::Queue::new(capacity));
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

impl Shared for HotqMpmc {}

impl TryChannel for HotqMpmc {
    #[inline]
    fn try_send(tx: &mut Self::Tx, v: u64) -> Result<(), u64> {
        tx.push(v)
    }
    #[inline]
    fn try_recv(rx: &mut Self::Rx) -> Option<u64> {
        rx.pop()
    }
}
