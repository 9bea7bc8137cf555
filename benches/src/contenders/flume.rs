//! flume `bounded`: blocking send/recv.

use crate::channel::{Channel, Kind, Shared};

/// `flume::bounded::<u64>`.
pub struct Flume;

impl Channel for Flume {
    const NAME: &'static str = "flume";
    const KIND: Kind = Kind::Peer;
    const CRATE: Option<&'static str> = Some("flume");
    type Tx = flume::Sender<u64>;
    type Rx = flume::Receiver<u64>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        flume::bounded(capacity)
    }
    #[inline]
    fn send(tx: &mut Self::Tx, v: u64) {
        tx.send(v).expect("flume: receiver gone")
    }
    #[inline]
    fn recv(rx: &mut Self::Rx) -> u64 {
        rx.recv().expect("flume: sender gone")
    }
}

impl Shared for Flume {}
