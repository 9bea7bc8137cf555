//! Every item pushed is dropped exactly once, whichever way it leaves the
//! ring: popped, committed through a read chunk, moved out by a chunk's
//! iterator, or left inside when both halves are gone; also when an
//! iterator or a destructor panics half way, and when chunks are forgotten
//! (which may leak, but never drops twice).

// Dropping and forgetting chunks is what is under test here, whether or not
// the chunk types have a destructor of their own today.
#![allow(clippy::drop_non_drop, clippy::forget_non_drop)]

use std::mem::{self, MaybeUninit};
use std::panic::{AssertUnwindSafe, catch_unwind};

use hotq_spsc::{Consumer, Producer, RingBuffer};
use hotq_testkit::{Counted, DropCounter};

/// Pushes `ids` (each must fit).
fn push_ids<'a>(
    tx: &mut Producer<Counted<'a>>,
    drops: &'a DropCounter,
    ids: impl IntoIterator<Item = usize>,
) {
    for id in ids {
        assert!(tx.push(drops.item(id)).is_ok(), "no room for {id}");
    }
}

/// Pops everything ready and returns the ids, dropping the items.
fn pop_ids(rx: &mut Consumer<Counted<'_>>) -> Vec<usize> {
    let mut ids = Vec::new();
    while let Ok(item) = rx.pop() {
        ids.push(item.id);
    }
    ids
}

/// Pushes and pops `start` items so that both indices sit at `start`:
/// the next chunk of the ring's full storage then wraps around its end.
fn advance_to<'a>(
    tx: &mut Producer<Counted<'a>>,
    rx: &mut Consumer<Counted<'a>>,
    drops: &'a DropCounter,
    ids: std::ops::Range<usize>,
) {
    push_ids(tx, drops, ids.clone());
    assert_eq!(pop_ids(rx), ids.collect::<Vec<_>>());
}

#[test]
fn popped_items_are_dropped_once_by_the_caller_not_the_ring() {
    let drops = DropCounter::new();
    let (mut tx, mut rx) = RingBuffer::new(4);
    for round in 0..5 {
        push_ids(&mut tx, &drops, round * 3..round * 3 + 3);
        let popped: Vec<Counted<'_>> = (0..3).map(|_| rx.pop().unwrap()).collect();
        assert_eq!(drops.total(), round * 3, "the ring dropped a popped item");
        let ids: Vec<usize> = popped.iter().map(|c| c.id).collect();
        assert_eq!(ids, [round * 3, round * 3 + 1, round * 3 + 2]);
        drop(popped);
        assert_eq!(drops.total(), round * 3 + 3);
    }
    drop((tx, rx));
    drops.assert_each_dropped_once(15);
}

#[test]
fn read_chunk_commit_drops_exactly_the_committed_items() {
    let drops = DropCounter::new();
    let (mut tx, mut rx) = RingBuffer::new(5);
    push_ids(&mut tx, &drops, 0..5);
    rx.read_chunk(4).unwrap().commit(2);
    assert_eq!(drops.total(), 2);
    assert_eq!(
        (drops.drops_of(0), drops.drops_of(1), drops.drops_of(2)),
        (1, 1, 0)
    );
    assert_eq!(rx.slots(), 3);
    assert_eq!(tx.slots(), 2);
    rx.read_chunk(2).unwrap().commit_all();
    assert_eq!(drops.total(), 4);
    assert_eq!(drops.drops_of(3), 1);
    assert_eq!(pop_ids(&mut rx), [4]);
    drops.assert_each_dropped_once(5);
    drop((tx, rx));
    drops.assert_each_dropped_once(5);
}

