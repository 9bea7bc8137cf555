//! hotq-spsc: ours, SPSC, with slices and peek.

use crate::channel::{Channel, Kind};
use crate::wait::until;

/// `hotq_spsc::RingBuffer<u64>`.
pub struct HotqSpsc;

impl Channel for HotqSpsc {
    const NAME: &'static str = "hotq-spsc";
    const KIND: Kind = Kind::Ours;
    const CRATE: Option<&'static str> = Some("hotq-spsc");
    type Tx = hotq_spsc::Producer<u64>;
    type Rx = hotq_spsc::Consumer<u64>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        hotq_spsc::RingBuffer::new(capacity)
    }
    #[inline]
    fn send(tx: &mut Self::Tx, v: u64) {
        until(|| tx.push(v).ok())
    }
    #[inline]
    fn recv(rx: &mut Self::Rx) -> u64 {
        until(|| rx.pop().ok())
    }
    const SLICES: bool = true;
    #[inline]
    fn send_slice(tx: &mut Self::Tx, items: &[u64]) -> usize {
        tx.push_slice(items)
    }
    #[inline]
    fn recv_slice(rx: &mut Self::Rx, out: &mut [u64]) -> usize {
        rx.pop_slice(out)
    }
    const PEEK: bool = true;
    #[inline]
    fn peek(rx: &mut Self::Rx) -> Option<u64> {
        rx.peek().ok().copied()
    }
}
