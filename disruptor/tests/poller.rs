//! `EventPoller`: a pull-based consumer the caller drives on its own
//! thread. It sees every event in order, exactly once, across many wraps;
//! each poll is one delivery (`end_of_batch` on its last event only); it
//! gates the producer like a handler (a slow poller is never overwritten)
//! and the stages after it; a panic in its closure hands the event out
//! again; dropping it releases its gate; a shutdown waits until it has
//! polled everything, then it reports `Halted`.
//!
//! Nothing the poller hands out can outlive the poll: `poll` takes a
//! closure over `&E` (higher-ranked), so there is no guard or iterator
//! to keep (disruptor-rs's poller iterator could outlive its guard).
mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use common::{Log, Seen, assert_all_in_order, payload};
use hotq_disruptor::wait::Yielding;
use hotq_disruptor::{Disruptor, PollError, PublishError, Sequence};
use hotq_testkit::{DEADLINE, wait_for, within};

/// Events per test: enough for hundreds of wraps of the small rings; under
/// miri, where the rings are small ([`SIZES`]), five laps of the ring of 8.
const EVENTS: u64 = if cfg!(miri) {
    40
} else if cfg!(debug_assertions) {
    5_000
} else {
    200_000
};

/// The ring sizes; the ring of 1024 needs more than 2048 events to wrap
/// twice, too many for miri.
const SIZES: &[usize] = if cfg!(miri) {
    &[1, 2, 8]
} else {
    &[1, 2, 8, 1024]
};

#[derive(Debug, Default)]
struct Event {
    value: u64,
}

/// Polls until `n` events were seen (deadline-bounded), checking each
/// poll's delivery: the count it returned, and `end_of_batch` on its last
/// event only. `slow` reads each event twice, a pause apart.
fn poll_all(poller: &mut hotq_disruptor::EventPoller<Event>, n: u64, slow: bool) -> Vec<Seen> {
    let mut seen: Vec<Seen> = Vec::new();
    wait_for("the poller to see every event", || {
        let before = seen.len();
        let got = poller
            .poll(|e, seq, eob| {
                let value = e.value;
                if slow {
                    for _ in 0..64 {
                        std::hint::spin_loop();
                    }
                    assert_eq!(value, e.value, "sequence {seq} rewritten under the poller");
                }
                seen.push(Seen {
                    seq,
                    value,
                    end_of_batch: eob,
                });
            })
            .expect("halted while polling");
        assert_eq!(got, seen.len() - before, "poll's count");
        for (k, s) in seen[before..].iter().enumerate() {
            assert_eq!(s.end_of_batch, k == got - 1, "end_of_batch at {}", s.seq);
        }
        (seen.len() as u64 >= n).then_some(())
    });
    seen
}

#[test]
fn a_poller_sees_every_event_in_order_across_many_wraps() {
    for &size in SIZES {
        let what = format!("poller, size {size}");
        let seen = within(&what, DEADLINE, move || {
            let mut builder = Disruptor::builder(size, Event::default);
            let mut poller = builder.event_poller();
            let mut producer = builder.build_single_producer().unwrap();
            let publisher = std::thread::spawn(move || {
                for s in 0..EVENTS as Sequence {
                    assert_eq!(producer.publish(|e| e.value = payload(s)).unwrap(), s);
                }
                producer
            });
            // Slow: the producer waits on the poller, and must never
            // rewrite a slot the poller is reading.
            let seen = poll_all(&mut poller, EVENTS, true);
            let producer = publisher.join().unwrap();
            producer.shutdown().unwrap();
            assert_eq!(poller.poll(|_, _, _| {}), Err(PollError::Halted));
            seen
        });
        assert_all_in_order(&what, &seen, EVENTS, payload);
    }
}