#[test]
fn read_chunk_iterator_moves_items_out_without_dropping_them() {
    let drops = DropCounter::new();
    let (mut tx, mut rx) = RingBuffer::new(4);
    advance_to(&mut tx, &mut rx, &drops, 0..3); // the chunk below wraps
    push_ids(&mut tx, &drops, 3..7);
    let moved: Vec<Counted<'_>> = rx.read_chunk(4).unwrap().into_iter().collect();
    assert_eq!(moved.iter().map(|c| c.id).collect::<Vec<_>>(), [3, 4, 5, 6]);
    assert_eq!(drops.total(), 3, "moved-out items dropped by the ring");
    assert!(rx.is_empty());
    assert_eq!(tx.slots(), 4);
    drop(moved);
    drop((tx, rx));
    drops.assert_each_dropped_once(7);
}

#[test]
fn partially_iterated_read_chunk_leaves_the_rest_in_the_ring() {
    let drops = DropCounter::new();
    let (mut tx, mut rx) = RingBuffer::new(6);
    push_ids(&mut tx, &drops, 0..6);
    let mut items = rx.read_chunk(5).unwrap().into_iter();
    let first = items.next().unwrap();
    let second = items.next().unwrap();
    assert_eq!((first.id, second.id), (0, 1));
    drop(items); // three of the chunk not taken
    assert_eq!(drops.total(), 0, "dropping the iterator dropped items");
    assert_eq!(rx.slots(), 4);
    assert_eq!(tx.slots(), 2);
    drop((first, second));
    // Leftovers stay in order: 2 and 3 popped, 4 and 5 dropped by the ring.
    assert_eq!(rx.pop().unwrap().id, 2);
    assert_eq!(rx.pop().unwrap().id, 3);
    assert_eq!(drops.total(), 4);
    drop((tx, rx));
    drops.assert_each_dropped_once(6);
}

/// Fills a ring of 4 (storage 4) so that its items wrap around the end of
/// the storage, with some items already gone; returns how many ids exist.
fn leave_items_inside<'a>(
    tx: &mut Producer<Counted<'a>>,
    rx: &mut Consumer<Counted<'a>>,
    drops: &'a DropCounter,
) -> usize {
    advance_to(tx, rx, drops, 0..3);
    push_ids(tx, drops, 3..7);
    assert_eq!(rx.pop().unwrap().id, 3);
    assert_eq!(drops.total(), 4);
    7
}

#[test]
fn items_left_inside_are_dropped_once_when_the_producer_drops_first() {
    let drops = DropCounter::new();
    let (mut tx, mut rx) = RingBuffer::new(4);
    let n = leave_items_inside(&mut tx, &mut rx, &drops);
    drop(tx);
    assert_eq!(drops.total(), 4, "the items went with the first half");
    drop(rx);
    drops.assert_each_dropped_once(n);
}

#[test]
fn items_left_inside_are_dropped_once_when_the_consumer_drops_first() {
    let drops = DropCounter::new();
    let (mut tx, mut rx) = RingBuffer::new(4);
    let n = leave_items_inside(&mut tx, &mut rx, &drops);
    drop(rx);
    assert_eq!(drops.total(), 4, "the items went with the first half");
    // The producer may still push: those are dropped with the ring too.
    push_ids(&mut tx, &drops, n..n + 1);
    drop(tx);
    drops.assert_each_dropped_once(n + 1);
}

#[test]
fn items_left_inside_are_dropped_once_when_the_halves_drop_on_other_threads() {
    let drops = DropCounter::new();
    let (mut tx, mut rx) = RingBuffer::new(4);
    let n = leave_items_inside(&mut tx, &mut rx, &drops);
    std::thread::scope(|s| {
        s.spawn(move || drop(tx));
        s.spawn(move || drop(rx));
    });
    drops.assert_each_dropped_once(n);
}

