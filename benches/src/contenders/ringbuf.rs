//! ringbuf: the other SPSC peer (`HeapRb`, caching halves), slices and
//! `first` as peek.

use ringbuf::traits::{Consumer as _, Producer as _, Split as _};

use crate::channel::{Channel, Kind, TryChannel};
use crate::wait::until;

/// `ringbuf::HeapRb<u64>`, split.
pub struct Ringbuf;

impl Channel for Ringbuf {
    const NAME: &'static str = "ringbuf";
    const KIND: Kind = Kind::Peer;
    const CRATE: Option<&'static str> = Some("ringbuf");
    type Tx = ringbuf::HeapProd<u64>;
    type Rx = ringbuf::HeapCons<u64>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        ringbuf::HeapRb::new(capacity).split()
    }
    #[inline]
    fn send(tx: &mut Self::Tx, v: u64) {
        until(|| tx.try_push(v).ok())
    }
    #[inline]
    fn recv(rx: &mut Self::Rx) -> u64 {
        until(|| rx.try_pop())
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
        rx.first().copied()
    }
}

impl TryChannel for Ringbuf {
    #[inline]
    fn try_send(tx: &mut Self::Tx, v: u64) -> Result<(), u64> {
        tx.try_push(v)
    }
    #[inline]
    fn try_recv(rx: &mut Self::Rx) -> Option<u64> {
        rx.try_pop()
    }
}
