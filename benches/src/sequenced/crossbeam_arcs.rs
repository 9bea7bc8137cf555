//! The paper's baseline, with crossbeam-channel: one bounded channel per
//! arc of the topology and one thread per consumer, forwarding each event
//! along its out-arcs after its handler ran.

use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

use crossbeam_channel::{Receiver, Sender, bounded};

use super::ring::{Publisher, Ring};
use super::tally::Handler;
use super::topology::Topology;
use crate::channel::Kind;

/// Joins the consumer threads when the last publisher lets go of it.
struct Joiner(Mutex<Vec<JoinHandle<()>>>);

impl Drop for Joiner {
    fn drop(&mut self) {
        let threads = std::mem::take(self.0.get_mut().unwrap_or_else(|e| e.into_inner()));
        for t in threads {
            t.join().expect("consumer thread panicked");
        }
    }
}

/// Sends each event on every out-arc of the producer.
struct Arcs {
    // Field order is drop order: the senders go first, so the consumers see
    // the channels close, drain them and end; then the joiner waits for them.
    out: Vec<Sender<u64>>,
    _joiner: Arc<Joiner>,
}

impl Publisher for Arcs {
    #[inline]
    fn publish(&mut self, v: u64) {
        for tx in &self.out {
            tx.send(v).expect("a consumer ended early");
        }
    }
    fn shutdown(self: Box<Self>) {
        drop(self);
    }
}

/// A consumer: for each event on `rx`, run `h` and forward it on `out`.
fn stage(mut h: Handler, rx: Receiver<u64>, out: Vec<Sender<u64>>) -> JoinHandle<()> {
    thread::spawn(move || {
        for v in rx {
            h.on(v);
            for tx in &out {
                tx.send(v).expect("a consumer ended early");
            }
        }
    })
}

/// The diamond's last consumer: an event counts once it came on both
/// in-arcs (they carry the same events in the same order).
fn join_stage(mut h: Handler, a: Receiver<u64>, b: Receiver<u64>) -> JoinHandle<()> {
    thread::spawn(move || {
        for v in a {
            let w = b.recv().expect("the two arcs of the diamond disagree");
            assert_eq!(v, w, "the two arcs of the diamond disagree");
            h.on(v);
        }
    })
}

/// crossbeam-channel bounded, one channel per arc.
pub struct CrossbeamArcs;

impl Ring for CrossbeamArcs {
    const NAME: &'static str = "crossbeam-channel arcs";
    /// The paper's baseline (one ArrayBlockingQueue per arc).
    const KIND: Kind = Kind::Baseline;
    const CRATE: Option<&'static str> = Some("crossbeam-channel");

    fn build(topology: Topology, size: usize, handlers: Vec<Handler>) -> Vec<Box<dyn Publisher>> {
        let mut h = handlers.into_iter();
        let mut next = || h.next().expect("one handler per consumer");
        let arc = || bounded::<u64>(size);
        let (out, threads) = match topology {
            Topology::Unicast | Topology::Sequencer => {
                let (tx, rx) = arc();
                (vec![tx], vec![stage(next(), rx, vec![])])
            }
            Topology::Pipeline => {
                let ((t0, r0), (t1, r1), (t2, r2)) = (arc(), arc(), arc());
                let threads = vec![
                    stage(next(), r0, vec![t1]),
                    stage(next(), r1, vec![t2]),
                    stage(next(), r2, vec![]),
                ];
                (vec![t0], threads)
            }
            Topology::Multicast => {
                let ((t0, r0), (t1, r1), (t2, r2)) = (arc(), arc(), arc());
                let threads = vec![
                    stage(next(), r0, vec![]),
                    stage(next(), r1, vec![]),
                    stage(next(), r2, vec![]),
                ];
                (vec![t0, t1, t2], threads)
            }
            Topology::Diamond => {
                let ((t0, r0), (t1, r1), (ta, ra), (tb, rb)) = (arc(), arc(), arc(), arc());
                let threads = vec![
                    stage(next(), r0, vec![ta]),
                    stage(next(), r1, vec![tb]),
                    join_stage(next(), ra, rb),
                ];
                (vec![t0, t1], threads)
            }
        };
        let joiner = Arc::new(Joiner(Mutex::new(threads)));
        (0..topology.producers())
            .map(|_| {
                Box::new(Arcs {
                    out: out.clone(),
                    _joiner: joiner.clone(),
                }) as Box<dyn Publisher>
            })
            .collect()
    }
}
