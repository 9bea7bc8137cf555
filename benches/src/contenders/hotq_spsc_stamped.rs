//! hotq-spsc's stamped ring (`hotq_spsc::stamped`): single items, each
//! line of the storage carrying its own publication stamp.

use crate::channel::{Channel, Kind, TryChannel};
use crate::wait::until;

/// `hotq_spsc::stamped::RingBuffer<u64>`.
pub struct HotqSpscStamped;

impl Channel for HotqSpscStamped {
    const NAME: &'static str = "hotq-spsc stamped";
    const KIND: Kind = Kind::Ours;
    const CRATE: Option<&'static str> = Some("hotq-spsc");
    type Tx = hotq_spsc::stamped::Producer<u64>;
    type Rx = hotq_spsc::stamped::Consumer<u64>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        hotq_spsc::stamped::RingBuffer::new(capacity)
    }
    #[inline]
    fn send(tx: &mut Self::Tx, v: u64) {
        until(|| tx.push(v).ok())
    }
    #[inline]
    fn recv(rx: &mut Self::Rx) -> u64 {
        until(|| rx.pop().ok())
    }
    const PEEK: bool = true;
    #[inline]
    fn peek(rx: &mut Self::Rx) -> Option<u64> {
        rx.peek().ok().copied()
    }
}

impl TryChannel for HotqSpscStamped {
    #[inline]
    fn try_send(tx: &mut Self::Tx, v: u64) -> Result<(), u64> {
        tx.push(v).map_err(|hotq_spsc::PushError::Full(v)| v)
    }
    #[inline]
    fn try_recv(rx: &mut Self::Rx) -> Option<u64> {
        rx.pop().ok()
    }
}
