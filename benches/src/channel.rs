//! What a queue must offer to enter the report: one small adapter per
//! contender (a file in `contenders/`) implements [`Channel`], and
//! [`Shared`] when its ends may be cloned for several producers/consumers.

/// Which row group a contender belongs to; the report's ratios use it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A hotq crate.
    Ours,
    /// A peer crate from crates.io.
    Peer,
    /// A lock-based queue written here from std parts.
    Baseline,
    /// The physical floor: no queue logic at all.
    Limit,
}

impl Kind {
    /// The name the JSON and the tables use.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Ours => "ours",
            Kind::Peer => "peer",
            Kind::Baseline => "baseline",
            Kind::Limit => "limit",
        }
    }
}

/// A bounded queue of `u64`, split into a sending and a receiving end.
///
/// `send`/`recv` wait the way a user of that queue would: the blocking
/// queues block, the try-only queues spin through [`crate::wait::Backoff`].
pub trait Channel: 'static {
    /// The row name in the report.
    const NAME: &'static str;
    /// Ours, peer or baseline.
    const KIND: Kind;
    /// The crate whose version the header names (`None` for std-only code).
    const CRATE: Option<&'static str>;
    /// The sending end.
    type Tx: Send + 'static;
    /// The receiving end.
    type Rx: Send + 'static;

    /// A queue holding at most `capacity` items.
    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx);
    /// Sends `v`, waiting while the queue is full.
    fn send(tx: &mut Self::Tx, v: u64);
    /// Receives the next item, waiting while the queue is empty.
    fn recv(rx: &mut Self::Rx) -> u64;
    /// Sends what `send` kept back, waiting while the queue is full: a
    /// producer calls it after its last `send`. Only a contender that
    /// gathers items into batches keeps any back.
    #[inline]
    fn flush(_tx: &mut Self::Tx) {}

    /// Whether [`send_slice`](Channel::send_slice) and
    /// [`recv_slice`](Channel::recv_slice) exist for this contender.
    const SLICES: bool = false;
    /// Sends a prefix of `items` without waiting; returns its length.
    fn send_slice(_tx: &mut Self::Tx, _items: &[u64]) -> usize {
        unimplemented!("{} has no batch send", Self::NAME)
    }
    /// Receives up to `out.len()` items without waiting; returns how many.
    fn recv_slice(_rx: &mut Self::Rx, _out: &mut [u64]) -> usize {
        unimplemented!("{} has no batch receive", Self::NAME)
    }

    /// Whether [`peek`](Channel::peek) exists for this contender.
    const PEEK: bool = false;
    /// The next item, left in the queue (`None` when empty).
    fn peek(_rx: &mut Self::Rx) -> Option<u64> {
        unimplemented!("{} has no peek", Self::NAME)
    }
}

/// A [`Channel`] whose ends may be cloned: usable with several producers
/// and consumers.
pub trait Shared: Channel<Tx: Clone + Send, Rx: Clone + Send> {}

/// A queue's own try calls (an SPSC ring's, or an MPMC queue's used by one
/// producer and one consumer), for workloads that choose how the caller
/// waits (the regime grid, `workloads::regime`) instead of the
/// report's one wait loop in [`Channel::send`]/[`Channel::recv`].
pub trait TryChannel: Channel {
    /// Sends `v` if there is room now, else gives it back.
    fn try_send(tx: &mut Self::Tx, v: u64) -> Result<(), u64>;
    /// The next item, if there is one now.
    fn try_recv(rx: &mut Self::Rx) -> Option<u64>;
}
