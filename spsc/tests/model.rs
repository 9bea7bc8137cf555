//! A model test of the whole single-threaded API: random sequences of every
//! public operation of both halves and of every chunk type run against a
//! `VecDeque<u32>`, and every return value is checked against it, error
//! values included (`PushError::Full` gives the value back,
//! `ChunkError::TooFewSlots` says exactly how many slots there are, even
//! for a request beyond the capacity).
//!
//! The queries (`slots`, `is_full`, `is_empty`, `capacity`) are operations
//! of the sequence, not checks after every step, so that many steps run on
//! stale cached indices, as they do in real use.

// Dropping a chunk without a commit is an operation of the model, whether or
// not the chunk types have a destructor of their own today.
#![allow(clippy::drop_non_drop)]

use std::collections::VecDeque;
use std::fmt;
use std::mem::MaybeUninit;

use hotq_spsc::{ChunkError, PeekError, PopError, PushError, RingBuffer};
use proptest::prelude::*;

/// Longest slice or chunk asked for: beyond the largest capacity (9).
const MAX_LEN: usize = 12;

/// What `pop_slice` leaves in the part of `out` it did not fill; no value
/// pushed ever equals it.
const SENTINEL: u32 = u32::MAX;

/// What a read chunk's `as_mut_slices` step XORs into each item.
const FLIP: u32 = 0x4000_0000;

/// How a write chunk ends.
#[derive(Debug, Clone)]
enum WriteEnd {
    /// `commit(k % (n + 1))`.
    Commit(usize),
    CommitAll,
    /// Dropped without a commit.
    Drop,
}

/// How a read chunk ends.
#[derive(Debug, Clone)]
enum ReadEnd {
    /// `commit(k % (n + 1))`.
    Commit(usize),
    CommitAll,
    /// `into_iter()`, then `next()` this many times (more than `n` checks
    /// that it then yields `None`), then the iterator drops.
    Iter(usize),
    /// Dropped without a commit.
    Drop,
}

#[derive(Debug, Clone)]
enum Op {
    Push,
    Pop,
    Peek,
    /// `push_slice` of this many new values.
    PushSlice(usize),
    /// `pop_slice` into a buffer of this length.
    PopSlice(usize),
    /// `write_chunk_uninit(n)`, then `fill_from_iter` of `m` new values.
    UninitFill {
        n: usize,
        m: usize,
    },
    /// `write_chunk_uninit(n)`, write the first `k % (n + 1)` slots, then
    /// `commit` them (`commit_all` when that is all of them and `all`).
    UninitCommit {
        n: usize,
        k: usize,
        all: bool,
    },
    /// `write_chunk_uninit(n)`, write `w % (n + 1)` slots, drop it.
    UninitDrop {
        n: usize,
        w: usize,
    },
    /// `write_chunk(n)`, overwrite the first `w % (n + 1)` defaults, end.
    Write {
        n: usize,
        w: usize,
        end: WriteEnd,
    },
    /// `read_chunk(n)`, check `as_slices`, maybe flip every item through
    /// `as_mut_slices`, end.
    Read {
        n: usize,
        flip: bool,
        end: ReadEnd,
    },
    ProducerSlots,
    ConsumerSlots,
    IsFull,
    IsEmpty,
    Capacity,
}

/// Each kind of operation, as often as it appears in this list.
const KINDS: &[u8] = &[
    0, 0, 0, 0, 0, 0, // push
    1, 1, 1, 1, 1, // pop
    2, 2, // peek
    3, 3, 3, // push_slice
    4, 4, 4, // pop_slice
    5, 5, 5, // write_chunk_uninit + fill_from_iter
    6, 6, // write_chunk_uninit + commit
    7, // write_chunk_uninit + drop
    8, 8, 8, // write_chunk
    9, 9, 9, 9, 9, // read_chunk
    10, 11, 12, 13, 14, // queries
];

