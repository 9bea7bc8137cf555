//! `std::sync::mpsc::sync_channel`: blocking send/recv. Its receiver cannot
//! be cloned, so it is not [`Shared`](crate::channel::Shared) and runs in
//! the one-consumer workloads only.

use std::sync::mpsc;

use crate::channel::{Channel, Kind};

/// `std::sync::mpsc::sync_channel::<u64>`.
pub struct SyncChannel;

impl Channel for SyncChannel {
    const NAME: &'static str = "mpsc::sync_channel";
    const KIND: Kind = Kind::Baseline;
    const CRATE: Option<&'static str> = None;
    type Tx = mpsc::SyncSender<u64>;
    type Rx = mpsc::Receiver<u64>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        mpsc::sync_channel(capacity)
    }
    #[inline]
    fn send(tx: &mut Self::Tx, v: u64) {
        tx.send(v).expect("sync_channel: receiver gone")
    }
    #[inline]
    fn recv(rx: &mut Self::Rx) -> u64 {
        rx.recv().expect("sync_channel: sender gone")
    }
}
