//! A proptest of random `publish` / `try_publish` / `batch_publish`
//! sequences, from one producer and from several at once, through rings of
//! 1 to 16 slots, with three handlers (two in parallel, one gated on
//! both) and a random wait strategy. Every handler must see every
//! published sequence exactly once, in order, carrying the value its
//! producer wrote for that sequence, and `end_of_batch` exactly at batch
//! ends.
//!
//! `end_of_batch`, precisely: the processor hands a handler every
//! available event in one delivery, announced by
//! `EventHandler::on_batch_start(n)`; within it, `end_of_batch` is true on
//! the n-th (last) event and false on the others. So the final event is
//! always flagged, and a handler can act once per delivery.
mod common;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use common::Log;
use hotq_disruptor::wait::{Blocking, PhasedBackoff, Sleeping, WaitStrategy, Yielding};
use hotq_disruptor::{Disruptor, EventHandler, Producer, PublishError, Sequence};
use hotq_testkit::{DEADLINE, wait_for, within};
use proptest::prelude::*;

#[derive(Debug, Default)]
struct Event {
    value: u64,
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Publish,
    TryPublish,
    /// A batch of this many events (cut to the ring's size).
    Batch(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => Just(Op::Publish),
        1 => Just(Op::TryPublish),
        2 => (1usize..=16).prop_map(Op::Batch),
    ]
}

/// Logs each event, and each delivery's announced size.
struct Checker {
    log: Log,
    batches: Arc<Mutex<Vec<usize>>>,
}

impl EventHandler<Event> for Checker {
    fn on_batch_start(&mut self, batch_size: usize) {
        self.batches.lock().unwrap().push(batch_size);
    }

    fn on_event(&mut self, e: &Event, seq: Sequence, end_of_batch: bool) {
        self.log.record(seq, e.value, end_of_batch);
    }
}

/// What one handler must have seen: `written[seq]` for every published
/// sequence, in order; and, where it announced its deliveries, the
/// `end_of_batch` flags at exactly their ends.
fn check(
    name: &str,
    log: &Log,
    batches: Option<&Mutex<Vec<usize>>>,
    written: &HashMap<Sequence, u64>,
) -> Result<(), TestCaseError> {
    let seen = log.take();
    prop_assert_eq!(seen.len(), written.len(), "{}: events seen", name);
    for (i, s) in seen.iter().enumerate() {
        prop_assert_eq!(s.seq, i as Sequence, "{}: sequence order", name);
        prop_assert_eq!(
            Some(&s.value),
            written.get(&s.seq),
            "{}: value at {}",
            name,
            s.seq
        );
    }
    if let Some(last) = seen.last() {
        prop_assert!(last.end_of_batch, "{}: the final event not flagged", name);
    }
    if let Some(batches) = batches {
        let batches = batches.lock().unwrap();
        prop_assert_eq!(
            batches.iter().sum::<usize>(),
            seen.len(),
            "{}: batch sizes",
            name
        );
        let mut at = 0;
        for &n in batches.iter() {
            prop_assert!(n > 0, "{}: an empty delivery", name);
            for (k, s) in seen[at..at + n].iter().enumerate() {
                prop_assert_eq!(
                    s.end_of_batch,
                    k == n - 1,
                    "{}: end_of_batch at {} (event {} of a delivery of {})",
                    name,
                    s.seq,
                    k,
                    n
                );
            }
            at += n;
        }
    }
    Ok(())
}

