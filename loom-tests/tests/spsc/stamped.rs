//! Loom models of `hotq_spsc::stamped` (`spsc/src/stamped/`): the ring
//! whose every line starts with the stamp of the last item published in
//! it. The producer's Release store of a stamp pairs with the consumer's
//! Acquire load of it (the item's write happens before its read); the
//! consumer's Release store of `head` with the producer's Acquire load
//! (the read happens before the slot's next write); each half's drop
//! stores `abandoned` with Release for the other's Acquire load.
//!
//! Three item sizes: `u64`, seven to a line (loom's stamp is 8 bytes too),
//! so that three items share one line and the consumer may trust one
//! stamp for two of them; [`Line`], one to a line, so that every item
//! changes line and the consumer stores `head` at every pop, and a ring of
//! 1 (two lines) or 2 (three) wraps its lines within five items; and
//! [`Pair`], two to a line, so that the consumer stores `head` once a
//! line, the producer waits on it with the ring at its reach ("Capacity"
//! in the module docs), and the fifth item goes into the line the
//! consumer read first. The `u64` models never fill the ring (a ring of
//! 1 takes 7); the others see the `head` pair. Each model checks the
//! layout it relies on.

use hotq_loom_tests::{DropLog, Tracked, model};
use hotq_spsc::stamped::{Consumer, Producer, RingBuffer};
use hotq_testkit::debug_field;
use loom::cell::UnsafeCell;
use loom::sync::Arc;
use loom::thread;

use super::BOUND;

/// An item that fills a line by itself (64 bytes: no room beside the
/// stamp), so that each item has a line, and a stamp, of its own.
type Line = [u64; 8];

/// An item two of which fill a line beside the stamp (24 bytes).
type Pair = [u64; 3];

/// Pushes `value`, yielding to the model's other thread while the ring is
/// full.
fn push<T, const WAITS: bool>(tx: &mut Producer<T, WAITS>, mut value: T) {
    loop {
        match tx.push(value) {
            Ok(()) => return,
            Err(full) => value = full.into_inner(),
        }
        thread::yield_now();
    }
}

/// Pops one item, yielding to the model's other thread while the ring is
/// empty.
fn pop<T, const WAITS: bool>(rx: &mut Consumer<T, WAITS>) -> T {
    loop {
        if let Ok(v) = rx.pop() {
            return v;
        }
        thread::yield_now();
    }
}

/// The ring's number of lines and items per line, read from its `Debug`
/// (neither is public API): the premise of each model, checked, since
/// the layout follows the size of the stamp, loom's `AtomicUsize` here.
fn layout<T>(ring: &RingBuffer<T>) -> (usize, usize) {
    (debug_field(ring, "lines"), debug_field(ring, "per_line"))
}

/// A `u64` item `i`.
fn word(i: usize) -> u64 {
    i as u64
}

/// A [`Line`] item `i`: each of its words, so that a torn or stale read
/// shows.
fn line(i: usize) -> Line {
    [i as u64; 8]
}

/// A [`Pair`] item `i`, as [`line`].
fn pair(i: usize) -> Pair {
    [i as u64; 3]
}

/// `items` items through a ring of `capacity` whose free-running indices
/// cross `usize::MAX` mid-model (so do the stamps, and `covers` compares
/// across the wrap): FIFO, values intact, nothing left, the producer's
/// `slots` back to the capacity at least (exactly, with one item to a
/// line).
fn push_pop_across_wrap<T>(
    name: &'static str,
    capacity: usize,
    make: fn(usize) -> T,
    (lines, per_line): (usize, usize),
    items: usize,
) where
    T: PartialEq + std::fmt::Debug + Send + 'static,
{
    model(name, BOUND, move || {
        let (mut tx, mut rx) =
            RingBuffer::<T>::with_initial_index(capacity, usize::MAX - 1).unwrap();
        assert_eq!(layout(rx.buffer()), (lines, per_line), "{name}: layout");
        let producer = thread::spawn(move || {
            for i in 0..items {
                push(&mut tx, make(i));
            }
            tx
        });
        for i in 0..items {
            assert_eq!(pop(&mut rx), make(i));
        }
        let tx = producer.join().unwrap();
        assert!(rx.is_empty());
        assert_eq!(rx.pop(), Err(hotq_spsc::PopError::Empty));
        match per_line {
            1 => assert_eq!(tx.slots(), capacity),
            _ => assert!(tx.slots() >= capacity, "{name}: {}", tx.slots()),
        }
    });
}

