//! Positions are free-running `u64`s that wrap past `u64::MAX`; the
//! hidden `Queue::with_initial_position` starts them near there. The
//! stress runs put the wrap in the middle of each run, at a different
//! point each round, so that it is crossed while producers and consumers
//! race; the single-threaded checks pin down `len`, `is_full` and
//! `is_empty` for every arrangement of `head` and `tail` around the wrap.
mod common;

use common::{Mode, Stress, laps_before_wrap};
use hotq_mpmc::Queue;
use hotq_testkit::TimeLimit;

/// Runs per case; each crosses the wrap once, at a different point.
/// Under miri (which interprets every instruction) 2 (each still runs
/// many laps).
const ROUNDS: usize = if cfg!(miri) { 2 } else { 20 };

/// Items per producer per round.
const PER_PRODUCER: u32 = if cfg!(miri) {
    100
} else if cfg!(debug_assertions) {
    5_000
} else {
    100_000
};

/// 2 producers and 2 consumers, `ROUNDS` runs, each starting so many laps
/// before the wrap that the wrap falls `round / (ROUNDS + 1)` of the way
/// through its items (and the run goes on for many laps after it).
fn stress_across_the_wrap(mode: Mode, capacity: usize) {
    // At least 64 laps per run, whatever the capacity: even the last
    // round, with the wrap latest, runs 3 laps past it. Under miri 4 laps
    // (the last round still ends past the wrap).
    let laps_per_producer = if cfg!(miri) { 2 } else { 32 };
    let per_producer = PER_PRODUCER.max(laps_per_producer * capacity as u32);
    let stress = Stress {
        mode,
        producers: 2,
        consumers: 2,
        per_producer,
    };
    let laps = stress.producers * per_producer as usize / capacity;
    for round in 1..=ROUNDS {
        let laps_before = laps * round / (ROUNDS + 1);
        let q = Queue::with_initial_position(capacity, laps_before_wrap(capacity, laps_before))
            .unwrap();
        // The last lap before the wrap is lap `laps_before` (from 0).
        let wrap = laps_before + 1;
        stress.run(
            q,
            &format!("capacity {capacity}, wrap after {wrap} of {laps} laps"),
        );
    }
}

#[test]
fn each_item_popped_once_in_producer_order_across_the_wrap_capacity_1() {
    stress_across_the_wrap(Mode::Push, 1);
}

#[test]
fn each_item_popped_once_in_producer_order_across_the_wrap_capacity_3() {
    stress_across_the_wrap(Mode::Push, 3);
}

#[test]
fn each_item_popped_once_in_producer_order_across_the_wrap_capacity_4() {
    stress_across_the_wrap(Mode::Push, 4);
}

#[test]
fn each_item_popped_once_in_producer_order_across_the_wrap_capacity_1024() {
    stress_across_the_wrap(Mode::Push, 1024);
}

#[test]
fn force_push_conserves_items_and_producer_order_across_the_wrap_capacity_1() {
    stress_across_the_wrap(Mode::ForcePush, 1);
}

#[test]
fn force_push_conserves_items_and_producer_order_across_the_wrap_capacity_3() {
    stress_across_the_wrap(Mode::ForcePush, 3);
}

#[test]
fn mixed_push_and_force_push_conserve_items_across_the_wrap_capacity_4() {
    stress_across_the_wrap(Mode::Mixed, 4);
}

