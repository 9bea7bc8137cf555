//! A producer thread and a consumer thread, each running its own list of
//! operations from the fuzz input (every way of putting items in or taking
//! them out, none of them waiting), on a small ring. Afterwards the rest
//! is drained: everything the consumer got, in order, must be exactly
//! 0, 1, 2, … up to the number of items the producer put in (nothing
//! lost, duplicated or reordered).
#![no_main]
// Dropping and forgetting chunks and their iterators are operations under
// test: the API allows both, whether or not the types implement `Drop`
// today, so the target does them even where clippy calls them no-ops.
#![allow(clippy::drop_non_drop, clippy::forget_non_drop)]

use std::mem::{self, MaybeUninit};
use std::thread;

use arbitrary::Arbitrary;
use hotq_spsc::RingBuffer;
use hotq_testkit::{Item, StartGate, conservation::check_exactly_once_in_order};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input {
    /// 1 + this % 8.
    capacity: u8,
    near_wrap: bool,
    producer: Vec<In>,
    consumer: Vec<Out>,
}

#[derive(Arbitrary, Debug)]
enum In {
    Push,
    PushSlice(u8),
    /// A chunk of `.0`, of which `.1` are committed.
    WriteChunk(u8, u8),
    /// A chunk of `.0` filled from `.1` items.
    Fill(u8, u8),
    /// A chunk of `.0` of which `.1` are written and committed.
    Uninit(u8, u8),
    Forget(u8),
}

#[derive(Arbitrary, Debug)]
enum Out {
    Pop,
    Peek,
    PopSlice(u8),
    /// A chunk of `.0`, of which `.1` are committed.
    ReadChunk(u8, u8),
    /// A chunk of `.0`, of which `.1` are taken through its iterator.
    Iter(u8, u8),
    /// As `Iter`, forgetting the iterator.
    IterForget(u8, u8),
}

fuzz_target!(|input: Input| {
    let capacity = 1 + input.capacity as usize % 8;
    let start = if input.near_wrap { usize::MAX - 3 } else { 0 };
    let (mut tx, mut rx) = RingBuffer::<u32>::with_initial_index(capacity, start).unwrap();
    let ask = |n: u8| n as usize % (capacity + 2);

    // Released together, so the two threads' calls overlap (a thread
    // spawned second often starts after the first has finished).
    let gate = StartGate::new(2);
    let (pushed, mut got) = thread::scope(|s| {
        let producer = s.spawn(|| {
            gate.wait();
            let mut next = 0u32;
            for op in &input.producer {
                match *op {
                    In::Push => next += u32::from(tx.push(next).is_ok()),
                    In::PushSlice(n) => {
                        let items: Vec<u32> = (next..).take(ask(n)).collect();
                        next += tx.push_slice(&items) as u32;
                    }
                    In::WriteChunk(n, k) => {
                        if let Ok(mut chunk) = tx.write_chunk(ask(n)) {
                            let (a, b) = chunk.as_mut_slices();
                            for (slot, v) in a.iter_mut().chain(b).zip(next..) {
                                *slot = v;
                            }
                            let k = k as usize % (chunk.len() + 1);
                            chunk.commit(k);
                            next += k as u32;
                        }
                    }
                    In::Fill(n, m) => {
                        if let Ok(chunk) = tx.write_chunk_uninit(ask(n)) {
                            next += chunk.fill_from_iter((next..).take(ask(m))) as u32;
                        }
                    }
                    In::Uninit(n, k) => {
                        if let Ok(mut chunk) = tx.write_chunk_uninit(ask(n)) {
                            let k = k as usize % (chunk.len() + 1);
                            let (a, b) = chunk.as_mut_slices();
                            for (slot, v) in a.iter_mut().chain(b).zip(next..).take(k) {
                                *slot = MaybeUninit::new(v);
                            }
                            // SAFETY: the loop initialised the first `k`.
                            unsafe { chunk.commit(k) };
                            next += k as u32;
                        }
                    }
                    In::Forget(n) => {
                        if let Ok(chunk) = tx.write_chunk(ask(n)) {
                            mem::forget(chunk);
                        }
                    }
                }
            }
            next
        });
        let mut got = Vec::new();
        gate.wait();
        for op in &input.consumer {
            match *op {
                Out::Pop => got.extend(rx.pop().ok()),
                Out::Peek => {
                    if let Ok(&v) = rx.peek() {
                        assert_eq!(rx.pop(), Ok(v), "peek then pop");
                        got.push(v);
                    }
                }
                Out::PopSlice(n) => {
                    let mut out = vec![0; ask(n)];
                    let k = rx.pop_slice(&mut out);
                    got.extend(&out[..k]);
                }
                Out::ReadChunk(n, k) => {
                    if let Ok(chunk) = rx.read_chunk(ask(n)) {
                        let k = k as usize % (chunk.len() + 1);
                        let (a, b) = chunk.as_slices();
                        got.extend(a.iter().chain(b).take(k));
                        chunk.commit(k);
                    }
                }
                Out::Iter(n, k) | Out::IterForget(n, k) => {
                    if let Ok(chunk) = rx.read_chunk(ask(n)) {
                        let mut items = chunk.into_iter();
                        got.extend(items.by_ref().take(ask(k)));
                        if matches!(op, Out::IterForget(..)) {
                            mem::forget(items);
                        }
                    }
                }
            }
        }
        (producer.join().unwrap(), got)
    });
    got.extend(std::iter::from_fn(|| rx.pop().ok()));
    let stream: Vec<Item> = got.iter().map(|&seq| Item { producer: 0, seq }).collect();
    if let Err(e) = check_exactly_once_in_order(&[pushed], &[("consumer".into(), &stream)]) {
        panic!("capacity {capacity}: {e}");
    }
});
