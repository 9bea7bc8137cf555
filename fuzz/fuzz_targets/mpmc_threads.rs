//! Three threads, each running its own list of `push`, `force_push` and
//! `pop` calls from the fuzz input (none waiting), on a small queue. Every
//! item inserted is tagged (thread, sequence number); afterwards the rest
//! is drained, and what the threads popped, what their `force_push`es
//! evicted and what was left must hold every inserted item exactly once,
//! each stream in per-producer order.
#![no_main]

use std::thread;

use arbitrary::Arbitrary;
use hotq_mpmc::Queue;
use hotq_testkit::{Item, StartGate, conservation::check_exactly_once_in_order};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input {
    /// 1 + this % 4.
    capacity: u8,
    threads: [Vec<Op>; 3],
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Op {
    Push,
    ForcePush,
    Pop,
}

/// What one thread did: how many items it inserted, what it popped and
/// what its `force_push`es evicted, in order.
#[derive(Default)]
struct Done {
    inserted: u32,
    popped: Vec<Item>,
    evicted: Vec<Item>,
}

fuzz_target!(|input: Input| {
    let capacity = 1 + input.capacity as usize % 4;
    let q = Queue::<Item>::new(capacity);
    // Released together, so the threads' calls overlap (a thread spawned
    // late often starts after the others have finished).
    let gate = StartGate::new(input.threads.len());
    let done: Vec<Done> = thread::scope(|s| {
        let handles: Vec<_> = input
            .threads
            .iter()
            .enumerate()
            .map(|(t, ops)| {
                let (q, gate) = (&q, &gate);
                s.spawn(move || {
                    gate.wait();
                    let mut d = Done::default();
                    for op in ops {
                        let item = Item {
                            producer: t as u32,
                            seq: d.inserted,
                        };
                        match op {
                            Op::Push => d.inserted += u32::from(q.push(item).is_ok()),
                            Op::ForcePush => {
                                d.evicted.extend(q.force_push(item));
                                d.inserted += 1;
                            }
                            Op::Pop => d.popped.extend(q.pop()),
                        }
                    }
                    d
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let left: Vec<Item> = q.into_iter().collect();
    let mut streams: Vec<(String, &[Item])> = Vec::new();
    for (t, d) in done.iter().enumerate() {
        streams.push((format!("pops of thread {t}"), &d.popped));
        streams.push((format!("evictions of thread {t}"), &d.evicted));
    }
    streams.push(("left inside".into(), &left));
    let inserted: Vec<u32> = done.iter().map(|d| d.inserted).collect();
    if let Err(e) = check_exactly_once_in_order(&inserted, &streams) {
        panic!("capacity {capacity}: {e}");
    }
});