/// Starting in the last lap, `head` moves `offset` positions (one push
/// and pop each), then `fill` items go in; `len`, `is_empty` and
/// `is_full` are checked after every step, a push into the full queue is
/// refused with the value given back, `force_push` evicts exactly the
/// oldest item, and the items come out in order.
fn check_arrangement(capacity: usize, start: u64, offset: usize, fill: usize) {
    let q = Queue::with_initial_position(capacity, start).unwrap();
    let what = format!("capacity {capacity}, start {start:#x}, offset {offset}, fill {fill}");
    let mut next = 0u64;
    for _ in 0..offset {
        q.push(next).unwrap();
        assert_eq!(q.len(), 1, "{what}");
        assert_eq!(q.pop(), Some(next), "{what}");
        assert_eq!(q.len(), 0, "{what}");
        next += 1;
    }
    let first = next;
    for n in 0..fill {
        assert_eq!(q.len(), n, "{what}: len with {n} items");
        assert_eq!(q.is_empty(), n == 0, "{what}: is_empty with {n} items");
        assert!(!q.is_full(), "{what}: is_full with {n} items");
        assert_eq!(q.push(next), Ok(()), "{what}: push {n}");
        next += 1;
    }
    assert_eq!(q.len(), fill, "{what}: len when filled");
    assert_eq!(q.is_full(), fill == capacity, "{what}: is_full when filled");
    assert_eq!(q.is_empty(), fill == 0, "{what}: is_empty when filled");
    let mut oldest = first;
    if fill == capacity {
        assert_eq!(q.push(next), Err(next), "{what}: push into the full queue");
        assert_eq!(
            q.force_push(next),
            Some(oldest),
            "{what}: force_push evicts"
        );
        oldest += 1;
        next += 1;
        assert_eq!(q.len(), capacity, "{what}: len after eviction");
        assert!(q.is_full(), "{what}: is_full after eviction");
    }
    for expected in oldest..next {
        assert_eq!(q.pop(), Some(expected), "{what}: pop");
        assert_eq!(
            q.len() as u64,
            next - expected - 1,
            "{what}: len while emptying"
        );
    }
    assert_eq!(q.pop(), None, "{what}: pop from the emptied queue");
    assert!(q.is_empty() && !q.is_full(), "{what}: emptied");
}

/// Every (head, tail) arrangement within two laps of the wrap, small
/// capacities (powers of two, and one below and above them) exhaustively.
#[test]
fn len_is_full_and_is_empty_are_exact_around_the_wrap_small_capacities() {
    let _limit =
        TimeLimit::new("len_is_full_and_is_empty_are_exact_around_the_wrap_small_capacities");
    for capacity in [1, 2, 3, 4, 5, 7, 8, 9] {
        for start in [laps_before_wrap(capacity, 0), laps_before_wrap(capacity, 1)] {
            for offset in 0..=2 * capacity + 1 {
                for fill in 0..=capacity {
                    check_arrangement(capacity, start, offset, fill);
                }
            }
        }
    }
}

/// Capacity 1024: the interesting arrangements (tail or head at the last
/// index, at the wrap, just past it), each filled to empty, half and full.
#[test]
fn len_is_full_and_is_empty_are_exact_around_the_wrap_capacity_1024() {
    let _limit = TimeLimit::new("len_is_full_and_is_empty_are_exact_around_the_wrap_capacity_1024");
    let capacity = 1024;
    // Under miri (which interprets every instruction: these 40
    // arrangements, about 14,000 queue calls each, ran past its 20-minute
    // limit) the ones at the wrap itself: `tail` crossing it from a full
    // last lap, and `head` at the last index before it and on it, each
    // with one item and full.
    let (offsets, fills): (&[usize], &[usize]) = if cfg!(miri) {
        (&[0, 1023, 1024], &[1, 1024])
    } else {
        (
            &[0, 1, 511, 1023, 1024, 1025, 2047, 2048],
            &[0, 1, 512, 1023, 1024],
        )
    };
    for &offset in offsets {
        for &fill in fills {
            check_arrangement(capacity, u64::MAX, offset, fill);
        }
    }
}

/// The sharpest case: in the last lap, `capacity` pushes take `tail`
/// across the wrap to position 0 while `head` still sits at the last
/// lap's index 0. The index bits of the two are equal, the positions are
/// not: that is full, not empty.
#[test]
fn tail_wrapped_to_zero_with_head_in_the_last_lap_reads_full() {
    let _limit = TimeLimit::new("tail_wrapped_to_zero_with_head_in_the_last_lap_reads_full");
    for capacity in [1, 3, 4, 1024] {
        let q = Queue::with_initial_position(capacity, u64::MAX).unwrap();
        for i in 0..capacity {
            q.push(i).unwrap();
        }
        assert_eq!(q.len(), capacity, "capacity {capacity}");
        assert!(q.is_full(), "capacity {capacity}");
        assert!(!q.is_empty(), "capacity {capacity}");
        assert_eq!(q.push(capacity), Err(capacity), "capacity {capacity}");
        // And once `head` follows it across, the queue is empty again.
        for i in 0..capacity {
            assert_eq!(q.pop(), Some(i), "capacity {capacity}");
        }
        assert_eq!(q.len(), 0, "capacity {capacity}");
        assert!(q.is_empty() && !q.is_full(), "capacity {capacity}");
        assert_eq!(q.pop(), None, "capacity {capacity}");
    }
}
