//! One round of the async shapes: P producer tasks and C consumer tasks
//! on a tokio multi-thread runtime, through one [`AsyncChan`].

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use super::contender::AsyncChan;
use crate::workloads::mpmc::{STOP, Tally, Totals, item};

/// Capacity of every channel.
pub const CAPACITY: usize = 1024;
/// Worker threads of the runtime.
pub const WORKERS: usize = 2;

/// One round: M items/s from the first task's start to the last
/// consumer's stop.
pub fn throughput<C: AsyncChan>(producers: u64, consumers: u64, items: u64) -> f64 {
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
                        C::send(&tx, item(p, seq)).await;
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
        drop(tx);
        let mut rxs = vec![rx];
        while (rxs.len() as u64) < consumers {
            rxs.push(C::clone_rx(&rxs[0]));
        }
        let cs: Vec<_> = rxs
            .into_iter()
            .map(|mut rx| {
                tokio::spawn(async move {
                    let t0 = Instant::now();
                    let mut tally = Tally::new(C::NAME, producers);
                    while tally.take(C::recv(&mut rx).await) {}
                    (t0, Instant::now(), tally)
                })
            })
            .collect();
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