#[test]
fn panic_in_fill_from_iter_publishes_the_items_written_before_it() {
    let drops = DropCounter::new();
    let (mut tx, mut rx) = RingBuffer::new(8);
    advance_to(&mut tx, &mut rx, &drops, 0..6); // the chunk below wraps
    let chunk = tx.write_chunk_uninit(6).unwrap();
    // The iterator owns ids 6..12, yields 6, 7, 8, and panics on 9: 9 is
    // dropped by the unwinding closure, 10 and 11 with the iterator.
    let source: Vec<Counted<'_>> = (6..12).map(|id| drops.item(id)).collect();
    let result = catch_unwind(AssertUnwindSafe(|| {
        chunk.fill_from_iter(source.into_iter().inspect(|item| {
            assert!(item.id != 9, "iterator panics at {}", item.id);
        }))
    }));
    assert!(result.is_err(), "the iterator's panic did not propagate");
    assert_eq!(drops.total(), 6 + 3, "unwinding dropped a written item");
    for id in 9..12 {
        assert_eq!(drops.drops_of(id), 1, "id {id} not dropped by the unwind");
    }
    // The three written items were published; the ring is consistent.
    assert_eq!(rx.slots(), 3);
    assert_eq!(tx.slots(), 5);
    assert_eq!(rx.pop().unwrap().id, 6);
    push_ids(&mut tx, &drops, 12..18);
    assert!(tx.is_full());
    assert_eq!(pop_ids(&mut rx), [7, 8, 12, 13, 14, 15, 16, 17]);
    push_ids(&mut tx, &drops, 18..20); // left inside
    drop((tx, rx));
    drops.assert_each_dropped_once(20);
}

/// Pushes `n` items from id `first` on, the one at `panic_at` (an offset)
/// panicking when dropped, into a ring of 4 whose indices sit at `start`;
/// commits `commit` of them from a read chunk of `n`, which must panic
/// (caught); then checks, as rtrb does it, that the items up to the
/// panicking one were dropped exactly once and the others not at all, that
/// those others are still there in order, and that the ring still works.
fn commit_with_panicking_drop(start: usize, n: usize, commit: usize, panic_at: usize) {
    let drops = DropCounter::new();
    let (mut tx, mut rx) = RingBuffer::new(4);
    advance_to(&mut tx, &mut rx, &drops, 0..start);
    for i in 0..n {
        let mut item = drops.item(start + i);
        item.panic_on_drop = i == panic_at;
        assert!(tx.push(item).is_ok());
    }
    let chunk = rx.read_chunk(n).unwrap();
    let wraps = !chunk.as_slices().1.is_empty();
    assert_eq!(wraps, start % 4 + n > 4, "the test's own layout assumption");
    let result = catch_unwind(AssertUnwindSafe(|| chunk.commit(commit)));
    let ctx = format!("start {start}, chunk {n}, commit {commit}, panic at {panic_at}");
    assert!(
        result.is_err(),
        "{ctx}: the destructor's panic did not propagate"
    );
    // The items up to the panicking one were dropped once, it included,
    // and none after it: the commit stopped there.
    let gone = panic_at + 1;
    for i in 0..n {
        let expected = usize::from(i < gone);
        assert_eq!(
            drops.drops_of(start + i),
            expected,
            "{ctx}: drops of item {i}"
        );
    }
    // The head moved past exactly those: the rest are next, in order.
    assert_eq!(rx.slots(), n - gone, "{ctx}: items left");
    assert_eq!(tx.slots(), 4 - (n - gone), "{ctx}: free slots");
    let rest: Vec<usize> = (start + gone..start + n).collect();
    assert_eq!(pop_ids(&mut rx), rest, "{ctx}: the rest");
    // And the ring still works, around its whole storage.
    let next = start + n;
    push_ids(&mut tx, &drops, next..next + 4);
    assert!(tx.is_full(), "{ctx}");
    assert_eq!(
        pop_ids(&mut rx),
        (next..next + 4).collect::<Vec<_>>(),
        "{ctx}"
    );
    push_ids(&mut tx, &drops, next + 4..next + 6); // left inside
    drop((tx, rx));
    drops.assert_each_dropped_once(next + 6);
}

