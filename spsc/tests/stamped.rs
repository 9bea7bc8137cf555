//! `hotq_spsc::stamped`: every item pushed is popped once, in order, on
//! real threads, across the index wrap and for every shape of line (items
//! of 1, 8 and 72 bytes, zero-sized ones); the items left inside are
//! dropped once whichever half goes last, a destructor that panics leaks
//! the rest and nothing else; bad capacities get an error.

use std::collections::VecDeque;
use std::thread;

use hotq_spsc::stamped::{Consumer, Producer, RingBuffer};
use hotq_spsc::{CapacityError, PeekError, PopError, PushError};
use hotq_testkit::{DropCounter, debug_field, wait_for};

/// Capacities around the line sizes: 7 `u64`s and 56 `u8`s fit a line.
const CAPACITIES: [usize; 10] = [1, 2, 3, 6, 7, 8, 14, 15, 56, 1000];

/// Pushes `0..n` from one thread and pops on another, checking the order;
/// `make` turns an index into the item and `id` back.
fn crosses_threads_in_order<T: Send + 'static>(
    capacity: usize,
    start: usize,
    n: u64,
    make: fn(u64) -> T,
    id: fn(&T) -> u64,
) {
    let (mut tx, mut rx) = RingBuffer::<T>::with_initial_index(capacity, start).unwrap();
    let producer = thread::spawn(move || {
        for i in 0..n {
            let mut item = Some(make(i));
            wait_for("room in the ring", || match tx.push(item.take()?) {
                Ok(()) => Some(()),
                Err(PushError::Full(back)) => {
                    item = Some(back);
                    None
                }
            });
        }
    });
    for expected in 0..n {
        let got = wait_for("the next item", || rx.pop().ok());
        assert_eq!(
            id(&got),
            id(&make(expected)),
            "capacity {capacity}, start {start:#x}"
        );
    }
    producer.join().unwrap();
    assert_eq!(rx.pop().err(), Some(PopError::Empty));
    assert!(rx.is_abandoned());
}

/// Items per threaded run: under miri, which interprets every
/// instruction, enough for a few laps of the largest ring it runs.
fn items() -> u64 {
    if cfg!(miri) { 100 } else { 100_000 }
}

/// [`CAPACITIES`], or under miri the ones where lines and laps meet.
fn threaded_capacities() -> &'static [usize] {
    if cfg!(miri) {
        &[1, 7, 8, 15]
    } else {
        &CAPACITIES
    }
}

#[test]
fn every_item_crosses_threads_once_in_order() {
    for &capacity in threaded_capacities() {
        for start in [0, usize::MAX - 3 * capacity] {
            crosses_threads_in_order::<u64>(capacity, start, items(), |i| i, |v| *v);
        }
    }
}

#[test]
fn lines_of_bytes_large_items_and_zero_sized_items_keep_order() {
    let byte_capacities: &[usize] = if cfg!(miri) {
        &[1, 57]
    } else {
        &[1, 55, 56, 57, 200]
    };
    for &capacity in byte_capacities {
        crosses_threads_in_order::<u8>(capacity, 0, items(), |i| i as u8, |v| u64::from(*v));
    }
    for capacity in [1, 2, 5] {
        crosses_threads_in_order::<[u64; 9]>(
            capacity,
            7,
            items(),
            |i| [i; 9],
            |v| {
                assert!(v.iter().all(|x| *x == v[0]), "a torn item: {v:?}");
                v[0]
            },
        );
    }
    // Zero-sized items carry no id: count them.
    let (mut tx, mut rx) = RingBuffer::<()>::new(100);
    for round in 0..3 {
        for _ in 0..100 {
            tx.push(()).unwrap();
        }
        assert!(tx.push(()).is_err(), "round {round}: a 101st item fitted");
        for _ in 0..100 {
            rx.pop().unwrap();
        }
        assert_eq!(rx.pop(), Err(PopError::Empty));
    }
}

/// The ring's items per line, from its `Debug` (not public API).
fn per_line<T>(ring: &RingBuffer<T>) -> usize {
    debug_field(ring, "per_line")
}

/// Capacities whose consumer stores `head` every 2 lines or more (the
/// ring picks 1/64 of its lines, rounded down to a power of two, up to
/// 64), and the small rings [`RingBuffer::with_head_every`] gives the
/// same lag, which miri can run.
fn lagging_rings() -> Vec<(usize, usize)> {
    let mut rings = vec![(1, 2), (7, 4)];
    if !cfg!(miri) {
        rings.extend([(3, 2), (20, 8)]);
        rings.extend([(896, 0), (3583, 0), (3584, 0), (30_000, 0), (65_536, 0)]);
    }
    rings
}

