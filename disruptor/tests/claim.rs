//! Claiming sequences at the edges: single and batch claims that cross
//! the wrap point of the ring, a batch as large as the ring, a batch
//! larger than the ring (an error, never a hang), exact capacity with
//! `try_publish` and `remaining_capacity`, and the sizes the builder must
//! refuse.
mod common;

use std::sync::mpsc;
use std::time::Duration;

use common::{Log, assert_all_in_order, payload};
use hotq_disruptor::wait::Yielding;
use hotq_disruptor::{BuildError, Disruptor, EventHandler, PublishError, Sequence};
use hotq_testkit::{DEADLINE, bound, within};

#[derive(Debug, Default)]
struct Event {
    value: u64,
}

/// A handler that logs, and waits in `on_start` until the test lets it
/// go: until then nothing is consumed, so the test knows exactly how full
/// the ring is.
struct Gated {
    log: Log,
    start: Option<mpsc::Receiver<()>>,
}

impl Gated {
    fn new(log: &Log) -> (Self, mpsc::Sender<()>) {
        let (go, start) = mpsc::channel();
        (
            Gated {
                log: log.clone(),
                start: Some(start),
            },
            go,
        )
    }
}

impl EventHandler<Event> for Gated {
    fn on_start(&mut self) {
        if let Some(start) = self.start.take() {
            start
                .recv_timeout(DEADLINE)
                .expect("the test never released the handler");
        }
    }

    fn on_event(&mut self, e: &Event, seq: Sequence, end_of_batch: bool) {
        self.log.record(seq, e.value, end_of_batch);
    }
}

/// For each ring size and each offset into the ring (single events
/// published first, so the cursor sits at every slot once), every batch
/// size up to the ring's: the batch's events get consecutive sequences
/// across the wrap, in the order the closure filled them. Under miri the
/// offsets are 0, 1 and the last slot (41 disruptors instead of 85).
fn batches_across_the_wrap(multi: bool) {
    for size in [1usize, 2, 4, 8] {
        let offsets: Vec<usize> = (0..size)
            .filter(|&o| !cfg!(miri) || o <= 1 || o == size - 1)
            .collect();
        for offset in offsets {
            for batch in 1..=size {
                let what = format!(
                    "{} producer, size {size}, offset {offset}, batch {batch}",
                    if multi { "multi" } else { "single" }
                );
                let log = Log::new();
                let l = log.clone();
                let w = what.clone();
                // Three laps of batches after the offset.
                let rounds = 3 * size / batch + 1;
                let total = (offset + rounds * batch) as u64;
                within(&what, DEADLINE, move || {
                    let builder = Disruptor::builder(size, Event::default)
                        .wait_strategy(Yielding)
                        .handle_events_with(move |e: &Event, seq, eob| l.record(seq, e.value, eob));
                    let mut next: Sequence = 0;
                    let mut run = |publish: &mut dyn FnMut(Sequence) -> Sequence,
                                   publish_batch: &mut dyn FnMut(Sequence, usize) -> Sequence| {
                        for _ in 0..offset {
                            assert_eq!(publish(next), next, "{w}: single publish");
                            next += 1;
                        }
                        for _ in 0..rounds {
                            let last = publish_batch(next, batch);
                            next += batch as Sequence;
                            assert_eq!(last, next - 1, "{w}: the batch's last sequence");
                        }
                    };
                    if multi {
                        let mut p = builder.build_multi_producer().unwrap();
                        let mut q = p.clone();
                        run(
                            &mut |s| p.publish(|e| e.value = payload(s)).unwrap(),
                            &mut |first, n| {
                                q.batch_publish(n, |events| {
                                    for (i, e) in events.enumerate() {
                                        e.value = payload(first + i as Sequence);
                                    }
                                })
                                .unwrap()
                            },
                        );
                        drop(q);
                        p.shutdown().unwrap();
                    } else {
                        let p = std::cell::RefCell::new(builder.build_single_producer().unwrap());
                        run(
                            &mut |s| p.borrow_mut().publish(|e| e.value = payload(s)).unwrap(),
                            &mut |first, n| {
                                p.borrow_mut()
                                    .batch_publish(n, |events| {
                                        let mut filled = 0;
                                        for (i, e) in events.enumerate() {
                                            e.value = payload(first + i as Sequence);
                                            filled += 1;
                                        }
                                        assert_eq!(filled, n, "the batch iterator's length");
                                    })
                                    .unwrap()
                            },
                        );
                        p.into_inner().shutdown().unwrap();
                    }
                });
                assert_all_in_order(&what, &log.take(), total, payload);
            }
        }
    }
}