#[test]
fn panic_in_drop_during_read_chunk_commit_stops_there_and_leaves_the_rest_in_the_ring() {
    for n in 1..=4 {
        for commit in 1..=n {
            for panic_at in 0..commit {
                commit_with_panicking_drop(0, n, commit, panic_at);
            }
        }
    }
}

#[test]
fn panic_in_drop_during_commit_of_a_wrapping_read_chunk_stops_there_and_drops_each_item_once() {
    // Chunks of 2..=4 from slot 3 of 4: one item before the storage's end,
    // the rest after it, so the panic hits the first run or the second.
    for n in 2..=4 {
        for commit in 1..=n {
            for panic_at in 0..commit {
                commit_with_panicking_drop(3, n, commit, panic_at);
            }
        }
    }
    // And from slot 2: two items in each run.
    for panic_at in 0..4 {
        commit_with_panicking_drop(2, 4, 4, panic_at);
    }
}

/// Two items of one `commit_all` panic when dropped: the commit stops at
/// the first, so the second's destructor never runs during the unwind
/// (which would abort the process: a panic while panicking) and the item
/// stays in the ring; its own panic comes when it is dropped later. rtrb's
/// `read_chunk_with_panic_in_drop` in miniature, twice over.
#[test]
fn two_panicking_destructors_in_one_commit_neither_abort_nor_drop_twice() {
    let drops = DropCounter::new();
    let (mut tx, mut rx) = RingBuffer::new(4);
    push_ids(&mut tx, &drops, [0]);
    assert!(tx.push(drops.item_panicking_on_drop(1)).is_ok());
    push_ids(&mut tx, &drops, [2]);
    assert!(tx.push(drops.item_panicking_on_drop(3)).is_ok());
    let chunk = rx.read_chunk(4).unwrap();
    assert!(catch_unwind(AssertUnwindSafe(|| chunk.commit_all())).is_err());
    assert_eq!(
        (0..4).map(|id| drops.drops_of(id)).collect::<Vec<_>>(),
        [1, 1, 0, 0]
    );
    let chunk = rx.read_chunk(2).unwrap();
    assert!(catch_unwind(AssertUnwindSafe(|| chunk.commit_all())).is_err());
    assert!(rx.is_empty());
    drop((tx, rx));
    drops.assert_each_dropped_once(4);
}

/// A ring dropped with items whose destructors panic, across the storage's
/// wrap and with either half dropped last: the first panic reaches the
/// dropper, the items after the panicking one are leaked, and nothing
/// aborts or is dropped twice. Dropping the rest while the panic unwinds
/// (a slice's drop glue does) aborted the process at the second.
#[test]
fn a_ring_dropped_with_panicking_items_panics_once_and_leaks_the_rest() {
    for start in [0, 3] {
        for consumer_last in [false, true] {
            let what = format!("indices at {start}, consumer dropped last: {consumer_last}");
            let drops = DropCounter::leaked();
            let (mut tx, mut rx) = RingBuffer::new(4);
            advance_to(&mut tx, &mut rx, drops, 100..100 + start);
            push_ids(&mut tx, drops, [0]);
            for id in 1..4 {
                assert!(tx.push(drops.item_panicking_on_drop(id)).is_ok(), "{what}");
            }
            let unwound = catch_unwind(AssertUnwindSafe(move || {
                if consumer_last {
                    drop(tx);
                    drop(rx);
                } else {
                    drop(rx);
                    drop(tx);
                }
            }));
            assert!(
                unwound.is_err(),
                "{what}: the destructor's panic was swallowed"
            );
            assert_eq!(
                (0..4).map(|id| drops.drops_of(id)).collect::<Vec<_>>(),
                [1, 1, 0, 0],
                "{what}: dropped once up to the panic, leaked after it"
            );
        }
    }
}

