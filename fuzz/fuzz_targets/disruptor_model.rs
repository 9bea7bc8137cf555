//! Every public operation of hotq-disruptor, in the order the fuzzer picks,
//! on one thread, each result checked against a sequential model: the list
//! of published events (sequence -> value) and each event poller's
//! position. The consumers are event pollers only (a handler would run on
//! a thread of its own; a mutable one is added only where it makes the
//! build fail), in one to three stages, each after the stage before or
//! starting a chain of its own (`new_chain`), so every result is determined:
//! `Full` exactly when the slowest leaf is a whole ring behind, each poll
//! hands out exactly the events its stage's gate allows (with
//! `end_of_batch` on the last), `Halted` after a halt, and the build's
//! error for a wrong size, an empty stage or a shared mutable handler.
//! Closures that panic (a publisher's, a poller's) unwind through
//! `resume_unwind`, which skips libFuzzer's abort-on-panic hook, and are
//! caught here. The end is a shutdown of every handle, which must drain,
//! time out or return as the model says; no call is ever made that could
//! wait for ever.
#![no_main]

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use arbitrary::Arbitrary;
use hotq_disruptor::{
    BatchIterMut, BuildError, Builder, Disruptor, EventPoller, MultiProducer, PollError,
    PublishError, Sequence, ShutdownError, SingleProducer,
};
use libfuzzer_sys::fuzz_target;

/// What a factory event holds: no publish wrote it.
const FACTORY: u64 = u64::MAX;

#[derive(Arbitrary, Debug)]
struct Input {
    /// Mostly a power of two up to 16; sometimes 0, 3, 6, 12 or 2^63.
    size: u8,
    multi: bool,
    /// Event pollers per stage (each `% 3`), with `then()` between stages:
    /// up to three stages and three pollers; an empty stage is a build error.
    stages: Vec<u8>,
    /// `new_chains[k]`: stage `k + 1` starts a chain of its own (after the
    /// producers only) instead of following stage `k`; only where stage `k`
    /// has a poller (`new_chain` on an empty stage re-targets it instead).
    new_chains: Vec<bool>,
    /// A mutable handler in stage `.0`, added before that stage's pollers
    /// if `.1`, else after them; only in a stage with a poller, so it is
    /// always a build error (a mutable handler must be alone in its stage)
    /// and its thread never starts.
    writer: Option<(u8, bool)>,
    /// Polls each poller before the build (it must find nothing).
    poll_before_build: bool,
    ops: Vec<Op>,
    end: End,
}

/// How a publish closure treats its event.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Write {
    Value,
    /// Leaves the event as it was a lap ago.
    Nothing,
    /// Panics before writing.
    Panic,
    /// Writes, then panics.
    ValueThenPanic,
}

#[derive(Arbitrary, Debug)]
enum Op {
    /// Blocking publish where the model has room (or is halted), else
    /// `try_publish`, which must say `Full`.
    Publish(u8, Write),
    TryPublish(u8, Write),
    /// `publish_timeout` of 0 or 50 µs: `Timeout` exactly where the model
    /// says `Full`, having claimed nothing.
    PublishTimeout(u8, Write, bool),
    /// `batch_publish_timeout(n)` of 0 or 50 µs, writing the first `k`.
    BatchPublishTimeout {
        handle: u8,
        n: u8,
        k: u8,
        long: bool,
    },
    /// `batch_publish(n)` (as `Publish` for room), writing the first `k`
    /// events, then panicking if asked.
    BatchPublish {
        handle: u8,
        n: u8,
        k: u8,
        panics: bool,
    },
    TryBatchPublish {
        handle: u8,
        n: u8,
        k: u8,
        panics: bool,
    },
    RemainingCapacity(u8),
    /// Polls poller `.0`; the closure panics on its `k`-th call if `.1`
    /// is `Some(k)` and the batch is long enough.
    Poll(u8, Option<u8>),
    /// `poll_at_most(.1 % 4)` of poller `.0`.
    PollAtMost(u8, u8),
    /// `available()` of poller `.0`: what a poll would hand out.
    Available(u8),
    DropPoller(u8),
    /// Multi producer: a clone of handle `.0` (at most four handles).
    CloneProducer(u8),
    /// Multi producer: drops handle `.0` unless it is the last.
    DropProducer(u8),
    /// Multi producer: `shutdown` (or `shutdown_timeout` if `.1`) of handle
    /// `.0` unless it is the last: returns at once.
    ReleaseProducer(u8, bool),
    Halt(u8),
    IsHalted(u8),
}

