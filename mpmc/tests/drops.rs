//! Ownership: every item pushed is dropped exactly once, wherever it ends
//! up (popped, evicted by `force_push`, refused by `push`, left inside a
//! dropped queue or a dropped `IntoIter`), for every head offset within a
//! lap and across the `usize` wrap; zero-sized items too. Also the
//! construction errors, `Debug`, and `Send`/`Sync`.
mod common;

use std::cell::Cell;
use std::panic::AssertUnwindSafe;
use std::rc::Rc;
use std::sync::Barrier;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use common::laps_before_wrap;
use hotq_mpmc::{CapacityError, IntoIter, Queue};
use hotq_testkit::{Counted, DropCounter, Patience, TimeLimit};

/// Capacities with every relation to the lap size: 1, powers of two, and
/// one below and above them. Under miri (which interprets every
/// instruction) five of them, still 1, powers of two, one below and one
/// above: the loops over every head offset and fill level stay whole.
const CAPACITIES: &[usize] = if cfg!(miri) {
    &[1, 2, 3, 4, 9]
} else {
    &[1, 2, 3, 4, 5, 7, 8, 9]
};

/// A queue of `capacity` starting at `start`, with `head` moved `offset`
/// positions on (each by a push of a fresh item and its pop: those items
/// are dropped right away), then `fill` more fresh items pushed and left
/// inside. Ids: `0..offset` cycled through, `offset..offset + fill` inside.
fn queue_with(
    counter: &DropCounter,
    capacity: usize,
    start: u64,
    offset: usize,
    fill: usize,
) -> Queue<Counted<'_>> {
    let q = Queue::with_initial_position(capacity, start).unwrap();
    for id in 0..offset {
        q.push(counter.item(id)).unwrap();
        drop(q.pop().unwrap());
    }
    for id in offset..offset + fill {
        q.push(counter.item(id)).unwrap();
    }
    q
}

/// For every capacity, `head` offset within two laps and fill level
/// (empty to full): dropping the queue drops exactly the items left
/// inside, each once, and nothing else again.
fn left_inside_dropped_once_with_queue(laps_before: Option<usize>) {
    for &capacity in CAPACITIES {
        let start = laps_before.map_or(0, |laps| laps_before_wrap(capacity, laps));
        for offset in 0..=2 * capacity + 1 {
            for fill in 0..=capacity {
                let what =
                    format!("capacity {capacity}, start {start:#x}, offset {offset}, fill {fill}");
                let counter = DropCounter::with_ids(offset + fill);
                let q = queue_with(&counter, capacity, start, offset, fill);
                counter.assert_drops(&format!("{what}, before the queue drops"), |id| {
                    usize::from(id < offset)
                });
                assert_eq!(q.len(), fill, "{what}");
                drop(q);
                counter.assert_drops(&format!("{what}, after the queue dropped"), |_| 1);
            }
        }
    }
}

#[test]
fn items_left_inside_are_dropped_once_with_the_queue_at_every_head_offset() {
    let _limit =
        TimeLimit::new("items_left_inside_are_dropped_once_with_the_queue_at_every_head_offset");
    left_inside_dropped_once_with_queue(None);
}

/// As above, with `head` and `tail` starting in the last lap before the
/// `usize` wrap (offsets up to two laps cross it) and one lap earlier.
#[test]
fn items_left_inside_are_dropped_once_with_the_queue_across_the_wrap() {
    let _limit =
        TimeLimit::new("items_left_inside_are_dropped_once_with_the_queue_across_the_wrap");
    left_inside_dropped_once_with_queue(Some(0));
    left_inside_dropped_once_with_queue(Some(1));
}