/// Three `u64`s in one line through a ring of 1: the consumer loads the
/// line's stamp again for each item.
#[test]
fn stamped_push_pop_in_one_line_capacity_1() {
    push_pop_across_wrap(
        "stamped_push_pop_in_one_line_capacity_1",
        1,
        word,
        (2, 7),
        3,
    );
}

/// The same through a ring of 2: the consumer may load a stamp that
/// covers two items and trust it for the second.
#[test]
fn stamped_push_pop_in_one_line_capacity_2() {
    push_pop_across_wrap(
        "stamped_push_pop_in_one_line_capacity_2",
        2,
        word,
        (3, 7),
        3,
    );
}

/// Four items of a line each through a ring of 1 (two lines: the one
/// item's and one spare): the items cross from line to line, and the
/// third and fourth wrap the storage onto a line the consumer read (the
/// `head` pair), over a stamp of the lap before.
#[test]
fn stamped_push_pop_line_per_item_capacity_1() {
    push_pop_across_wrap(
        "stamped_push_pop_line_per_item_capacity_1",
        1,
        line,
        (2, 1),
        4,
    );
}

/// Five items of a line each through a ring of 2 (three lines): the
/// fourth wraps the storage onto the first line while the consumer may
/// still be one line behind the producer.
#[test]
fn stamped_push_pop_line_per_item_capacity_2() {
    push_pop_across_wrap(
        "stamped_push_pop_line_per_item_capacity_2",
        2,
        line,
        (3, 1),
        5,
    );
}

/// Five items two to a line through a ring of 1 (it takes 2: two lines of
/// two): the consumer stores `head` only as it leaves a line, so the
/// producer waits for it with the ring at its reach, and the fifth item
/// goes into the first line once the consumer has left the second (the
/// `head` pair ordering the reads of the first lap before).
#[test]
fn stamped_head_once_a_line_orders_the_lap_after() {
    push_pop_across_wrap(
        "stamped_head_once_a_line_orders_the_lap_after",
        1,
        pair,
        (2, 2),
        5,
    );
}

/// Seven items two to a line through a ring of 1 whose consumer stores
/// `head` only every second line, as a large ring's does (`head_every`,
/// made small enough to explore: reach 4, three lines): the producer
/// waits with the ring at its reach while the consumer reads the line
/// that stores nothing, and the seventh item goes into the first line,
/// whose reads only the store two lines on orders before its write.
#[test]
fn stamped_head_every_two_lines_orders_the_lap_after() {
    model(
        "stamped_head_every_two_lines_orders_the_lap_after",
        BOUND,
        || {
            let (mut tx, mut rx) = RingBuffer::<Pair>::with_head_every::<false>(1, 0, 2).unwrap();
            assert_eq!(layout(rx.buffer()), (3, 2));
            assert_eq!(debug_field(rx.buffer(), "head_every"), 2);
            let producer = thread::spawn(move || {
                for i in 0..7 {
                    push(&mut tx, pair(i));
                }
                tx
            });
            for i in 0..7 {
                assert_eq!(pop(&mut rx), pair(i));
            }
            let tx = producer.join().unwrap();
            assert!(rx.is_empty());
            assert!(tx.slots() >= 1, "{} slots", tx.slots());
        },
    );
}