#[test]
fn write_chunk_drops_each_uncommitted_default_once() {
    let drops = DropCounter::leaked();
    let _defaults = drops.use_for_defaults();
    let (mut tx, mut rx) = RingBuffer::<Counted<'static>>::new(5);

    // Dropped without a commit: the 3 defaults (ids 0..3) go with it.
    let chunk = tx.write_chunk(3).unwrap();
    assert_eq!(drops.issued(), 3);
    assert_eq!(drops.total(), 0);
    drop(chunk);
    assert_eq!(drops.total(), 3);
    assert!(rx.is_empty());
    assert_eq!(tx.slots(), 5);

    // commit(2) of 4 (ids 3..7, the first overwritten by id 7): the
    // overwritten default is dropped by the assignment, the 2 extras by
    // the commit, and the 2 committed are the ring's.
    let mut chunk = tx.write_chunk(4).unwrap();
    let (a, b) = chunk.as_mut_slices();
    let ids: Vec<usize> = a.iter().chain(b.iter()).map(|c| c.id).collect();
    assert_eq!(ids, [3, 4, 5, 6]);
    a[0] = drops.fresh();
    assert_eq!(drops.drops_of(3), 1);
    chunk.commit(2);
    assert_eq!(
        (drops.drops_of(5), drops.drops_of(6)),
        (1, 1),
        "extras not dropped"
    );
    assert_eq!(
        (drops.drops_of(7), drops.drops_of(4)),
        (0, 0),
        "committed dropped"
    );
    assert_eq!(rx.slots(), 2);
    assert_eq!(tx.slots(), 3);

    // commit_all: nothing dropped.
    let chunk = tx.write_chunk(3).unwrap();
    chunk.commit_all();
    assert_eq!(drops.total(), 1 + 3 + 2);
    assert!(tx.is_full());

    assert_eq!(pop_ids(&mut rx), [7, 4, 8, 9, 10]);
    drop((tx, rx));
    drops.assert_each_dropped_once(drops.issued());
}

#[test]
fn write_chunk_drops_the_defaults_of_a_wrapping_chunk_once() {
    let drops = DropCounter::leaked();
    let _defaults = drops.use_for_defaults();
    let (mut tx, mut rx) = RingBuffer::<Counted<'static>>::new(4);
    for _ in 0..3 {
        tx.push(drops.fresh()).unwrap(); // ids 0..3
        rx.pop().unwrap();
    }
    // From index 3, a chunk of 4 covers slot 3, then slots 0, 1, 2.
    // commit(0): all four defaults (ids 3..7) dropped, across the wrap.
    let chunk = tx.write_chunk(4).unwrap();
    assert_eq!(chunk.len(), 4);
    chunk.commit(0);
    assert_eq!(drops.total(), 3 + 4);
    assert!(rx.is_empty());
    // commit(1) (ids 7..11): id 7 published, the extras (all after the
    // storage's end) dropped.
    let chunk = tx.write_chunk(4).unwrap();
    chunk.commit(1);
    assert_eq!(drops.total(), 3 + 4 + 3);
    assert_eq!(rx.slots(), 1);
    // Dropped (ids 11..14, slots 0, 1, 2): all three dropped.
    drop(tx.write_chunk(3).unwrap());
    assert_eq!(drops.total(), 3 + 4 + 3 + 3);
    assert_eq!(pop_ids(&mut rx), [7]);
    drop((tx, rx));
    drops.assert_each_dropped_once(drops.issued());
    assert_eq!(drops.issued(), 14);
}

