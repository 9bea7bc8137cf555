//! kanal `bounded`: blocking send/recv.

use crate::channel::{Channel, Kind, Shared};

/// `kanal::bounded::<u64>`.
pub struct Kanal;

impl Channel for Kanal {
    const NAME: &'static str = "kanal";
    const KIND: Kind = Kind::Peer;
    const CRATE: Option<&'static str> = Some("kanal");
    type Tx = kanal::Sender<u64>;
    type Rx = kanal::Receiver<u64>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        kanal::bounded(capacity)
    }
    #[inline]
    fn send(tx: &mut Self::Tx, v: u64) {
        tx.send(v).expect("kanal: receiver gone")
    }
    #[inline]
    fn recv(rx: &mut Self::Rx) -> u64 {
        rx.recv().expect("kanal: sender gone")
    }
}

impl Shared for Kanal {}
