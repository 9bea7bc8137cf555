//! Helpers the integration tests share: deadline-bounded waiting, a
//! watchdog for hangs inside the queue, the multi-producer multi-consumer
//! stress driver (used by `stress.rs` and `wrap.rs`), and a drop-counting
//! item type (used by `drops.rs`).
#![allow(dead_code)] // each test binary uses its own subset

use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::sync::{Barrier, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_utils::Backoff;
use hotq_mpmc::Queue;

/// How long any waiting loop may go without progress before the test
/// fails as a hang.
pub const DEADLINE: Duration = Duration::from_secs(120);

/// The lap size the queue uses for `capacity`: the smallest power of two
/// above it (see the top of `queue.rs`). Tests use it to pick start
/// positions a given number of laps before the `usize` wrap.
pub fn one_lap(capacity: usize) -> usize {
    (capacity + 1).next_power_of_two()
}

/// A start position for [`Queue::with_initial_position`] whose lap is
/// `laps` laps before the last one: the positions wrap past `usize::MAX`
/// after `(laps + 1) * capacity` items have gone through.
pub fn laps_before_wrap(capacity: usize, laps: usize) -> usize {
    usize::MAX - laps * one_lap(capacity)
}

/// Backoff for one waiting loop, with a deadline: spin, then yield the
/// thread (so a preempted peer on a busy 2-core machine gets to run), and
/// panic with "hang: ..." once a run of misses has lasted [`DEADLINE`].
///
/// With [`watching`](Self::watching), the deadline runs from the last time
/// the watched progress counter moved instead: one thread may be starved
/// for a long time while its peers get everything done (the kernel's
/// scheduler is not fair to threads that yield thousands of times a
/// second), which is not a hang; all of them standing still is.
pub struct Patience<'a> {
    backoff: Backoff,
    misses: u32,
    /// When the clock for this run of misses started, and the watched
    /// progress then.
    since: Option<(Instant, u64)>,
    progress: Option<&'a AtomicU64>,
}

impl Default for Patience<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> Patience<'a> {
    pub fn new() -> Self {
        Patience {
            backoff: Backoff::new(),
            misses: 0,
            since: None,
            progress: None,
        }
    }

    /// A hang is [`DEADLINE`] without this thread's awaited event *and*
    /// without `progress` moving.
    pub fn watching(progress: &'a AtomicU64) -> Self {
        Patience {
            progress: Some(progress),
            ..Self::new()
        }
    }

    /// The awaited thing happened: the next miss starts a new run.
    pub fn hit(&mut self) {
        if self.misses != 0 {
            self.misses = 0;
            self.since = None;
            self.backoff.reset();
        }
    }

    /// The awaited thing did not happen yet: back off, and fail as a hang
    /// once this run of misses has lasted [`DEADLINE`].
    pub fn miss(&mut self, what: impl FnOnce() -> String) {
        self.misses = self.misses.wrapping_add(1);
        if self.misses % 256 == 0 {
            let progress = self.progress.map_or(0, |p| p.load(Ordering::Relaxed));
            match self.since {
                Some((since, seen)) if seen == progress => {
                    if since.elapsed() >= DEADLINE {
                        panic!("hang: {} (no progress for {DEADLINE:?})", what());
                    }
                }
                _ => self.since = Some((Instant::now(), progress)),
            }
        }
        self.backoff.snooze();
    }
}

/// Retries `attempt` until it returns `Some`, backing off, and panics
/// naming `what` once [`DEADLINE`] has passed.
pub fn wait_for<R>(what: &str, attempt: impl FnMut() -> Option<R>) -> R {
    wait_with(Patience::new(), what, attempt)
}

/// As [`wait_for`], with the deadline running from the last move of
/// `progress` (see [`Patience::watching`]).
pub fn wait_for_watching<R>(
    what: &str,
    progress: &AtomicU64,
    attempt: impl FnMut() -> Option<R>,
) -> R {
    wait_with(Patience::watching(progress), what, attempt)
}

fn wait_with<R>(
    mut patience: Patience<'_>,
    what: &str,
    mut attempt: impl FnMut() -> Option<R>,
) -> R {
    loop {
        if let Some(r) = attempt() {
            return r;
        }
        patience.miss(|| what.to_string());
    }
}

/// Writes `message` to the process's stderr and aborts. Straight to the
/// stream: `eprintln!` in a test's threads goes to the harness's capture
/// buffer, which an abort throws away unprinted.
fn abort_with(message: &str) -> ! {
    let _ = writeln!(std::io::stderr(), "{message}; aborting");
    std::process::abort();
}

/// Runs `body` while a watchdog thread watches `progress`: if the counter
/// does not move for [`DEADLINE`], the process aborts with a "hang: ..."
/// message. The test's own waiting loops have deadlines, but a thread
/// spinning forever *inside* the queue (or one that cannot be joined
/// because of it) can only be stopped this way.
pub fn with_watchdog<R>(what: &str, progress: &AtomicU64, body: impl FnOnce() -> R) -> R {
    thread::scope(|s| {
        let (stop, stopped) = channel::<()>();
        s.spawn(move || {
            let mut last = progress.load(Ordering::Relaxed);
            let mut since = Instant::now();
            loop {
                match stopped.recv_timeout(Duration::from_millis(500)) {
                    Err(RecvTimeoutError::Timeout) => {}
                    // Stopped, or `body` panicked and dropped the sender.
                    _ => return,
                }
                let now = progress.load(Ordering::Relaxed);
                if now != last {
                    last = now;
                    since = Instant::now();
                } else if since.elapsed() >= DEADLINE {
                    abort_with(&format!("hang: {what}: no progress for {DEADLINE:?}"));
                }
            }
        });
        let r = body();
        drop(stop);
        r
    })
}

