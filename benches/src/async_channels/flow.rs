//! The flow-control rows of the async half (issue 39): the same round as
//! [`throughput`](super::throughput()), with the tasks calling a channel's
//! batch receive (`recv_many`) or its reserve-then-send instead of the
//! single-item calls. Each workload has the single-item calls of the same
//! channel as a row beside them, so a goal reads batch ÷ single and
//! reserve ÷ plain send in one round.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use super::adapters::{HotqMpmcAsync, TokioMpsc};
use super::contender::AsyncChan;
use super::throughput::{CAPACITY, WORKERS};
use crate::workloads::mpmc::{STOP, Tally, Totals, item};

/// How a round's tasks call the channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Calls {
    /// `send` and `recv`, one item each.
    Single,
    /// `send` one item each; receive up to `limit` at once (`recv_many`).
    RecvMany(usize),
    /// Reserve a slot, then send into it; `recv` one item each.
    Reserve,
}

/// An async contender's flow-control calls.
pub trait AsyncFlow: AsyncChan {
    /// Appends up to `limit` items (at least one) to `buf`, waiting while
    /// the channel is empty.
    fn recv_many(
        rx: &mut Self::Rx,
        buf: &mut Vec<u64>,
        limit: usize,
    ) -> impl Future<Output = ()> + Send;
    /// Reserves a slot (waiting while full), then sends `v` into it.
    fn send_reserved(tx: &Self::Tx, v: u64) -> impl Future<Output = ()> + Send;
}

impl AsyncFlow for HotqMpmcAsync {
    async fn recv_many(rx: &mut Self::Rx, buf: &mut Vec<u64>, limit: usize) {
        rx.recv_many_async(buf, limit).await.expect("sender gone");
    }
    async fn send_reserved(tx: &Self::Tx, v: u64) {
        tx.reserve_async().await.expect("receiver gone").send(v);
    }
}

impl AsyncFlow for TokioMpsc {
    async fn recv_many(rx: &mut Self::Rx, buf: &mut Vec<u64>, limit: usize) {
        assert!(rx.recv_many(buf, limit).await > 0, "sender gone");
    }
    async fn send_reserved(tx: &Self::Tx, v: u64) {
        tx.reserve().await.expect("receiver gone").send(v);
    }
}

/// One round: M items/s from the first task's start to the last
/// consumer's stop, with `calls`.
pub fn throughput<C: AsyncFlow>(producers: u64, consumers: u64, items: u64, calls: Calls) -> f64 {
    assert!(
        consumers == 1 || C::MULTI_CONSUMER,
        "{}: one receiver",
        C::NAME
    );
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(WORKERS)
        .build()
        .expect("a tokio runtime");
    let (tx, rx) = C::with_capacity(CAPACITY);
    let per_producer = items / producers;
    let finished = Arc::new(AtomicU64::new(0));
    let totals = rt.block_on(async move {
        let ps: Vec<_> = (0..producers)
            .map(|p| {
                let (tx, finished) = (tx.clone(), finished.clone());
                tokio::spawn(async move {
                    let t0 = Instant::now();
                    for seq in 0..per_producer {
                        match calls {
                            Calls::Reserve => C::send_reserved(&tx, item(p, seq)).await,
                            _ => C::send(&tx, item(p, seq)).await,
                        }
                    }
                    // AcqRel: as in `workloads::mpmc`, the last producer's
                    // markers follow every producer's items.
                    if finished.fetch_add(1, Ordering::AcqRel) == producers - 1 {
                        for _ in 0..consumers {
                            C::send(&tx, STOP).await;
                        }
                    }
                    t0
                })
            })
            .collect();
        let mut rxs = vec![rx];
        while (rxs.len() as u64) < consumers {
            rxs.push(C::clone_rx(&rxs[0]));
        }
        let cs: Vec<_> = rxs
            .into_iter()
            .map(|mut rx| {
                // A batch may hold another consumer's stop marker too: it
                // goes back into the channel.
                let tx = tx.clone();
                tokio::spawn(async move {
                    let t0 = Instant::now();
                    let mut tally = Tally::new(C::NAME, producers);
                    match calls {
                        Calls::RecvMany(limit) => {
                            let mut buf = Vec::with_capacity(limit);
                            loop {
                                C::recv_many(&mut rx, &mut buf, limit).await;
                                let stops = buf.drain(..).filter(|&v| !tally.take(v)).count();
                                if stops > 0 {
                                    for _ in 1..stops {
                                        C::send(&tx, STOP).await;
                                    }
                                    break;
                                }
                            }
                        }
                        _ => while tally.take(C::recv(&mut rx).await) {},
                    }
                    (t0, Instant::now(), tally)
                })
            })
            .collect();
        drop(tx);
        let mut totals = Totals::default();
        for c in cs {
            let (t0, t1, tally) = c.await.expect("consumer panicked");
            totals.consumer(t0, t1, tally);
        }
        for p in ps {
            totals.producer(p.await.expect("producer panicked"));
        }
        totals
    });
    totals.throughput(C::NAME, producers, per_producer)
}
