//! crossbeam-channel `bounded`: blocking send/recv (it spins, then parks).

use crate::channel::{Channel, Kind, Shared};

/// `crossbeam_channel::bounded::<u64>`.
pub struct CrossbeamChannel;

impl Channel for CrossbeamChannel {
    const NAME: &'static str = "crossbeam-channel";
    const KIND: Kind = Kind::Peer;
    const CRATE: Option<&'static str> = Some("crossbeam-channel");
    type Tx = crossbeam_channel::Sender<u64>;
    type Rx = crossbeam_channel::Receiver<u64>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        crossbeam_channel::bounded(capacity)
    }
    #[inline]
    fn send(tx: &mut Self::Tx, v: u64) {
        tx.send(v).expect("crossbeam-channel: receiver gone")
    }
    #[inline]
    fn recv(rx: &mut Self::Rx) -> u64 {
        rx.recv().expect("crossbeam-channel: sender gone")
    }
}

impl Shared for CrossbeamChannel {}