/// Aborts the process with a "hang: ..." message unless dropped within
/// [`DEADLINE`]: for tests with no waiting loop of their own, so that a
/// call that never returns (a queue spinning on a slot no one will
/// change) fails the run instead of stalling it.
#[must_use = "the limit holds only while the guard lives"]
pub struct TimeLimit {
    stop: Option<Sender<()>>,
    watcher: Option<thread::JoinHandle<()>>,
}

impl TimeLimit {
    pub fn new(what: &str) -> Self {
        let (stop, stopped) = channel::<()>();
        let what = what.to_string();
        let watcher = thread::spawn(move || {
            if let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(DEADLINE) {
                abort_with(&format!("hang: {what}: still running after {DEADLINE:?}"));
            }
        });
        TimeLimit {
            stop: Some(stop),
            watcher: Some(watcher),
        }
    }
}

impl Drop for TimeLimit {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(watcher) = self.watcher.take() {
            let _ = watcher.join();
        }
    }
}

/// What the stress producers push: who pushed it, and its place in that
/// producer's sequence.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Item {
    pub producer: u32,
    pub seq: u32,
}

impl fmt::Debug for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "p{}#{}", self.producer, self.seq)
    }
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

/// Serialises the heavily threaded runs within a test binary; see
/// [`one_run_at_a_time`].
static ONE_RUN_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Held for the whole of a heavily threaded run ([`Stress::run`] takes it
/// itself). Each such run already oversubscribes the 2 cores; with two at
/// once (64 threads yielding) the kernel starved single threads for
/// minutes and throughput fell a hundredfold.
pub fn one_run_at_a_time() -> MutexGuard<'static, ()> {
    ONE_RUN_AT_A_TIME
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
}

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

/// Asserts that the union of `streams` holds every `Item` of `producers`
/// producers × `0..per_producer` exactly once, and that within each stream
/// each producer's items come in strictly increasing sequence order.
pub fn assert_exactly_once_in_order(
    what: &str,
    producers: usize,
    per_producer: u32,
    streams: &[(String, &[Item])],
) {
    let mut seen = vec![vec![0u8; per_producer as usize]; producers];
    for (name, stream) in streams {
        let mut last: Vec<Option<u32>> = vec![None; producers];
        for (at, item) in stream.iter().enumerate() {
            let p = item.producer as usize;
            assert!(
                p < producers && item.seq < per_producer,
                "{what}: {name} got {item:?}, which no producer pushed"
            );
            if let Some(prev) = last[p] {
                assert!(
                    item.seq > prev,
                    "{what}: {name} got producer {p}'s items out of order: #{prev} then #{} (at index {at})",
                    item.seq
                );
            }
            last[p] = Some(item.seq);
            let count = &mut seen[p][item.seq as usize];
            *count = count.saturating_add(1);
        }
    }
    let mut wrong = Vec::new();
    let mut wrong_count = 0usize;
    for (p, counts) in seen.iter().enumerate() {
        for (seq, &count) in counts.iter().enumerate() {
            if count != 1 {
                wrong_count += 1;
                if wrong.len() < 10 {
                    wrong.push(format!("p{p}#{seq} seen {count} times"));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{what}: {wrong_count} items not seen exactly once, e.g. {wrong:?}"
    );
}

/// An item that records its drop in a [`DropCounter`].
pub struct Counted<'a> {
    pub id: usize,
    counter: &'a DropCounter,
}

impl fmt::Debug for Counted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Counted({})", self.id)
    }
}

impl PartialEq for Counted<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.counter.record(self.id);
    }
}

/// How many times each of the ids `0..ids` was dropped; thread-safe, so
/// items may be dropped on any thread.
pub struct DropCounter {
    per_id: Box<[AtomicUsize]>,
    /// Drops of ids outside `0..ids`.
    stray: AtomicUsize,
}

impl DropCounter {
    pub fn new(ids: usize) -> Self {
        DropCounter {
            per_id: (0..ids).map(|_| AtomicUsize::new(0)).collect(),
            stray: AtomicUsize::new(0),
        }
    }

    /// An item with this `id` (below the `ids` given to `new`).
    pub fn item(&self, id: usize) -> Counted<'_> {
        assert!(id < self.per_id.len(), "id {id} beyond the counter");
        Counted { id, counter: self }
    }

    fn record(&self, id: usize) {
        match self.per_id.get(id) {
            Some(count) => count.fetch_add(1, Ordering::Relaxed),
            None => self.stray.fetch_add(1, Ordering::Relaxed),
        };
    }

    /// How many times `id` was dropped.
    pub fn drops_of(&self, id: usize) -> usize {
        self.per_id[id].load(Ordering::Relaxed)
    }

    /// Drops of all ids together.
    pub fn total(&self) -> usize {
        self.per_id
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .sum::<usize>()
            + self.stray.load(Ordering::Relaxed)
    }

    /// Asserts that each id was dropped exactly `expected(id)` times.
    pub fn assert_drops(&self, context: &str, expected: impl Fn(usize) -> usize) {
        let wrong: Vec<String> = self
            .per_id
            .iter()
            .enumerate()
            .filter_map(|(id, c)| {
                let (got, want) = (c.load(Ordering::Relaxed), expected(id));
                (got != want).then(|| format!("id {id}: dropped {got} times, expected {want}"))
            })
            .take(10)
            .collect();
        assert!(wrong.is_empty(), "{context}: {wrong:?}");
        assert_eq!(
            self.stray.load(Ordering::Relaxed),
            0,
            "{context}: stray drops"
        );
    }

    /// Asserts that every id was dropped exactly once.
    pub fn assert_each_dropped_once(&self, context: &str) {
        self.assert_drops(context, |_| 1);
    }
}
