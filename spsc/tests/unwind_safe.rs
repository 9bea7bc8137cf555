//! The halves can be used inside `catch_unwind` without `AssertUnwindSafe`,
//! as rtrb's can: a panic caught there leaves the ring usable and every
//! item intact.

use std::panic::{RefUnwindSafe, UnwindSafe, catch_unwind};

use hotq_spsc::{Consumer, Producer, RingBuffer};

fn unwind_safe<T: UnwindSafe + RefUnwindSafe>() {}

#[test]
fn producer_and_consumer_are_unwind_safe() {
    unwind_safe::<Producer<u64>>();
    unwind_safe::<Consumer<u64>>();
    unwind_safe::<Producer<String>>();
    unwind_safe::<Consumer<Box<u8>>>();
}

#[test]
fn a_panic_caught_mid_use_leaves_the_ring_consistent() {
    let (mut tx, rx) = RingBuffer::<String>::new(4);
    tx.push("before".to_owned()).unwrap();
    // The producer is moved into the closure, the consumer borrowed by
    // another: neither needs `AssertUnwindSafe`.
    let result = catch_unwind(move || {
        tx.push("inside".to_owned()).unwrap();
        let chunk = tx.write_chunk_uninit(2).unwrap();
        // The iterator panics at its second item: the first is
        // published, the chunk's rest is not.
        let _ = chunk.fill_from_iter((0..).map(|i| {
            assert!(i < 1, "the iterator panics");
            format!("item {i}")
        }));
    });
    assert!(result.is_err(), "the iterator's panic is caught");
    assert_eq!(catch_unwind(|| rx.slots()).unwrap(), 3);
    let mut rx = rx;
    let items: Vec<String> = std::iter::from_fn(|| rx.pop().ok()).collect();
    assert_eq!(items, ["before", "inside", "item 0"]);
    assert!(rx.is_abandoned(), "the producer was dropped by the unwind");
}