/// Runs `ops` from each of `producers.len()` producers (one thread each;
/// a single producer runs on the helper thread itself) and returns what
/// each handler must have seen: sequence -> value written.
fn run<W: WaitStrategy + Send + Sync + 'static>(
    size: usize,
    strategy: W,
    producers: Vec<Vec<Op>>,
) -> Result<(), TestCaseError> {
    let logs = [Log::new(), Log::new(), Log::new()];
    let batches = [
        Arc::new(Mutex::new(Vec::new())),
        Arc::new(Mutex::new(Vec::new())),
    ];
    let a = Checker {
        log: logs[0].clone(),
        batches: batches[0].clone(),
    };
    let c = Checker {
        log: logs[2].clone(),
        batches: batches[1].clone(),
    };
    let b = logs[1].clone();
    let multi = producers.len() > 1;
    let written = within("proptest case", DEADLINE, move || {
        let builder = Disruptor::builder(size, Event::default)
            .wait_strategy(strategy)
            .handle_events_with_handler(a)
            .handle_events_with(move |e: &Event, seq, eob| b.record(seq, e.value, eob))
            .then()
            .handle_events_with_handler(c);
        // Each producer applies its ops and records what it wrote where.
        fn apply<P: Publisher>(
            p: &mut P,
            id: u64,
            ops: &[Op],
            size: usize,
        ) -> Vec<(Sequence, u64)> {
            let mut wrote = Vec::new();
            let mut k = 0u64;
            let mut next = || {
                k += 1;
                id << 32 | k
            };
            for &op in ops {
                match op {
                    Op::Publish => {
                        let v = next();
                        wrote.push((p.publish(v), v));
                    }
                    Op::TryPublish => {
                        let v = next();
                        if let Some(seq) = p.try_publish(v) {
                            wrote.push((seq, v));
                        }
                    }
                    Op::Batch(n) => {
                        let n = n.min(size);
                        let values: Vec<u64> = (0..n).map(|_| next()).collect();
                        let last = p.batch_publish(&values);
                        let first = last - n as Sequence + 1;
                        wrote.extend((first..=last).zip(values));
                    }
                }
            }
            wrote
        }
        let wrote: Vec<(Sequence, u64)> = if multi {
            let p = builder.build_multi_producer().unwrap();
            let wrote = std::thread::scope(|s| {
                let threads: Vec<_> = producers
                    .iter()
                    .enumerate()
                    .map(|(id, ops)| {
                        let mut p = p.clone();
                        s.spawn(move || apply(&mut p, id as u64, ops, size))
                    })
                    .collect();
                threads
                    .into_iter()
                    .flat_map(|t| t.join().unwrap())
                    .collect()
            });
            p.shutdown().unwrap();
            wrote
        } else {
            let mut p = builder.build_single_producer().unwrap();
            let wrote = apply(&mut p, 0, &producers[0], size);
            p.shutdown().unwrap();
            wrote
        };
        wrote
    });
    let mut map = HashMap::new();
    for (seq, v) in written {
        prop_assert!(
            map.insert(seq, v).is_none(),
            "sequence {} handed out twice",
            seq
        );
    }
    check(
        "handler A (on_batch_start)",
        &logs[0],
        Some(&batches[0]),
        &map,
    )?;
    check("handler B (closure)", &logs[1], None, &map)?;
    check(
        "handler C (gated, on_batch_start)",
        &logs[2],
        Some(&batches[1]),
        &map,
    )?;
    Ok(())
}

/// The three producer operations as the model drives them, for both
/// producer types (through [`Producer`]).
trait Publisher {
    fn publish(&mut self, v: u64) -> Sequence;
    /// `None` when the ring is full.
    fn try_publish(&mut self, v: u64) -> Option<Sequence>;
    /// Returns the batch's last sequence.
    fn batch_publish(&mut self, values: &[u64]) -> Sequence;
}

impl<P: Producer<Event>> Publisher for P {
    fn publish(&mut self, v: u64) -> Sequence {
        Producer::publish(self, |e| e.value = v).unwrap()
    }
    fn try_publish(&mut self, v: u64) -> Option<Sequence> {
        match Producer::try_publish(self, |e| e.value = v) {
            Ok(seq) => Some(seq),
            Err(PublishError::Full) => None,
            Err(e) => panic!("try_publish: {e:?}"),
        }
    }
    fn batch_publish(&mut self, values: &[u64]) -> Sequence {
        Producer::batch_publish(self, values.len(), |events| {
            let mut n = 0;
            for (e, &v) in events.zip(values) {
                e.value = v;
                n += 1;
            }
            assert_eq!(n, values.len(), "the batch iterator's length");
        })
        .unwrap()
    }
}