#[derive(Arbitrary, Debug)]
enum End {
    /// Polls every live poller to the end first, then `shutdown`.
    Shutdown,
    /// `shutdown_timeout` of 0, 50 or 100 µs, without draining first (an
    /// undrained one waits all of it: longer would slow every such input).
    ShutdownTimeout(u8),
    /// Drops the last handle where the model says the drain can finish
    /// (else as `Shutdown`).
    Drop,
    /// Drops the last handle without draining (it must return at once:
    /// no drop waits on a poller), then polls every poller, stage by stage,
    /// to the end: each gets what is left, then `Halted`.
    DropThenPoll,
}

/// A planned panic's payload, raised with `resume_unwind` (no panic hook).
struct Planned;

fn planned_panic() -> ! {
    panic::resume_unwind(Box::new(Planned))
}

/// AddressSanitizer's defaults for this target: no detection of stack use
/// after return. Each unwind (every planned panic) makes ASan collect its
/// fake stack, and that took 60% of the time: 2,100 exec/s with it, 7,500
/// without (`ASAN_OPTIONS` still overrides this). What it would catch, a
/// pointer to a returned frame, the crate never makes: its unsafe code
/// reaches the ring's heap slots only, through borrows the compiler checks.
#[unsafe(no_mangle)]
pub extern "C" fn __asan_default_options() -> *const std::ffi::c_char {
    c"detect_stack_use_after_return=0".as_ptr()
}

/// Runs `f`, which may unwind with a planned panic; `None` if it did.
fn catch_planned<R>(f: impl FnOnce() -> R) -> Option<R> {
    match panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => Some(r),
        Err(payload) if payload.is::<Planned>() => None,
        Err(payload) => panic::resume_unwind(payload),
    }
}

