//! hotq-mpmc's channel: ours, MPMC, waiting in its own blocking calls
//! (`hotq-mpmc-channel`), or driven through `try_send`/`try_recv` by the
//! harness's spin-and-yield like the try-only queues
//! (`hotq-mpmc-channel-try`: the try path's cost, for callgrind).

use crate::channel::{Channel, Kind, Shared};
use crate::wait::until;

/// `hotq_mpmc::bounded::<u64>`, blocking `send`/`recv`.
pub struct HotqMpmcChannel;

impl Channel for HotqMpmcChannel {
    const NAME: &'static str = "hotq-mpmc-channel";
    const KIND: Kind = Kind::Ours;
    const CRATE: Option<&'static str> = Some("hotq-mpmc");
    type Tx = hotq_mpmc::Sender<u64>;
    type Rx = hotq_mpmc::Receiver<u64>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        hotq_mpmc::bounded(capacity)
    }
    #[inline]
    fn send(tx: &mut Self::Tx, v: u64) {
        tx.send(v).expect("hotq-mpmc channel: receiver gone")
    }
    #[inline]
    fn recv(rx: &mut Self::Rx) -> u64 {
        rx.recv().expect("hotq-mpmc channel: sender gone")
    }
}

impl Shared for HotqMpmcChannel {}

/// `hotq_mpmc::bounded::<u64>`, `try_send`/`try_recv` in the harness's
/// spin-and-yield loop.
pub struct HotqMpmcChannelTry;

impl Channel for HotqMpmcChannelTry {
    const NAME: &'static str = "hotq-mpmc-channel-try";
    const KIND: Kind = Kind::Ours;
    const CRATE: Option<&'static str> = Some("hotq-mpmc");
    type Tx = hotq_mpmc::Sender<u64>;
    type Rx = hotq_mpmc::Receiver<u64>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        hotq_mpmc::bounded(capacity)
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

impl Shared for HotqMpmcChannelTry {}
