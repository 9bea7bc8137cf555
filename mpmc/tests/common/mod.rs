//! Helpers of hotq-mpmc's integration tests: start positions near the
//! wrap of positions (`u64::MAX`) and the multi-producer multi-consumer stress driver (used
//! by `stress.rs` and `wrap.rs`). What every queue crate's tests share
//! (deadline-bounded waits, the watchdog, drop counting, the conservation
//! check) is in `hotq-testkit`.
#![allow(dead_code)] // each test binary uses its own subset

use std::sync::Barrier;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::thread;

use hotq_mpmc::Queue;
use hotq_testkit::{
    Item, Patience, TimeLimit, assert_exactly_once_in_order, one_run_at_a_time, wait_for_watching,
    with_watchdog,
};

/// The lap size the queue uses for `capacity`: the smallest power of two
/// above `capacity + 2` (see the top of `queue.rs`). Tests use it to pick
/// start positions a given number of laps before the wrap.
pub fn one_lap(capacity: usize) -> usize {
    (capacity + 3).next_power_of_two()
}

/// A start position for [`Queue::with_initial_position`] whose lap is
/// `laps` laps before the last one: the positions wrap past `u64::MAX`
/// after `(laps + 1) * capacity` items have gone through.
pub fn laps_before_wrap(capacity: usize, laps: usize) -> u64 {
    u64::MAX - (laps * one_lap(capacity)) as u64
}

/// How the stress producers insert.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `push`, retrying while the queue is full. Consumers drain the queue
    /// after the producers finish, and check that a `pop` reports empty
    /// only when it is.
    Push,
    /// `force_push`, never waiting; each producer keeps what it evicts.
    /// Consumers stop as soon as the producers finish, so items are
    /// usually left inside for the final `into_iter` drain.
    ForcePush,
    /// Even-numbered producers `push` (retrying while full), odd-numbered
    /// ones `force_push`; consumers as in [`Mode::ForcePush`].
    Mixed,
}

impl Mode {
    fn force(self, producer: u32) -> bool {
        match self {
            Mode::Push => false,
            Mode::ForcePush => true,
            Mode::Mixed => producer % 2 == 1,
        }
    }
}

/// A stress run's shape.
#[derive(Clone, Copy, Debug)]
pub struct Stress {
    pub mode: Mode,
    pub producers: usize,
    pub consumers: usize,
    /// Items each producer inserts, sequence numbers `0..per_producer`.
    pub per_producer: u32,
}

/// What a stress run saw, for assertions beyond the ones
/// [`Stress::run`] makes itself.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Items popped, per consumer.
    pub popped: Vec<usize>,
    /// Items evicted by `force_push`, per producer.
    pub evicted: Vec<usize>,
    /// Items drained from the queue after all threads finished.
    pub left: usize,
}

/// Bumps the shared progress counter once per this many successful
/// operations of a thread (keeps the watchdog's counter off the hot path).
const PROGRESS_EVERY: u32 = 64;

/// What the threads of one stress run share.
struct Shared<'a> {
    q: &'a Queue<Item>,
    what: &'a str,
    mode: Mode,
    producers: usize,
    /// Releases all threads at once.
    start: Barrier,
    /// Producers that have made all their pushes.
    finished: AtomicUsize,
    /// A consumer's `pop` returned `None` after every producer had finished.
    empty_reported: AtomicBool,
    /// Moves while any thread gets anything done; see [`with_watchdog`].
    progress: AtomicU64,
}

/// What one consumer popped, in order; and how many of those items came
/// from pops that began after another pop had reported the queue empty
/// when every producer had finished (each one a linearizability bug).
struct Consumed {
    got: Vec<Item>,
    late: usize,
}

