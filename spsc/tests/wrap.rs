//! The free-running indices wrap at `usize::MAX + 1`: rings whose indices
//! start just before that (`with_initial_index`) stay FIFO, count their
//! slots right, lay chunks out right, and drop what is left, for small
//! capacities, powers of two and not.

use std::collections::VecDeque;

use hotq_spsc::{ChunkError, Consumer, PopError, Producer, PushError, RingBuffer};
use hotq_testkit::DropCounter;

const CAPACITIES: [usize; 6] = [1, 2, 3, 4, 5, 8];

/// Calls `check(capacity, start)` for every capacity and every start from
/// `usize::MAX` back to a few storage lengths before it, so each half
/// crosses the wrap at every slot and at every phase of the test.
///
/// Under miri (which interprets every instruction) four starts per
/// capacity: the wrap at the first, second and last slot of a lap and two
/// laps in. Every start still runs its test's many laps.
fn for_each_start(mut check: impl FnMut(usize, usize)) {
    for capacity in CAPACITIES {
        let storage = capacity.next_power_of_two();
        for before_wrap in 0..=2 * storage + 1 {
            if cfg!(miri) && ![0, 1, storage - 1, 2 * storage + 1].contains(&before_wrap) {
                continue;
            }
            check(capacity, usize::MAX - before_wrap);
        }
    }
}

fn ring(capacity: usize, start: usize) -> (Producer<u64>, Consumer<u64>) {
    RingBuffer::with_initial_index(capacity, start).unwrap()
}

/// Asserts both halves' view of how many items the ring holds.
fn assert_len(tx: &Producer<u64>, rx: &Consumer<u64>, len: usize, ctx: &str) {
    let capacity = tx.capacity();
    assert_eq!(tx.slots(), capacity - len, "{ctx}: producer's slots");
    assert_eq!(rx.slots(), len, "{ctx}: consumer's slots");
    assert_eq!(tx.is_full(), len == capacity, "{ctx}: is_full");
    assert_eq!(rx.is_empty(), len == 0, "{ctx}: is_empty");
}

#[test]
fn push_and_pop_stay_fifo_across_the_index_wrap() {
    for_each_start(|capacity, start| {
        let (mut tx, mut rx) = ring(capacity, start);
        let (mut next_in, mut next_out) = (0u64, 0u64);
        for round in 0..4 * capacity + 8 {
            let ctx = format!("capacity {capacity}, start {start:#x}, round {round}");
            // Fill up, one push at a time, until the ring refuses.
            loop {
                let len = (next_in - next_out) as usize;
                assert_len(&tx, &rx, len, &ctx);
                match tx.push(next_in) {
                    Ok(()) => {
                        assert!(len < capacity, "{ctx}: pushed into a full ring");
                        next_in += 1;
                    }
                    Err(e) => {
                        assert_eq!(len, capacity, "{ctx}: refused with room");
                        assert_eq!(e, PushError::Full(next_in), "{ctx}");
                        break;
                    }
                }
            }
            // Then take some (a varying number, so the phase moves).
            for _ in 0..=round % capacity {
                assert_eq!(rx.peek(), Ok(&next_out), "{ctx}");
                assert_eq!(rx.pop(), Ok(next_out), "{ctx}");
                next_out += 1;
            }
        }
        while next_out < next_in {
            assert_eq!(rx.pop(), Ok(next_out));
            next_out += 1;
        }
        assert_eq!(rx.pop(), Err(PopError::Empty));
        assert_len(&tx, &rx, 0, "drained");
    });
}

#[test]
fn push_slice_and_pop_slice_stay_fifo_across_the_index_wrap() {
    for_each_start(|capacity, start| {
        let (mut tx, mut rx) = ring(capacity, start);
        let mut model = VecDeque::new();
        let mut next = 0u64;
        for round in 0..6 * capacity + 8 {
            let ctx = format!("capacity {capacity}, start {start:#x}, round {round}");
            let want = round % (capacity + 2);
            let items: Vec<u64> = (next..next + want as u64).collect();
            let pushed = tx.push_slice(&items);
            assert_eq!(pushed, want.min(capacity - model.len()), "{ctx}: pushed");
            model.extend(&items[..pushed]);
            next += pushed as u64;
            assert_len(&tx, &rx, model.len(), &ctx);

            let mut out = vec![u64::MAX; (round * 7 + 3) % (capacity + 2)];
            let popped = rx.pop_slice(&mut out);
            assert_eq!(popped, out.len().min(model.len()), "{ctx}: popped");
            let expected: Vec<u64> = model.drain(..popped).collect();
            assert_eq!(out[..popped], expected[..], "{ctx}: order");
            assert!(
                out[popped..].iter().all(|&v| v == u64::MAX),
                "{ctx}: overrun"
            );
            assert_len(&tx, &rx, model.len(), &ctx);
        }
    });
}