#[test]
fn dropping_an_empty_queue_drops_nothing() {
    let _limit = TimeLimit::new("dropping_an_empty_queue_drops_nothing");
    for &capacity in CAPACITIES {
        let counter = DropCounter::with_ids(0);
        drop(Queue::<Counted<'_>>::new(capacity));
        assert_eq!(counter.total(), 0);
        // Emptied after use: the popped items are the caller's, dropped
        // once when the caller drops them; the queue drops none again.
        let counter = DropCounter::with_ids(capacity);
        let q = queue_with(&counter, capacity, 0, 0, capacity);
        let popped: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(popped.len(), capacity);
        counter.assert_drops("popped, still held", |_| 0);
        drop(q);
        counter.assert_drops("popped, queue dropped", |_| 0);
        drop(popped);
        counter.assert_drops(&format!("capacity {capacity}"), |_| 1);
    }
}

#[test]
fn dropping_a_full_queue_drops_every_item_once() {
    let _limit = TimeLimit::new("dropping_a_full_queue_drops_every_item_once");
    for capacity in CAPACITIES.iter().copied().chain([1024]) {
        let counter = DropCounter::with_ids(capacity + 1);
        let q = queue_with(&counter, capacity, 0, 0, capacity);
        assert!(q.is_full());
        // Refused: given back to the caller, who drops it.
        let refused = q.push(counter.item(capacity)).unwrap_err();
        assert_eq!(refused.id, capacity);
        counter.assert_drops("refused item held", |_| 0);
        drop(refused);
        counter.assert_drops("refused item dropped", |id| usize::from(id == capacity));
        drop(q);
        counter.assert_drops(&format!("capacity {capacity}"), |_| 1);
    }
}

#[test]
fn dropping_a_partially_full_queue_drops_exactly_the_items_left() {
    let _limit = TimeLimit::new("dropping_a_partially_full_queue_drops_exactly_the_items_left");
    for capacity in [2, 3, 4, 9, 1024] {
        // Mid-lap: head at index 1, one item popped and held, half full.
        let left = capacity / 2;
        let counter = DropCounter::with_ids(2 + left);
        let q = queue_with(&counter, capacity, 0, 1, 1 + left);
        let held = q.pop().unwrap();
        assert_eq!(held.id, 1);
        counter.assert_drops("before", |id| usize::from(id == 0));
        drop(q);
        counter.assert_drops("queue dropped", |id| usize::from(id != 1));
        drop(held);
        counter.assert_drops(&format!("capacity {capacity}"), |_| 1);
    }
}

/// The value `force_push` returns is the evicted item, moved out of the
/// queue: the caller drops it once, and the queue never drops it again.
#[test]
fn items_evicted_by_force_push_are_dropped_once_by_the_caller() {
    let _limit = TimeLimit::new("items_evicted_by_force_push_are_dropped_once_by_the_caller");
    for &capacity in CAPACITIES {
        for start in [0, laps_before_wrap(capacity, 0)] {
            // 3 laps of force_push: the first `capacity` fill, every later
            // one evicts the oldest.
            let pushes = 3 * capacity + 1;
            let counter = DropCounter::with_ids(pushes);
            let q = Queue::with_initial_position(capacity, start).unwrap();
            let mut evicted = Vec::new();
            for id in 0..pushes {
                let old = q.force_push(counter.item(id));
                let expected = id.checked_sub(capacity);
                assert_eq!(old.as_ref().map(|c| c.id), expected, "capacity {capacity}");
                evicted.extend(old);
            }
            counter.assert_drops("evicted items held by the caller", |_| 0);
            drop(evicted);
            counter.assert_drops("evicted items dropped", |id| {
                usize::from(id < pushes - capacity)
            });
            drop(q);
            counter.assert_drops(&format!("capacity {capacity}, start {start:#x}"), |_| 1);
        }
    }
}

/// `into_iter` yields the items oldest first; the ones not taken are
/// dropped, once, with the iterator: at every offset, fill and number taken.
#[test]
fn items_not_taken_from_into_iter_are_dropped_once_with_the_iterator() {
    let _limit =
        TimeLimit::new("items_not_taken_from_into_iter_are_dropped_once_with_the_iterator");
    for &capacity in CAPACITIES {
        for start in [0, laps_before_wrap(capacity, 0)] {
            for offset in 0..=capacity + 1 {
                for fill in 0..=capacity {
                    for take in 0..=fill + 1 {
                        // Under miri (which interprets every instruction):
                        // none, one, all but one, all, and one too many.
                        if cfg!(miri)
                            && ![0, 1, fill.saturating_sub(1), fill, fill + 1].contains(&take)
                        {
                            continue;
                        }
                        let what = format!(
                            "capacity {capacity}, start {start:#x}, offset {offset}, fill {fill}, take {take}"
                        );
                        let counter = DropCounter::with_ids(offset + fill);
                        let q = queue_with(&counter, capacity, start, offset, fill);
                        let mut items: IntoIter<Counted<'_>> = q.into_iter();
                        let taken: Vec<_> = items.by_ref().take(take).collect();
                        let ids: Vec<usize> = taken.iter().map(|c| c.id).collect();
                        let expected: Vec<usize> = (offset..offset + fill).take(take).collect();
                        assert_eq!(ids, expected, "{what}: taken in FIFO order");
                        assert_eq!(items.len(), fill - ids.len(), "{what}: iterator len");
                        counter.assert_drops(&what, |id| usize::from(id < offset));
                        drop(items);
                        let taken_end = offset + ids.len();
                        counter.assert_drops(&format!("{what}, iterator dropped"), |id| {
                            usize::from(id < offset || id >= taken_end)
                        });
                        drop(taken);
                        counter.assert_drops(&what, |_| 1);
                    }
                }
            }
        }
    }
}

/// A panic in an item's `drop` while the queue (or its `into_iter`) drops
/// what is left: the panic reaches the caller, the panicking item was
/// dropped once, and no item is ever dropped twice (the ones after it may
/// leak: that is sound). At every slot of a full queue, across the wrap.
#[test]
fn a_panic_in_an_items_drop_while_the_queue_drops_never_drops_an_item_twice() {
    let _limit =
        TimeLimit::new("a_panic_in_an_items_drop_while_the_queue_drops_never_drops_an_item_twice");
    for capacity in [1, 2, 3, 4] {
        for start in [0, laps_before_wrap(capacity, 0)] {
            for panicking in 0..capacity {
                for through_iter in [false, true] {
                    let what = format!(
                        "capacity {capacity}, start {start:#x}, item {panicking} panics, \
                         into_iter {through_iter}"
                    );
                    let counter = DropCounter::with_ids(capacity + 1);
                    let q = Queue::with_initial_position(capacity, start).unwrap();
                    // One pushed and popped first, so the full queue's
                    // items do not start at slot 0.
                    q.push(counter.item(capacity)).unwrap();
                    drop(q.pop());
                    for id in 0..capacity {
                        let item = if id == panicking {
                            counter.item_panicking_on_drop(id)
                        } else {
                            counter.item(id)
                        };
                        assert!(q.push(item).is_ok(), "{what}: push {id}");
                    }
                    let dropped = std::panic::catch_unwind(AssertUnwindSafe(|| {
                        if through_iter {
                            drop(q.into_iter());
                        } else {
                            drop(q);
                        }
                    }));
                    assert!(dropped.is_err(), "{what}: the panic was swallowed");
                    assert_eq!(counter.drops_of(panicking), 1, "{what}");
                    counter.assert_none_dropped_twice();
                }
            }
        }
    }
}

/// Concurrent `force_push` and `pop` of drop-counted items, then the queue
/// dropped with whatever is left: each item dropped exactly once, whether
/// popped (dropped by the consumer), evicted (dropped by the producer) or
/// left inside (dropped with the queue).
#[test]
fn items_are_dropped_once_under_concurrent_force_push_and_pop() {
    let _limit = TimeLimit::new("items_are_dropped_once_under_concurrent_force_push_and_pop");
    const PRODUCERS: usize = 3;
    const CONSUMERS: usize = 3;
    // Under miri (which interprets every instruction) fewer: still dozens
    // of laps of each queue.
    const PER_PRODUCER: usize = if cfg!(miri) {
        200
    } else if cfg!(debug_assertions) {
        5_000
    } else {
        50_000
    };
    for capacity in [1, 3, 4] {
        let counter = DropCounter::with_ids(PRODUCERS * PER_PRODUCER);
        let q = Queue::new(capacity);
        let start = Barrier::new(PRODUCERS + CONSUMERS);
        let finished = AtomicUsize::new(0);
        thread::scope(|s| {
            for p in 0..PRODUCERS {
                let (q, counter, start, finished) = (&q, &counter, &start, &finished);
                s.spawn(move || {
                    start.wait();
                    for i in 0..PER_PRODUCER {
                        drop(q.force_push(counter.item(p * PER_PRODUCER + i)));
                    }
                    // Release pairs with the consumers' Acquire load: every
                    // force_push of this producer has returned.
                    finished.fetch_add(1, Ordering::Release);
                });
            }
            for _ in 0..CONSUMERS {
                let (q, start, finished) = (&q, &start, &finished);
                s.spawn(move || {
                    let mut patience = Patience::new();
                    start.wait();
                    while finished.load(Ordering::Acquire) < PRODUCERS {
                        match q.pop() {
                            Some(item) => {
                                drop(item);
                                patience.hit();
                            }
                            None => patience.miss(|| "pop while producers run".to_string()),
                        }
                    }
                });
            }
        });
        // Popped and evicted items are dropped, each once; the ones left
        // inside not yet.
        let total = PRODUCERS * PER_PRODUCER;
        let left = q.len();
        assert!(left <= capacity, "capacity {capacity}: len {left}");
        let twice: Vec<usize> = (0..total).filter(|&id| counter.drops_of(id) > 1).collect();
        assert!(
            twice.is_empty(),
            "capacity {capacity}: dropped twice: {twice:?}"
        );
        assert_eq!(
            counter.total(),
            total - left,
            "capacity {capacity}: drops before the queue"
        );
        drop(q);
        counter.assert_drops(&format!("capacity {capacity}"), |_| 1);
    }
}

/// A zero-sized item that counts its drops in a static (one per test,
/// as tests run in parallel).
macro_rules! zst {
    ($name:ident, $drops:ident) => {
        static $drops: AtomicUsize = AtomicUsize::new(0);
        #[derive(Debug, PartialEq)]
        struct $name;
        impl Drop for $name {
            fn drop(&mut self) {
                $drops.fetch_add(1, Ordering::Relaxed);
            }
        }
    };
}

/// Zero-sized items take no space, but the queue still counts them: full
/// at `capacity`, FIFO-neutral, and every one dropped once wherever it ends.
#[test]
fn zero_sized_items_are_counted_and_dropped_once() {
    let _limit = TimeLimit::new("zero_sized_items_are_counted_and_dropped_once");
    zst!(Zst, DROPS);
    let drops = || DROPS.load(Ordering::Relaxed);
    for capacity in [1, 3, 4, 1024] {
        let before = drops();
        let dropped = || drops() - before;
        let q = Queue::new(capacity);
        for n in 0..capacity {
            assert_eq!(q.len(), n);
            assert!(q.push(Zst).is_ok());
        }
        assert!(q.is_full());
        assert_eq!(dropped(), 0);
        // Refused and given back: dropped by the caller.
        let refused = q.push(Zst);
        assert!(refused.is_err());
        drop(refused);
        assert_eq!(dropped(), 1);
        // Evicted and returned: dropped by the caller.
        let evicted = q.force_push(Zst);
        assert!(evicted.is_some());
        drop(evicted);
        assert_eq!(dropped(), 2);
        assert_eq!(q.len(), capacity);
        let popped = q.pop();
        assert!(popped.is_some());
        drop(popped);
        assert_eq!(dropped(), 3);
        assert_eq!(q.len(), capacity - 1);
        // Partially drained through the iterator, the rest dropped with it.
        let mut items = q.into_iter();
        assert_eq!(items.len(), capacity - 1);
        if capacity > 1 {
            assert!(items.next().is_some());
            assert_eq!(dropped(), 4);
        }
        let rest = items.len();
        assert_eq!(rest, capacity.saturating_sub(2));
        drop(items);
        assert_eq!(dropped(), capacity + 2, "every item dropped once");

        // Left inside a dropped queue, mid-lap and across the wrap.
        let before = drops();
        let q = Queue::with_initial_position(capacity, laps_before_wrap(capacity, 0)).unwrap();
        for _ in 0..capacity + capacity / 2 {
            drop(q.force_push(Zst));
        }
        let evicted = capacity / 2;
        assert_eq!(drops() - before, evicted);
        drop(q);
        assert_eq!(drops() - before, evicted + capacity);
    }
    // Unit works like any other item.
    let q = Queue::new(2);
    assert_eq!(q.push(()), Ok(()));
    assert_eq!(q.pop(), Some(()));
    assert_eq!(q.pop(), None);
}

#[test]
fn try_new_rejects_zero_and_too_large_capacities() {
    assert_eq!(Queue::<u8>::try_new(0).unwrap_err(), CapacityError::Zero);
    assert_eq!(
        Queue::<u8>::try_new(usize::MAX).unwrap_err(),
        CapacityError::TooLarge
    );
    assert_eq!(
        Queue::<u8>::try_new(usize::MAX / 4).unwrap_err(),
        CapacityError::TooLarge
    );
    // Too large in bytes, though the count would index.
    assert_eq!(
        Queue::<[u8; 1 << 20]>::try_new(usize::MAX >> 19).unwrap_err(),
        CapacityError::TooLarge
    );
    assert_eq!(
        Queue::<u8>::with_initial_position(0, u64::MAX).unwrap_err(),
        CapacityError::Zero
    );
    assert_eq!(
        Queue::<u8>::with_initial_position(usize::MAX, 0).unwrap_err(),
        CapacityError::TooLarge
    );
    // The capacity is exact, not rounded.
    for capacity in [1, 2, 3, 5, 1000] {
        assert_eq!(Queue::<u8>::try_new(capacity).unwrap().capacity(), capacity);
        assert_eq!(Queue::<()>::try_new(capacity).unwrap().capacity(), capacity);
    }
}

#[test]
fn capacity_error_display_explains_the_error() {
    assert_eq!(
        CapacityError::Zero.to_string(),
        "queue capacity must be at least 1"
    );
    assert_eq!(
        CapacityError::TooLarge.to_string(),
        "queue capacity too large: its slots cannot be allocated or indexed"
    );
    // A std error, usable with `?` into `Box<dyn Error>`.
    let boxed: Box<dyn std::error::Error + Send + Sync> = CapacityError::Zero.into();
    assert_eq!(boxed.to_string(), CapacityError::Zero.to_string());
}

/// `new` panics with exactly the `Display` message of the error `try_new`
/// returns.
#[test]
fn new_panics_with_the_capacity_error_message() {
    for (capacity, error) in [
        (0, CapacityError::Zero),
        (usize::MAX, CapacityError::TooLarge),
        (usize::MAX / 4, CapacityError::TooLarge),
    ] {
        let panic =
            std::panic::catch_unwind(|| Queue::<u64>::new(capacity)).expect_err("new should panic");
        let message = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .expect("a string panic payload");
        assert_eq!(message, error.to_string(), "capacity {capacity}");
    }
}

/// `Debug` shows the capacity and the current length, never the items
/// (which need not be `Debug`, and which another thread may be moving).
#[test]
fn debug_shows_capacity_and_len_but_no_items() {
    let _limit = TimeLimit::new("debug_shows_capacity_and_len_but_no_items");
    let q = Queue::new(3);
    assert_eq!(format!("{q:?}"), "Queue { capacity: 3, len: 0 }");
    q.push("SECRET-ITEM").unwrap();
    q.push("SECRET-ITEM").unwrap();
    let shown = format!("{q:?}");
    assert_eq!(shown, "Queue { capacity: 3, len: 2 }");
    assert!(!shown.contains("SECRET"));
    let pretty = format!("{q:#?}");
    assert!(
        pretty.contains("capacity: 3") && pretty.contains("len: 2") && !pretty.contains("SECRET")
    );
    // Needs no `T: Debug`.
    struct Opaque;
    let q = Queue::new(1);
    assert!(q.push(Opaque).is_ok());
    assert_eq!(format!("{q:?}"), "Queue { capacity: 1, len: 1 }");
    let items = q.into_iter();
    assert_eq!(format!("{items:?}"), "IntoIter { remaining: 1 }");
}

/// `Queue<T>` is `Send` and `Sync` for every `T: Send`, even when `T`
/// itself is not `Sync` (the queue only moves items, never shares them);
/// and not `Send` when `T` is not.
#[test]
fn queue_is_send_and_sync_when_items_are_send() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Queue<u64>>();
    send_sync::<Queue<Cell<u64>>>();
    send_sync::<Queue<Box<dyn FnOnce() + Send>>>();
    send_sync::<Queue<Counted<'static>>>();
    fn send<T: Send>() {}
    send::<IntoIter<Cell<u64>>>();

    // Compiles only if the type is NOT `Send`: with it, both impls apply
    // and the `_` is ambiguous.
    trait AmbiguousIfSend<A> {
        fn check() {}
    }
    impl<T: ?Sized> AmbiguousIfSend<()> for T {}
    impl<T: ?Sized + Send> AmbiguousIfSend<u8> for T {}
    <Queue<Rc<u64>> as AmbiguousIfSend<_>>::check();
}
