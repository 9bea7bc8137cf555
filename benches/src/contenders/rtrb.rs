//! rtrb: the SPSC peer, chunks via `write_chunk_uninit` and `read_chunk`.

use crate::channel::{Channel, Kind, TryChannel};
use crate::wait::until;

/// `rtrb::RingBuffer<u64>`.
pub struct Rtrb;

impl Channel for Rtrb {
    const NAME: &'static str = "rtrb";
    const KIND: Kind = Kind::Peer;
    const CRATE: Option<&'static str> = Some("rtrb");
    type Tx = rtrb::Producer<u64>;
    type Rx = rtrb::Consumer<u64>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        rtrb::RingBuffer::new(capacity)
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
        let n = tx.slots().min(items.len());
        match tx.write_chunk_uninit(n) {
            Ok(chunk) => chunk.fill_from_iter(items[..n].iter().copied()),
            Err(_) => 0,
        }
    }
    #[inline]
    fn recv_slice(rx: &mut Self::Rx, out: &mut [u64]) -> usize {
        let n = rx.slots().min(out.len());
        let Ok(chunk) = rx.read_chunk(n) else {
            return 0;
        };
        let (a, b) = chunk.as_slices();
        out[..a.len()].copy_from_slice(a);
        out[a.len()..n].copy_from_slice(b);
        chunk.commit_all();
        n
    }
    const PEEK: bool = true;
    #[inline]
    fn peek(rx: &mut Self::Rx) -> Option<u64> {
        rx.peek().ok().copied()
    }
}

impl TryChannel for Rtrb {
    #[inline]
    fn try_send(tx: &mut Self::Tx, v: u64) -> Result<(), u64> {
        tx.push(v).map_err(|rtrb::PushError::Full(v)| v)
    }
    #[inline]
    fn try_recv(rx: &mut Self::Rx) -> Option<u64> {
        rx.pop().ok()
    }
}
