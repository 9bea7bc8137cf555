//! The async contenders: a few lines each, over each crate's own async
//! send and receive.

use super::contender::AsyncChan;
use crate::channel::Kind;

/// `hotq_mpmc::bounded`, `send_async`/`recv_async`.
pub struct HotqMpmcAsync;

impl AsyncChan for HotqMpmcAsync {
    const NAME: &'static str = "hotq-mpmc-channel";
    const KIND: Kind = Kind::Ours;
    const MULTI_CONSUMER: bool = true;
    type Tx = hotq_mpmc::Sender<u64>;
    type Rx = hotq_mpmc::Receiver<u64>;
    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        hotq_mpmc::bounded(capacity)
    }
    fn clone_rx(rx: &Self::Rx) -> Self::Rx {
        rx.clone()
    }
    async fn send(tx: &Self::Tx, v: u64) {
        tx.send_async(v).await.expect("receiver gone")
    }
    async fn recv(rx: &mut Self::Rx) -> u64 {
        rx.recv_async().await.expect("sender gone")
    }
}

/// `tokio::sync::mpsc::channel` (one consumer).
pub struct TokioMpsc;

impl AsyncChan for TokioMpsc {
    const NAME: &'static str = "tokio mpsc";
    const KIND: Kind = Kind::Peer;
    const MULTI_CONSUMER: bool = false;
    type Tx = tokio::sync::mpsc::Sender<u64>;
    type Rx = tokio::sync::mpsc::Receiver<u64>;
    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        tokio::sync::mpsc::channel(capacity)
    }
    fn clone_rx(_: &Self::Rx) -> Self::Rx {
        unreachable!("tokio mpsc has one receiver")
    }
    async fn send(tx: &Self::Tx, v: u64) {
        tx.send(v).await.expect("receiver gone")
    }
    async fn recv(rx: &mut Self::Rx) -> u64 {
        rx.recv().await.expect("sender gone")
    }
}

/// `async_channel::bounded` (smol's).
pub struct AsyncChannelCrate;

impl AsyncChan for AsyncChannelCrate {
    const NAME: &'static str = "async-channel";
    const KIND: Kind = Kind::Peer;
    const MULTI_CONSUMER: bool = true;
    type Tx = async_channel::Sender<u64>;
    type Rx = async_channel::Receiver<u64>;
    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        async_channel::bounded(capacity)
    }
    fn clone_rx(rx: &Self::Rx) -> Self::Rx {
        rx.clone()
    }
    async fn send(tx: &Self::Tx, v: u64) {
        tx.send(v).await.expect("receiver gone")
    }
    async fn recv(rx: &mut Self::Rx) -> u64 {
        rx.recv().await.expect("sender gone")
    }
}

/// `flume::bounded`, `send_async`/`recv_async`.
pub struct FlumeAsync;

impl AsyncChan for FlumeAsync {
    const NAME: &'static str = "flume";
    const KIND: Kind = Kind::Peer;
    const MULTI_CONSUMER: bool = true;
    type Tx = flume::Sender<u64>;
    type Rx = flume::Receiver<u64>;
    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        flume::bounded(capacity)
    }
    fn clone_rx(rx: &Self::Rx) -> Self::Rx {
        rx.clone()
    }
    async fn send(tx: &Self::Tx, v: u64) {
        tx.send_async(v).await.expect("receiver gone")
    }
    async fn recv(rx: &mut Self::Rx) -> u64 {
        rx.recv_async().await.expect("sender gone")
    }
}

/// `kanal::bounded_async`.
pub struct KanalAsync;

impl AsyncChan for KanalAsync {
    const NAME: &'static str = "kanal";
    const KIND: Kind = Kind::Peer;
    const MULTI_CONSUMER: bool = true;
    type Tx = kanal::AsyncSender<u64>;
    type Rx = kanal::AsyncReceiver<u64>;
    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        kanal::bounded_async(capacity)
    }
    fn clone_rx(rx: &Self::Rx) -> Self::Rx {
        rx.clone()
    }
    async fn send(tx: &Self::Tx, v: u64) {
        tx.send(v).await.expect("receiver gone")
    }
    async fn recv(rx: &mut Self::Rx) -> u64 {
        rx.recv().await.expect("sender gone")
    }
}

/// `thingbuf::mpsc::channel` (one consumer; slots reused in place).
pub struct Thingbuf;

impl AsyncChan for Thingbuf {
    const NAME: &'static str = "thingbuf";
    const KIND: Kind = Kind::Peer;
    const MULTI_CONSUMER: bool = false;
    type Tx = thingbuf::mpsc::Sender<u64>;
    type Rx = thingbuf::mpsc::Receiver<u64>;
    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        thingbuf::mpsc::channel(capacity)
    }
    fn clone_rx(_: &Self::Rx) -> Self::Rx {
        unreachable!("thingbuf's mpsc has one receiver")
    }
    async fn send(tx: &Self::Tx, v: u64) {
        tx.send(v).await.expect("receiver gone")
    }
    async fn recv(rx: &mut Self::Rx) -> u64 {
        rx.recv().await.expect("sender gone")
    }
}