/// Two pollers in one stage and a handler gated on both: the handler
/// never sees an event before both pollers polled it; several producers.
#[test]
fn a_stage_after_two_pollers_waits_for_both() {
    let log = Log::new();
    let l = log.clone();
    let polled = [Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0))];
    let p = polled.clone();
    within("two pollers then a handler", DEADLINE, move || {
        let mut builder = Disruptor::builder(4, Event::default);
        let mut pollers = [builder.event_poller(), builder.event_poller()];
        let producer = builder
            .then()
            .wait_strategy(Yielding)
            .handle_events_with(move |e: &Event, seq: Sequence, eob| {
                for (i, count) in p.iter().enumerate() {
                    // Acquire: pairs with the Release below.
                    let done = count.load(Ordering::Acquire);
                    assert!(
                        done > seq as u64,
                        "handler got {seq} before poller {i} polled it"
                    );
                }
                l.record(seq, e.value, eob);
            })
            .build_multi_producer()
            .unwrap();
        std::thread::scope(|s| {
            for id in 0..2u64 {
                let mut producer = producer.clone();
                s.spawn(move || {
                    for i in 0..EVENTS / 2 {
                        producer.publish(|e| e.value = id << 32 | i).unwrap();
                    }
                });
            }
            for (poller, count) in pollers.iter_mut().zip(&polled) {
                s.spawn(move || {
                    let mut n = 0u64;
                    wait_for("a poller to see every event", || {
                        poller
                            .poll(|_, seq, _| {
                                assert_eq!(seq as u64, n, "poller order");
                                n += 1;
                                // Release: the handler's Acquire above.
                                count.store(n, Ordering::Release);
                            })
                            .unwrap();
                        (n == EVENTS).then_some(())
                    });
                });
            }
        });
        producer.shutdown().unwrap();
    });
    let seen = log.take();
    assert_eq!(seen.len() as u64, EVENTS);
    let mut next = [0u64; 2];
    for (i, s) in seen.iter().enumerate() {
        assert_eq!(s.seq, i as Sequence);
        let (p, index) = ((s.value >> 32) as usize, s.value & 0xFFFF_FFFF);
        assert_eq!(index, next[p], "producer {p}'s order");
        next[p] += 1;
    }
}

/// The poller gates the producer: with nothing polled the ring takes
/// exactly `size` events, then `try_publish` is `Full`.
#[test]
fn an_idle_poller_holds_the_producer_back_by_exactly_the_ring() {
    within("poller gates", DEADLINE, || {
        let mut builder = Disruptor::builder(4, Event::default);
        let mut poller = builder.event_poller();
        let mut producer = builder.build_single_producer().unwrap();
        for s in 0..4 {
            producer.try_publish(|e| e.value = payload(s)).unwrap();
        }
        assert_eq!(producer.try_publish(|_| {}), Err(PublishError::Full));
        let mut seen = Vec::new();
        assert_eq!(poller.poll(|e, seq, _| seen.push((seq, e.value))), Ok(4));
        assert_eq!(seen, (0..4).map(|s| (s, payload(s))).collect::<Vec<_>>());
        assert_eq!(producer.try_publish(|e| e.value = payload(4)), Ok(4));
        assert_eq!(
            poller.poll(|e, seq, _| assert_eq!((seq, e.value), (4, payload(4)))),
            Ok(1)
        );
        drop(poller);
        producer.shutdown().unwrap();
    });
}

/// A panic in the poll closure: the events before it count as handled,
/// the one it panicked on and the rest come again with the next poll.
#[test]
fn a_panic_in_the_poll_closure_hands_the_event_out_again() {
    within("poll panic", DEADLINE, || {
        let mut builder = Disruptor::builder(8, Event::default);
        let mut poller = builder.event_poller();
        let mut producer = builder.build_single_producer().unwrap();
        for s in 0..5 {
            producer.publish(|e| e.value = payload(s)).unwrap();
        }
        let mut first = Vec::new();
        let r = catch_unwind(AssertUnwindSafe(|| {
            poller.poll(|_, seq, _| {
                if seq == 2 {
                    panic!("the poll closure panics on 2");
                }
                first.push(seq);
            })
        }));
        assert!(r.is_err());
        assert_eq!(first, [0, 1]);
        let mut again = Vec::new();
        assert_eq!(poller.poll(|_, seq, _| again.push(seq)), Ok(3));
        assert_eq!(again, [2, 3, 4]);
        drop(poller);
        producer.shutdown().unwrap();
    });
}

/// A dropped poller gates nothing: the producer goes on past the ring.
#[test]
fn dropping_a_poller_releases_the_producer() {
    within("dropped poller", DEADLINE, || {
        let mut builder = Disruptor::builder(2, Event::default);
        let poller = builder.event_poller();
        let mut producer = builder.build_single_producer().unwrap();
        for _ in 0..2 {
            producer.publish(|_| {}).unwrap();
        }
        assert_eq!(producer.try_publish(|_| {}), Err(PublishError::Full));
        drop(poller);
        for s in 2..100 {
            assert_eq!(producer.publish(|_| {}), Ok(s));
        }
        producer.shutdown().unwrap();
    });
}

