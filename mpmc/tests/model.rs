//! A model test of the single-threaded API: random sequences of `push`,
//! `pop`, `force_push`, `len`, `is_empty`, `is_full`, `capacity` and
//! `Debug`, then a partial `into_iter` drain, run against a `VecDeque`
//! with the same capacity; every return value is checked (the value given
//! back by a failed `push`, the item evicted by `force_push`, the
//! iterator's `len`). Capacities 1 to 9: powers of two, one less and one
//! more than them. A second test starts the queue's positions a few laps
//! before `u64::MAX`, so that every sequence long enough crosses the wrap.

use std::collections::VecDeque;

use hotq_mpmc::Queue;
use hotq_testkit::TimeLimit;
use proptest::prelude::*;

#[derive(Debug, Clone, Copy)]
enum Op {
    Push,
    Pop,
    ForcePush,
    Len,
    IsEmpty,
    IsFull,
    Capacity,
    Debug,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => Just(Op::Push),
        4 => Just(Op::Pop),
        2 => Just(Op::ForcePush),
        1 => Just(Op::Len),
        1 => Just(Op::IsEmpty),
        1 => Just(Op::IsFull),
        1 => Just(Op::Capacity),
        1 => Just(Op::Debug),
    ]
}

/// Runs `ops` on `q` and on a `VecDeque` model of capacity `capacity`,
/// then drains `drain` items through `into_iter` and drops the rest.
fn check(q: Queue<u32>, capacity: usize, ops: &[Op], drain: usize) -> Result<(), TestCaseError> {
    let _limit = TimeLimit::new("a model sequence");
    let mut model = VecDeque::new();
    let mut next = 0u32;
    for (step, &op) in ops.iter().enumerate() {
        match op {
            Op::Push => {
                let got = q.push(next);
                if model.len() < capacity {
                    prop_assert_eq!(got, Ok(()), "step {}: push into a non-full queue", step);
                    model.push_back(next);
                } else {
                    prop_assert_eq!(got, Err(next), "step {}: push into a full queue", step);
                }
                next += 1;
            }
            Op::Pop => {
                prop_assert_eq!(q.pop(), model.pop_front(), "step {}: pop", step);
            }
            Op::ForcePush => {
                let evicted = if model.len() == capacity {
                    model.pop_front()
                } else {
                    None
                };
                model.push_back(next);
                prop_assert_eq!(q.force_push(next), evicted, "step {}: force_push", step);
                next += 1;
            }
            Op::Len => prop_assert_eq!(q.len(), model.len(), "step {}: len", step),
            Op::IsEmpty => prop_assert_eq!(q.is_empty(), model.is_empty(), "step {}", step),
            Op::IsFull => {
                prop_assert_eq!(q.is_full(), model.len() == capacity, "step {}", step)
            }
            Op::Capacity => prop_assert_eq!(q.capacity(), capacity, "step {}", step),
            Op::Debug => prop_assert_eq!(
                format!("{q:?}"),
                format!("Queue {{ capacity: {capacity}, len: {} }}", model.len()),
                "step {}",
                step
            ),
        }
    }
    prop_assert_eq!(q.len(), model.len(), "len before the drain");
    let mut items = q.into_iter();
    for taken in 0..drain {
        prop_assert_eq!(
            items.len(),
            model.len(),
            "iterator len after {} items",
            taken
        );
        prop_assert_eq!(
            items.size_hint(),
            (model.len(), Some(model.len())),
            "size_hint after {} items",
            taken
        );
        let item = items.next();
        prop_assert_eq!(item, model.pop_front(), "into_iter item {}", taken);
        if item.is_none() {
            // Fused: stays empty.
            prop_assert_eq!(items.next(), None);
            break;
        }
    }
    // The rest, if any, is dropped with the iterator (drops.rs counts them).
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        // Under miri (which interprets every instruction) a few cases: it
        // looks for undefined behaviour in the same operations.
        cases: if cfg!(miri) { 8 } else { 512 },
        // The failing case is printed, shrunk; nothing is written to disk
        // (and under miri's isolation the file lookup, `getcwd`, would
        // abort the run: it did, in the first full miri pass).
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_operation_matches_a_vecdeque_model(
        capacity in 1usize..=9,
        ops in prop::collection::vec(op(), 0..200),
        drain in 0usize..12,
    ) {
        check(Queue::new(capacity), capacity, &ops, drain)?;
    }

    /// Positions start in the lap `laps` before the last one (at an
    /// offset `k` below `u64::MAX`: `with_initial_position` rounds down
    /// to index 0 of that lap), so `(laps + 1) * capacity` items through
    /// the queue take `tail` across the wrap, and as many more `head`.
    /// Sequences are long enough to cross it for every capacity.
    #[test]
    fn every_operation_matches_a_vecdeque_model_across_the_wrap(
        capacity in 1usize..=9,
        laps in 0usize..3,
        offset in 0usize..16,
        ops in prop::collection::vec(op(), 100..300),
        drain in 0usize..12,
    ) {
        let lap = (capacity + 3).next_power_of_two(); // the queue's `one_lap`
        let k = laps * lap + offset % lap;
        let q = Queue::with_initial_position(capacity, u64::MAX - k as u64).unwrap();
        check(q, capacity, &ops, drain)?;
    }
}

/// Not left to chance: from every offset `k` below `u64::MAX` up to 40,
/// a fixed walk that is sure to take both `head` and `tail` a few laps
/// past the wrap agrees with the model at every step.
#[test]
fn fixed_walks_across_the_wrap_match_the_model() {
    for capacity in 1usize..=9 {
        let lap = (capacity + 3).next_power_of_two(); // the queue's `one_lap`
        for k in 0..40 {
            let q = Queue::with_initial_position(capacity, u64::MAX - k as u64).unwrap();
            // Fill (one push too many), then pop, push and force_push
            // (evicting) until the wrap is 2 laps behind, then empty.
            let mut ops = vec![Op::Push; capacity + 1];
            for _ in 0..(k / lap + 3) * capacity {
                ops.extend([Op::Pop, Op::Len, Op::Push, Op::IsFull, Op::ForcePush]);
            }
            ops.extend(vec![Op::Pop; capacity + 1]);
            ops.push(Op::IsEmpty);
            check(q, capacity, &ops, 0).unwrap();
        }
    }
}
