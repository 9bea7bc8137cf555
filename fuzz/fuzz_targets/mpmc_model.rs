//! Every public operation of hotq-mpmc (the batch claims `push_many` and
//! `pop_many` included), in the order the fuzzer picks, on
//! one thread, each result checked against a `VecDeque` model of a bounded
//! FIFO queue; the end is a partial drain through `into_iter` (the rest
//! dropped with the iterator). Items are boxed, so the sanitizer sees any
//! double drop or use after free; queues may start just before the `usize`
//! wrap of their positions.
#![no_main]

use std::collections::VecDeque;

use arbitrary::Arbitrary;
use hotq_mpmc::Queue;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input {
    /// 1 + this % 9.
    capacity: u8,
    /// Positions start this many laps before the wrap when `near_wrap`.
    near_wrap: bool,
    laps_before_wrap: u8,
    ops: Vec<Op>,
    /// How many items `into_iter` yields before it is dropped.
    drain: u8,
}

#[derive(Arbitrary, Debug)]
enum Op {
    Push,
    ForcePush,
    Pop,
    /// `len`, `is_empty`, `is_full`, `capacity`.
    Observe,
    /// `push_many` of this % 12 items (up to past the largest capacity).
    PushMany(u8),
    /// `pop_many` with this % 12 as the limit (0 and past the capacity
    /// included).
    PopMany(u8),
}

fuzz_target!(|input: Input| {
    let capacity = 1 + input.capacity as usize % 9;
    let start = if input.near_wrap {
        let one_lap = (capacity + 3).next_power_of_two(); // the queue's
        u64::MAX - (input.laps_before_wrap as usize % 4 * one_lap) as u64
    } else {
        0
    };
    let q = Queue::<Box<u32>>::with_initial_position(capacity, start).unwrap();
    let mut model: VecDeque<u32> = VecDeque::new();
    let mut next = 0u32;
    for op in input.ops {
        match op {
            Op::Push => match q.push(Box::new(next)) {
                Ok(()) => {
                    assert!(model.len() < capacity, "pushed into a full queue");
                    model.push_back(next);
                    next += 1;
                }
                Err(back) => {
                    assert_eq!(model.len(), capacity, "refused with room");
                    assert_eq!(*back, next, "refused item not given back");
                }
            },
            Op::ForcePush => {
                let evicted = q.force_push(Box::new(next)).map(|b| *b);
                let want = if model.len() == capacity {
                    model.pop_front()
                } else {
                    None
                };
                assert_eq!(evicted, want, "force_push eviction");
                model.push_back(next);
                next += 1;
            }
            Op::Pop => assert_eq!(q.pop().map(|b| *b), model.pop_front(), "pop"),
            Op::PushMany(n) => {
                let n = n as usize % 12;
                let mut items: Vec<Box<u32>> = (next..next + n as u32).map(Box::new).collect();
                let pushed = q.push_many(&mut items);
                // One thread: nothing is mid-operation, so a batch moves
                // all there is room for.
                assert_eq!(pushed, n.min(capacity - model.len()), "push_many count");
                model.extend(next..next + pushed as u32);
                let left: Vec<u32> = items.into_iter().map(|b| *b).collect();
                let want: Vec<u32> = (next + pushed as u32..next + n as u32).collect();
                assert_eq!(left, want, "push_many left the rest");
                next += n as u32;
            }
            Op::PopMany(limit) => {
                let limit = limit as usize % 12;
                let mut buf = vec![Box::new(u32::MAX)];
                let popped = q.pop_many(&mut buf, limit);
                let want: Vec<u32> = model.drain(..limit.min(model.len())).collect();
                assert_eq!(popped, want.len(), "pop_many count");
                let got: Vec<u32> = buf.into_iter().map(|b| *b).collect();
                assert_eq!(got[0], u32::MAX, "pop_many appends");
                assert_eq!(got[1..], want[..], "pop_many items");
            }
            Op::Observe => {
                assert_eq!(q.len(), model.len(), "len");
                assert_eq!(q.is_empty(), model.is_empty(), "is_empty");
                assert_eq!(q.is_full(), model.len() == capacity, "is_full");
                assert_eq!(q.capacity(), capacity, "capacity");
            }
        }
    }
    let mut items = q.into_iter();
    assert_eq!(items.len(), model.len(), "into_iter length");
    for _ in 0..input.drain {
        assert_eq!(items.next().map(|b| *b), model.pop_front(), "into_iter");
    }
    assert_eq!(
        items.len(),
        model.len(),
        "into_iter length after draining some"
    );
});
