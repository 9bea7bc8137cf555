//! The blocking contenders of the `waiting` suite: each end waits in its
//! queue's own blocking call (ours: `push_timeout`/`pop_timeout`), so the
//! figures include parking and waking. Contenders that already block in
//! the other suites (crossbeam-channel, sync_channel, flume, kanal,
//! Mutex+Condvar) are reused as they are.

use std::sync::Arc;
use std::time::Duration;

use ringbuf_blocking::traits::Split;

use crate::channel::{Channel, Kind};
use crate::contenders::{
    ChannelVisitor, CondvarQueue, CrossbeamChannel, Flume, Kanal, SyncChannel,
};

/// No timeout in a benchmark: long enough never to pass.
const FOREVER: Duration = Duration::from_secs(3600);

/// `hotq_spsc::RingBuffer<u64>` with `push_timeout` / `pop_timeout`.
pub struct HotqSpscBlocking;

impl Channel for HotqSpscBlocking {
    const NAME: &'static str = "hotq-spsc blocking";
    const KIND: Kind = Kind::Ours;
    const CRATE: Option<&'static str> = Some("hotq-spsc");
    type Tx = hotq_spsc::Producer<u64>;
    type Rx = hotq_spsc::Consumer<u64>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        hotq_spsc::RingBuffer::new(capacity)
    }
    #[inline]
    fn send(tx: &mut Self::Tx, v: u64) {
        tx.push_timeout(v, FOREVER)
            .expect("hotq-spsc: consumer gone")
    }
    #[inline]
    fn recv(rx: &mut Self::Rx) -> u64 {
        rx.pop_timeout(FOREVER).expect("hotq-spsc: producer gone")
    }
}

/// `hotq_spsc::stamped::RingBuffer::<u64>::with_waits`, with
/// `push_timeout` / `pop_timeout`: hotq-spsc's ring for single items, whose lines carry
/// their own stamps.
pub struct HotqSpscStampedBlocking;

impl Channel for HotqSpscStampedBlocking {
    const NAME: &'static str = "hotq-spsc stamped blocking";
    const KIND: Kind = Kind::Ours;
    const CRATE: Option<&'static str> = Some("hotq-spsc");
    type Tx = hotq_spsc::stamped::Producer<u64, true>;
    type Rx = hotq_spsc::stamped::Consumer<u64, true>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        hotq_spsc::stamped::RingBuffer::with_waits(capacity)
    }
    #[inline]
    fn send(tx: &mut Self::Tx, v: u64) {
        tx.push_timeout(v, FOREVER)
            .expect("hotq-spsc stamped: consumer gone")
    }
    #[inline]
    fn recv(rx: &mut Self::Rx) -> u64 {
        rx.pop_timeout(FOREVER)
            .expect("hotq-spsc stamped: producer gone")
    }
}

type BlockingRb = ringbuf_blocking::BlockingHeapRb<u64>;

/// `ringbuf_blocking::BlockingHeapRb<u64>`, blocking `push`/`pop` (no
/// timeout set: they wait for ever).
pub struct RingbufBlocking;

impl Channel for RingbufBlocking {
    const NAME: &'static str = "ringbuf-blocking";
    const KIND: Kind = Kind::Peer;
    const CRATE: Option<&'static str> = Some("ringbuf-blocking");
    type Tx = ringbuf_blocking::BlockingProd<Arc<BlockingRb>>;
    type Rx = ringbuf_blocking::BlockingCons<Arc<BlockingRb>>;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        BlockingRb::new(capacity).split()
    }
    #[inline]
    fn send(tx: &mut Self::Tx, v: u64) {
        if tx.push(v).is_err() {
            panic!("ringbuf-blocking: consumer gone");
        }
    }
    #[inline]
    fn recv(rx: &mut Self::Rx) -> u64 {
        rx.pop().expect("ringbuf-blocking: producer gone")
    }
}

/// Every blocking contender, ours first.
pub fn each_blocking(v: &mut impl ChannelVisitor) {
    v.visit::<HotqSpscBlocking>();
    v.visit::<HotqSpscStampedBlocking>();
    v.visit::<CrossbeamChannel>();
    v.visit::<SyncChannel>();
    v.visit::<Flume>();
    v.visit::<Kanal>();
    v.visit::<RingbufBlocking>();
    v.visit::<CondvarQueue>();
}