/// A ring of `capacity` `u64`s from `start`, its consumer storing `head`
/// every `every` lines, or as the ring chooses where `every` is 0.
fn lagging_ring(capacity: usize, start: usize, every: usize) -> (Producer<u64>, Consumer<u64>) {
    match every {
        0 => RingBuffer::with_initial_index(capacity, start),
        _ => RingBuffer::with_head_every::<false>(capacity, start, every),
    }
    .unwrap()
}

/// One thread, against a `VecDeque`: every push succeeds while the model
/// holds fewer than `capacity` items, fails once it holds `capacity` +
/// `head_every` lines' items − 1, and in between succeeds exactly while
/// the producer's count from the first item of the last line where the
/// consumer stored `head` is below that (module docs, "Capacity");
/// `slots` and `is_full` say the same; every pop returns the model's
/// front; from indices just before the wrap. For rings that store `head`
/// at every line, and rings that store it every 2 to 64 lines.
#[test]
fn full_and_empty_match_a_model_across_the_wrap() {
    let rings = CAPACITIES
        .into_iter()
        .chain([0])
        .map(|capacity| (capacity, 0))
        .chain(lagging_rings());
    for (capacity, hook) in rings {
        for before_wrap in [0, 1, 7, 2 * capacity + 1] {
            let start = usize::MAX - before_wrap;
            let (mut tx, mut rx) = lagging_ring(capacity, start, hook);
            let per_line = per_line(rx.buffer());
            assert_eq!(per_line, 7, "the model's premise: seven u64s to a line");
            let lines = debug_field(rx.buffer(), "lines");
            let every = debug_field(rx.buffer(), "head_every");
            let expected_every = match capacity / 7 / 64 {
                0 | 1 => 1,
                k => (1 << k.ilog2()).min(64),
            };
            if hook == 0 {
                assert_eq!(every, expected_every, "capacity {capacity}");
            }
            let reach = if capacity == 0 {
                0
            } else {
                capacity + every * per_line - 1
            };
            let mut model = VecDeque::new();
            let (mut next, mut popped) = (0u64, 0usize);
            // What the producer knows the consumer has read: the first item
            // of the last line it entered that stores `head`, every
            // `every`-th line from the first of the storage (and the first
            // again after the storage wraps).
            let head = |popped: usize| {
                let mut line = popped / per_line;
                while line % lines % every != 0 {
                    line -= 1;
                }
                line * per_line
            };
            // A fixed pattern of bursts: fill, drain some, fill, drain all.
            for burst in [
                reach + 2,
                capacity / 2 + 1,
                3,
                reach + 1,
                1,
                reach + 3,
                per_line + 1,
                reach,
            ] {
                for _ in 0..burst {
                    let held = model.len();
                    let room = popped + held - head(popped) < reach;
                    let pushed = tx.push(next);
                    if room {
                        assert_eq!(pushed, Ok(()), "capacity {capacity}");
                        model.push_back(next);
                    } else {
                        assert_eq!(pushed, Err(PushError::Full(next)));
                    }
                    // The contract, apart from the layout.
                    assert!(held >= capacity || pushed.is_ok(), "full below capacity");
                    assert!(held < reach || pushed.is_err(), "held more than the reach");
                    next += 1;
                    let slots = reach - (popped + model.len() - head(popped));
                    assert_eq!(tx.slots(), slots);
                    assert!(slots >= capacity.saturating_sub(model.len()));
                    assert_eq!(tx.is_full(), slots == 0);
                }
                for _ in 0..burst / 2 + 1 {
                    assert_eq!(rx.is_empty(), model.is_empty());
                    match model.front() {
                        Some(front) => assert_eq!(rx.peek(), Ok(front)),
                        None => assert_eq!(rx.peek(), Err(PeekError::Empty)),
                    }
                    let want = model.pop_front();
                    popped += usize::from(want.is_some());
                    assert_eq!(rx.pop().ok(), want, "capacity {capacity}");
                }
            }
            assert!(model.len() <= reach);
            if hook == 0 {
                // The lag's cost: under 1/64 of the capacity, or a line.
                let most = (capacity / 64).max(per_line - 1);
                assert!(
                    reach - capacity <= most,
                    "capacity {capacity}: reach {reach}"
                );
            }
        }
    }
}