/// Decodes one operation from plain numbers. (Proptest generates and
/// shrinks a tuple of integers many times faster than an enum of nested
/// strategies; shrinking the kind goes towards `Push`, the sizes towards 0.)
fn decode((kind, a, b, c, bits): (usize, usize, usize, usize, u8)) -> Op {
    // Chunk and slice lengths: mostly small, sometimes beyond the capacity.
    let n = if bits & 1 == 0 { a % 5 } else { a };
    let write_end = match (bits >> 1) % 6 {
        0..=2 => WriteEnd::Commit(c),
        3 | 4 => WriteEnd::CommitAll,
        _ => WriteEnd::Drop,
    };
    let read_end = match (bits >> 1) % 9 {
        0..=2 => ReadEnd::Commit(c),
        3 | 4 => ReadEnd::CommitAll,
        5..=7 => ReadEnd::Iter(c),
        _ => ReadEnd::Drop,
    };
    let flag = bits & 0x80 != 0;
    match KINDS[kind] {
        0 => Op::Push,
        1 => Op::Pop,
        2 => Op::Peek,
        3 => Op::PushSlice(n),
        4 => Op::PopSlice(n),
        5 => Op::UninitFill { n, m: b },
        6 => Op::UninitCommit { n, k: b, all: flag },
        7 => Op::UninitDrop { n, w: b },
        8 => Op::Write {
            n,
            w: b,
            end: write_end,
        },
        9 => Op::Read {
            n,
            flip: flag,
            end: read_end,
        },
        10 => Op::ProducerSlots,
        11 => Op::ConsumerSlots,
        12 => Op::IsFull,
        13 => Op::IsEmpty,
        _ => Op::Capacity,
    }
}

fn op() -> impl Strategy<Value = Op> {
    let size = 0..=MAX_LEN;
    (
        0..KINDS.len(),
        size.clone(),
        size.clone(),
        size,
        any::<u8>(),
    )
        .prop_map(decode)
}

/// Where a check failed; formatted only when one does.
struct Ctx<'a> {
    step: usize,
    op: &'a Op,
    /// The model before the step.
    before: Vec<u32>,
    capacity: usize,
    start: usize,
}

impl fmt::Display for Ctx<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Ctx {
            step,
            op,
            before,
            capacity,
            start,
        } = self;
        write!(
            f,
            "step {step}: {op:?} on {before:?} (capacity {capacity}, start {start})"
        )
    }
}

