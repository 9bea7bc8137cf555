//! The async contenders of the `waiting` suite and their throughput
//! workload: a producer task and a consumer task on a tokio multi-thread
//! runtime with 2 workers, each awaiting its queue's own future.

use std::future::Future;
use std::marker::PhantomData;
use std::time::Instant;

use async_ringbuf::traits::{AsyncConsumer, AsyncProducer, Split};

use crate::async_channels::AsyncChan;
use crate::channel::Kind;

/// An async bounded queue of `u64`.
pub trait AsyncChannel: 'static {
    /// The row name.
    const NAME: &'static str;
    /// Ours or peer.
    const KIND: Kind;
    /// The sending end.
    type Tx: Send + 'static;
    /// The receiving end.
    type Rx: Send + 'static;
    /// A queue of at most `capacity` items.
    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx);
    /// Sends `v`, awaiting room.
    fn send(tx: &mut Self::Tx, v: u64) -> impl Future<Output = ()> + Send;
    /// Receives the next item, awaiting one.
    fn recv(rx: &mut Self::Rx) -> impl Future<Output = u64> + Send;
}

/// Something done once per async contender type.
pub trait AsyncVisitor {
    /// Called with each contender.
    fn visit<C: AsyncChannel>(&mut self);
}

/// A contender of the channels suite's async workloads
/// ([`AsyncChan`]) driven by this
/// suite's workload, so one adapter serves both (the probes compare, say,
/// the hotq-mpmc channel's futures with hotq-spsc's on the same workload).
pub struct FromChannels<C>(PhantomData<C>);

impl<C: AsyncChan> AsyncChannel for FromChannels<C> {
    const NAME: &'static str = C::NAME;
    const KIND: Kind = C::KIND;
    type Tx = C::Tx;
    type Rx = C::Rx;
    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        C::with_capacity(capacity)
    }
    fn send(tx: &mut Self::Tx, v: u64) -> impl Future<Output = ()> + Send {
        C::send(tx, v)
    }
    fn recv(rx: &mut Self::Rx) -> impl Future<Output = u64> + Send {
        C::recv(rx)
    }
}

/// `hotq_spsc` with `push_async` / `pop_async`.
pub struct HotqSpscAsync;

impl AsyncChannel for HotqSpscAsync {
    const NAME: &'static str = "hotq-spsc async";
    const KIND: Kind = Kind::Ours;
    type Tx = hotq_spsc::Producer<u64>;
    type Rx = hotq_spsc::Consumer<u64>;
    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        hotq_spsc::RingBuffer::new(capacity)
    }
    async fn send(tx: &mut Self::Tx, v: u64) {
        tx.push_async(v).await.expect("hotq-spsc: consumer gone")
    }
    async fn recv(rx: &mut Self::Rx) -> u64 {
        rx.pop_async().await.expect("hotq-spsc: producer gone")
    }
}

/// `hotq_spsc::stamped::RingBuffer::<u64>::with_waits`, with `push_async`
/// / `pop_async`: hotq-spsc's ring for single items, whose lines carry
/// their own stamps.
pub struct HotqSpscStampedAsync;

impl AsyncChannel for HotqSpscStampedAsync {
    const NAME: &'static str = "hotq-spsc stamped async";
    const KIND: Kind = Kind::Ours;
    type Tx = hotq_spsc::stamped::Producer<u64, true>;
    type Rx = hotq_spsc::stamped::Consumer<u64, true>;
    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        hotq_spsc::stamped::RingBuffer::with_waits(capacity)
    }
    async fn send(tx: &mut Self::Tx, v: u64) {
        tx.push_async(v)
            .await
            .expect("hotq-spsc stamped: consumer gone")
    }
    async fn recv(rx: &mut Self::Rx) -> u64 {
        rx.pop_async()
            .await
            .expect("hotq-spsc stamped: producer gone")
    }
}

/// `tokio::sync::mpsc::channel`.
pub struct TokioMpsc;

impl AsyncChannel for TokioMpsc {
    const NAME: &'static str = "tokio mpsc";
    const KIND: Kind = Kind::Peer;
    type Tx = tokio::sync::mpsc::Sender<u64>;
    type Rx = tokio::sync::mpsc::Receiver<u64>;
    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        tokio::sync::mpsc::channel(capacity)
    }
    async fn send(tx: &mut Self::Tx, v: u64) {
        tx.send(v).await.expect("tokio mpsc: receiver gone")
    }
    async fn recv(rx: &mut Self::Rx) -> u64 {
        rx.recv().await.expect("tokio mpsc: sender gone")
    }
}

/// `async_ringbuf::AsyncHeapRb<u64>`.
pub struct AsyncRingbuf;

