//! The `Blocking` wait strategy: no lost wake-up, and no CPU burnt while
//! idle.
//!
//! - Ping-pong: the producer publishes one event and waits until the
//!   handlers acknowledge it before publishing the next, so every event
//!   lands while the handlers are going to sleep or asleep: a million
//!   publish/park races (release; 20,000 in debug). A lost wake-up leaves
//!   a handler asleep with an event available, and the deadline fails the
//!   test. The slowest round is printed (`--nocapture`): a strategy that
//!   hides lost wake-ups behind a timed re-check would show here as a
//!   round as long as its timeout.
//! - Last check: a producer that never parks places each publish where
//!   the handler goes from its last check to sleep (a delay steered round
//!   by round), so some land between the check and the announcement.
//! - Idle CPU: the CPU time of the processor's thread over one idle second,
//!   read from the kernel, for `Blocking` and `PhasedBackoff`; `BusySpin`
//!   in the same test shows that the measurement does see a busy thread.
mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use common::{current_tid, thread_cpu_time, thread_name};
use hotq_disruptor::wait::{Blocking, BusySpin, PhasedBackoff, WaitStrategy};
use hotq_disruptor::{Disruptor, EventHandler, Sequence};
use hotq_testkit::{DEADLINE, bound, one_run_at_a_time, wait_for, within};

/// Publish/park races: a million in release builds, 20,000 in debug, 200
/// under miri (each round wakes three processors: about 10 s of miri).
const ROUNDS: u64 = if cfg!(miri) {
    200
} else if cfg!(debug_assertions) {
    20_000
} else {
    1_000_000
};

#[derive(Debug, Default)]
struct Event {
    value: u64,
}

/// A stage-1 handler, a second one in parallel, and a third gated on both,
/// all `Blocking`: the producer waits for the last to acknowledge each
/// event. Stage 2 waits on stage 1's progress, not on the cursor, so the
/// wake-up that stage 1 gives it is checked too.
#[test]
fn no_lost_wake_up_in_a_million_publish_park_races() {
    let _alone = one_run_at_a_time();
    let acked = Arc::new(AtomicI64::new(-1));
    let ack = acked.clone();
    let slowest = within("ping-pong", DEADLINE * 2, move || {
        let mut producer = Disruptor::builder(4, Event::default)
            .wait_strategy(Blocking)
            .handle_events_with(|_: &Event, _, _| {})
            .handle_events_with(|_: &Event, _, _| {})
            .then()
            .handle_events_with(move |e: &Event, seq: Sequence, _| {
                assert_eq!(e.value, seq as u64, "event content");
                // Release: pairs with the producer's Acquire below (the
                // producer's next write to the slot comes after this read).
                ack.store(seq, Ordering::Release);
            })
            .build_single_producer()
            .unwrap();
        let mut slowest = Duration::ZERO;
        for s in 0..ROUNDS as Sequence {
            producer.publish(|e| e.value = s as u64).unwrap();
            let start = Instant::now();
            // Spin briefly, then yield: a short wait gives the handlers
            // time to park again before the next publish.
            wait_for(&format!("the acknowledgement of {s}"), || {
                (acked.load(Ordering::Acquire) == s).then_some(())
            });
            slowest = slowest.max(start.elapsed());
        }
        producer.shutdown().unwrap();
        slowest
    });
    eprintln!("Blocking ping-pong, {ROUNDS} rounds: slowest round {slowest:?}");
}

/// The same race from the other side: the producer is the one that waits
/// (a ring of 1, always full), the handler frees the slot.
#[test]
fn no_lost_wake_up_with_a_ring_of_one() {
    let _alone = one_run_at_a_time();
    let seen = Arc::new(AtomicU64::new(0));
    let s = seen.clone();
    within("ring of 1", DEADLINE, move || {
        let mut producer = Disruptor::builder(1, Event::default)
            .wait_strategy(Blocking)
            .handle_events_with(move |e: &Event, seq: Sequence, _| {
                assert_eq!(e.value, seq as u64);
                s.fetch_add(1, Ordering::Relaxed);
            })
            .build_single_producer()
            .unwrap();
        for i in 0..ROUNDS / 4 {
            producer.publish(|e| e.value = i).unwrap();
        }
        producer.shutdown().unwrap();
    });
    assert_eq!(seen.load(Ordering::Relaxed), ROUNDS / 4);
}

/// Rounds of [`a_publish_that_lands_on_the_waiters_last_check_still_wakes_it`]:
/// each is one publish/park race with the publish placed near the
/// handler's last check before it sleeps.
const LAST_CHECK_ROUNDS: u64 = if cfg!(miri) {
    200
} else if cfg!(debug_assertions) {
    60_000
} else {
    200_000
};
/// Spin-loop hints the handler runs after its acknowledgement, before its
/// processor goes back to wait: so that the producer, which reacts to the
/// acknowledgement, can reach the handler's last check with a delay of
/// zero or more (without it the producer's reaction alone can come after
/// the handler's whole way to sleep).
const LEAD: u32 = 16;
/// An event taken this soon after its publish was taken without parking;
/// one taken later, after a wake-up (a futex wake and a reschedule: 10 µs
/// and more here). Only steers the delay (a wrong guess moves it by one
/// step); it decides nothing.
const UNPARKED: Duration = Duration::from_micros(5);
/// A wake-up takes microseconds; a handler that has not taken an event
/// published this long ago lost it. Shorter than `DEADLINE` so that the
/// mutation check (`MUTANTS.md`) fails in seconds; far beyond any healthy
/// wake-up even on the loaded 2-core machine.
const LOST: Duration = bound(Duration::from_secs(10));