#[test]
fn single_producer_batches_cross_the_wrap_point_intact() {
    batches_across_the_wrap(false);
}

#[test]
fn multi_producer_batches_cross_the_wrap_point_intact() {
    batches_across_the_wrap(true);
}

/// A batch of the ring's size fits only in an empty ring: it waits for the
/// handler to free every slot, then goes through whole.
#[test]
fn batch_as_large_as_the_ring_waits_for_an_empty_ring() {
    for multi in [false, true] {
        let size = 8;
        let what = format!("batch of {size} after 3 singles, multi producer: {multi}");
        let log = Log::new();
        let (handler, go) = Gated::new(&log);
        let w = what.clone();
        within(&what, DEADLINE, move || {
            let builder =
                Disruptor::builder(size, Event::default).handle_events_with_handler(handler);
            let fill = |events: hotq_disruptor::BatchIterMut<'_, Event>| {
                for (i, e) in events.enumerate() {
                    e.value = payload(3 + i as Sequence);
                }
            };
            // The handler is held in on_start: the batch cannot fit until
            // it runs, so release it from another thread a moment later.
            let release = std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(20));
                go.send(()).unwrap();
            });
            if multi {
                let mut p = builder.build_multi_producer().unwrap();
                for s in 0..3 {
                    p.publish(|e| e.value = payload(s)).unwrap();
                }
                assert_eq!(p.batch_publish(size, fill).unwrap(), 10, "{w}");
                p.shutdown().unwrap();
            } else {
                let mut p = builder.build_single_producer().unwrap();
                for s in 0..3 {
                    p.publish(|e| e.value = payload(s)).unwrap();
                }
                assert_eq!(p.batch_publish(size, fill).unwrap(), 10, "{w}");
                p.shutdown().unwrap();
            }
            release.join().unwrap();
        });
        assert_all_in_order(&what, &log.take(), 3 + size as u64, payload);
    }
}

/// A batch larger than the ring can never fit: an error at once (from
/// `batch_publish` and `try_batch_publish` alike), nothing claimed, and
/// the next publish gets the next sequence. A zero-sized batch is refused
/// too.
#[test]
fn batch_larger_than_the_ring_is_an_error_not_a_hang() {
    for multi in [false, true] {
        for size in [1usize, 2, 8] {
            let what = format!("size {size}, multi producer: {multi}");
            let log = Log::new();
            let l = log.clone();
            let w = what.clone();
            within(&what, bound(Duration::from_secs(10)), move || {
                let builder = Disruptor::builder(size, Event::default)
                    .handle_events_with(move |e: &Event, seq, eob| l.record(seq, e.value, eob));
                let never = |_: hotq_disruptor::BatchIterMut<'_, Event>| {
                    panic!("the closure of a batch that cannot fit ran")
                };
                macro_rules! check {
                    ($p:expr) => {{
                        let p = &mut $p;
                        p.publish(|e| e.value = payload(0)).unwrap();
                        for n in [size + 1, 2 * size, usize::MAX] {
                            let err = PublishError::BatchSize { requested: n, size };
                            assert_eq!(p.batch_publish(n, never), Err(err), "{w}");
                            assert_eq!(p.try_batch_publish(n, never), Err(err), "{w}");
                        }
                        // An empty batch is refused the same way.
                        let empty = PublishError::BatchSize { requested: 0, size };
                        assert_eq!(p.batch_publish(0, never), Err(empty), "{w}");
                        assert_eq!(p.publish(|e| e.value = payload(1)).unwrap(), 1, "{w}");
                    }};
                }
                if multi {
                    let mut p = builder.build_multi_producer().unwrap();
                    check!(p);
                    p.shutdown().unwrap();
                } else {
                    let mut p = builder.build_single_producer().unwrap();
                    check!(p);
                    p.shutdown().unwrap();
                }
            });
            assert_all_in_order(&what, &log.take(), 2, payload);
        }
    }
}

