//! Wake-up latency of a parked receiver: the receiver blocks in `recv` on
//! an empty channel of 1024; after a pause long enough for it to park, the
//! main thread sends the current `Instant`; the receiver notes how long
//! the item took to reach it. Median and 90th percentile over ROUNDS
//! rounds, ours and crossbeam-channel's interleaved round by round:
//!
//! ```sh
//! cargo run --release -p hotq-benches --example wake_latency [ROUNDS]
//! ```

use std::thread;
use std::time::{Duration, Instant};

/// The two sides of one channel under test, as closures.
struct Pair {
    name: &'static str,
    send: Box<dyn Fn(Instant)>,
    result: crossbeam_channel::Receiver<Duration>,
    handle: Option<thread::JoinHandle<()>>,
    samples: Vec<Duration>,
}

fn hotq() -> Pair {
    let (tx, rx) = hotq_mpmc::bounded::<Instant>(1024);
    let (back_tx, back) = crossbeam_channel::bounded(1024);
    let handle = thread::spawn(move || {
        while let Ok(sent) = rx.recv() {
            back_tx.send(sent.elapsed()).unwrap();
        }
    });
    Pair {
        name: "hotq-mpmc-channel",
        send: Box::new(move |t| tx.send(t).unwrap()),
        result: back,
        handle: Some(handle),
        samples: Vec::new(),
    }
}

fn crossbeam() -> Pair {
    let (tx, rx) = crossbeam_channel::bounded::<Instant>(1024);
    let (back_tx, back) = crossbeam_channel::bounded(1024);
    let handle = thread::spawn(move || {
        while let Ok(sent) = rx.recv() {
            back_tx.send(sent.elapsed()).unwrap();
        }
    });
    Pair {
        name: "crossbeam-channel",
        send: Box::new(move |t| tx.send(t).unwrap()),
        result: back,
        handle: Some(handle),
        samples: Vec::new(),
    }
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|r| r.parse().ok())
        .unwrap_or(200);
    let mut pairs = [hotq(), crossbeam()];
    for _ in 0..rounds {
        for p in &mut pairs {
            // Long enough for the receiver's spin to end and it to park.
            thread::sleep(Duration::from_millis(2));
            (p.send)(Instant::now());
            p.samples.push(p.result.recv().unwrap());
        }
    }
    for mut p in pairs {
        p.samples.sort();
        let at = |q: f64| p.samples[((p.samples.len() - 1) as f64 * q) as usize];
        println!(
            "{:<18} median {:>9.1?}  p90 {:>9.1?}  ({} rounds)",
            p.name,
            at(0.5),
            at(0.9),
            p.samples.len()
        );
        drop(p.send);
        p.handle.take().unwrap().join().unwrap();
    }
}