/// A shutdown on another thread waits until the poller has polled every
/// published event; then the poller reports `Halted`.
#[test]
fn shutdown_waits_for_the_poller_to_poll_everything() {
    let seen = within("shutdown with a poller", DEADLINE, || {
        let mut builder = Disruptor::builder(8, Event::default);
        let mut poller = builder.event_poller();
        let mut producer = builder.build_single_producer().unwrap();
        for s in 0..6 {
            producer.publish(|e| e.value = payload(s)).unwrap();
        }
        let shutdown = std::thread::spawn(move || producer.shutdown());
        let mut seen = Vec::new();
        wait_for("Halted after the drain", || {
            match poller.poll(|e, seq, eob| {
                seen.push(Seen {
                    seq,
                    value: e.value,
                    end_of_batch: eob,
                })
            }) {
                Ok(_) => None,
                Err(e) => {
                    assert_eq!(e, PollError::Halted);
                    Some(())
                }
            }
        });
        shutdown.join().unwrap().unwrap();
        seen
    });
    assert_all_in_order("shutdown with a poller", &seen, 6, payload);
}

/// `poll_at_most(k)` on its own thread, against a producer across many
/// wraps: every event once, in order, never more than `k` per call, with
/// `end_of_batch` on each call's last; `available()` beforehand never
/// consumes, and never promises more than the next call can hand out.
#[test]
fn poll_at_most_bounds_each_call_and_available_consumes_nothing() {
    for &size in SIZES {
        for k in [1usize, 3] {
            let what = format!("poll_at_most({k}), size {size}");
            within(&what.clone(), DEADLINE, move || {
                let mut builder = Disruptor::builder(size, Event::default).wait_strategy(Yielding);
                let mut poller = builder.event_poller();
                let mut producer = builder.build_single_producer().unwrap();
                let consumer = std::thread::spawn(move || {
                    let mut seen: Vec<Seen> = Vec::new();
                    while (seen.len() as u64) < EVENTS {
                        let promised = poller.available();
                        let before = seen.len();
                        let got = poller
                            .poll_at_most(k, |e, seq, eob| {
                                seen.push(Seen {
                                    seq,
                                    value: e.value,
                                    end_of_batch: eob,
                                })
                            })
                            .unwrap();
                        assert!(got <= k, "{what}: {got} events in one call");
                        // Events only arrive: at least what was promised
                        // (up to k) is there.
                        assert!(
                            got >= promised.min(k),
                            "{what}: promised {promised}, got {got}"
                        );
                        for (i, s) in seen[before..].iter().enumerate() {
                            assert_eq!(s.end_of_batch, i == got - 1, "{what}: end_of_batch");
                        }
                        if got == 0 {
                            std::thread::yield_now();
                        }
                    }
                    seen
                });
                for i in 0..EVENTS as Sequence {
                    producer.publish(|e| e.value = payload(i)).unwrap();
                }
                let seen = consumer.join().unwrap();
                assert_all_in_order("poll_at_most", &seen, EVENTS, payload);
                producer.shutdown().unwrap();
            });
        }
    }
}

#[test]
fn poll_at_most_zero_hands_out_nothing_and_available_follows_the_gate() {
    let mut builder = Disruptor::builder(4, Event::default);
    let mut first = builder.event_poller();
    let mut builder = builder.then();
    let mut second = builder.event_poller();
    let mut producer = builder.build_single_producer().unwrap();
    producer.publish(|e| e.value = 1).unwrap();
    producer.publish(|e| e.value = 2).unwrap();
    assert_eq!(first.poll_at_most(0, |_, _, _| panic!("handed out")), Ok(0));
    assert_eq!(first.available(), 2);
    // The second stage is behind the first: nothing for it yet.
    assert_eq!(second.available(), 0);
    assert_eq!(first.poll_at_most(1, |_, _, _| {}), Ok(1));
    assert_eq!((first.available(), second.available()), (1, 1));
    producer.halt();
    assert_eq!((first.available(), second.available()), (0, 0));
    assert_eq!(second.poll_at_most(1, |_, _, _| {}), Err(PollError::Halted));
}