/// The one way the ring's capacity differs from an exact ring's: a
/// producer that parks on a full ring and a consumer that unparks it
/// after every pop never both sleep (module docs, "Capacity": whenever a
/// push fails, the pop that finishes the consumer's line comes before
/// the ring is empty). Here on one thread: after each failed push, pops
/// one at a time until a push fits, and the ring is never empty first;
/// also where the consumer stores `head` only every few lines.
#[test]
fn a_failed_push_always_fits_before_the_consumer_finds_the_ring_empty() {
    // Under miri, the capacities around one line, for a few laps.
    let capacities: &[usize] = if cfg!(miri) {
        &[1, 7, 8]
    } else {
        &[1, 2, 6, 7, 8, 13, 64]
    };
    let rings = capacities
        .iter()
        .map(|&capacity| (capacity, 0))
        .chain(lagging_rings());
    for (capacity, every) in rings {
        let (mut tx, mut rx) = lagging_ring(capacity, 0, every);
        let (mut next, mut expected) = (0u64, 0u64);
        for _ in 0..2 * capacity + 10 {
            while tx.push(next).is_ok() {
                next += 1;
            }
            assert!(next - expected >= capacity as u64, "full below capacity");
            loop {
                assert_eq!(rx.pop(), Ok(expected), "emptied before room was made");
                expected += 1;
                if tx.push(next).is_ok() {
                    next += 1;
                    break;
                }
            }
        }
    }
}

#[test]
fn items_left_inside_are_dropped_once_whichever_half_goes_last() {
    for capacity in [1, 6, 7, 8, 20] {
        for producer_last in [false, true] {
            let drops = DropCounter::new();
            let mut held;
            {
                let (mut tx, mut rx): (Producer<_>, Consumer<_>) = RingBuffer::new(capacity);
                // Move both halves through a few laps first.
                for i in 0..3 * capacity {
                    tx.push(drops.item(i)).unwrap();
                    drop(rx.pop().unwrap());
                }
                // Fill it: at least `capacity` items (module docs,
                // "Capacity"); the one that does not fit comes back and is
                // dropped.
                held = 0;
                while tx.push(drops.item(1000 + held)).is_ok() {
                    held += 1;
                }
                assert!(held >= capacity, "capacity {capacity}: {held} fitted");
                // The consumer leaves in mid-line: the ring's drop starts
                // at its own place, not at `head`, which lags it.
                drop(rx.pop().unwrap());
                if producer_last {
                    drop(rx);
                    assert!(tx.is_abandoned());
                } else {
                    drop(tx);
                    assert!(rx.is_abandoned());
                }
            }
            drops.assert_none_dropped_twice();
            assert_eq!(
                drops.total(),
                3 * capacity + held + 1,
                "capacity {capacity}"
            );
            for i in 0..=held {
                assert_eq!(drops.drops_of(1000 + i), 1);
            }
        }
    }
}

#[test]
fn a_destructor_that_panics_in_the_rings_drop_leaks_the_rest_only() {
    let drops = DropCounter::leaked();
    let (mut tx, rx) = RingBuffer::new(10);
    tx.push(drops.item(0)).unwrap();
    tx.push(drops.item_panicking_on_drop(1)).unwrap();
    tx.push(drops.item(2)).unwrap();
    drop(rx);
    let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(tx)));
    assert!(
        unwound.is_err(),
        "the item's panic reaches the last half's drop"
    );
    assert_eq!(drops.drops_of(0), 1);
    assert_eq!(drops.drops_of(1), 1);
    assert_eq!(
        drops.drops_of(2),
        0,
        "dropping it during the unwind could abort"
    );
}

#[test]
fn a_capacity_too_large_is_an_error_not_an_abort() {
    assert_eq!(
        RingBuffer::<u64>::try_new(usize::MAX).unwrap_err(),
        CapacityError::TooLarge
    );
    assert_eq!(
        RingBuffer::<u64>::try_new(usize::MAX / 8).unwrap_err(),
        CapacityError::TooLarge
    );
    assert_eq!(
        RingBuffer::<()>::try_new(usize::MAX).unwrap_err(),
        CapacityError::TooLarge
    );
    let (tx, rx) = RingBuffer::<()>::try_new(isize::MAX as usize).unwrap();
    assert_eq!(tx.slots(), isize::MAX as usize);
    assert!(rx.is_empty());
    let panicked = std::panic::catch_unwind(|| RingBuffer::<u64>::new(usize::MAX));
    assert!(panicked.is_err());
}

#[test]
fn a_ring_of_zero_is_always_full_and_always_empty() {
    let (mut tx, mut rx) = RingBuffer::<u64>::new(0);
    assert_eq!(tx.push(1), Err(PushError::Full(1)));
    assert!(tx.is_full());
    assert_eq!(rx.pop(), Err(PopError::Empty));
    assert!(rx.is_empty());
}
