//! Drop accounting of the events: the ring owns `size` events, made once by
//! the factory; a publish that assigns a new value drops the old one in
//! place; and when the disruptor is gone (every producer handle shut down
//! or dropped, every processor joined, every poller dropped) each event
//! still in the ring is dropped exactly once: never twice, never leaked.
//! Checked with `hotq-testkit`'s `Counted` events (each records its drops
//! by id) for rings of several sizes, one producer and several, and on
//! every way out: a shutdown, a drop, a halt, a handler's panic, a panic
//! in a publish closure mid-batch, a batch iterator dropped early or
//! forgotten, a panicking `drop` of an event (during a publish and during
//! the ring's own drop), a factory that panics half-way, and zero-sized
//! events. Under miri (which these tests are written for: it reports a
//! double drop or a read of a dropped event as undefined behaviour, and a
//! leak) the rings are small and the events few, still three laps.
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};

use hotq_disruptor::wait::Yielding;
use hotq_disruptor::{Builder, Disruptor, PublishError, Sequence, ShutdownError};
use hotq_testkit::{Counted, DEADLINE, DropCounter, wait_for, within};

type Event = Counted<'static>;

/// The ring sizes: 1, 2 and 8, and natively 64 and 1024 too.
const SIZES: &[usize] = if cfg!(miri) {
    &[1, 2, 8]
} else {
    &[1, 2, 8, 64, 1024]
};

/// Laps of the ring each run publishes.
const LAPS: usize = 3;

/// One producer, or several (two clones on two threads).
#[derive(Clone, Copy, Debug)]
enum Producers {
    Single,
    Multi,
}

const BOTH: [Producers; 2] = [Producers::Single, Producers::Multi];

/// A disruptor of `size` fresh events from `drops`, with a read-only
/// handler that checks it is handed live events, then runs `events`
/// publishes: each even sequence assigns a fresh event (dropping the one
/// the slot held), each odd one only changes it in place. Returns how the
/// disruptor ended (`end` is given the producer: shut it down, drop it...).
fn run(
    producers: Producers,
    size: usize,
    events: usize,
    drops: &'static DropCounter,
    end: fn(Box<dyn Producer>) -> Result<(), ShutdownError>,
) -> Result<(), ShutdownError> {
    let what = format!("{producers:?} producer, ring of {size}");
    within(&what, DEADLINE, move || {
        let builder = Disruptor::builder(size, || drops.fresh())
            .wait_strategy(Yielding)
            .handle_events_with(move |e: &Event, _seq, _eob| {
                assert_eq!(drops.drops_of(e.id), 0, "handed a dropped event");
            });
        let mut producer = build(producers, builder);
        assert_eq!(drops.issued(), size, "the factory ran once per slot");
        for s in 0..events as Sequence {
            let got = producer.publish(&mut |e| {
                if s % 2 == 0 {
                    *e = drops.fresh();
                } else {
                    e.panic_on_drop = false;
                }
            });
            assert_eq!(got, Ok(s));
        }
        end(producer)
    })
}

/// Builds the disruptor with one producer or several.
fn build(producers: Producers, builder: Builder<Event>) -> Box<dyn Producer> {
    match producers {
        Producers::Single => Box::new(builder.build_single_producer().unwrap()),
        Producers::Multi => Box::new(builder.build_multi_producer().unwrap()),
    }
}

