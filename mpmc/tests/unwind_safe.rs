//! The queue can be used inside `catch_unwind` without `AssertUnwindSafe`,
//! as crossbeam's `ArrayQueue` can: a panic caught there leaves the queue
//! usable and every item intact.

use std::panic::{RefUnwindSafe, UnwindSafe, catch_unwind};
use std::sync::Arc;

use hotq_mpmc::Queue;

fn unwind_safe<T: UnwindSafe + RefUnwindSafe>() {}

#[test]
fn queue_and_its_shared_forms_are_unwind_safe() {
    unwind_safe::<Queue<u64>>();
    unwind_safe::<Queue<String>>();
    unwind_safe::<&Queue<String>>();
    unwind_safe::<Arc<Queue<Box<u8>>>>();
}

#[test]
fn a_panic_caught_mid_use_leaves_the_queue_consistent() {
    let q = Queue::<String>::new(4);
    q.push("before".to_owned()).unwrap();
    // Borrowed by the closure: no `AssertUnwindSafe`.
    let result = catch_unwind(|| {
        q.push("inside".to_owned()).unwrap();
        let popped = q.pop().unwrap();
        panic!("the caller panics holding {popped}");
    });
    assert!(result.is_err(), "the panic is caught");
    assert_eq!(q.len(), 1);
    q.push("after".to_owned()).unwrap();
    assert_eq!(q.into_iter().collect::<Vec<_>>(), ["inside", "after"]);
}