/// Runs `ops` on a ring of `capacity` whose indices start at `start`, and
/// on the model, asserting that every result agrees.
fn run(capacity: usize, start: usize, ops: &[Op]) {
    let (mut tx, mut rx) = RingBuffer::<u32>::with_initial_index(capacity, start).unwrap();
    let mut model = VecDeque::<u32>::new();
    // Values pushed are 1, 2, 3, … (0 is what `write_chunk` defaults to).
    let mut last = 0u32;
    let mut fresh = move || {
        last += 1;
        last
    };

    assert_eq!(tx.capacity(), capacity);
    assert_eq!(rx.capacity(), capacity);
    assert_eq!(tx.slots(), capacity);
    assert_eq!(rx.slots(), 0);

    for (step, op) in ops.iter().enumerate() {
        let free = capacity - model.len();
        let ctx = Ctx {
            step,
            op,
            before: model.iter().copied().collect(),
            capacity,
            start,
        };
        match *op {
            Op::Push => {
                let v = fresh();
                if free > 0 {
                    assert_eq!(tx.push(v), Ok(()), "{ctx}");
                    model.push_back(v);
                } else {
                    assert_eq!(tx.push(v), Err(PushError::Full(v)), "{ctx}");
                }
            }
            Op::Pop => {
                let expected = model.pop_front().ok_or(PopError::Empty);
                assert_eq!(rx.pop(), expected, "{ctx}");
            }
            Op::Peek => {
                assert_eq!(rx.peek(), model.front().ok_or(PeekError::Empty), "{ctx}");
            }
            Op::PushSlice(len) => {
                let items: Vec<u32> = (0..len).map(|_| fresh()).collect();
                let n = tx.push_slice(&items);
                assert_eq!(n, len.min(free), "{ctx}");
                model.extend(&items[..n]);
            }
            Op::PopSlice(len) => {
                let mut out = vec![SENTINEL; len];
                let n = rx.pop_slice(&mut out);
                assert_eq!(n, len.min(model.len()), "{ctx}");
                let expected: Vec<u32> = model.drain(..n).collect();
                assert_eq!(out[..n], expected[..], "{ctx}: items copied out");
                assert!(
                    out[n..].iter().all(|&v| v == SENTINEL),
                    "{ctx}: wrote past n: {out:?}"
                );
            }
            Op::UninitFill { n, m } => match tx.write_chunk_uninit(n) {
                Err(e) => {
                    assert!(n > free, "{ctx}: refused with {free} free");
                    assert_eq!(e, ChunkError::TooFewSlots(free), "{ctx}");
                }
                Ok(chunk) => {
                    assert!(n <= free, "{ctx}: granted with {free} free");
                    assert_eq!((chunk.len(), chunk.is_empty()), (n, n == 0), "{ctx}");
                    let values: Vec<u32> = (0..m).map(|_| fresh()).collect();
                    let mut iter = values.clone().into_iter();
                    let written = chunk.fill_from_iter(&mut iter);
                    assert_eq!(written, n.min(m), "{ctx}: fill_from_iter's count");
                    // It stops at the chunk's end without taking (and
                    // losing) an item it has no room for.
                    assert_eq!(iter.as_slice(), &values[written..], "{ctx}: items taken");
                    model.extend(&values[..written]);
                }
            },
            Op::UninitCommit { n, k, all } => match tx.write_chunk_uninit(n) {
                Err(e) => {
                    assert!(n > free, "{ctx}: refused with {free} free");
                    assert_eq!(e, ChunkError::TooFewSlots(free), "{ctx}");
                }
                Ok(mut chunk) => {
                    assert!(n <= free, "{ctx}: granted with {free} free");
                    let k = k % (n + 1);
                    let (a, b) = chunk.as_mut_slices();
                    assert_eq!(a.len() + b.len(), n, "{ctx}: slice lengths");
                    assert!(n == 0 || !a.is_empty(), "{ctx}: empty first slice");
                    let values: Vec<u32> = (0..k).map(|_| fresh()).collect();
                    for (slot, &v) in a.iter_mut().chain(b).zip(&values) {
                        *slot = MaybeUninit::new(v);
                    }
                    if all && k == n {
                        // SAFETY: all `n` slots were written just above.
                        unsafe { chunk.commit_all() };
                    } else {
                        // SAFETY: the first `k` slots were written just above.
                        unsafe { chunk.commit(k) };
                    }
                    model.extend(values);
                }
            },
            Op::UninitDrop { n, w } => match tx.write_chunk_uninit(n) {
                Err(e) => {
                    assert!(n > free, "{ctx}: refused with {free} free");
                    assert_eq!(e, ChunkError::TooFewSlots(free), "{ctx}");
                }
                Ok(mut chunk) => {
                    assert!(n <= free, "{ctx}: granted with {free} free");
                    let (a, b) = chunk.as_mut_slices();
                    for slot in a.iter_mut().chain(b).take(w % (n + 1)) {
                        *slot = MaybeUninit::new(fresh());
                    }
                    drop(chunk);
                    // Nothing written into a dropped chunk is published.
                    assert_eq!(
                        rx.slots(),
                        model.len(),
                        "{ctx}: consumer's slots after drop"
                    );
                }
            },
            Op::Write { n, w, ref end } => match tx.write_chunk(n) {
                Err(e) => {
                    assert!(n > free, "{ctx}: refused with {free} free");
                    assert_eq!(e, ChunkError::TooFewSlots(free), "{ctx}");
                }
                Ok(mut chunk) => {
                    assert!(n <= free, "{ctx}: granted with {free} free");
                    assert_eq!((chunk.len(), chunk.is_empty()), (n, n == 0), "{ctx}");
                    let (a, b) = chunk.as_mut_slices();
                    assert_eq!(a.len() + b.len(), n, "{ctx}: slice lengths");
                    assert!(n == 0 || !a.is_empty(), "{ctx}: empty first slice");
                    assert!(a.iter().chain(&*b).all(|&v| v == 0), "{ctx}: not defaults");
                    // The chunk's contents: `w` new values, then defaults.
                    let mut contents = vec![0; n];
                    for (slot, c) in a.iter_mut().chain(b).zip(&mut contents).take(w % (n + 1)) {
                        *c = fresh();
                        *slot = *c;
                    }
                    match *end {
                        WriteEnd::Commit(k) => {
                            let k = k % (n + 1);
                            chunk.commit(k);
                            model.extend(&contents[..k]);
                        }
                        WriteEnd::CommitAll => {
                            chunk.commit_all();
                            model.extend(&contents);
                        }
                        WriteEnd::Drop => drop(chunk),
                    }
                }
            },
            Op::Read { n, flip, ref end } => match rx.read_chunk(n) {
                Err(e) => {
                    assert!(n > model.len(), "{ctx}: refused");
                    assert_eq!(e, ChunkError::TooFewSlots(model.len()), "{ctx}");
                }
                Ok(mut chunk) => {
                    assert!(n <= model.len(), "{ctx}: granted");
                    assert_eq!((chunk.len(), chunk.is_empty()), (n, n == 0), "{ctx}");
                    let front: Vec<u32> = model.iter().take(n).copied().collect();
                    let (a, b) = chunk.as_slices();
                    assert!(n == 0 || !a.is_empty(), "{ctx}: empty first slice");
                    assert_eq!([a, b].concat(), front, "{ctx}: as_slices");
                    if flip {
                        let (a, b) = chunk.as_mut_slices();
                        assert_eq!([&a[..], &b[..]].concat(), front, "{ctx}: as_mut_slices");
                        for v in a.iter_mut().chain(b) {
                            *v ^= FLIP;
                        }
                        for v in model.iter_mut().take(n) {
                            *v ^= FLIP;
                        }
                        let front: Vec<u32> = model.iter().take(n).copied().collect();
                        let (a, b) = chunk.as_slices();
                        assert_eq!([a, b].concat(), front, "{ctx}: as_slices after changes");
                    }
                    match *end {
                        ReadEnd::Commit(k) => {
                            let k = k % (n + 1);
                            chunk.commit(k);
                            model.drain(..k);
                        }
                        ReadEnd::CommitAll => {
                            chunk.commit_all();
                            model.drain(..n);
                        }
                        ReadEnd::Iter(m) => {
                            let mut items = chunk.into_iter();
                            assert_eq!(items.len(), n, "{ctx}: iterator's length");
                            for i in 0..m {
                                let expected = if i < n { model.pop_front() } else { None };
                                assert_eq!(items.next(), expected, "{ctx}: item {i}");
                                assert_eq!(items.len(), n - (i + 1).min(n), "{ctx}");
                            }
                        }
                        ReadEnd::Drop => drop(chunk),
                    }
                }
            },
            Op::ProducerSlots => assert_eq!(tx.slots(), free, "{ctx}"),
            Op::ConsumerSlots => assert_eq!(rx.slots(), model.len(), "{ctx}"),
            Op::IsFull => assert_eq!(tx.is_full(), free == 0, "{ctx}"),
            Op::IsEmpty => assert_eq!(rx.is_empty(), model.is_empty(), "{ctx}"),
            Op::Capacity => {
                assert_eq!(tx.capacity(), capacity, "{ctx}");
                assert_eq!(rx.capacity(), capacity, "{ctx}");
            }
        }
    }

    // Whatever is left comes out in the model's order, and then nothing.
    assert_eq!(tx.slots(), capacity - model.len(), "at the end");
    assert_eq!(rx.slots(), model.len(), "at the end");
    for (i, &expected) in model.iter().enumerate() {
        assert_eq!(rx.pop(), Ok(expected), "draining item {i} of {model:?}");
    }
    assert_eq!(rx.pop(), Err(PopError::Empty), "after draining {model:?}");
    assert_eq!(tx.slots(), capacity, "after draining");
    assert!(!tx.is_abandoned() && !rx.is_abandoned());
}

fn config() -> ProptestConfig {
    ProptestConfig {
        // Under miri (which interprets every instruction) a few cases: it
        // looks for undefined behaviour in the same operations.
        cases: if cfg!(miri) { 8 } else { 2048 },
        // The failing case is printed, shrunk; nothing is written to disk.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn every_operation_matches_a_vecdeque_model(
        capacity in 1..=9usize,
        ops in prop::collection::vec(op(), 0..=200),
    ) {
        run(capacity, 0, &ops);
    }

    /// Both indices start at most 63 steps before `usize::MAX`, so almost
    /// every sequence carries them (head and tail at different moments)
    /// across the wrap to 0.
    #[test]
    fn every_operation_matches_a_vecdeque_model_across_the_index_wrap(
        capacity in 1..=9usize,
        before_wrap in 0..64usize,
        ops in prop::collection::vec(op(), 0..=200),
    ) {
        run(capacity, usize::MAX - before_wrap, &ops);
    }
}
