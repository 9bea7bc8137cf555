//! Every public operation of hotq-spsc, in the order the fuzzer picks, on
//! one thread, each result checked against a `VecDeque` model of a bounded
//! FIFO queue: item values, counts, the chunk errors' counts, and the
//! contents at the end (drained after the producer is dropped, which the
//! consumer must see as abandoned). Rings may start just before the
//! `usize` wrap of their indices. The waiting operations run with zero or
//! short deadlines (one thread: a wait that cannot succeed at once must
//! time out, and one that can must not wait), and the futures are polled
//! once.
#![no_main]
// Dropping and forgetting chunks and their iterators are operations under
// test: the API allows both, whether or not the types implement `Drop`
// today, so the target does them even where clippy calls them no-ops.
#![allow(clippy::drop_non_drop, clippy::forget_non_drop)]

use std::collections::VecDeque;
use std::future::Future;
use std::mem::{self, MaybeUninit};
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use arbitrary::Arbitrary;
use hotq_spsc::{
    ChunkError, PeekError, PopError, PopTimeoutError, PushError, PushTimeoutError, RingBuffer,
    WaitError,
};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input {
    /// 1 + this % 9.
    capacity: u8,
    /// Indices start `usize::MAX - this` when `near_wrap`, else at 0.
    near_wrap: bool,
    before_wrap: u8,
    ops: Vec<Op>,
}

/// How a write chunk ends.
#[derive(Arbitrary, Debug)]
enum WriteEnd {
    Commit(u8),
    CommitAll,
    Drop,
    Forget,
}

/// How an uninitialised write chunk ends.
#[derive(Arbitrary, Debug)]
enum UninitEnd {
    /// Offers this many items to `fill_from_iter`.
    Fill(u8),
    /// Writes this many (at most the chunk's length) and commits them.
    Commit(u8),
    Drop,
}

/// How a read chunk ends.
#[derive(Arbitrary, Debug)]
enum ReadEnd {
    Commit(u8),
    CommitAll,
    Drop,
    /// Takes this many items through the iterator, then drops it.
    Iter(u8),
    /// Takes this many items through the iterator, then forgets it.
    IterForget(u8),
}

#[derive(Arbitrary, Debug)]
enum Op {
    Push,
    PushSlice(u8),
    WriteChunk(u8, WriteEnd),
    WriteChunkUninit(u8, UninitEnd),
    Pop,
    Peek,
    PopSlice(u8),
    ReadChunk(u8, ReadEnd),
    /// `slots`, `is_full`, `is_empty`, `capacity`, `is_abandoned` of both.
    Observe,
    /// `push_timeout` (or `push_deadline` when the flag is set).
    PushTimeout(Wait, bool),
    /// `pop_timeout` (or `pop_deadline`).
    PopTimeout(Wait, bool),
    /// `wait_slots(n, deadline)`.
    WaitSlots(u8, Wait),
    /// `wait_items(n, deadline)`.
    WaitItems(u8, Wait),
    /// One poll of `push_async`, then the future is dropped.
    PushAsync,
    /// One poll of `pop_async`, then the future is dropped.
    PopAsync,
}

/// A wait's timeout: zero (a try) or a few microseconds.
#[derive(Arbitrary, Debug, Clone, Copy)]
struct Wait(u8);

impl Wait {
    fn timeout(self) -> Duration {
        Duration::from_micros(if self.0.is_multiple_of(4) {
            0
        } else {
            self.0 as u64 % 40
        })
    }
}

/// A chunk's two slices, joined in order.
fn joined<T: Copy>((a, b): (&[T], &[T])) -> Vec<T> {
    a.iter().chain(b).copied().collect()
}

