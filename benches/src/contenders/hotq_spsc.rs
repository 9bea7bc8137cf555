//! hotq-spsc: ours, SPSC, with slices and peek; and the same ring with
//! fenced wait slots, to measure what the asymmetric barrier saves.

use crate::channel::{Channel, Kind, TryChannel};
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

impl TryChannel for HotqSpsc {
    #[inline]
    fn try_send(tx: &mut Self::Tx, v: u64) -> Result<(), u64> {
        tx.push(v).map_err(|hotq_spsc::PushError::Full(v)| v)
    }
    #[inline]
    fn try_recv(rx: &mut Self::Rx) -> Option<u64> {
        rx.pop().ok()
    }
}

/// `hotq_spsc::RingBuffer<u64>` built with fenced wait slots
/// (`RingBuffer::fenced`, a test hook): every push and pop runs a
/// `fence(SeqCst)` before its waiter check, as on a system without
/// `membarrier`. Not in the report's suites: the alternative the
/// asymmetric barrier was chosen over, for `hot_path` and
/// `spsc_fenced_ab`.
pub struct HotqSpscFenced;

impl Channel for HotqSpscFenced {
    const NAME: &'static str = "hotq-spsc-fenced";
    const KIND: Kind = Kind::Ours;
    const CRATE: Option<&'static str> = Some("hotq-spsc");
    type Tx = hotq_spsc::Producer<u64>;
    type Rx = hotq_spsc::Consumer<u64>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        hotq_spsc::RingBuffer::fenced(capacity).expect("a capacity the report uses")
    }
    #[inline]
    fn send(tx: &mut Self::Tx, v: u64) {
        HotqSpsc::send(tx, v)
    }
    #[inline]
    fn recv(rx: &mut Self::Rx) -> u64 {
        HotqSpsc::recv(rx)
    }
    const SLICES: bool = true;
    #[inline]
    fn send_slice(tx: &mut Self::Tx, items: &[u64]) -> usize {
        HotqSpsc::send_slice(tx, items)
    }
    #[inline]
    fn recv_slice(rx: &mut Self::Rx, out: &mut [u64]) -> usize {
        HotqSpsc::recv_slice(rx, out)
    }
    const PEEK: bool = true;
    #[inline]
    fn peek(rx: &mut Self::Rx) -> Option<u64> {
        HotqSpsc::peek(rx)
    }
}