impl Shared<'_> {
    /// Counts one operation of a thread, telling the watchdog every
    /// [`PROGRESS_EVERY`].
    fn bump(&self, ops: &mut u32) {
        *ops += 1;
        if *ops == PROGRESS_EVERY {
            *ops = 0;
            self.progress.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Producer `p`: inserts `(p, 0..per_producer)`; returns what its
    /// `force_push`es evicted, in order.
    fn produce(&self, p: u32, per_producer: u32) -> Vec<Item> {
        let mut evicted = Vec::new();
        let mut ops = 0;
        let full = format!("{}: push into a full queue", self.what);
        self.start.wait();
        for seq in 0..per_producer {
            let item = Item { producer: p, seq };
            if self.mode.force(p) {
                evicted.extend(self.q.force_push(item));
            } else {
                let mut item = Some(item);
                wait_for_watching(&full, &self.progress, || match self.q.push(item.take()?) {
                    Ok(()) => Some(()),
                    Err(back) => {
                        item = Some(back);
                        None
                    }
                });
            }
            self.bump(&mut ops);
        }
        // SeqCst: a consumer that sees every producer finished knows that
        // every push has returned.
        self.finished.fetch_add(1, Ordering::SeqCst);
        self.progress.fetch_add(1, Ordering::Relaxed);
        evicted
    }

    /// A consumer: pops until every producer has finished and (in
    /// [`Mode::Push`]) a pop finds the queue empty.
    fn consume(&self) -> Consumed {
        let mut got = Vec::new();
        let mut late = 0;
        let mut ops = 0;
        let mut patience = Patience::watching(&self.progress);
        self.start.wait();
        loop {
            // Read before the pop: if every producer had finished by then,
            // nothing is pushed during it, and an empty queue stays empty.
            let all_pushed = self.finished.load(Ordering::SeqCst) == self.producers;
            // SeqCst: the queue must be linearizable together with this
            // SeqCst flag: once a pop reported empty after every producer
            // had finished, a later pop (seeing the flag) must find nothing.
            // An item it does find counts as `late`.
            let empty_before = self.empty_reported.load(Ordering::SeqCst);
            if self.mode != Mode::Push && all_pushed {
                break;
            }
            match self.q.pop() {
                Some(item) => {
                    late += usize::from(empty_before);
                    got.push(item);
                    patience.hit();
                    self.bump(&mut ops);
                }
                None if all_pushed => {
                    self.empty_reported.store(true, Ordering::SeqCst);
                    break;
                }
                None => patience.miss(|| format!("{}: pop from an empty queue", self.what)),
            }
        }
        self.progress.fetch_add(1, Ordering::Relaxed);
        Consumed { got, late }
    }
}

impl Stress {
    /// Runs the producers and consumers on `q`, all released at once by a
    /// barrier, then asserts:
    /// - every `(producer, seq)` pushed was popped, evicted or left inside
    ///   exactly once (nothing lost, nothing duplicated, nothing invented);
    /// - each consumer saw each producer's items in increasing sequence
    ///   order, and so did each evicting producer and the final drain;
    /// - in [`Mode::Push`]: nothing is left inside, and no `pop` that began
    ///   after another `pop` had reported the (finished) queue empty
    ///   returned an item (`pop`'s `None` is linearizable);
    /// - `len()` of the final queue matches what the drain yields.
    pub fn run(self, q: Queue<Item>, what: &str) -> Outcome {
        let _one_at_a_time = one_run_at_a_time();
        let Stress {
            mode,
            producers,
            consumers,
            per_producer,
        } = self;
        assert!(producers > 0 && consumers > 0);
        let what = format!("{what} ({mode:?}, {producers}P{consumers}C × {per_producer} items)");
        let shared = Shared {
            q: &q,
            what: &what,
            mode,
            producers,
            start: Barrier::new(producers + consumers),
            finished: AtomicUsize::new(0),
            empty_reported: AtomicBool::new(false),
            progress: AtomicU64::new(0),
        };
        let (evicted, popped) = with_watchdog(&what, &shared.progress, || {
            thread::scope(|s| {
                let shared = &shared;
                let producer_threads: Vec<_> = (0..producers as u32)
                    .map(|p| s.spawn(move || shared.produce(p, per_producer)))
                    .collect();
                let consumer_threads: Vec<_> = (0..consumers)
                    .map(|_| s.spawn(move || shared.consume()))
                    .collect();
                let evicted: Vec<Vec<Item>> = producer_threads
                    .into_iter()
                    .map(|t| t.join().unwrap())
                    .collect();
                let popped: Vec<Consumed> = consumer_threads
                    .into_iter()
                    .map(|t| t.join().unwrap())
                    .collect();
                (evicted, popped)
            })
        });

        let late_items: usize = popped.iter().map(|c| c.late).sum();
        assert_eq!(
            late_items, 0,
            "{what}: pops that began after another pop had found the finished queue empty \
             returned {late_items} items: that `None` was not linearizable"
        );
        // The threads are gone, and the watchdog with them: a drain that
        // never ends (a `pop` spinning on a slot no one will fill) needs a
        // limit of its own.
        let left: Vec<Item> = {
            let _limit = TimeLimit::new(&format!("{what}: the final drain"));
            let len = q.len();
            let left: Vec<Item> = q.into_iter().collect();
            assert_eq!(len, left.len(), "{what}: len() of the final queue");
            left
        };
        if mode == Mode::Push {
            assert!(
                left.is_empty(),
                "{what}: consumers drained the queue, yet {} items were left: {:?}",
                left.len(),
                &left[..left.len().min(10)]
            );
        }

        let mut streams: Vec<(String, &[Item])> = Vec::new();
        for (c, consumed) in popped.iter().enumerate() {
            streams.push((format!("consumer {c}"), &consumed.got));
        }
        for (p, ev) in evicted.iter().enumerate() {
            streams.push((format!("evictions by producer {p}"), ev));
        }
        streams.push(("final drain".to_string(), &left));
        assert_exactly_once_in_order(&what, producers, per_producer, &streams);

        Outcome {
            popped: popped.iter().map(|c| c.got.len()).collect(),
            evicted: evicted.iter().map(Vec::len).collect(),
            left: left.len(),
        }
    }
}