/// `peek` sees what `pop` then returns, `is_empty` is false only with an
/// item there, and the producer's `slots` never promises more room than
/// there is: three items of a line each through a ring of 2.
#[test]
fn stamped_peek_is_empty_and_slots_agree_with_pop() {
    model(
        "stamped_peek_is_empty_and_slots_agree_with_pop",
        BOUND,
        || {
            let (mut tx, mut rx) = RingBuffer::<Line>::new(2);
            let producer = thread::spawn(move || {
                for i in 0..3 {
                    push(&mut tx, line(i));
                    let slots = tx.slots();
                    assert!(slots <= 2, "{slots} slots in a ring of 2");
                }
            });
            for i in 0..3 {
                while rx.is_empty() {
                    thread::yield_now();
                }
                assert_eq!(rx.peek(), Ok(&line(i)));
                assert_eq!(rx.pop(), Ok(line(i)));
            }
            producer.join().unwrap();
            assert!(rx.is_empty());
        },
    );
}

/// A note one thread writes and another reads, tracked by loom: a read
/// not ordered after the write is a causality violation.
fn note() -> Arc<UnsafeCell<usize>> {
    Arc::new(UnsafeCell::new(0))
}

/// Writes the note.
fn write(note: &UnsafeCell<usize>, value: usize) {
    // SAFETY: the models order this write before every read of the note
    // (that is what they check; loom reports a read that is not).
    note.with_mut(|p| unsafe { *p = value });
}

/// Reads the note.
fn read(note: &UnsafeCell<usize>) -> usize {
    // SAFETY: as in `write`.
    note.with(|p| unsafe { *p })
}

/// `is_empty` reporting an item is the Acquire of its stamp: what the
/// producer did before the push is visible to the consumer that saw it
/// there (before any `pop`, which would load the stamp again).
#[test]
fn stamped_is_empty_shows_what_the_producer_did_before_its_push() {
    model(
        "stamped_is_empty_shows_what_the_producer_did_before_its_push",
        BOUND,
        || {
            let seen = note();
            let (mut tx, mut rx) = RingBuffer::<u64>::new(1);
            let written = seen.clone();
            let producer = thread::spawn(move || {
                write(&written, 1);
                tx.push(7).unwrap();
                tx
            });
            while rx.is_empty() {
                thread::yield_now();
            }
            assert_eq!(read(&seen), 1);
            assert_eq!(rx.pop(), Ok(7));
            drop(producer.join().unwrap());
        },
    );
}

/// The producer's `slots` counting a pop is the Acquire of `head`: what
/// the consumer did before that pop is visible to the producer that saw
/// the room (before any `push`, which would load `head` again). A
/// [`Line`] item: its ring of 1 is full with one item.
#[test]
fn stamped_slots_shows_what_the_consumer_did_before_its_pop() {
    model(
        "stamped_slots_shows_what_the_consumer_did_before_its_pop",
        BOUND,
        || {
            let seen = note();
            let (mut tx, mut rx) = RingBuffer::<Line>::new(1);
            tx.push(line(7)).unwrap();
            assert_eq!(tx.slots(), 0);
            let written = seen.clone();
            let consumer = thread::spawn(move || {
                write(&written, 1);
                assert_eq!(rx.pop(), Ok(line(7)));
                rx
            });
            while tx.slots() == 0 {
                thread::yield_now();
            }
            assert_eq!(read(&seen), 1);
            drop(consumer.join().unwrap());
        },
    );
}

/// A producer that sees the consumer gone (`is_abandoned`) sees what the
/// consumer did before its drop: the consumer's Release store of
/// `abandoned`, the producer's Acquire load.
#[test]
fn stamped_consumer_drop_shows_the_producer_what_it_did_before() {
    model(
        "stamped_consumer_drop_shows_the_producer_what_it_did_before",
        BOUND,
        || {
            let seen = note();
            let (mut tx, mut rx) = RingBuffer::<u64>::new(1);
            tx.push(7).unwrap();
            let written = seen.clone();
            let consumer = thread::spawn(move || {
                assert_eq!(rx.pop(), Ok(7));
                write(&written, 7);
                drop(rx);
            });
            while !tx.is_abandoned() {
                thread::yield_now();
            }
            assert_eq!(read(&seen), 7);
            consumer.join().unwrap();
        },
    );
}

