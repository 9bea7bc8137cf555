//! What an async contender implements: [`AsyncChan`].

use std::future::Future;

use crate::channel::Kind;

/// An async channel of `u64`, as a contender.
pub trait AsyncChan: 'static {
    /// The name in the tables.
    const NAME: &'static str;
    /// Ours, a peer or a baseline.
    const KIND: Kind;
    /// Whether its receiver can be shared (else: one-consumer shapes only).
    const MULTI_CONSUMER: bool;
    /// The sending end.
    type Tx: Clone + Send + Sync + 'static;
    /// The receiving end.
    type Rx: Send + 'static;
    /// A channel of `capacity`.
    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx);
    /// Another receiver, when [`MULTI_CONSUMER`](Self::MULTI_CONSUMER).
    fn clone_rx(rx: &Self::Rx) -> Self::Rx;
    /// Sends `v`, waiting while full.
    fn send(tx: &Self::Tx, v: u64) -> impl Future<Output = ()> + Send;
    /// Receives, waiting while empty.
    fn recv(rx: &mut Self::Rx) -> impl Future<Output = u64> + Send;
}

/// Something done once per async contender.
pub trait AsyncVisitor {
    /// Called with each contender.
    fn visit<C: AsyncChan>(&mut self);
}