fn with_strategy(which: u8, size: usize, producers: Vec<Vec<Op>>) -> Result<(), TestCaseError> {
    match which {
        0 => run(size, Yielding, producers),
        1 => run(size, Blocking, producers),
        2 => run(size, Sleeping::default(), producers),
        _ => run(size, PhasedBackoff::default(), producers),
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        // Under miri (which interprets every instruction) a few cases, each
        // still up to 80 operations through three processors' threads.
        cases: if cfg!(miri) { 4 } else if cfg!(debug_assertions) { 96 } else { 512 },
        // Under miri nothing is written to disk: its isolation refuses the
        // file system (proptest's failure file needs the current directory).
        failure_persistence: if cfg!(miri) {
            None
        } else {
            ProptestConfig::default().failure_persistence
        },
        .. ProptestConfig::default()
    })]

    #[test]
    fn single_producer_every_handler_sees_every_sequence_once_in_order(
        size_log in 0u32..=4,
        strategy in 0u8..4,
        ops in prop::collection::vec(op(), 0..80),
    ) {
        with_strategy(strategy, 1 << size_log, vec![ops])?;
    }

    #[test]
    fn multi_producer_every_handler_sees_every_sequence_once_in_order(
        size_log in 0u32..=4,
        strategy in 0u8..4,
        producers in prop::collection::vec(prop::collection::vec(op(), 0..40), 2..=3),
    ) {
        with_strategy(strategy, 1 << size_log, producers)?;
    }
}

/// The delivery boundaries, made certain: the handler holds sequence 0
/// until the producer has published 3 more, so the processor's second
/// delivery is exactly 1..=3, with `end_of_batch` on 3 alone.
#[test]
fn a_delivery_is_every_event_available_and_ends_with_end_of_batch() {
    let log = Log::new();
    let batches = Arc::new(Mutex::new(Vec::new()));
    let (go, held) = std::sync::mpsc::channel::<()>();
    struct Holding {
        inner: Checker,
        held: std::sync::mpsc::Receiver<()>,
    }
    impl EventHandler<Event> for Holding {
        fn on_batch_start(&mut self, n: usize) {
            self.inner.on_batch_start(n);
        }
        fn on_event(&mut self, e: &Event, seq: Sequence, eob: bool) {
            if seq == 0 {
                self.held.recv_timeout(DEADLINE).unwrap();
            }
            self.inner.on_event(e, seq, eob);
        }
    }
    let handler = Holding {
        inner: Checker {
            log: log.clone(),
            batches: batches.clone(),
        },
        held,
    };
    let l = log.clone();
    within("deliveries", DEADLINE, move || {
        let mut p = Disruptor::builder(8, Event::default)
            .handle_events_with_handler(handler)
            .build_single_producer()
            .unwrap();
        p.publish(|e| e.value = 0).unwrap();
        // Wait until the processor has started its first delivery (it
        // holds sequence 0): everything published now is for the next.
        wait_for("the first delivery", || {
            (!batches.lock().unwrap().is_empty()).then_some(())
        });
        for v in 1..=3 {
            p.publish(|e| e.value = v).unwrap();
        }
        go.send(()).unwrap();
        l.wait_len("four events", 4);
        p.shutdown().unwrap();
        assert_eq!(*batches.lock().unwrap(), [1, 3], "the deliveries' sizes");
    });
    let eob: Vec<bool> = log.take().iter().map(|s| s.end_of_batch).collect();
    assert_eq!(eob, [true, false, false, true]);
}