/// With the handler held back, the ring takes exactly `size` events:
/// `remaining_capacity` counts down to 0, the next `try_publish` is
/// `Full` (not a wait, not an overwrite), and once the handler runs every
/// event arrives intact.
#[test]
fn try_publish_fills_exactly_the_ring_then_reports_full() {
    for multi in [false, true] {
        for size in [1usize, 2, 4, 16] {
            let what = format!("size {size}, multi producer: {multi}");
            let log = Log::new();
            let (handler, go) = Gated::new(&log);
            let w = what.clone();
            let l = log.clone();
            within(&what, DEADLINE, move || {
                let builder =
                    Disruptor::builder(size, Event::default).handle_events_with_handler(handler);
                macro_rules! check {
                    ($p:expr) => {{
                        let p = &mut $p;
                        assert_eq!(p.remaining_capacity(), size, "{w}: empty ring");
                        for s in 0..size as Sequence {
                            assert_eq!(p.try_publish(|e| e.value = payload(s)).unwrap(), s);
                            assert_eq!(
                                p.remaining_capacity(),
                                size - 1 - s as usize,
                                "{w}: after {} events",
                                s + 1
                            );
                        }
                        assert!(
                            matches!(
                                p.try_publish(|_| panic!("filled a slot of a full ring")),
                                Err(PublishError::Full)
                            ),
                            "{w}: try_publish on a full ring"
                        );
                        assert!(matches!(
                            p.try_batch_publish(1, |_| panic!("filled a slot of a full ring")),
                            Err(PublishError::Full)
                        ));
                        go.send(()).unwrap();
                        l.wait_len(&w, size as u64);
                        // Room again: the ring works on after Full.
                        let last = p.publish(|e| e.value = payload(size as Sequence)).unwrap();
                        assert_eq!(last, size as Sequence, "{w}");
                    }};
                }
                if multi {
                    let mut p = builder.build_multi_producer().unwrap();
                    check!(p);
                    p.shutdown().unwrap();
                } else {
                    let mut p = builder.build_single_producer().unwrap();
                    check!(p);
                    p.shutdown().unwrap();
                }
            });
            assert_all_in_order(&what, &log.take(), size as u64 + 1, payload);
        }
    }
}

/// Sizes that are not a power of two, and 0, are refused with a
/// `BuildError` (not a panic), by both builds.
#[test]
fn sizes_other_than_powers_of_two_are_build_errors() {
    let refused: Vec<usize> = (0..=16)
        .filter(|n: &usize| !n.is_power_of_two())
        .chain([100, 1000, 1025, usize::MAX])
        .collect();
    for size in refused {
        let single = Disruptor::builder(size, Event::default)
            .handle_events_with(|_: &Event, _, _| {})
            .build_single_producer();
        let multi = Disruptor::builder(size, Event::default)
            .handle_events_with(|_: &Event, _, _| {})
            .build_multi_producer();
        for (kind, result) in [("single", single.err()), ("multi", multi.err())] {
            let err: BuildError =
                result.unwrap_or_else(|| panic!("{kind}: size {size} was accepted"));
            assert!(!err.to_string().is_empty(), "{kind}: size {size}: {err:?}");
        }
    }
    for size in [1, 2, 4, 8, 16] {
        assert!(
            Disruptor::builder(size, Event::default)
                .handle_events_with(|_: &Event, _, _| {})
                .build_single_producer()
                .is_ok(),
            "size {size} refused"
        );
    }
}

/// A mutable handler must be alone in its stage: next to another handler
/// (before or after it) the builder refuses.
#[test]
fn a_mutable_handler_sharing_its_stage_is_a_build_error() {
    let after = Disruptor::builder(4, Event::default)
        .handle_events_with(|_: &Event, _, _| {})
        .handle_events_mut_with(|_: &mut Event, _, _| {})
        .build_single_producer();
    assert!(
        after.is_err(),
        "mutable handler after a shared one accepted"
    );
    let before = Disruptor::builder(4, Event::default)
        .handle_events_mut_with(|_: &mut Event, _, _| {})
        .handle_events_with(|_: &Event, _, _| {})
        .build_multi_producer();
    assert!(
        before.is_err(),
        "shared handler after a mutable one accepted"
    );
}