/// Spins until the handler has acknowledged `seq`: the producer's side of
/// the round's rendezvous. Past [`LOST`], fails as a lost wake-up.
fn await_ack(acked: &AtomicI64, seq: Sequence, delay: u32) {
    let mut spins = 0u32;
    let mut since = None;
    // Acquire: pairs with the handler's Release store (the slot's next
    // write comes after the handler's read of it).
    while acked.load(Ordering::Acquire) < seq {
        spins = spins.wrapping_add(1);
        if spins % 1024 == 0 {
            let waited = since.get_or_insert_with(Instant::now).elapsed();
            assert!(
                waited < LOST,
                "lost wake-up: event {seq}, published {delay} spins after the handler's \
                 acknowledgement of {}, not taken after {waited:?}",
                seq - 1
            );
            // Not part of the race (that is over once the handler has
            // parked): a producer that waits this long leaves the core to
            // the handler.
            if waited > Duration::from_millis(1) {
                std::thread::sleep(Duration::from_micros(100));
            } else {
                std::thread::yield_now();
            }
        }
        std::hint::spin_loop();
    }
}

/// A publish that lands between a parking handler's last check for work
/// and its announcement that it sleeps still wakes it: the waiter
/// announces itself first, then checks (`Notifier::park`).
///
/// The window is a few instructions inside the crate, where no barrier can
/// reach; each round is placed instead. The handler stores its
/// acknowledgement and runs [`LEAD`] spins before its processor goes back
/// to wait: that store is the round's rendezvous. The producer, spinning
/// on it, waits `delay` spins and publishes the next event. If the handler
/// took it at once, the publish came before its last check: the next
/// delay is one longer; if it took it only after a wake-up, the publish
/// came after its announcement: one shorter. So the publishes hover where
/// the handler goes from checking to sleeping, round after round, and
/// some land between its last check and its announcement. There, a waiter
/// that checked before announcing itself would be missed (the publish
/// reads no announcement and wakes nobody) and sleep with the event
/// available: the round fails at [`LOST`]. Shown (`MUTANTS.md`): with
/// `ready()` evaluated before the announcement this test failed in 20 runs
/// of 20 (debug and release, on the loaded 2-core machine), where the
/// ping-pong and the ring of 1 above pass.
#[test]
fn a_publish_that_lands_on_the_waiters_last_check_still_wakes_it() {
    let _alone = one_run_at_a_time();
    let acked = Arc::new(AtomicI64::new(-1));
    let ack = acked.clone();
    within("last-check races", DEADLINE, move || {
        let mut producer = Disruptor::builder(8, Event::default)
            .wait_strategy(Blocking)
            .handle_events_with(move |e: &Event, seq: Sequence, _| {
                assert_eq!(e.value, seq as u64, "event content");
                // Release: pairs with the producer's Acquire in `await_ack`.
                ack.store(seq, Ordering::Release);
                for _ in 0..LEAD {
                    std::hint::spin_loop();
                }
            })
            .build_single_producer()
            .unwrap();
        let mut delay = 0u32;
        for s in 0..LAST_CHECK_ROUNDS {
            for _ in 0..delay {
                std::hint::spin_loop();
            }
            let published = Instant::now();
            producer.publish(|e| e.value = s).unwrap();
            await_ack(&acked, s as Sequence, delay);
            if published.elapsed() < UNPARKED {
                delay += 1;
            } else {
                delay = delay.saturating_sub(1);
            }
        }
        producer.shutdown().unwrap();
    });
}

/// Records the kernel id of the processor's thread on its first event.
struct Tid(Arc<AtomicU64>);

impl EventHandler<Event> for Tid {
    fn on_event(&mut self, _: &Event, _: Sequence, _: bool) {
        if self.0.load(Ordering::Relaxed) == 0 {
            self.0.store(current_tid(), Ordering::Release);
        }
    }

    fn name(&self) -> String {
        "idle-probe".to_string()
    }
}

/// Starts a disruptor with `strategy` whose processor has handled one
/// event and is idle now; hands `probe` the kernel id of its thread.
fn with_idle_processor<W: WaitStrategy, R: Send + 'static>(
    strategy: W,
    probe: impl FnOnce(u64) -> R + Send + 'static,
) -> R {
    let tid = Arc::new(AtomicU64::new(0));
    let handler = Tid(tid.clone());
    within("idle CPU", DEADLINE, move || {
        let mut producer = Disruptor::builder(8, Event::default)
            .wait_strategy(strategy)
            .handle_events_with_handler(handler)
            .build_single_producer()
            .unwrap();
        producer.publish(|_| {}).unwrap();
        let tid = wait_for("the processor's first event", || {
            Some(tid.load(Ordering::Acquire)).filter(|&t| t != 0)
        });
        // Let the strategy reach its idle state (PhasedBackoff spins and
        // yields first).
        std::thread::sleep(Duration::from_millis(100));
        let r = probe(tid);
        producer.shutdown().unwrap();
        r
    })
}