#[test]
fn forgotten_write_chunk_uninit_publishes_nothing_and_never_drops_twice() {
    let drops = DropCounter::new();
    let (mut tx, mut rx) = RingBuffer::new(4);
    push_ids(&mut tx, &drops, 0..1);
    let mut chunk = tx.write_chunk_uninit(3).unwrap();
    let (a, b) = chunk.as_mut_slices();
    for (slot, id) in a.iter_mut().chain(b).zip(1..3) {
        *slot = MaybeUninit::new(drops.item(id));
    }
    mem::forget(chunk); // ids 1 and 2 leak
    assert_eq!(rx.slots(), 1, "a forgotten chunk published");
    assert_eq!(tx.slots(), 3);
    // The same slots are written again, and only the new items come out.
    push_ids(&mut tx, &drops, 3..6);
    assert_eq!(pop_ids(&mut rx), [0, 3, 4, 5]);
    push_ids(&mut tx, &drops, 6..8); // left inside
    drop((tx, rx));
    drops.assert_none_dropped_twice();
    assert_eq!(
        (drops.drops_of(1), drops.drops_of(2)),
        (0, 0),
        "leaked items dropped"
    );
    for id in [0, 3, 4, 5, 6, 7] {
        assert_eq!(drops.drops_of(id), 1, "id {id}");
    }
}

#[test]
fn forgotten_write_chunk_leaks_its_defaults_and_never_exposes_them() {
    let drops = DropCounter::leaked();
    let _defaults = drops.use_for_defaults();
    let (mut tx, mut rx) = RingBuffer::<Counted<'static>>::new(4);
    let chunk = tx.write_chunk(4).unwrap(); // ids 0..4
    mem::forget(chunk);
    assert!(rx.is_empty(), "a forgotten chunk published");
    assert_eq!(tx.slots(), 4);
    for _ in 0..4 {
        tx.push(drops.fresh()).unwrap(); // ids 4..8, over the leaked ones
    }
    assert_eq!(pop_ids(&mut rx), [4, 5, 6, 7]);
    tx.push(drops.fresh()).unwrap(); // id 8, left inside
    drop((tx, rx));
    drops.assert_none_dropped_twice();
    assert_eq!(drops.total(), 5, "a leaked default was dropped");
    for id in 4..9 {
        assert_eq!(drops.drops_of(id), 1, "id {id}");
    }
}

#[test]
fn forgotten_read_chunk_leaves_every_item_in_the_ring() {
    let drops = DropCounter::new();
    let (mut tx, mut rx) = RingBuffer::new(4);
    advance_to(&mut tx, &mut rx, &drops, 0..2);
    push_ids(&mut tx, &drops, 2..6);
    let chunk = rx.read_chunk(3).unwrap();
    let (a, b) = chunk.as_slices();
    let ids: Vec<usize> = a.iter().chain(b).map(|c| c.id).collect();
    assert_eq!(ids, [2, 3, 4]);
    mem::forget(chunk);
    assert_eq!(drops.total(), 2);
    assert_eq!(rx.slots(), 4);
    assert_eq!(tx.slots(), 0);
    assert_eq!(rx.pop().unwrap().id, 2);
    assert_eq!(rx.pop().unwrap().id, 3);
    drop((tx, rx)); // 4 and 5 left inside
    drops.assert_each_dropped_once(6);
}

#[test]
fn forgotten_read_chunk_iterator_never_drops_a_yielded_item_again() {
    let drops = DropCounter::new();
    let (mut tx, mut rx) = RingBuffer::new(4);
    advance_to(&mut tx, &mut rx, &drops, 0..3);
    push_ids(&mut tx, &drops, 3..7);
    let mut items = rx.read_chunk(4).unwrap().into_iter();
    let yielded: Vec<Counted<'_>> = items.by_ref().take(2).collect();
    mem::forget(items);
    assert_eq!(yielded.iter().map(|c| c.id).collect::<Vec<_>>(), [3, 4]);
    assert_eq!(rx.slots(), 2, "yielded items still in the ring");
    assert_eq!(tx.slots(), 2, "yielded items' slots not freed");
    drop(yielded);
    assert_eq!(drops.total(), 3 + 2);
    // The others are still there, in order, and the freed slots reusable.
    push_ids(&mut tx, &drops, 7..9);
    assert_eq!(pop_ids(&mut rx), [5, 6, 7, 8]);
    push_ids(&mut tx, &drops, 9..10); // left inside
    drop((tx, rx));
    drops.assert_none_dropped_twice();
    drops.assert_each_dropped_once(10);
}