/// `push_slice` and `pop_slice` copy a short run item by item and a long
/// one with `memcpy` (`ITEMWISE_ITEMS`, `ITEMWISE_BYTES` in `copy.rs`):
/// slices of every length on both sides of that line, of items of 1, 8
/// and 20 bytes, split at the storage's end or not, arrive whole and in
/// order.
#[test]
fn push_slice_and_pop_slice_copy_every_item_of_short_and_long_slices_across_the_index_wrap() {
    fn check<T: Copy + PartialEq + std::fmt::Debug>(item: impl Fn(u64) -> T) {
        // 40: beyond the 16 items and the 128 bytes of the item-by-item copy.
        let capacity = 40;
        let start = usize::MAX - 7; // the index wraps after 8 slots
        let (mut tx, mut rx) = RingBuffer::with_initial_index(capacity, start).unwrap();
        let mut next = 0u64;
        let mut expected = 0u64;
        for len in (0..=capacity).chain((0..=capacity).rev()) {
            let items: Vec<T> = (next..next + len as u64).map(&item).collect();
            assert_eq!(tx.push_slice(&items), len, "length {len}");
            next += len as u64;
            let mut out = vec![item(u64::MAX); len];
            assert_eq!(rx.pop_slice(&mut out), len, "length {len}");
            for got in out {
                assert_eq!(got, item(expected), "length {len}");
                expected += 1;
            }
        }
    }
    check(|i| i as u8);
    check(|i| i);
    check(|i| [i as u32, !(i as u32), 7, 8, i as u32 ^ 0x5a5a]);
}

/// rtrb's slice calls (`push_partial_slice`, `push_entire_slice`,
/// `pop_partial_slice`, `pop_entire_slice` and the `_uninit` pops), in
/// turn, against a model: each moves exactly what it says, in order, and
/// an "entire" call that cannot moves nothing and says how many slots
/// (items) there were.
#[test]
fn rtrb_style_slice_calls_stay_fifo_and_all_or_nothing_across_the_index_wrap() {
    use std::mem::MaybeUninit;

    for_each_start(|capacity, start| {
        let (mut tx, mut rx) = ring(capacity, start);
        let mut model = VecDeque::new();
        let mut next = 0u64;
        for round in 0..8 * capacity + 8 {
            let ctx = format!("capacity {capacity}, start {start:#x}, round {round}");
            let want = round % (capacity + 2);
            let items: Vec<u64> = (next..next + want as u64).collect();
            let free = capacity - model.len();
            let pushed = if round % 2 == 0 {
                let (pushed, rest) = tx.push_partial_slice(&items);
                assert_eq!(pushed.len(), want.min(free), "{ctx}: pushed");
                assert_eq!([pushed, rest].concat(), items, "{ctx}: split");
                pushed.len()
            } else {
                match tx.push_entire_slice(&items) {
                    Ok(()) => {
                        assert!(want <= free, "{ctx}: pushed past the capacity");
                        want
                    }
                    Err(ChunkError::TooFewSlots(n)) => {
                        assert!(want > free, "{ctx}: refused with room");
                        assert_eq!(n, free, "{ctx}: free slots reported");
                        0
                    }
                }
            };
            model.extend(&items[..pushed]);
            next += pushed as u64;
            assert_len(&tx, &rx, model.len(), &ctx);

            let len = (round * 7 + 3) % (capacity + 2);
            let ready = model.len();
            let popped: Vec<u64> = match round % 4 {
                0 => {
                    let mut out = vec![u64::MAX; len];
                    let (popped, rest) = rx.pop_partial_slice(&mut out);
                    assert_eq!(popped.len(), len.min(ready), "{ctx}: popped");
                    assert!(rest.iter().all(|&v| v == u64::MAX), "{ctx}: overrun");
                    popped.to_vec()
                }
                1 => {
                    let mut out = vec![MaybeUninit::uninit(); len];
                    let (popped, rest) = rx.pop_partial_slice_uninit(&mut out);
                    assert_eq!(popped.len(), len.min(ready), "{ctx}: popped");
                    assert_eq!(popped.len() + rest.len(), len, "{ctx}: split");
                    popped.to_vec()
                }
                2 => {
                    let mut out = vec![u64::MAX; len];
                    match rx.pop_entire_slice(&mut out) {
                        Ok(()) => assert!(len <= ready, "{ctx}: popped past the items"),
                        Err(ChunkError::TooFewSlots(n)) => {
                            assert!(len > ready, "{ctx}: refused with items");
                            assert_eq!(n, ready, "{ctx}: ready items reported");
                            assert!(out.iter().all(|&v| v == u64::MAX), "{ctx}: wrote");
                            out.clear();
                        }
                    }
                    out
                }
                _ => {
                    let mut out = vec![MaybeUninit::uninit(); len];
                    match rx.pop_entire_slice_uninit(&mut out) {
                        Ok(popped) => {
                            assert!(len <= ready, "{ctx}: popped past the items");
                            popped.to_vec()
                        }
                        Err(ChunkError::TooFewSlots(n)) => {
                            assert!(len > ready, "{ctx}: refused with items");
                            assert_eq!(n, ready, "{ctx}: ready items reported");
                            Vec::new()
                        }
                    }
                }
            };
            let expected: Vec<u64> = model.drain(..popped.len()).collect();
            assert_eq!(popped, expected, "{ctx}: order");
            assert_len(&tx, &rx, model.len(), &ctx);
        }
    });
}