/// The producer pushes three items through a ring of 2 and leaves; once
/// the consumer sees it gone (`is_abandoned`), every item it pushed is
/// visible: a pop that then fails means no item is left, and the items
/// came in order, none lost.
fn abandoned_producer_leaves_everything_visible<T>(name: &'static str, make: fn(usize) -> T)
where
    T: PartialEq + std::fmt::Debug + Send + 'static,
{
    model(name, BOUND, move || {
        let (mut tx, mut rx) = RingBuffer::<T>::new(2);
        let producer = thread::spawn(move || {
            for i in 0..3 {
                push(&mut tx, make(i));
            }
        });
        let mut got = Vec::new();
        loop {
            match rx.pop() {
                Ok(v) => got.push(v),
                Err(_) if rx.is_abandoned() => {
                    while let Ok(v) = rx.pop() {
                        got.push(v);
                    }
                    break;
                }
                Err(_) => thread::yield_now(),
            }
        }
        producer.join().unwrap();
        assert_eq!(got, (0..3).map(make).collect::<Vec<_>>());
    });
}

/// `u64`s: the three items share a line and its stamp.
#[test]
fn stamped_abandoned_producer_leaves_everything_visible_in_one_line() {
    abandoned_producer_leaves_everything_visible(
        "stamped_abandoned_producer_leaves_everything_visible_in_one_line",
        word,
    );
}

/// [`Line`]s: each item has its own line and stamp, and the third wraps
/// onto the first line.
#[test]
fn stamped_abandoned_producer_leaves_everything_visible_line_per_item() {
    abandoned_producer_leaves_everything_visible(
        "stamped_abandoned_producer_leaves_everything_visible_line_per_item",
        line,
    );
}

/// A [`Tracked`] item, padded with `PAD` words: 16 bytes unpadded (three
/// to a line), 64 with `PAD = 6` (one to a line).
struct Item<const PAD: usize> {
    tracked: Tracked,
    _pad: [u64; PAD],
}

/// The consumer takes one item and leaves while the producer pushes on
/// through a ring of 2 (it stops once the ring is full and abandoned):
/// whichever half goes last frees the ring, and every item ever made is
/// dropped exactly once, by the consumer, the producer or the ring's drop
/// (which starts at the consumer's line and place).
fn leftovers_dropped_once<const PAD: usize>(name: &'static str, lines: usize) {
    model(name, BOUND, move || {
        let log = DropLog::new(3);
        let (mut tx, mut rx) = RingBuffer::<Item<PAD>>::new(2);
        assert_eq!(layout(rx.buffer()).0, lines, "{name}: lines");
        let items = log.clone();
        let producer = thread::spawn(move || {
            for id in 0..3 {
                let mut item = Item {
                    tracked: items.item(id),
                    _pad: [0; PAD],
                };
                loop {
                    match tx.push(item) {
                        Ok(()) => break,
                        Err(full) if tx.is_abandoned() => {
                            drop(full.into_inner());
                            return;
                        }
                        Err(full) => item = full.into_inner(),
                    }
                    thread::yield_now();
                }
            }
        });
        let first = pop(&mut rx);
        assert_eq!(first.tracked.id, 0);
        drop(first);
        drop(rx);
        producer.join().unwrap();
        log.assert_each_dropped_once();
    });
}

/// Three items to a line: what is left lies in the first line (of three:
/// the ring of 2 takes 4, two lines, and one spare); the consumer leaves
/// in mid-line, so the ring's drop starts at its own place, not at
/// `head`.
#[test]
fn stamped_consumer_drops_leftovers_while_producer_finishes() {
    leftovers_dropped_once::<0>(
        "stamped_consumer_drops_leftovers_while_producer_finishes",
        3,
    );
}

/// One item to a line, three lines: what is left lies in lines 1 and 2;
/// the ring's drop starts at the consumer's line and crosses to the next.
/// (Its wrap from the last line to the first, out of reach of three
/// items here, is in `spsc/tests/stamped.rs`, which miri runs.)
#[test]
fn stamped_leftovers_in_two_lines_dropped_once_by_the_last_half() {
    leftovers_dropped_once::<6>(
        "stamped_leftovers_in_two_lines_dropped_once_by_the_last_half",
        3,
    );
}

/// Zero-sized items: no memory to track, so no loom cell either (a cell
/// per slot would be a quarter of the index space); the stamps still
/// order the hand-over and count the items.
#[test]
fn stamped_zero_sized_items_cross_and_count() {
    model("stamped_zero_sized_items_cross_and_count", BOUND, || {
        let (mut tx, mut rx) = RingBuffer::<()>::new(2);
        let producer = thread::spawn(move || {
            for _ in 0..3 {
                push(&mut tx, ());
            }
        });
        for _ in 0..3 {
            pop(&mut rx);
        }
        producer.join().unwrap();
        assert!(rx.is_abandoned());
        assert_eq!(rx.pop(), Err(hotq_spsc::PopError::Empty));
    });
}

// ---- the blocking calls (`spsc/src/stamped/blocking.rs`) -------------------
// Under loom every wait slot runs the fenced protocol (no `membarrier`),
// and a timed wait ends only when woken: a lost wake-up is a deadlock,
// which loom reports.

/// A consumer parked in `pop_timeout`, woken by a producer that only
/// calls `push`: the stamp's store, then the producer's load of the
/// `items` slot. Two `u64`s in one line, so that the second wake-up comes
/// from a stamp the consumer already loaded once; then `Abandoned`.
#[test]
fn stamped_parked_consumer_woken_by_push() {
    model("stamped_parked_consumer_woken_by_push", BOUND, || {
        let (mut tx, mut rx) = RingBuffer::<u64>::with_waits(1);
        assert_eq!(layout(rx.buffer()), (2, 7));
        // The producer's half comes back through a channel, alive until both
        // items are in (not a join: see `tests/spsc.rs`, "Waiting"): its
        // drop, which wakes the consumer too, must not stand in for the
        // pushes' wake-ups.
        let (back, returned) = loom::sync::mpsc::channel();
        thread::spawn(move || {
            for i in 0..2 {
                push(&mut tx, word(i));
            }
            back.send(tx).unwrap();
        });
        for i in 0..2 {
            assert_eq!(rx.pop_timeout(super::FOREVER), Ok(word(i)));
        }
        drop(returned.recv().unwrap());
        assert_eq!(
            rx.pop_timeout(super::FOREVER),
            Err(hotq_spsc::PopTimeoutError::Abandoned)
        );
    });
}

/// A producer parked in `push_timeout` on a full ring, woken by a consumer
/// that only calls `pop`, with two [`Pair`]s to a line: the consumer
/// stores `head`, and wakes the producer, only when it leaves a line, so
/// the producer waits through the first pop of each line.
#[test]
fn stamped_parked_producer_woken_by_a_pop_that_leaves_a_line() {
    model(
        "stamped_parked_producer_woken_by_a_pop_that_leaves_a_line",
        BOUND,
        || {
            let (mut tx, mut rx) = RingBuffer::<Pair>::with_waits(1);
            assert_eq!(layout(rx.buffer()), (2, 2));
            thread::spawn(move || {
                for i in 0..3 {
                    tx.push_timeout(pair(i), super::FOREVER).unwrap();
                }
            });
            for i in 0..3 {
                assert_eq!(pop(&mut rx), pair(i));
            }
        },
    );
}

/// A producer parked for room in a ring whose consumer stores `head`
/// every second line: the consumer, which only calls `pop`, reads the
/// whole line that stores nothing while the producer sleeps, and the pop
/// that enters the next line wakes it (a lost wake-up is a deadlock).
#[test]
fn stamped_parked_producer_woken_two_lines_on() {
    model("stamped_parked_producer_woken_two_lines_on", BOUND, || {
        let (mut tx, mut rx) = RingBuffer::<Pair>::with_head_every::<true>(1, 0, 2).unwrap();
        assert_eq!(debug_field(rx.buffer(), "head_every"), 2);
        thread::spawn(move || {
            for i in 0..5 {
                tx.push_timeout(pair(i), super::FOREVER).unwrap();
            }
        });
        for i in 0..5 {
            assert_eq!(pop(&mut rx), pair(i));
        }
    });
}

/// The async pop (`spsc/src/stamped/future.rs`) pending on an empty
/// ring, woken by a producer that only calls `push`, as
/// `stamped_parked_consumer_woken_by_push` is for `pop_timeout` (the same
/// slot and the same two loads; loom's executor parks between polls, so a
/// lost wake-up is a deadlock). Kills the push's wake-up.
#[test]
fn stamped_async_pop_woken_by_push() {
    model("stamped_async_pop_woken_by_push", BOUND, || {
        let (mut tx, mut rx) = RingBuffer::<u64>::with_waits(1);
        let (back, returned) = loom::sync::mpsc::channel();
        thread::spawn(move || {
            for i in 0..2 {
                push(&mut tx, word(i));
            }
            back.send(tx).unwrap();
        });
        for i in 0..2 {
            assert_eq!(super::block_on(rx.pop_async()), Ok(word(i)));
        }
        drop(returned.recv().unwrap());
        assert_eq!(
            super::block_on(rx.pop_async()),
            Err(hotq_spsc::PopAsyncError::Abandoned)
        );
    });
}

/// The async push pending on a full ring, woken by a consumer that only
/// calls `pop`, two [`Pair`]s to a line: the wake-up comes when the
/// consumer leaves a line and stores `head`, as for `push_timeout`. Kills
/// that wake-up.
#[test]
fn stamped_async_push_woken_by_a_pop_that_leaves_a_line() {
    model(
        "stamped_async_push_woken_by_a_pop_that_leaves_a_line",
        BOUND,
        || {
            let (mut tx, mut rx) = RingBuffer::<Pair>::with_waits(1);
            assert_eq!(layout(rx.buffer()), (2, 2));
            thread::spawn(move || {
                for i in 0..3 {
                    super::block_on(tx.push_async(pair(i))).unwrap();
                }
            });
            for i in 0..3 {
                assert_eq!(pop(&mut rx), pair(i));
            }
        },
    );
}

/// Both sides blocking on a ring of one [`Line`] item (each pop stores
/// `head`): each waits for the other in turn.
#[test]
fn stamped_both_sides_blocking_hand_over_in_order() {
    model(
        "stamped_both_sides_blocking_hand_over_in_order",
        BOUND,
        || {
            let (mut tx, mut rx) = RingBuffer::<Line>::with_waits(1);
            assert_eq!(layout(rx.buffer()), (2, 1));
            thread::spawn(move || {
                for i in 0..2 {
                    tx.push_timeout(line(i), super::FOREVER).unwrap();
                }
            });
            for i in 0..2 {
                assert_eq!(rx.pop_timeout(super::FOREVER), Ok(line(i)));
            }
            assert_eq!(
                rx.pop_timeout(super::FOREVER),
                Err(hotq_spsc::PopTimeoutError::Abandoned)
            );
        },
    );
}

/// The producer pushes one item and is dropped while the consumer may be
/// parking: the item comes first, then `Abandoned`, never a hang.
#[test]
fn stamped_producer_dropped_while_consumer_parks() {
    model(
        "stamped_producer_dropped_while_consumer_parks",
        BOUND,
        || {
            let (mut tx, mut rx) = RingBuffer::<u64>::with_waits(2);
            thread::spawn(move || {
                tx.push(7).unwrap();
                drop(tx);
            });
            assert_eq!(rx.pop_timeout(super::FOREVER), Ok(7));
            assert_eq!(
                rx.pop_timeout(super::FOREVER),
                Err(hotq_spsc::PopTimeoutError::Abandoned)
            );
        },
    );
}

/// The consumer is dropped while the producer parks on a full ring: the
/// value comes back as `Abandoned`, never a hang.
#[test]
fn stamped_consumer_dropped_while_producer_parks() {
    model(
        "stamped_consumer_dropped_while_producer_parks",
        BOUND,
        || {
            let (mut tx, rx) = RingBuffer::<Line>::with_waits(1);
            tx.push(line(1)).unwrap();
            thread::spawn(move || drop(rx));
            assert_eq!(
                tx.push_timeout(line(2), super::FOREVER),
                Err(hotq_spsc::PushTimeoutError::Abandoned(line(2)))
            );
        },
    );
}
