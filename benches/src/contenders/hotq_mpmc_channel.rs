//! hotq-mpmc's channel: ours, MPMC, waiting in its own blocking calls
//! (`hotq-mpmc-channel`), or driven through `try_send`/`try_recv` by the
//! harness's spin-and-yield like the try-only queues
//! (`hotq-mpmc-channel-try`: the try path's cost, for callgrind), or in
//! batches of [`BATCH`] (`send_many`, `recv_many`), as a user gathers
//! items to move them at one claim each (issue 39's batch rows).

use crate::channel::{Channel, Kind, Shared};
use crate::wait::until;
use crate::workloads::mpmc::STOP;

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

/// The items a batch sends and the most a batch receive takes.
pub const BATCH: usize = 256;

/// `hotq_mpmc::bounded::<u64>` in batches: `send` gathers [`BATCH`] items
/// and sends them with one `send_many` (the rest at `flush`); `recv` hands
/// out the items of one `recv_many` of up to [`BATCH`].
pub struct HotqMpmcChannelBatch;

/// A sender and the items gathered for its next `send_many`.
pub struct BatchTx {
    tx: hotq_mpmc::Sender<u64>,
    gathered: Vec<u64>,
}

impl Clone for BatchTx {
    fn clone(&self) -> Self {
        BatchTx {
            tx: self.tx.clone(),
            gathered: Vec::with_capacity(BATCH),
        }
    }
}

/// A receiver, the last batch it took, and a sender to give back stop
/// markers meant for other consumers.
pub struct BatchRx {
    rx: hotq_mpmc::Receiver<u64>,
    back: hotq_mpmc::Sender<u64>,
    batch: Vec<u64>,
    next: usize,
}

impl Clone for BatchRx {
    fn clone(&self) -> Self {
        BatchRx::new(self.rx.clone(), self.back.clone())
    }
}

impl Channel for HotqMpmcChannelBatch {
    const NAME: &'static str = "hotq-mpmc-channel send_many+recv_many";
    const KIND: Kind = Kind::Ours;
    const CRATE: Option<&'static str> = Some("hotq-mpmc");
    type Tx = BatchTx;
    type Rx = BatchRx;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        let (tx, rx) = hotq_mpmc::bounded(capacity);
        let back = tx.clone();
        let tx = BatchTx {
            tx,
            gathered: Vec::with_capacity(BATCH),
        };
        (tx, BatchRx::new(rx, back))
    }
    #[inline]
    fn send(tx: &mut Self::Tx, v: u64) {
        tx.gathered.push(v);
        if tx.gathered.len() == BATCH {
            Self::flush(tx);
        }
    }
    #[inline]
    fn flush(tx: &mut Self::Tx) {
        tx.tx
            .send_many(&mut tx.gathered)
            .expect("hotq-mpmc channel: receiver gone")
    }
    #[inline]
    fn recv(rx: &mut Self::Rx) -> u64 {
        rx.next_item()
    }
}

impl Shared for HotqMpmcChannelBatch {}

impl BatchRx {
    /// The next item of the last `recv_many` of up to [`BATCH`], after
    /// taking another batch when this one is used up.
    #[inline]
    fn next_item(&mut self) -> u64 {
        if self.next == self.batch.len() {
            self.batch.clear();
            self.next = 0;
            self.rx
                .recv_many(&mut self.batch, BATCH)
                .expect("hotq-mpmc channel: sender gone");
            // The consumer stops at its first stop marker: any more in
            // this batch are other consumers', and go back.
            if let Some(first) = self.batch.iter().position(|&v| v == STOP) {
                let others = self.batch[first + 1..]
                    .iter()
                    .filter(|&&v| v == STOP)
                    .count();
                self.batch.truncate(first + 1);
                for _ in 0..others {
                    self.back
                        .send(STOP)
                        .expect("hotq-mpmc channel: receiver gone");
                }
            }
        }
        self.next += 1;
        self.batch[self.next - 1]
    }

    fn new(rx: hotq_mpmc::Receiver<u64>, back: hotq_mpmc::Sender<u64>) -> Self {
        BatchRx {
            rx,
            back,
            batch: Vec::with_capacity(BATCH),
            next: 0,
        }
    }
}

/// `hotq_mpmc::bounded::<u64>`, senders sending one item at a time
/// (`send`) and receivers taking up to [`BATCH`] at a time (`recv_many`):
/// events from many sources drained in batches, the shape in which a
/// batch receive once kept pace with its senders and slowed them five-fold
/// (docs/goals-missed.md, "A batch receive that keeps pace").
pub struct HotqMpmcChannelRecvMany;

impl Channel for HotqMpmcChannelRecvMany {
    const NAME: &'static str = "hotq-mpmc-channel send+recv_many";
    const KIND: Kind = Kind::Ours;
    const CRATE: Option<&'static str> = Some("hotq-mpmc");
    type Tx = hotq_mpmc::Sender<u64>;
    type Rx = BatchRx;

    fn with_capacity(capacity: usize) -> (Self::Tx, Self::Rx) {
        let (tx, rx) = hotq_mpmc::bounded(capacity);
        let back = tx.clone();
        (tx, BatchRx::new(rx, back))
    }
    #[inline]
    fn send(tx: &mut Self::Tx, v: u64) {
        tx.send(v).expect("hotq-mpmc channel: receiver gone")
    }
    #[inline]
    fn recv(rx: &mut Self::Rx) -> u64 {
        rx.next_item()
    }
}

impl Shared for HotqMpmcChannelRecvMany {}