impl AsyncChannel for AsyncRingbuf {
    const NAME: &'static str = "async-ringbuf";
    const KIND: Kind = Kind::Peer;
    type Tx = async_ringbuf::AsyncHeapProd<u64>;
    type Rx = async_ringbuf::AsyncHeapCons<u64>;
    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        async_ringbuf::AsyncHeapRb::<u64>::new(capacity).split()
    }
    async fn send(tx: &mut Self::Tx, v: u64) {
        if tx.push(v).await.is_err() {
            panic!("async-ringbuf: consumer gone");
        }
    }
    async fn recv(rx: &mut Self::Rx) -> u64 {
        rx.pop().await.expect("async-ringbuf: producer gone")
    }
}

/// `flume::bounded` with `send_async` / `recv_async`.
pub struct FlumeAsync;

impl AsyncChannel for FlumeAsync {
    const NAME: &'static str = "flume async";
    const KIND: Kind = Kind::Peer;
    type Tx = flume::Sender<u64>;
    type Rx = flume::Receiver<u64>;
    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        flume::bounded(capacity)
    }
    async fn send(tx: &mut Self::Tx, v: u64) {
        tx.send_async(v).await.expect("flume: receiver gone")
    }
    async fn recv(rx: &mut Self::Rx) -> u64 {
        rx.recv_async().await.expect("flume: sender gone")
    }
}

/// `async_channel::bounded` (smol's).
pub struct AsyncChannelBounded;

impl AsyncChannel for AsyncChannelBounded {
    const NAME: &'static str = "async-channel";
    const KIND: Kind = Kind::Peer;
    type Tx = async_channel::Sender<u64>;
    type Rx = async_channel::Receiver<u64>;
    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        async_channel::bounded(capacity)
    }
    async fn send(tx: &mut Self::Tx, v: u64) {
        tx.send(v).await.expect("async-channel: receiver gone")
    }
    async fn recv(rx: &mut Self::Rx) -> u64 {
        rx.recv().await.expect("async-channel: sender gone")
    }
}

/// `kanal::bounded_async`.
pub struct KanalAsync;

impl AsyncChannel for KanalAsync {
    const NAME: &'static str = "kanal async";
    const KIND: Kind = Kind::Peer;
    type Tx = kanal::AsyncSender<u64>;
    type Rx = kanal::AsyncReceiver<u64>;
    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        kanal::bounded_async(capacity)
    }
    async fn send(tx: &mut Self::Tx, v: u64) {
        tx.send(v).await.expect("kanal: receiver gone")
    }
    async fn recv(rx: &mut Self::Rx) -> u64 {
        rx.recv().await.expect("kanal: sender gone")
    }
}

/// Every async contender, ours first.
pub fn each_async(v: &mut impl AsyncVisitor) {
    v.visit::<HotqSpscAsync>();
    v.visit::<HotqSpscStampedAsync>();
    v.visit::<TokioMpsc>();
    v.visit::<AsyncRingbuf>();
    v.visit::<FlumeAsync>();
    v.visit::<AsyncChannelBounded>();
    v.visit::<KanalAsync>();
}

/// One run: `items` u64 from a producer task to a consumer task on a fresh
/// 2-worker runtime; M items/s from the consumer's own clock (first
/// receive to last), checked by the sum.
pub fn throughput<C: AsyncChannel>(items: u64, capacity: usize) -> f64 {
    throughput_on::<C>(items, capacity, 2)
}

/// [`throughput`] on a runtime of `workers` worker threads: with one, both
/// tasks share a thread, as on a current-thread runtime (for
/// `waiting_probe`; the report uses two).
pub fn throughput_on<C: AsyncChannel>(items: u64, capacity: usize, workers: usize) -> f64 {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .build()
        .expect("a tokio runtime");
    let (mut tx, mut rx) = C::with_capacity(capacity);
    rt.block_on(async move {
        let producer = tokio::spawn(async move {
            for i in 0..items {
                C::send(&mut tx, i).await;
            }
            tx
        });
        let consumer = tokio::spawn(async move {
            let t0 = Instant::now();
            let mut sum = 0u64;
            for _ in 0..items {
                sum = sum.wrapping_add(C::recv(&mut rx).await);
            }
            (t0.elapsed(), sum, rx)
        });
        let (took, sum, rx) = consumer.await.expect("consumer task");
        let tx = producer.await.expect("producer task");
        drop((tx, rx));
        assert_eq!(
            sum,
            items.wrapping_mul(items.wrapping_sub(1)) / 2,
            "{}: lost items",
            C::NAME
        );
        items as f64 / took.as_secs_f64() / 1e6
    })
}
