//! async-channel `bounded` (smol's: `concurrent-queue` + `event-listener`),
//! through its blocking calls.

use crate::channel::{Channel, Kind, Shared};

/// `async_channel::bounded::<u64>`, `send_blocking`/`recv_blocking`.
pub struct AsyncChannel;

impl Channel for AsyncChannel {
    const NAME: &'static str = "async-channel";
    const KIND: Kind = Kind::Peer;
    const CRATE: Option<&'static str> = Some("async-channel");
    type Tx = async_channel::Sender<u64>;
    type Rx = async_channel::Receiver<u64>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        async_channel::bounded(capacity)
    }
    #[inline]
    fn send(tx: &mut Self::Tx, v: u64) {
        tx.send_blocking(v).expect("async-channel: receiver gone")
    }
    #[inline]
    fn recv(rx: &mut Self::Rx) -> u64 {
        rx.recv_blocking().expect("async-channel: sender gone")
    }
}

impl Shared for AsyncChannel {}