fuzz_target!(|input: Input| {
    let capacity = 1 + input.capacity as usize % 9;
    let start = if input.near_wrap {
        usize::MAX - input.before_wrap as usize
    } else {
        0
    };
    let (mut tx, mut rx) = RingBuffer::<u32>::with_initial_index(capacity, start).unwrap();
    let mut model: VecDeque<u32> = VecDeque::new();
    let mut next = 0u32;
    // Asks are up to twice the capacity, so "too few" is common.
    let ask = |n: u8| n as usize % (2 * capacity + 2);

    for op in input.ops {
        let free = capacity - model.len();
        match op {
            Op::Push => match tx.push(next) {
                Ok(()) => {
                    assert!(free > 0, "pushed into a full ring");
                    model.push_back(next);
                    next += 1;
                }
                Err(PushError::Full(v)) => {
                    assert_eq!(free, 0, "refused with room");
                    assert_eq!(v, next, "refused item not given back");
                }
            },
            Op::PushSlice(n) => {
                let items: Vec<u32> = (next..).take(ask(n)).collect();
                let pushed = tx.push_slice(&items);
                assert_eq!(pushed, items.len().min(free), "push_slice count");
                model.extend(&items[..pushed]);
                next += pushed as u32;
            }
            Op::WriteChunk(n, end) => {
                let n = ask(n);
                match tx.write_chunk(n) {
                    Ok(mut chunk) => {
                        assert!(n <= free, "a chunk of {n} with {free} free");
                        assert_eq!(chunk.len(), n);
                        let (a, b) = chunk.as_mut_slices();
                        assert_eq!(a.len() + b.len(), n);
                        for (slot, v) in a.iter_mut().chain(b).zip(next..) {
                            assert_eq!(*slot, 0, "a write chunk's slot is not the default");
                            *slot = v;
                        }
                        let k = match end {
                            WriteEnd::Commit(k) => {
                                let k = k as usize % (n + 1);
                                chunk.commit(k);
                                k
                            }
                            WriteEnd::CommitAll => {
                                chunk.commit_all();
                                n
                            }
                            WriteEnd::Drop => {
                                drop(chunk);
                                0
                            }
                            WriteEnd::Forget => {
                                mem::forget(chunk);
                                0
                            }
                        };
                        model.extend((next..).take(k));
                        next += k as u32;
                    }
                    Err(ChunkError::TooFewSlots(f)) => {
                        assert!(n > free, "refused a chunk of {n} with {free} free");
                        assert_eq!(f, free, "TooFewSlots count");
                    }
                }
            }
            Op::WriteChunkUninit(n, end) => {
                let n = ask(n);
                match tx.write_chunk_uninit(n) {
                    Ok(mut chunk) => {
                        assert!(n <= free, "a chunk of {n} with {free} free");
                        assert_eq!(chunk.len(), n);
                        let k = match end {
                            UninitEnd::Fill(m) => {
                                let m = m as usize % (n + 2);
                                let written = chunk.fill_from_iter((next..).take(m));
                                assert_eq!(written, m.min(n), "fill_from_iter count");
                                written
                            }
                            UninitEnd::Commit(k) => {
                                let k = k as usize % (n + 1);
                                let (a, b) = chunk.as_mut_slices();
                                assert_eq!(a.len() + b.len(), n);
                                for (slot, v) in a.iter_mut().chain(b).zip(next..).take(k) {
                                    *slot = MaybeUninit::new(v);
                                }
                                // SAFETY: the loop initialised the first `k`.
                                unsafe { chunk.commit(k) };
                                k
                            }
                            UninitEnd::Drop => {
                                drop(chunk);
                                0
                            }
                        };
                        model.extend((next..).take(k));
                        next += k as u32;
                    }
                    Err(ChunkError::TooFewSlots(f)) => {
                        assert!(n > free, "refused a chunk of {n} with {free} free");
                        assert_eq!(f, free, "TooFewSlots count");
                    }
                }
            }
            Op::Pop => match rx.pop() {
                Ok(v) => assert_eq!(Some(v), model.pop_front(), "pop"),
                Err(PopError::Empty) => assert!(model.is_empty(), "empty with items"),
            },
            Op::Peek => match rx.peek() {
                Ok(v) => assert_eq!(Some(v), model.front(), "peek"),
                Err(PeekError::Empty) => assert!(model.is_empty(), "empty with items"),
            },
            Op::PopSlice(n) => {
                let mut out = vec![u32::MAX; ask(n)];
                let got = rx.pop_slice(&mut out);
                let want: Vec<u32> = model.drain(..out.len().min(model.len())).collect();
                assert_eq!(&out[..got], &want[..], "pop_slice");
                assert!(
                    out[got..].iter().all(|&v| v == u32::MAX),
                    "wrote past the count"
                );
            }
            Op::ReadChunk(n, end) => {
                let n = ask(n);
                match rx.read_chunk(n) {
                    Ok(mut chunk) => {
                        assert!(n <= model.len(), "a read chunk of {n} with {}", model.len());
                        assert_eq!(chunk.len(), n);
                        let want: Vec<u32> = model.iter().take(n).copied().collect();
                        assert_eq!(joined(chunk.as_slices()), want, "read chunk contents");
                        let (a, b) = chunk.as_mut_slices();
                        assert_eq!(a.len() + b.len(), n);
                        match end {
                            ReadEnd::Commit(k) => {
                                let k = k as usize % (n + 1);
                                chunk.commit(k);
                                model.drain(..k);
                            }
                            ReadEnd::CommitAll => {
                                chunk.commit_all();
                                model.drain(..n);
                            }
                            ReadEnd::Drop => drop(chunk),
                            ReadEnd::Iter(k) | ReadEnd::IterForget(k) => {
                                let forget = matches!(end, ReadEnd::IterForget(_));
                                let k = k as usize % (n + 2);
                                let mut items = chunk.into_iter();
                                assert_eq!(items.len(), n);
                                for i in 0..k {
                                    // Past the chunk the iterator is done
                                    // (and the rest stays in the ring).
                                    let want = if i < n { model.pop_front() } else { None };
                                    assert_eq!(items.next(), want, "read chunk iterator");
                                }
                                if forget {
                                    mem::forget(items);
                                }
                            }
                        }
                    }
                    Err(ChunkError::TooFewSlots(ready)) => {
                        assert!(
                            n > model.len(),
                            "refused a read chunk of {n} with {}",
                            model.len()
                        );
                        assert_eq!(ready, model.len(), "TooFewSlots count");
                    }
                }
            }
            Op::PushTimeout(wait, deadline) => {
                let result = if deadline {
                    tx.push_deadline(next, Instant::now() + wait.timeout())
                } else {
                    tx.push_timeout(next, wait.timeout())
                };
                match result {
                    Ok(()) => {
                        assert!(free > 0, "pushed into a full ring");
                        model.push_back(next);
                        next += 1;
                    }
                    Err(PushTimeoutError::Timeout(v)) => {
                        assert_eq!(free, 0, "timed out with room");
                        assert_eq!(v, next, "timed-out item not given back");
                    }
                    Err(PushTimeoutError::Abandoned(_)) => {
                        panic!("abandoned with the consumer alive")
                    }
                }
            }
            Op::PopTimeout(wait, deadline) => {
                let result = if deadline {
                    rx.pop_deadline(Instant::now() + wait.timeout())
                } else {
                    rx.pop_timeout(wait.timeout())
                };
                match result {
                    Ok(v) => assert_eq!(Some(v), model.pop_front(), "pop_timeout"),
                    Err(PopTimeoutError::Timeout) => {
                        assert!(model.is_empty(), "timed out with items")
                    }
                    Err(PopTimeoutError::Abandoned) => panic!("abandoned with the producer alive"),
                }
            }
            Op::WaitSlots(n, wait) => {
                let n = ask(n);
                match tx.wait_slots(n, Instant::now() + wait.timeout()) {
                    Ok(f) => {
                        assert!(n <= free, "waited for {n} with {free} free");
                        assert_eq!(f, free, "wait_slots count");
                    }
                    Err(WaitError::Timeout) => assert!(n > free && n <= capacity, "timed out"),
                    Err(WaitError::ExceedsCapacity {
                        requested,
                        capacity: c,
                    }) => {
                        assert!(n > capacity && requested == n && c == capacity)
                    }
                    Err(WaitError::Abandoned) => panic!("abandoned with the consumer alive"),
                }
            }
            Op::WaitItems(n, wait) => {
                let n = ask(n);
                match rx.wait_items(n, Instant::now() + wait.timeout()) {
                    Ok(r) => {
                        assert!(n <= model.len(), "waited for {n} with {}", model.len());
                        assert_eq!(r, model.len(), "wait_items count");
                    }
                    Err(WaitError::Timeout) => {
                        assert!(n > model.len() && n <= capacity, "timed out")
                    }
                    Err(WaitError::ExceedsCapacity {
                        requested,
                        capacity: c,
                    }) => {
                        assert!(n > capacity && requested == n && c == capacity)
                    }
                    Err(WaitError::Abandoned) => panic!("abandoned with the producer alive"),
                }
            }
            Op::PushAsync => {
                let mut cx = Context::from_waker(Waker::noop());
                match pin!(tx.push_async(next)).poll(&mut cx) {
                    Poll::Ready(Ok(())) => {
                        assert!(free > 0, "pushed into a full ring");
                        model.push_back(next);
                        next += 1;
                    }
                    Poll::Ready(Err(_)) => panic!("abandoned with the consumer alive"),
                    Poll::Pending => assert_eq!(free, 0, "pending with room"),
                }
            }
            Op::PopAsync => {
                let mut cx = Context::from_waker(Waker::noop());
                match pin!(rx.pop_async()).poll(&mut cx) {
                    Poll::Ready(Ok(v)) => assert_eq!(Some(v), model.pop_front(), "pop_async"),
                    Poll::Ready(Err(_)) => panic!("abandoned with the producer alive"),
                    Poll::Pending => assert!(model.is_empty(), "pending with items"),
                }
            }
            Op::Observe => {
                assert_eq!(tx.slots(), free, "producer's slots");
                assert_eq!(rx.slots(), model.len(), "consumer's slots");
                assert_eq!(tx.is_full(), free == 0, "is_full");
                assert_eq!(rx.is_empty(), model.is_empty(), "is_empty");
                assert_eq!((tx.capacity(), rx.capacity()), (capacity, capacity));
                assert!(!tx.is_abandoned() && !rx.is_abandoned(), "abandoned early");
            }
        }
    }

    drop(tx);
    assert!(rx.is_abandoned(), "the producer's drop went unseen");
    let rest: Vec<u32> =
        std::iter::from_fn(|| rx.pop_timeout(Duration::from_secs(10)).ok()).collect();
    assert_eq!(rest, Vec::from(model), "left in the ring");
    assert_eq!(
        rx.pop_timeout(Duration::from_secs(10)),
        Err(PopTimeoutError::Abandoned)
    );
});
