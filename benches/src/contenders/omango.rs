//! omango's bounded SPSC queue, which claims to beat rtrb under contention
//! (issue 37 asks for it beside rtrb and ringbuf).

use crate::channel::{Channel, Kind, TryChannel};
use crate::wait::until;

/// `omango::queue::spsc::bounded::<u64>`.
pub struct Omango;

impl Channel for Omango {
    const NAME: &'static str = "omango";
    const KIND: Kind = Kind::Peer;
    const CRATE: Option<&'static str> = Some("omango");
    type Tx = omango::queue::spsc::BSender<u64>;
    type Rx = omango::queue::spsc::BReceiver<u64>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        let size = u32::try_from(capacity).expect("omango takes a u32 capacity");
        omango::queue::spsc::bounded(size)
    }
    #[inline]
    fn send(tx: &mut Self::Tx, v: u64) {
        until(|| tx.try_send(v).ok())
    }
    #[inline]
    fn recv(rx: &mut Self::Rx) -> u64 {
        until(|| rx.try_recv().ok())
    }
}

impl TryChannel for Omango {
    #[inline]
    fn try_send(tx: &mut Self::Tx, v: u64) -> Result<(), u64> {
        tx.try_send(v).map_err(|e| match e {
            omango::error::TrySendError::Full(v) | omango::error::TrySendError::Disconnected(v) => {
                v
            }
        })
    }
    #[inline]
    fn try_recv(rx: &mut Self::Rx) -> Option<u64> {
        rx.try_recv().ok()
    }
}