#[test]
fn chunks_stay_fifo_and_split_at_the_storage_end_across_the_index_wrap() {
    for_each_start(|capacity, start| {
        let storage = capacity.next_power_of_two();
        let (mut tx, mut rx) = ring(capacity, start);
        let (mut next_in, mut next_out) = (0u64, 0u64);
        for round in 0..6 * capacity + 8 {
            let ctx = format!("capacity {capacity}, start {start:#x}, round {round}");
            let len = (next_in - next_out) as usize;
            let free = capacity - len;
            // Write up to all free slots, three ways in turn.
            let n = free - round % (free + 1) / 2;
            let tail = start.wrapping_add(next_in as usize);
            let expected_first = n.min(storage - tail % storage);
            match round % 3 {
                0 => {
                    let chunk = tx.write_chunk_uninit(n).unwrap();
                    assert_eq!(chunk.fill_from_iter(next_in..), n, "{ctx}");
                }
                1 => {
                    let mut chunk = tx.write_chunk(n).unwrap();
                    let (a, b) = chunk.as_mut_slices();
                    assert_eq!(
                        (a.len(), b.len()),
                        (expected_first, n - expected_first),
                        "{ctx}"
                    );
                    for (slot, v) in a.iter_mut().chain(b).zip(next_in..) {
                        *slot = v;
                    }
                    chunk.commit_all();
                }
                _ => {
                    let mut chunk = tx.write_chunk_uninit(n).unwrap();
                    let (a, b) = chunk.as_mut_slices();
                    assert_eq!(
                        (a.len(), b.len()),
                        (expected_first, n - expected_first),
                        "{ctx}"
                    );
                    for (slot, v) in a.iter_mut().chain(b).zip(next_in..) {
                        slot.write(v);
                    }
                    // SAFETY: all `n` slots were written just above.
                    unsafe { chunk.commit(n) };
                }
            }
            next_in += n as u64;
            let len = len + n;
            assert_len(&tx, &rx, len, &ctx);
            assert_eq!(
                tx.write_chunk_uninit(free - n + 1).unwrap_err(),
                ChunkError::TooFewSlots(free - n),
                "{ctx}"
            );
            assert_eq!(
                rx.read_chunk(len + 1).unwrap_err(),
                ChunkError::TooFewSlots(len),
                "{ctx}"
            );

            // Read some of it, in place or by moving out, in turn.
            let m = len - round % (len + 1) / 2;
            let head = start.wrapping_add(next_out as usize);
            let expected_first = m.min(storage - head % storage);
            let chunk = rx.read_chunk(m).unwrap();
            let (a, b) = chunk.as_slices();
            assert_eq!(
                (a.len(), b.len()),
                (expected_first, m - expected_first),
                "{ctx}"
            );
            let expected: Vec<u64> = (next_out..next_out + m as u64).collect();
            assert_eq!([a, b].concat(), expected, "{ctx}: as_slices");
            if round % 2 == 0 {
                chunk.commit_all();
            } else {
                assert_eq!(
                    chunk.into_iter().collect::<Vec<_>>(),
                    expected,
                    "{ctx}: into_iter"
                );
            }
            next_out += m as u64;
            assert_len(&tx, &rx, len - m, &ctx);
        }
    });
}

#[test]
fn items_left_across_the_index_wrap_are_dropped_once() {
    for_each_start(|capacity, start| {
        let drops = DropCounter::new();
        let (mut tx, mut rx) = RingBuffer::with_initial_index(capacity, start).unwrap();
        // Push and pop so that the head stops at every position around
        // the wrap, then leave the ring full.
        let mut id = 0;
        let shift = (usize::MAX - start) % (capacity + 1);
        for _ in 0..shift {
            assert!(tx.push(drops.item(id)).is_ok());
            assert_eq!(rx.pop().map(|c| c.id), Ok(id));
            id += 1;
        }
        while tx.push(drops.item(id)).is_ok() {
            id += 1;
        }
        // The refused item came back and was dropped: one drop of `id`.
        assert_eq!(drops.total(), shift + 1);
        assert_eq!(rx.slots(), capacity);
        drop((tx, rx));
        drops.assert_each_dropped_once(id + 1);
        assert_eq!(id, shift + capacity);
    });
}