/// The two producers, behind one interface (each call is the crate's own).
trait Handle {
    fn publish(&mut self, f: &mut dyn FnMut(&mut u64)) -> Result<Sequence, PublishError>;
    fn try_publish(&mut self, f: &mut dyn FnMut(&mut u64)) -> Result<Sequence, PublishError>;
    fn batch_publish(
        &mut self,
        n: usize,
        f: &mut dyn FnMut(BatchIterMut<'_, u64>),
    ) -> Result<Sequence, PublishError>;
    fn try_batch_publish(
        &mut self,
        n: usize,
        f: &mut dyn FnMut(BatchIterMut<'_, u64>),
    ) -> Result<Sequence, PublishError>;
    fn publish_timeout(
        &mut self,
        timeout: Duration,
        f: &mut dyn FnMut(&mut u64),
    ) -> Result<Sequence, PublishError>;
    fn batch_publish_timeout(
        &mut self,
        n: usize,
        timeout: Duration,
        f: &mut dyn FnMut(BatchIterMut<'_, u64>),
    ) -> Result<Sequence, PublishError>;
    fn remaining_capacity(&self) -> usize;
    fn halt(&self);
    fn is_halted(&self) -> bool;
    /// A clone, for the multi producer.
    fn clone_handle(&self) -> Option<Box<dyn Handle>>;
    fn shutdown(self: Box<Self>) -> Result<(), ShutdownError>;
    fn shutdown_timeout(self: Box<Self>, timeout: Duration) -> Result<(), ShutdownError>;
}

macro_rules! impl_handle {
    ($producer:ident, $clone:expr) => {
        impl Handle for $producer<u64> {
            fn publish(&mut self, f: &mut dyn FnMut(&mut u64)) -> Result<Sequence, PublishError> {
                $producer::publish(self, f)
            }
            fn try_publish(
                &mut self,
                f: &mut dyn FnMut(&mut u64),
            ) -> Result<Sequence, PublishError> {
                $producer::try_publish(self, f)
            }
            fn batch_publish(
                &mut self,
                n: usize,
                f: &mut dyn FnMut(BatchIterMut<'_, u64>),
            ) -> Result<Sequence, PublishError> {
                $producer::batch_publish(self, n, f)
            }
            fn try_batch_publish(
                &mut self,
                n: usize,
                f: &mut dyn FnMut(BatchIterMut<'_, u64>),
            ) -> Result<Sequence, PublishError> {
                $producer::try_batch_publish(self, n, f)
            }
            fn publish_timeout(
                &mut self,
                timeout: Duration,
                f: &mut dyn FnMut(&mut u64),
            ) -> Result<Sequence, PublishError> {
                $producer::publish_timeout(self, timeout, f)
            }
            fn batch_publish_timeout(
                &mut self,
                n: usize,
                timeout: Duration,
                f: &mut dyn FnMut(BatchIterMut<'_, u64>),
            ) -> Result<Sequence, PublishError> {
                $producer::batch_publish_timeout(self, n, timeout, f)
            }
            fn remaining_capacity(&self) -> usize {
                $producer::remaining_capacity(self)
            }
            fn halt(&self) {
                $producer::halt(self)
            }
            fn is_halted(&self) -> bool {
                $producer::is_halted(self)
            }
            fn clone_handle(&self) -> Option<Box<dyn Handle>> {
                let clone: fn(&Self) -> Option<Box<dyn Handle>> = $clone;
                clone(self)
            }
            fn shutdown(self: Box<Self>) -> Result<(), ShutdownError> {
                $producer::shutdown(*self)
            }
            fn shutdown_timeout(self: Box<Self>, timeout: Duration) -> Result<(), ShutdownError> {
                $producer::shutdown_timeout(*self, timeout)
            }
        }
    };
}

impl_handle!(SingleProducer, |_| None);
impl_handle!(MultiProducer, |p| Some(Box::new(p.clone())));

/// One event poller and where the model has it.
struct Poller {
    stage: usize,
    /// The last event it handled.
    seq: Sequence,
    /// `None` once dropped.
    handle: Option<EventPoller<u64>>,
}

/// The sequential model: what was published and where each poller is.
struct Model {
    size: usize,
    /// The value of each published event, by sequence.
    events: Vec<u64>,
    /// What each slot holds now.
    slots: Vec<u64>,
    pollers: Vec<Poller>,
    /// The number of stages.
    stages: usize,
    /// `after[k]`: the stage stage `k` is after (`None`: the producers).
    after: Vec<Option<usize>>,
    /// Set once the last producer handle went: pollers get what is left,
    /// then `Halted`.
    closed: bool,
    halted: bool,
    /// The value the next written event gets.
    next_value: u64,
}

impl Model {
    fn cursor(&self) -> Sequence {
        self.events.len() as Sequence - 1
    }

    /// How far poller `i` lets the stage after it (and, in the last stage,
    /// the producers) go: its position, or once dropped, its own gate.
    fn position(&self, i: usize) -> Sequence {
        let p = &self.pollers[i];
        match p.handle {
            Some(_) => p.seq,
            None => self.gate(p.stage),
        }
    }

    /// The highest event a poller of `stage` may handle.
    fn gate(&self, stage: usize) -> Sequence {
        let Some(before) = self.after[stage] else {
            return self.cursor();
        };
        (0..self.pollers.len())
            .filter(|&i| self.pollers[i].stage == before)
            .map(|i| self.position(i))
            .min()
            .expect("a built disruptor has no empty stage")
    }

    /// The slowest leaf (a poller of a stage nobody is after), at most the
    /// cursor.
    fn slowest_leaf(&self) -> Sequence {
        let leaf = |stage: usize| !self.after.contains(&Some(stage));
        (0..self.pollers.len())
            .filter(|&i| leaf(self.pollers[i].stage))
            .map(|i| self.position(i))
            .fold(self.cursor(), Sequence::min)
    }

    fn free(&self) -> usize {
        self.size - (self.cursor() - self.slowest_leaf()) as usize
    }

    /// What a claim of `n` must return.
    fn claim(&self, n: usize) -> Result<(), PublishError> {
        if n == 0 || n > self.size {
            return Err(PublishError::BatchSize {
                requested: n,
                size: self.size,
            });
        }
        if self.halted {
            return Err(PublishError::Halted);
        }
        if n > self.free() {
            return Err(PublishError::Full);
        }
        Ok(())
    }

    /// Records `n` published events of which the first `written` got new
    /// values (the rest keep their slot's); returns the new values.
    fn publish(&mut self, n: usize, written: usize) -> Vec<u64> {
        let values: Vec<u64> = (self.next_value..).take(written).collect();
        self.next_value += written as u64;
        for i in 0..n {
            let slot = self.events.len() % self.size;
            if let Some(&v) = values.get(i) {
                self.slots[slot] = v;
            }
            self.events.push(self.slots[slot]);
        }
        values
    }

    /// How many events poller `i` may poll now.
    fn available(&self, i: usize) -> usize {
        if self.halted {
            return 0;
        }
        let next = self.pollers[i].seq + 1;
        (self.gate(self.pollers[i].stage) - next + 1).max(0) as usize
    }

    /// Polls poller `i` (live) with `poll_at_most(max)` (`None`: `poll`)
    /// and checks what it handed out; the closure panics on its
    /// `panic_at`-th call, if the batch has one.
    fn poll(&mut self, i: usize, panic_at: Option<u8>) {
        self.poll_at_most(i, None, panic_at)
    }

    fn poll_at_most(&mut self, i: usize, max: Option<usize>, panic_at: Option<u8>) {
        let next = self.pollers[i].seq + 1;
        let all = self.gate(self.pollers[i].stage);
        let count = ((all - next + 1).max(0) as usize).min(max.unwrap_or(usize::MAX));
        let gate = next + count as Sequence - 1;
        let panic_at = panic_at.map(usize::from).filter(|&k| k < count);
        let mut seen = Vec::new();
        let handle = self.pollers[i].handle.as_mut().expect("a live poller");
        let mut f = |&e: &u64, seq, end_of_batch| {
            seen.push((seq, e, end_of_batch));
            if Some(seen.len() - 1) == panic_at {
                planned_panic();
            }
        };
        let result = catch_planned(|| match max {
            None => handle.poll(&mut f),
            Some(max) => handle.poll_at_most(max, &mut f),
        });
        if self.halted {
            assert_eq!(
                result,
                Some(Err(PollError::Halted)),
                "poll of a halted disruptor"
            );
            assert!(seen.is_empty(), "a halted poll handed out {seen:?}");
            return;
        }
        let handed = panic_at.map_or(count, |k| k + 1);
        let want: Vec<(Sequence, u64, bool)> = (next..)
            .take(handed)
            .map(|s| (s, self.events[s as usize], s == gate))
            .collect();
        assert_eq!(
            seen, want,
            "poller {i} (stage {}) handed out",
            self.pollers[i].stage
        );
        match panic_at {
            Some(k) => {
                assert_eq!(result, None, "the poll closure's panic was swallowed");
                self.pollers[i].seq += k as Sequence;
            }
            None if count == 0 && self.closed && next > self.cursor() => {
                assert_eq!(result, Some(Err(PollError::Halted)), "poll at the end");
            }
            None => {
                assert_eq!(result, Some(Ok(count)), "poll count");
                self.pollers[i].seq = gate.max(next - 1);
            }
        }
    }

    /// True if a shutdown's drain finishes at once.
    fn drained(&self) -> bool {
        self.halted || self.slowest_leaf() == self.cursor()
    }
}

fuzz_target!(|input: Input| {
    let size = match input.size % 32 {
        0 => 0,
        1 => 3,
        2 => 6,
        3 => 12,
        4 => 1 << 63,
        n => 1 << (n % 5),
    };
    // Atomic only because a factory must be `Send` (it runs on this thread).
    let made = Arc::new(AtomicUsize::new(0));
    let factory = {
        let made = Arc::clone(&made);
        move || {
            made.fetch_add(1, Ordering::Relaxed);
            FACTORY
        }
    };

    // The topology, and the build error the model expects.
    let counts: Vec<usize> = input
        .stages
        .iter()
        .take(3)
        .map(|&c| c as usize % 3)
        .collect();
    let counts = if counts.is_empty() { vec![0] } else { counts };
    let mut builder = Disruptor::builder(size, factory);
    let mut pollers = Vec::new();
    let mut expected = None;
    // Whom each stage is after; the first stage, the producers.
    let mut after = vec![None];
    for (stage, &count) in counts.iter().enumerate() {
        let count = count.min(3 - pollers.len());
        let writer = match input.writer {
            Some((w, before)) if w as usize % counts.len() == stage && count > 0 => Some(before),
            _ => None,
        };
        let add_writer = |builder: Builder<u64>| {
            builder.handle_events_mut_with(|_: &mut u64, _, _| panic!("a writer's thread started"))
        };
        if writer == Some(true) {
            builder = add_writer(builder);
        }
        for _ in 0..count {
            pollers.push(Poller {
                stage,
                seq: -1,
                handle: Some(builder.event_poller()),
            });
        }
        if writer.is_some() {
            expected.get_or_insert(BuildError::MutableHandlerShared { stage });
        }
        if writer == Some(false) {
            builder = add_writer(builder);
        }
        if stage + 1 < counts.len() {
            let has_pollers = pollers.iter().any(|p| p.stage == stage);
            if has_pollers && input.new_chains.get(stage).copied().unwrap_or(false) {
                builder = builder.new_chain();
                after.push(None);
            } else {
                if !has_pollers {
                    expected.get_or_insert(BuildError::EmptyStage { stage });
                }
                builder = builder.then();
                after.push(Some(stage));
            }
        }
    }
    let last = counts.len() - 1;
    let expected = expected.or(if !size.is_power_of_two() || size > 1 << 62 {
        Some(BuildError::SizeNotPowerOfTwo { size })
    } else if pollers.is_empty() {
        Some(BuildError::NoConsumers)
    } else if !pollers.iter().any(|p| p.stage == last) {
        Some(BuildError::EmptyStage { stage: last })
    } else {
        None
    });
    if input.poll_before_build {
        for p in &mut pollers {
            let handed = p
                .handle
                .as_mut()
                .unwrap()
                .poll(|_, _, _| panic!("an event before the build"));
            assert_eq!(handed, Ok(0), "poll before the build");
        }
    }
    let built: Result<Box<dyn Handle>, BuildError> = if input.multi {
        builder
            .build_multi_producer()
            .map(|p| Box::new(p) as Box<dyn Handle>)
    } else {
        builder
            .build_single_producer()
            .map(|p| Box::new(p) as Box<dyn Handle>)
    };
    let first = match (built, expected) {
        (Ok(producer), None) => producer,
        (Err(got), Some(want)) => {
            assert_eq!(got, want, "build error");
            assert_eq!(
                made.load(Ordering::Relaxed),
                0,
                "a failed build made events"
            );
            // Never built, and the builder is gone: the pollers say so.
            for p in &mut pollers {
                let handed = p
                    .handle
                    .as_mut()
                    .unwrap()
                    .poll(|_, _, _| panic!("an event, unbuilt"));
                assert_eq!(
                    handed,
                    Err(PollError::Halted),
                    "poll of an unbuilt disruptor"
                );
            }
            return;
        }
        (Ok(_), Some(want)) => panic!("built, expected {want:?}"),
        (Err(got), None) => panic!("build failed: {got:?}"),
    };
    assert_eq!(made.load(Ordering::Relaxed), size, "the factory's events");

    let mut model = Model {
        size,
        events: Vec::new(),
        slots: vec![FACTORY; size],
        pollers,
        stages: counts.len(),
        after,
        closed: false,
        halted: false,
        next_value: 0,
    };
    let mut handles = vec![first];
    // Asks are up to twice the size, so 0 and too many are common.
    let ask = |n: u8| n as usize % (2 * size + 2);

    for op in input.ops.into_iter().take(512) {
        let pick = |h: u8, len: usize| h as usize % len;
        match op {
            Op::Publish(h, write) | Op::TryPublish(h, write) => {
                let h = pick(h, handles.len());
                let want = model.claim(1);
                // A blocking publish without room would wait for ever.
                let blocking = matches!(op, Op::Publish(..)) && want != Err(PublishError::Full);
                let value = model.next_value;
                let mut called = false;
                let mut f = |e: &mut u64| {
                    called = true;
                    match write {
                        Write::Value => *e = value,
                        Write::Nothing => {}
                        Write::Panic => planned_panic(),
                        Write::ValueThenPanic => {
                            *e = value;
                            planned_panic()
                        }
                    }
                };
                let handle = &mut handles[h];
                let got = catch_planned(|| {
                    if blocking {
                        handle.publish(&mut f)
                    } else {
                        handle.try_publish(&mut f)
                    }
                });
                match want {
                    Ok(()) => {
                        let panics = matches!(write, Write::Panic | Write::ValueThenPanic);
                        let writes = matches!(write, Write::Value | Write::ValueThenPanic);
                        assert!(called, "the publish closure was not called");
                        model.publish(1, usize::from(writes));
                        let seq = model.cursor();
                        match got {
                            None => assert!(panics, "a planned panic out of nowhere"),
                            Some(got) => {
                                assert!(!panics, "the closure's panic was swallowed");
                                assert_eq!(got, Ok(seq), "publish");
                            }
                        }
                    }
                    Err(e) => {
                        assert!(!called, "refused ({e:?}) but called the closure");
                        assert_eq!(got, Some(Err(e)), "publish refused");
                    }
                }
            }
            Op::BatchPublish {
                handle,
                n,
                k,
                panics,
            }
            | Op::TryBatchPublish {
                handle,
                n,
                k,
                panics,
            } => {
                let h = pick(handle, handles.len());
                let n = ask(n);
                let k = k as usize % (n + 1);
                let want = model.claim(n);
                let blocking =
                    matches!(op, Op::BatchPublish { .. }) && want != Err(PublishError::Full);
                let first_value = model.next_value;
                let mut called = false;
                let mut f = |mut events: BatchIterMut<'_, u64>| {
                    called = true;
                    assert_eq!(events.len(), n, "batch length");
                    let lo = events.next_sequence();
                    for (i, v) in (first_value..).take(k).enumerate() {
                        assert_eq!(events.next_sequence(), lo + i as Sequence);
                        *events.next().expect("an event of the batch") = v;
                    }
                    if panics {
                        planned_panic();
                    }
                };
                let handle = &mut handles[h];
                let got = catch_planned(|| {
                    if blocking {
                        handle.batch_publish(n, &mut f)
                    } else {
                        handle.try_batch_publish(n, &mut f)
                    }
                });
                match want {
                    Ok(()) => {
                        assert!(called, "the batch closure was not called");
                        model.publish(n, k);
                        let hi = model.cursor();
                        match got {
                            None => assert!(panics, "a planned panic out of nowhere"),
                            Some(got) => {
                                assert!(!panics, "the closure's panic was swallowed");
                                assert_eq!(got, Ok(hi), "batch publish of {n}");
                            }
                        }
                    }
                    Err(e) => {
                        assert!(!called, "refused ({e:?}) but called the closure");
                        assert_eq!(got, Some(Err(e)), "batch of {n} refused");
                    }
                }
            }
            Op::PublishTimeout(h, write, long) => {
                let h = pick(h, handles.len());
                let timeout = Duration::from_micros(if long { 50 } else { 0 });
                let want = model.claim(1).map_err(|e| match e {
                    PublishError::Full => PublishError::Timeout,
                    e => e,
                });
                let value = model.next_value;
                let mut called = false;
                let mut f = |e: &mut u64| {
                    called = true;
                    match write {
                        Write::Value => *e = value,
                        Write::Nothing => {}
                        Write::Panic => planned_panic(),
                        Write::ValueThenPanic => {
                            *e = value;
                            planned_panic()
                        }
                    }
                };
                let got = catch_planned(|| handles[h].publish_timeout(timeout, &mut f));
                match want {
                    Ok(()) => {
                        let panics = matches!(write, Write::Panic | Write::ValueThenPanic);
                        let writes = matches!(write, Write::Value | Write::ValueThenPanic);
                        assert!(called, "the publish closure was not called");
                        model.publish(1, usize::from(writes));
                        if let Some(got) = got {
                            assert!(!panics, "the closure's panic was swallowed");
                            assert_eq!(got, Ok(model.cursor()), "publish_timeout");
                        }
                    }
                    Err(e) => {
                        assert!(!called, "refused ({e:?}) but called the closure");
                        assert_eq!(got, Some(Err(e)), "publish_timeout refused");
                    }
                }
            }
            Op::BatchPublishTimeout { handle, n, k, long } => {
                let h = pick(handle, handles.len());
                let n = ask(n);
                let k = k as usize % (n + 1);
                let timeout = Duration::from_micros(if long { 50 } else { 0 });
                let want = model.claim(n).map_err(|e| match e {
                    PublishError::Full => PublishError::Timeout,
                    e => e,
                });
                let first_value = model.next_value;
                let mut called = false;
                let mut f = |mut events: BatchIterMut<'_, u64>| {
                    called = true;
                    for v in (first_value..).take(k) {
                        *events.next().expect("an event of the batch") = v;
                    }
                };
                let got = handles[h].batch_publish_timeout(n, timeout, &mut f);
                match want {
                    Ok(()) => {
                        assert!(called, "the batch closure was not called");
                        model.publish(n, k);
                        assert_eq!(got, Ok(model.cursor()), "batch_publish_timeout of {n}");
                    }
                    Err(e) => {
                        assert!(!called, "refused ({e:?}) but called the closure");
                        assert_eq!(got, Err(e), "batch_publish_timeout of {n} refused");
                    }
                }
            }
            Op::PollAtMost(i, max) => {
                let i = i as usize % model.pollers.len();
                if model.pollers[i].handle.is_some() {
                    model.poll_at_most(i, Some(usize::from(max % 4)), None);
                }
            }
            Op::Available(i) => {
                let i = i as usize % model.pollers.len();
                if let Some(p) = &model.pollers[i].handle {
                    assert_eq!(p.available(), model.available(i), "available of poller {i}");
                }
            }
            Op::RemainingCapacity(h) => {
                let h = pick(h, handles.len());
                assert_eq!(
                    handles[h].remaining_capacity(),
                    model.free(),
                    "remaining_capacity"
                );
            }
            Op::Poll(i, panic_at) => {
                let i = i as usize % model.pollers.len();
                if model.pollers[i].handle.is_some() {
                    model.poll(i, panic_at);
                }
            }
            Op::DropPoller(i) => {
                let i = i as usize % model.pollers.len();
                // Dropping any poller is covered, a whole later stage behind a live
                // earlier poller included: a dropped poller lets through what its own
                // stage's gate lets through. (This target found that the crate once gated
                // the producers on the last stage alone, so dropping it let them lap a
                // live poller of an earlier stage; `disruptor/tests/dropped_stages.rs`
                // now guards it.)
                drop(model.pollers[i].handle.take());
            }
            Op::CloneProducer(h) => {
                let h = pick(h, handles.len());
                if handles.len() < 4 {
                    if let Some(clone) = handles[h].clone_handle() {
                        assert!(input.multi, "a single producer cloned");
                        handles.push(clone);
                    } else {
                        assert!(!input.multi, "a multi producer would not clone");
                    }
                }
            }
            Op::DropProducer(h) => {
                if handles.len() > 1 {
                    drop(handles.remove(pick(h, handles.len())));
                }
            }
            Op::ReleaseProducer(h, timeout) => {
                if handles.len() > 1 {
                    let handle = handles.remove(pick(h, handles.len()));
                    let got = if timeout {
                        handle.shutdown_timeout(Duration::ZERO)
                    } else {
                        handle.shutdown()
                    };
                    assert_eq!(got, Ok(()), "release of a handle that is not the last");
                }
            }
            Op::Halt(h) => {
                handles[pick(h, handles.len())].halt();
                model.halted = true;
            }
            Op::IsHalted(h) => {
                let h = pick(h, handles.len());
                assert_eq!(handles[h].is_halted(), model.halted, "is_halted");
            }
        }
    }

    // The end: every handle but one goes at once; the last shuts down.
    let last = handles.pop().expect("one handle is always kept");
    for handle in handles {
        assert_eq!(
            handle.shutdown(),
            Ok(()),
            "release of a handle that is not the last"
        );
    }
    let drain = |model: &mut Model| {
        for stage in 0..model.stages {
            for i in 0..model.pollers.len() {
                if model.pollers[i].stage == stage && model.pollers[i].handle.is_some() {
                    model.poll(i, None);
                }
            }
        }
        assert!(model.drained(), "polled to the end, yet not drained");
    };
    match input.end {
        End::ShutdownTimeout(t) => {
            let timeout = Duration::from_micros(50 * u64::from(t % 3));
            let want = if model.drained() {
                Ok(())
            } else {
                Err(ShutdownError::Timeout(timeout))
            };
            assert_eq!(last.shutdown_timeout(timeout), want, "shutdown_timeout");
        }
        End::Drop if model.drained() => drop(last),
        End::DropThenPoll => {
            // Returns at once whatever the pollers hold: a drop that waited
            // on them would hang this very thread, and the fuzzer with it.
            drop(last);
            model.closed = true;
            if !model.halted {
                drain(&mut model);
            }
        }
        End::Drop | End::Shutdown => {
            drain(&mut model);
            assert_eq!(last.shutdown(), Ok(()), "shutdown");
        }
    }
    // Every way of shutting down halts, or ends the stream.
    if !model.closed {
        model.halted = true;
    }
    for i in 0..model.pollers.len() {
        if model.pollers[i].handle.is_some() {
            model.poll(i, None);
        }
    }
});