/// The two producer types behind one object-safe face, so a test picks one
/// at run time: [`hotq_disruptor::Producer`] itself has generic methods.
trait Producer: Send {
    fn publish(&mut self, f: &mut dyn FnMut(&mut Event)) -> Result<Sequence, PublishError>;
    fn batch(
        &mut self,
        n: usize,
        f: &mut dyn FnMut(hotq_disruptor::BatchIterMut<'_, Event>),
    ) -> Result<Sequence, PublishError>;
    fn halt(&self);
    fn shutdown(self: Box<Self>) -> Result<(), ShutdownError>;
}

impl<P: hotq_disruptor::Producer<Event> + Send> Producer for P {
    fn publish(&mut self, f: &mut dyn FnMut(&mut Event)) -> Result<Sequence, PublishError> {
        hotq_disruptor::Producer::publish(self, f)
    }
    fn batch(
        &mut self,
        n: usize,
        f: &mut dyn FnMut(hotq_disruptor::BatchIterMut<'_, Event>),
    ) -> Result<Sequence, PublishError> {
        hotq_disruptor::Producer::batch_publish(self, n, f)
    }
    fn halt(&self) {
        hotq_disruptor::Producer::halt(self)
    }
    fn shutdown(self: Box<Self>) -> Result<(), ShutdownError> {
        hotq_disruptor::Producer::shutdown(*self)
    }
}

#[test]
fn every_event_is_dropped_exactly_once_after_a_shutdown() {
    for producers in BOTH {
        for &size in SIZES {
            let drops = DropCounter::leaked();
            let events = LAPS * size + 1;
            run(producers, size, events, drops, |p| p.shutdown()).unwrap();
            // The factory's `size` events, and one fresh event per even
            // sequence, each dropped once: by the publish that replaced it,
            // or by the ring's drop.
            assert_eq!(drops.issued(), size + events.div_ceil(2));
            drops.assert_each_dropped_once(drops.issued());
        }
    }
}

#[test]
fn every_event_is_dropped_exactly_once_after_the_producer_is_dropped() {
    for producers in BOTH {
        for &size in SIZES {
            let drops = DropCounter::leaked();
            run(producers, size, LAPS * size, drops, |p| {
                drop(p);
                Ok(())
            })
            .unwrap();
            drops.assert_each_dropped_once(drops.issued());
        }
    }
}

#[test]
fn every_event_is_dropped_exactly_once_after_a_halt() {
    for producers in BOTH {
        for &size in SIZES {
            let drops = DropCounter::leaked();
            run(producers, size, LAPS * size, drops, |mut p| {
                p.halt();
                assert_eq!(p.publish(&mut |_| {}), Err(PublishError::Halted));
                p.shutdown()
            })
            .unwrap();
            drops.assert_each_dropped_once(drops.issued());
        }
    }
}

/// Several clones on their own threads, all publishing fresh events: the
/// last clone to go drops the ring, once.
#[test]
fn the_last_of_several_producer_clones_drops_every_event_once() {
    for &size in SIZES {
        let drops = DropCounter::leaked();
        let per_thread = LAPS * size;
        within("clones", DEADLINE, move || {
            let producer = Disruptor::builder(size, || drops.fresh())
                .wait_strategy(Yielding)
                .handle_events_with(|_: &Event, _, _| {})
                .build_multi_producer()
                .unwrap();
            std::thread::scope(|s| {
                for _ in 0..2 {
                    let mut p = producer.clone();
                    s.spawn(move || {
                        for _ in 0..per_thread {
                            p.publish(|e| *e = drops.fresh()).unwrap();
                        }
                    });
                }
            });
            producer.shutdown().unwrap();
        });
        assert_eq!(drops.issued(), size + 2 * per_thread);
        drops.assert_each_dropped_once(drops.issued());
    }
}

/// A handler panics (the default policy halts): the producer gets
/// `Halted`, the shutdown reports the panic, and the events are dropped
/// once all the same.
#[test]
fn every_event_is_dropped_exactly_once_after_a_handler_panic() {
    for producers in BOTH {
        for &size in SIZES {
            let drops = DropCounter::leaked();
            let what = format!("{producers:?} producer, ring of {size}");
            let result = within(&what, DEADLINE, move || {
                let builder = Disruptor::builder(size, || drops.fresh())
                    .wait_strategy(Yielding)
                    .handle_events_with(|_: &Event, seq: Sequence, _| {
                        assert!(seq != 1, "the handler panics on sequence 1");
                    });
                let mut producer = build(producers, builder);
                // Publish until the halt shows: at most a ring past the
                // panicking event (the producer waits for the handler).
                wait_for("the halt", || {
                    producer
                        .publish(&mut |e| *e = drops.fresh())
                        .err()
                        .inspect(|e| assert_eq!(*e, PublishError::Halted))
                });
                producer.shutdown()
            });
            assert!(
                matches!(result, Err(ShutdownError::Panicked(_))),
                "{result:?}"
            );
            drops.assert_each_dropped_once(drops.issued());
        }
    }
}

/// A batch closure that panics half-way: the claimed slots are published
/// anyway (the producer's drop guard), the events it had replaced are the
/// new ones, the rest hold what they held, and each is dropped once.
#[test]
fn a_panic_mid_batch_publishes_the_claim_and_drops_each_event_once() {
    for producers in BOTH {
        for &size in SIZES {
            let drops = DropCounter::leaked();
            let what = format!("{producers:?} producer, ring of {size}");
            let seen = DropCounter::leaked();
            within(&what, DEADLINE, move || {
                let builder = Disruptor::builder(size, || drops.fresh())
                    .wait_strategy(Yielding)
                    .handle_events_with(move |e: &Event, _, _| {
                        assert_eq!(drops.drops_of(e.id), 0, "handed a dropped event");
                        // One record per event handed over.
                        drop(seen.fresh());
                    });
                let mut p = build(producers, builder);
                let mut published = 0;
                for _ in 0..LAPS {
                    // Replace half the batch (at least one event), then panic.
                    let replace = size.div_ceil(2);
                    let r = catch_unwind(AssertUnwindSafe(|| {
                        p.batch(size, &mut |events| {
                            for e in events.take(replace) {
                                *e = drops.fresh();
                            }
                            panic!("the batch closure panics");
                        })
                    }));
                    assert!(r.is_err(), "the closure's panic was swallowed");
                    published += size;
                }
                // The ring goes on after the panics.
                p.publish(&mut |e| *e = drops.fresh()).unwrap();
                published += 1;
                p.shutdown().unwrap();
                // Every claimed event reached the handler: no hole.
                assert_eq!(seen.issued(), published);
            });
            drops.assert_each_dropped_once(drops.issued());
        }
    }
}

/// The batch iterator dropped after its first event, or forgotten before
/// any: the producer publishes the whole claim either way (the iterator
/// holds no part of it), nothing is dropped twice, nothing leaks.
#[test]
fn a_batch_iterator_dropped_early_or_forgotten_publishes_the_claim() {
    for producers in BOTH {
        for &size in SIZES {
            let drops = DropCounter::leaked();
            let handed = DropCounter::leaked();
            run_batches(producers, size, drops, handed);
            drops.assert_each_dropped_once(drops.issued());
        }
    }
}

// `BatchIterMut` has no `Drop` today, so dropping or forgetting it does
// nothing more than ending its borrow; the test holds the API to that if it
// ever gets one (publishing, say, or un-claiming).
#[allow(clippy::drop_non_drop, clippy::forget_non_drop)]
fn run_batches(
    producers: Producers,
    size: usize,
    drops: &'static DropCounter,
    handed: &'static DropCounter,
) {
    let what = format!("{producers:?} producer, ring of {size}");
    within(&what, DEADLINE, move || {
        let builder = Disruptor::builder(size, || drops.fresh())
            .wait_strategy(Yielding)
            .handle_events_with(move |e: &Event, _, _| {
                assert_eq!(drops.drops_of(e.id), 0, "handed a dropped event");
                drop(handed.fresh());
            });
        let mut p = build(producers, builder);
        let mut next: Sequence = 0;
        for lap in 0..LAPS {
            let last = p
                .batch(size, &mut |mut events| {
                    if lap % 2 == 0 {
                        *events.next().unwrap() = drops.fresh();
                        drop(events);
                    } else {
                        std::mem::forget(events);
                    }
                })
                .unwrap();
            next += size as Sequence;
            assert_eq!(last, next - 1, "the batch's last sequence");
        }
        p.shutdown().unwrap();
        assert_eq!(handed.issued(), LAPS * size, "events handed over");
    });
}

/// A mutable handler that replaces the events it is handed: the handler's
/// replacements are dropped once too (by the next replacement or by the
/// ring), as are the producer's.
#[test]
fn events_a_mutable_handler_replaces_are_dropped_exactly_once() {
    for &size in SIZES {
        let drops = DropCounter::leaked();
        within("mutable handler", DEADLINE, move || {
            let mut p = Disruptor::builder(size, || drops.fresh())
                .wait_strategy(Yielding)
                .handle_events_mut_with(move |e: &mut Event, _, _| *e = drops.fresh())
                .then()
                .handle_events_with(move |e: &Event, _, _| {
                    assert_eq!(drops.drops_of(e.id), 0, "handed a dropped event");
                })
                .build_single_producer()
                .unwrap();
            for _ in 0..LAPS * size {
                p.publish(|e| *e = drops.fresh()).unwrap();
            }
            p.shutdown().unwrap();
        });
        assert_eq!(drops.issued(), size + 2 * LAPS * size);
        drops.assert_each_dropped_once(drops.issued());
    }
}

/// A poller keeps the ring alive after the shutdown: the events are
/// dropped when it goes, not before, and once.
#[test]
fn a_poller_that_outlives_the_producer_drops_the_events_when_it_goes() {
    for &size in SIZES {
        let drops = DropCounter::leaked();
        within("poller", DEADLINE, move || {
            let mut builder = Disruptor::builder(size, || drops.fresh());
            let mut poller = builder.event_poller();
            let mut p = builder.build_single_producer().unwrap();
            for _ in 0..size {
                p.publish(|e| *e = drops.fresh()).unwrap();
            }
            // The shutdown waits for the poller to poll everything.
            let shutdown = std::thread::spawn(move || p.shutdown());
            wait_for("the poller to see the halt", || {
                poller.poll(|_, _, _| {}).err()
            });
            shutdown.join().unwrap().unwrap();
            // The factory's events were replaced; the ring's are alive.
            assert_eq!(drops.total(), size, "events dropped before the poller went");
            drop(poller);
        });
        assert_eq!(drops.issued(), 2 * size);
        drops.assert_each_dropped_once(2 * size);
    }
}

/// An event whose `drop` panics, replaced in a publish: the old value's
/// drop panics out of the closure, the slot holds the new value and is
/// published, and nothing is dropped twice. Then an event that panics when
/// the ring drops it (in slot 0, the first the ring drops): the shutdown
/// that drops the ring unwinds, and the events after it are leaked, never
/// dropped during the unwind (see the next test).
#[test]
fn a_panicking_event_drop_drops_nothing_twice() {
    for producers in BOTH {
        for &size in SIZES {
            let drops = DropCounter::leaked();
            let what = format!("{producers:?} producer, ring of {size}");
            within(&what, DEADLINE, move || {
                let builder = Disruptor::builder(size, || drops.item_panicking_on_drop(0))
                    .wait_strategy(Yielding)
                    .handle_events_with(move |e: &Event, seq: Sequence, _| {
                        if seq < size as Sequence {
                            assert_eq!(e.id, 1 + seq as usize, "the replacement is in the slot");
                        }
                    });
                // Every slot starts as id 0 panicking on drop: the ids
                // repeat, so count drops of id 0 in total, not per event.
                let mut p = build(producers, builder);
                for s in 0..size {
                    let r = catch_unwind(AssertUnwindSafe(|| {
                        p.publish(&mut |e| *e = drops.item(1 + s))
                    }));
                    assert!(r.is_err(), "the old event's drop did not panic");
                }
                assert_eq!(drops.drops_of(0), size, "each factory event dropped once");
                // Now the slot of sequence `size` gets an event that panics
                // when the ring drops it.
                p.publish(&mut |e| *e = drops.item_panicking_on_drop(size + 1))
                    .unwrap();
                let r = catch_unwind(AssertUnwindSafe(|| p.shutdown()));
                assert!(
                    r.is_err(),
                    "the ring's drop of a panicking event did not unwind"
                );
            });
            // Id 0 (every factory event) `size` times; id 1, the first
            // replacement, replaced again by id size + 1 in slot 0; id
            // size + 1 once, when the ring drops it and panics; ids
            // 2..=size, in the slots after it, leaked.
            assert_eq!(drops.drops_of(0), size, "{what}: the factory's events");
            assert_eq!(drops.drops_of(1), 1, "{what}: drops of id 1");
            assert_eq!(
                drops.drops_of(size + 1),
                1,
                "{what}: drops of id {}",
                size + 1
            );
            for id in 2..=size {
                assert_eq!(
                    drops.drops_of(id),
                    0,
                    "{what}: id {id} dropped after the panic"
                );
            }
            assert_eq!(drops.total(), size + 2, "{what}: drops in all");
        }
    }
}

/// Every event's destructor panics: dropping the ring (in the shutdown)
/// panics once and leaks the rest. A slice's drop glue went on dropping
/// them during the unwind and aborted the process at the second.
#[test]
fn a_ring_of_panicking_events_panics_once_and_leaks_the_rest() {
    for producers in BOTH {
        for &size in SIZES.iter().filter(|&&s| s > 1) {
            let drops = DropCounter::leaked();
            let what = format!("{producers:?} producer, ring of {size}");
            within(&what, DEADLINE, move || {
                let mut ids = 0..;
                let builder = Disruptor::builder(size, move || {
                    drops.item_panicking_on_drop(ids.next().unwrap())
                })
                .wait_strategy(Yielding)
                .handle_events_with(|_: &Event, _: Sequence, _| {});
                let p = build(producers, builder);
                let r = catch_unwind(AssertUnwindSafe(|| p.shutdown()));
                assert!(
                    r.is_err(),
                    "the ring's drop of a panicking event did not unwind"
                );
            });
            assert_eq!(drops.drops_of(0), 1, "{what}: slot 0's event");
            assert_eq!(drops.total(), 1, "{what}: the events after it leaked");
        }
    }
}

/// The factory panics half-way through filling the ring: the build
/// unwinds, and the events it had made are dropped once.
#[test]
fn a_factory_that_panics_half_way_drops_what_it_made() {
    for &size in SIZES.iter().filter(|&&s| s > 1) {
        let drops = DropCounter::leaked();
        let half = size / 2;
        let r = catch_unwind(AssertUnwindSafe(|| {
            Disruptor::builder(size, move || {
                assert!(drops.issued() < half, "the factory panics half-way");
                drops.fresh()
            })
            .handle_events_with(|_: &Event, _, _| {})
            .build_single_producer()
        }));
        assert!(r.is_err(), "the factory's panic was swallowed");
        assert_eq!(drops.issued(), half);
        drops.assert_each_dropped_once(half);
    }
}

/// Zero-sized events with a `Drop`: a ring of many (no memory), each
/// dropped exactly once: the ones publishes replace, and the ring's.
#[test]
fn zero_sized_events_are_dropped_exactly_once() {
    static DROPS: AtomicUsize = AtomicUsize::new(0);
    #[derive(Debug)]
    struct Zst;
    impl Drop for Zst {
        fn drop(&mut self) {
            DROPS.fetch_add(1, Ordering::Relaxed);
        }
    }
    const _: () = assert!(size_of::<Zst>() == 0);
    let size = if cfg!(miri) { 64 } else { 1 << 16 };
    let events = 2 * size + 1;
    let replaced = within("ZST events", DEADLINE, move || {
        let mut p = Disruptor::builder(size, || Zst)
            .wait_strategy(Yielding)
            .handle_events_with(|_: &Zst, _, _| {})
            .build_multi_producer()
            .unwrap();
        for s in 0..events {
            p.publish(|e| {
                if s % 2 == 0 {
                    *e = Zst;
                }
            })
            .unwrap();
        }
        let replaced = DROPS.load(Ordering::Relaxed);
        p.shutdown().unwrap();
        replaced
    });
    assert_eq!(replaced, events.div_ceil(2), "drops by the publishes");
    assert_eq!(
        DROPS.load(Ordering::Relaxed),
        events.div_ceil(2) + size,
        "drops in all: the publishes' and the ring's"
    );
}