/// CPU time of an idle processor's thread over one second.
fn idle_cpu<W: WaitStrategy>(strategy: W) -> Duration {
    with_idle_processor(strategy, |tid| {
        let before = thread_cpu_time(tid);
        std::thread::sleep(Duration::from_secs(1));
        thread_cpu_time(tid) - before
    })
}

#[test]
#[cfg_attr(
    miri,
    ignore = "reads the thread's CPU time from /proc, which miri's isolation refuses \
              (and an interpreted thread's CPU time would measure miri)"
)]
fn an_idle_blocking_processor_uses_almost_no_cpu() {
    let _alone = one_run_at_a_time();
    // The measurement can fail: an idle BusySpin processor's thread does
    // accumulate CPU time, as read here. Waited for rather than timed (on
    // a loaded machine a spinning thread may get under a tenth of a core),
    // with the deadline for a measurement that never moves.
    let busy = with_idle_processor(BusySpin, |tid| {
        let before = thread_cpu_time(tid);
        wait_for("BusySpin's idle thread to show 100 ms of CPU", || {
            std::thread::sleep(Duration::from_millis(10));
            let used = thread_cpu_time(tid) - before;
            (used >= Duration::from_millis(100)).then_some(used)
        })
    });
    let blocking = idle_cpu(Blocking);
    let phased = idle_cpu(PhasedBackoff::default());
    eprintln!(
        "CPU over an idle second: Blocking {blocking:?}, PhasedBackoff {phased:?}; BusySpin reached {busy:?}"
    );
    assert!(
        blocking < Duration::from_millis(50),
        "Blocking, idle: {blocking:?} of CPU in 1 s"
    );
    assert!(
        phased < Duration::from_millis(50),
        "PhasedBackoff, idle: {phased:?} of CPU in 1 s"
    );
}

/// The processor's thread carries its handler's name.
#[test]
#[cfg_attr(
    miri,
    ignore = "reads the thread's name from /proc, which miri's isolation refuses"
)]
fn the_processor_thread_is_named_after_its_handler() {
    let tid = Arc::new(AtomicU64::new(0));
    let handler = Tid(tid.clone());
    within("thread name", DEADLINE, move || {
        let mut producer = Disruptor::builder(8, Event::default)
            .handle_events_with_handler(handler)
            .build_single_producer()
            .unwrap();
        producer.publish(|_| {}).unwrap();
        let tid = wait_for("the first event", || {
            Some(tid.load(Ordering::Acquire)).filter(|&t| t != 0)
        });
        assert_eq!(thread_name(tid), "idle-probe");
        producer.shutdown().unwrap();
    });
}

/// `TimeoutBlocking`: a quiet handler is told, with the last sequence it
/// handled (`-1` before any), after each quiet spell; events still wake it
/// at once (the timeout is longer than the test waits for an event).
#[test]
fn timeout_blocking_tells_the_handler_when_the_stream_goes_quiet() {
    use hotq_disruptor::wait::TimeoutBlocking;
    use std::sync::mpsc;

    #[derive(Debug, PartialEq)]
    enum Call {
        Event(Sequence),
        Timeout(Sequence),
    }
    struct Quiet(mpsc::Sender<Call>);
    impl EventHandler<u64> for Quiet {
        fn on_event(&mut self, _e: &u64, seq: Sequence, _eob: bool) {
            self.0.send(Call::Event(seq)).unwrap();
        }
        fn on_timeout(&mut self, seq: Sequence) {
            self.0.send(Call::Timeout(seq)).unwrap();
        }
    }
    within("TimeoutBlocking", DEADLINE, || {
        let (tx, rx) = mpsc::channel();
        let mut producer = Disruptor::builder(8, || 0u64)
            .wait_strategy(TimeoutBlocking::new(Duration::from_millis(20)))
            .handle_events_with_handler(Quiet(tx))
            .build_single_producer()
            .unwrap();
        // Nothing published: a timeout with nothing handled yet.
        assert_eq!(rx.recv_timeout(DEADLINE), Ok(Call::Timeout(-1)));
        while rx.try_recv().is_ok() {}
        for round in 0..3 {
            producer.publish(|e| *e = round).unwrap();
            // The event first (a timeout may come before it only if it
            // fired before the publish), then a timeout naming it.
            let mut calls = Vec::new();
            loop {
                let call = rx.recv_timeout(DEADLINE).unwrap();
                let done = call == Call::Timeout(round as Sequence);
                calls.push(call);
                if done {
                    break;
                }
            }
            assert!(calls.contains(&Call::Event(round as Sequence)), "{calls:?}");
        }
        producer.shutdown().unwrap();
    });
}
