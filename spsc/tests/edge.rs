//! The corners: zero-sized items (up to capacities no memory could hold),
//! capacity 1, capacities that are refused and how, the abandoned flags,
//! the auto traits, what `Debug` and `Display` print, and the panics a
//! misused chunk raises.

use std::any::Any;
use std::mem::MaybeUninit;
use std::panic::{UnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::thread;

use hotq_spsc::{
    CapacityError, ChunkError, Consumer, PeekError, PopError, Producer, PushError, ReadChunk,
    RingBuffer, WriteChunkUninit,
};
use hotq_testkit::wait_for;

/// Drops of each `Zst<K>`; one `K` per test, so that parallel tests do not
/// count each other's drops.
static ZST_DROPS: [AtomicUsize; 4] = [const { AtomicUsize::new(0) }; 4];

/// A zero-sized item that counts its drops.
#[derive(Default, PartialEq, Eq)]
struct Zst<const K: usize>;

impl<const K: usize> Drop for Zst<K> {
    fn drop(&mut self) {
        ZST_DROPS[K].fetch_add(1, Ordering::Relaxed);
    }
}

fn zst_drops<const K: usize>() -> usize {
    ZST_DROPS[K].load(Ordering::Relaxed)
}

/// The message `f` panics with.
fn panic_message<R>(f: impl FnOnce() -> R + UnwindSafe) -> String {
    let payload: Box<dyn Any + Send> = match catch_unwind(f) {
        Ok(_) => panic!("did not panic"),
        Err(payload) => payload,
    };
    if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else {
        panic!("panic payload is not a string")
    }
}

#[test]
fn unit_items_push_pop_and_count_like_any_item() {
    let (mut tx, mut rx) = RingBuffer::<()>::new(3);
    for free in (1..=3).rev() {
        assert_eq!(tx.slots(), free);
        assert_eq!(tx.push(()), Ok(()));
    }
    assert!(tx.is_full());
    assert_eq!(tx.push(()), Err(PushError::Full(())));
    assert_eq!(rx.slots(), 3);
    assert_eq!(rx.peek(), Ok(&()));
    for ready in (1..=3).rev() {
        assert_eq!(rx.slots(), ready);
        assert_eq!(rx.pop(), Ok(()));
    }
    assert_eq!(rx.pop(), Err(PopError::Empty));
    assert_eq!(tx.push_slice(&[(); 5]), 3);
    assert_eq!(rx.pop_slice(&mut [(); 2]), 2);
    let chunk = tx.write_chunk_uninit(2).unwrap();
    assert_eq!(chunk.fill_from_iter(std::iter::repeat(())), 2);
    assert_eq!(rx.read_chunk(3).unwrap().into_iter().count(), 3);
    assert!(rx.is_empty());
    assert_eq!(tx.slots(), 3);
}

#[test]
fn zero_sized_items_with_drop_are_dropped_exactly_once() {
    let (mut tx, mut rx) = RingBuffer::<Zst<0>>::new(8);
    for _ in 0..5 {
        assert!(tx.push(Zst).is_ok());
    }
    assert!(tx.push(Zst).is_ok());
    assert!(matches!(
        tx.write_chunk_uninit(3),
        Err(ChunkError::TooFewSlots(2))
    ));
    assert_eq!(zst_drops::<0>(), 0);
    drop(rx.pop().unwrap());
    drop(rx.pop().unwrap());
    assert_eq!(zst_drops::<0>(), 2);
    rx.read_chunk(3).unwrap().commit(1);
    assert_eq!(zst_drops::<0>(), 3);
    // An iterator dropped after one item: the other stays.
    drop(rx.read_chunk(2).unwrap().into_iter().next().unwrap());
    assert_eq!(zst_drops::<0>(), 4);
    assert_eq!(rx.slots(), 2);
    // `write_chunk`: three defaults made, two extras dropped by commit(1).
    tx.write_chunk(3).unwrap().commit(1);
    assert_eq!(zst_drops::<0>(), 6);
    assert_eq!(rx.slots(), 3);
    drop((tx, rx)); // the last three
    assert_eq!(zst_drops::<0>(), 9);
}

#[test]
fn huge_capacity_of_zero_sized_items_is_exact_and_usable() {
    let capacity = 1usize << (usize::BITS - 2);
    let (mut tx, mut rx) = RingBuffer::<()>::try_new(capacity).unwrap();
    assert_eq!((tx.capacity(), rx.capacity()), (capacity, capacity));
    assert_eq!((tx.slots(), rx.slots()), (capacity, 0));
    for i in 1..=3 {
        tx.push(()).unwrap();
        assert_eq!((tx.slots(), rx.slots()), (capacity - i, i));
    }
    assert!(!tx.is_full());
    assert_eq!(rx.pop(), Ok(()));
    assert_eq!((tx.slots(), rx.slots()), (capacity - 2, 2));

    // Fill it up in one chunk: for `()` every slot is initialised already.
    let chunk = tx.write_chunk_uninit(capacity - 2).unwrap();
    assert_eq!(chunk.len(), capacity - 2);
    commit_all_units(chunk);
    assert_eq!(
        tx.slots(),
        0,
        "a chunk of all free slots did not fill the ring"
    );
    assert!(tx.is_full());
    assert_eq!(tx.push(()), Err(PushError::Full(())));
    assert_eq!(
        tx.write_chunk_uninit(1).unwrap_err(),
        ChunkError::TooFewSlots(0)
    );
    assert_eq!(rx.slots(), capacity);
    assert_eq!(
        rx.read_chunk(capacity).map(|c| c.len()),
        Ok(capacity),
        "a chunk of the whole ring"
    );
    rx.read_chunk(capacity - 1).unwrap().commit_all();
    assert_eq!((tx.slots(), rx.slots()), (capacity - 1, 1));
    assert_eq!(rx.pop(), Ok(()));
    assert_eq!(rx.pop(), Err(PopError::Empty));

    // A zero-sized drop-counting item at this capacity.
    let (mut tx, mut rx) = RingBuffer::<Zst<1>>::try_new(capacity).unwrap();
    for _ in 0..4 {
        assert!(tx.push(Zst).is_ok());
    }
    drop(rx.pop().unwrap());
    assert_eq!(zst_drops::<1>(), 1);
    drop((tx, rx));
    assert_eq!(zst_drops::<1>(), 4);
}

/// Publishes every slot of `chunk` without writing them one by one (there
/// may be 2^62 of them, 2^30 on 32-bit targets).
fn commit_all_units(chunk: WriteChunkUninit<'_, ()>) {
    // SAFETY: `()` has no bytes: every `MaybeUninit<()>` holds a valid `()`.
    unsafe { chunk.commit_all() };
}

#[test]
fn huge_capacity_of_zero_sized_items_across_the_index_wrap() {
    let capacity = 1usize << (usize::BITS - 2);
    for before_wrap in 0..4 {
        let start = usize::MAX - before_wrap;
        let (mut tx, mut rx) = RingBuffer::<()>::with_initial_index(capacity, start).unwrap();
        for i in 1..=6 {
            tx.push(()).unwrap();
            assert_eq!(
                (tx.slots(), rx.slots()),
                (capacity - i, i),
                "start {start:#x}"
            );
        }
        for i in (0..6).rev() {
            assert_eq!(rx.pop(), Ok(()));
            assert_eq!(
                (tx.slots(), rx.slots()),
                (capacity - i, i),
                "start {start:#x}"
            );
        }
        // Full across the wrap, then empty again.
        let chunk = tx.write_chunk_uninit(capacity).unwrap();
        commit_all_units(chunk);
        assert!(tx.is_full(), "start {start:#x}");
        assert_eq!(tx.slots(), 0);
        assert_eq!(rx.slots(), capacity, "start {start:#x}");
        rx.read_chunk(capacity).unwrap().commit_all();
        assert!(rx.is_empty());
        assert_eq!(tx.slots(), capacity);
    }
    // Drop counting across the wrap, at this capacity.
    let (mut tx, rx) = RingBuffer::<Zst<2>>::with_initial_index(capacity, usize::MAX - 1).unwrap();
    for _ in 0..5 {
        assert!(tx.push(Zst).is_ok());
    }
    drop((rx, tx));
    assert_eq!(zst_drops::<2>(), 5);
}

#[test]
fn zero_sized_items_take_capacities_up_to_half_the_address_space() {
    let top = 1usize << (usize::BITS - 1);
    let (tx, rx) = RingBuffer::<()>::try_new(top).unwrap();
    assert_eq!((tx.capacity(), tx.slots(), rx.slots()), (top, top, 0));
    assert_eq!(
        RingBuffer::<()>::try_new(top + 1).unwrap_err(),
        CapacityError::TooLarge
    );
    assert_eq!(
        RingBuffer::<()>::try_new(usize::MAX).unwrap_err(),
        CapacityError::TooLarge
    );
}

#[test]
fn capacity_one_holds_exactly_one_item() {
    let (mut tx, mut rx) = RingBuffer::<String>::new(1);
    assert_eq!(tx.capacity(), 1);
    for round in 0..20 {
        let item = format!("item {round}");
        assert_eq!((tx.slots(), rx.slots()), (1, 0));
        assert_eq!(rx.peek(), Err(PeekError::Empty));
        tx.push(item.clone()).unwrap();
        assert!(tx.is_full() && !rx.is_empty());
        assert_eq!((tx.slots(), rx.slots()), (0, 1));
        let refused = format!("refused {round}");
        assert_eq!(tx.push(refused.clone()).unwrap_err().into_inner(), refused);
        assert_eq!(
            tx.write_chunk_uninit(1).unwrap_err(),
            ChunkError::TooFewSlots(0)
        );
        assert_eq!(rx.read_chunk(2).unwrap_err(), ChunkError::TooFewSlots(1));
        assert_eq!(rx.peek(), Ok(&item));
        match round % 3 {
            0 => assert_eq!(rx.pop(), Ok(item)),
            1 => assert_eq!(
                rx.read_chunk(1).unwrap().into_iter().collect::<Vec<_>>(),
                [item]
            ),
            _ => {
                let chunk = rx.read_chunk(1).unwrap();
                assert_eq!(chunk.as_slices(), (&[item][..], &[][..]));
                chunk.commit_all();
            }
        }
        assert_eq!(rx.pop(), Err(PopError::Empty));
    }
    let (mut tx, mut rx) = RingBuffer::<u8>::new(1);
    assert_eq!(tx.push_slice(&[1, 2, 3]), 1);
    assert_eq!(tx.push_slice(&[4]), 0);
    let mut out = [0; 3];
    assert_eq!(rx.pop_slice(&mut out), 1);
    assert_eq!(out, [1, 0, 0]);
}

/// A ring of capacity 0, as rtrb allows: always full and always empty,
/// from any starting index (the wrap included), with no storage behind
/// it. Zero-length chunks and slices are granted and move nothing, and
/// nothing is ever dropped that was not the caller's.
#[test]
fn zero_capacity_is_always_full_and_always_empty() {
    for start in [0, 1, usize::MAX, usize::MAX - 1, 1 << (usize::BITS - 1)] {
        let (mut tx, mut rx) = RingBuffer::<String>::with_initial_index(0, start).unwrap();
        assert_eq!((tx.capacity(), rx.capacity()), (0, 0));
        for _ in 0..3 {
            assert_eq!((tx.slots(), rx.slots()), (0, 0));
            assert!(tx.is_full());
            assert!(rx.is_empty());
            let PushError::Full(back) = tx.push("x".to_owned()).unwrap_err();
            assert_eq!(back, "x");
            assert_eq!(rx.pop(), Err(PopError::Empty));
            assert_eq!(rx.peek(), Err(PeekError::Empty));
            assert_eq!(
                tx.write_chunk_uninit(1).unwrap_err(),
                ChunkError::TooFewSlots(0)
            );
            assert_eq!(tx.write_chunk(1).unwrap_err(), ChunkError::TooFewSlots(0));
            assert_eq!(rx.read_chunk(1).unwrap_err(), ChunkError::TooFewSlots(0));
            let mut chunk = tx.write_chunk_uninit(0).unwrap();
            let (a, b) = chunk.as_mut_slices();
            assert!(a.is_empty() && b.is_empty());
            assert_eq!(chunk.fill_from_iter(["y".to_owned()]), 0);
            let mut chunk = tx.write_chunk(0).unwrap();
            let (a, b) = chunk.as_mut_slices();
            assert!(a.is_empty() && b.is_empty());
            chunk.commit_all();
            let chunk = rx.read_chunk(0).unwrap();
            assert_eq!(chunk.as_slices(), (&[][..], &[][..]));
            chunk.commit_all();
            assert_eq!(rx.read_chunk(0).unwrap().into_iter().count(), 0);
        }
    }
    let (mut tx, mut rx) = RingBuffer::<u8>::new(0);
    assert_eq!(tx.push_slice(&[1, 2]), 0);
    let mut out = [9; 2];
    assert_eq!(rx.pop_slice(&mut out), 0);
    assert_eq!(out, [9, 9]);
    {
        use std::io::{ErrorKind, Read, Write};
        assert_eq!(tx.write(b"a").unwrap_err().kind(), ErrorKind::WouldBlock);
        assert_eq!(rx.read(&mut out).unwrap_err().kind(), ErrorKind::WouldBlock);
    }
    assert_eq!(format!("{tx:?}"), "Producer { capacity: 0, slots: 0 }");
    assert_eq!(format!("{rx:?}"), "Consumer { capacity: 0, slots: 0 }");
    // Zero-sized items, and `try_new`, alike.
    let (mut tx, mut rx) = RingBuffer::<Zst<3>>::try_new(0).unwrap();
    assert!(tx.push(Zst).is_err());
    assert_eq!(
        zst_drops::<3>(),
        1,
        "the refused item, dropped by the caller"
    );
    assert!(rx.pop().is_err());
    drop((tx, rx));
    assert_eq!(zst_drops::<3>(), 1, "the ring held nothing to drop");
}

/// `buffer()` is the ring both halves share (`==` is identity, as in
/// rtrb) and tells its capacity; `cached_slots` is what a half last saw,
/// a lower bound that only a call loading the other half's index raises.
#[test]
fn buffer_is_the_shared_ring_and_cached_slots_a_stale_lower_bound() {
    let (mut tx, mut rx) = RingBuffer::<u32>::new(3);
    let (other_tx, other_rx) = RingBuffer::<u32>::new(3);
    assert!(tx.buffer() == rx.buffer());
    assert!(tx.buffer() != other_tx.buffer());
    assert!(rx.buffer() != other_rx.buffer());
    let (same_tx, same_rx) = (&tx, &rx);
    assert!(tx == *same_tx && rx == *same_rx);
    assert!(tx != other_tx && rx != other_rx);
    assert_eq!(tx.buffer().capacity(), 3);
    assert!(format!("{:?}", rx.buffer()).starts_with("RingBuffer {"));

    assert_eq!((tx.cached_slots(), rx.cached_slots()), (3, 0));
    assert_eq!(tx.push_slice(&[1, 2, 3]), 3);
    assert_eq!((tx.cached_slots(), rx.cached_slots()), (0, 0));
    assert_eq!(rx.pop(), Ok(1)); // loads the tail: sees all three
    assert_eq!(rx.cached_slots(), 2);
    assert_eq!(tx.cached_slots(), 0, "raised before the producer loaded");
    assert_eq!(tx.slots(), 1);
    assert_eq!(tx.cached_slots(), 1);
    assert_eq!(rx.pop(), Ok(2)); // its copy sufficed: no load
    assert_eq!(tx.push(4), Ok(())); // its copy sufficed too
    assert_eq!((tx.cached_slots(), rx.cached_slots()), (0, 1));
    assert_eq!((tx.slots(), rx.slots()), (1, 2));
}

/// rtrb's paths and helpers: `chunks::*` are the root's types,
/// `WriteChunk::from` a `WriteChunkUninit` fills it with defaults,
/// `CopyToUninit` copies exactly and panics on a length mismatch, and
/// `ReadChunkIntoIter::iterated` counts what was moved out.
#[test]
fn rtrb_chunks_path_copy_to_uninit_and_iterated() {
    use hotq_spsc::CopyToUninit;
    use hotq_spsc::chunks;

    let (mut tx, mut rx) = RingBuffer::<u32>::new(4);
    let refused: chunks::ChunkError = rx.read_chunk(1).unwrap_err();
    assert_eq!(refused, ChunkError::TooFewSlots(0));
    let chunk: chunks::WriteChunkUninit<'_, u32> = tx.write_chunk_uninit(0).unwrap();
    drop(chunk);

    let mut dst = [MaybeUninit::<u32>::uninit(); 3];
    assert_eq!([7, 8, 9].copy_to_uninit(&mut dst), [7, 8, 9]);
    let mut short = [MaybeUninit::new(5u32)];
    let message = panic_message(move || {
        let _ = [1, 2].copy_to_uninit(&mut short);
    });
    assert!(
        message.contains("source slice length does not match destination slice length"),
        "{message}"
    );

    let defaults = chunks::WriteChunk::from(tx.write_chunk_uninit(2).unwrap());
    assert_eq!(defaults.len(), 2);
    defaults.commit(1);
    assert_eq!(rx.pop(), Ok(0));
    assert!(rx.is_empty(), "the uncommitted default was not published");

    assert_eq!(tx.push_slice(&[1, 2, 3]), 3);
    let mut items = rx.read_chunk(3).unwrap().into_iter();
    assert_eq!(items.iterated(), 0);
    assert_eq!(items.next(), Some(1));
    assert_eq!(items.next(), Some(2));
    assert_eq!(items.iterated(), 2);
    drop(items);
    assert_eq!(rx.pop(), Ok(3), "what was not iterated stays");
    let mut items = rx.read_chunk(0).unwrap().into_iter();
    assert_eq!((items.next(), items.iterated()), (None, 0));
}

#[test]
#[cfg(target_pointer_width = "64")]
fn capacities_whose_storage_cannot_exist_are_refused_as_too_large() {
    // Rounding up to a power of two overflows.
    assert_eq!(
        RingBuffer::<u8>::try_new(usize::MAX).unwrap_err(),
        CapacityError::TooLarge
    );
    assert_eq!(
        RingBuffer::<u8>::try_new((1 << 63) + 1).unwrap_err(),
        CapacityError::TooLarge
    );
    // The bytes overflow `usize`.
    assert_eq!(
        RingBuffer::<u64>::try_new(1 << 62).unwrap_err(),
        CapacityError::TooLarge
    );
    // The capacity's bytes fit in `isize`, the rounded-up storage's not.
    assert_eq!(
        RingBuffer::<u8>::try_new(isize::MAX as usize / 2 + 2).unwrap_err(),
        CapacityError::TooLarge
    );
    assert_eq!(
        RingBuffer::<u16>::try_new(1 << 62).unwrap_err(),
        CapacityError::TooLarge
    );
    // Indexable, but no machine can allocate 4 EiB. Not under miri: it
    // stops the whole run with "resource exhaustion" instead of failing the
    // allocation, so the refusal cannot be observed there (everything
    // above still runs under miri).
    if !cfg!(miri) {
        assert_eq!(
            RingBuffer::<u8>::try_new(1 << 62).unwrap_err(),
            CapacityError::TooLarge
        );
    }
}

#[test]
fn new_panics_with_the_capacity_errors_message() {
    assert_eq!(
        panic_message(|| RingBuffer::<u64>::new(usize::MAX)),
        CapacityError::TooLarge.to_string()
    );
}

#[test]
fn abandoned_flags_tell_each_half_the_other_is_gone() {
    let (mut tx, rx) = RingBuffer::<u32>::new(2);
    assert!(!tx.is_abandoned() && !rx.is_abandoned());
    drop(rx);
    assert!(tx.is_abandoned());
    // Pushing still works (the items go with the ring).
    assert_eq!(tx.push(1), Ok(()));
    assert!(tx.is_abandoned());

    let (mut tx, mut rx) = RingBuffer::<u32>::new(2);
    tx.push(7).unwrap();
    drop(tx);
    assert!(rx.is_abandoned());
    assert_eq!(rx.pop(), Ok(7));
    assert_eq!(rx.pop(), Err(PopError::Empty));
    assert!(rx.is_abandoned());
}

#[test]
fn consumer_pops_everything_pushed_before_the_producer_dropped_on_another_thread() {
    const ITEMS: u32 = 200;
    let (mut tx, mut rx) = RingBuffer::<u32>::new(ITEMS as usize);
    let start = Arc::new(Barrier::new(2));
    let producer = thread::spawn({
        let start = Arc::clone(&start);
        move || {
            start.wait();
            for i in 0..ITEMS {
                tx.push(i).unwrap();
            }
            // Dropping the producer publishes the flag, after the items.
        }
    });
    start.wait();
    // Look only at the flag until it is set; then every item must be there.
    wait_for("the producer to drop", || rx.is_abandoned().then_some(()));
    assert_eq!(rx.slots(), ITEMS as usize);
    for i in 0..ITEMS {
        assert_eq!(rx.pop(), Ok(i));
    }
    assert_eq!(rx.pop(), Err(PopError::Empty));
    producer.join().unwrap();
}

#[test]
fn consumer_racing_a_quitting_producer_gets_every_item_in_order() {
    // Under miri (which interprets every instruction) fewer, still many
    // laps of the ring.
    const ITEMS: u32 = if cfg!(miri) { 500 } else { 20_000 };
    let (mut tx, mut rx) = RingBuffer::<u32>::new(16);
    let start = Arc::new(Barrier::new(2));
    let producer = thread::spawn({
        let start = Arc::clone(&start);
        move || {
            start.wait();
            for i in 0..ITEMS {
                let mut item = Some(i);
                wait_for("room", || match tx.push(item.take()?) {
                    Ok(()) => Some(()),
                    Err(full) => {
                        item = Some(full.into_inner());
                        None
                    }
                });
            }
        }
    });
    start.wait();
    let mut got = Vec::with_capacity(ITEMS as usize);
    wait_for("the producer to finish", || {
        // The flag first: if it was set, the drain below sees everything.
        let abandoned = rx.is_abandoned();
        while let Ok(v) = rx.pop() {
            got.push(v);
            assert!(got.len() <= ITEMS as usize, "more items than were pushed");
        }
        abandoned.then_some(())
    });
    assert!(
        got.iter().copied().eq(0..ITEMS),
        "got {} items, not 0..{ITEMS} in order",
        got.len()
    );
    producer.join().unwrap();
}

#[test]
fn producer_sees_the_consumer_dropped_on_another_thread() {
    let (mut tx, rx) = RingBuffer::<u32>::new(4);
    tx.push(1).unwrap();
    let start = Arc::new(Barrier::new(2));
    let consumer = thread::spawn({
        let start = Arc::clone(&start);
        move || {
            start.wait();
            drop(rx);
        }
    });
    assert!(!tx.is_abandoned());
    start.wait();
    wait_for("the consumer to drop", || tx.is_abandoned().then_some(()));
    consumer.join().unwrap();
    assert!(tx.is_abandoned());
}

/// `<T as NotSync<_>>::check()` compiles only if `T` is not `Sync`: when it
/// is, both impls apply and the `_` is ambiguous. (`static_assertions`'
/// `assert_not_impl_any!` trick, without the dependency.)
trait NotSync<A> {
    fn check() {}
}
impl<T: ?Sized> NotSync<()> for T {}
struct IsSync;
impl<T: ?Sized + Sync> NotSync<IsSync> for T {}

/// The same for `Send`.
trait NotSend<A> {
    fn check() {}
}
impl<T: ?Sized> NotSend<()> for T {}
struct IsSend;
impl<T: ?Sized + Send> NotSend<IsSend> for T {}

fn is_send<T: Send>() {}

#[test]
fn halves_are_send_but_never_sync() {
    is_send::<Producer<u32>>();
    is_send::<Consumer<u32>>();
    is_send::<Producer<String>>();
    is_send::<Consumer<Vec<u8>>>();
    // `Cell` is `Send` but not `Sync`: the halves only need `T: Send`.
    is_send::<Producer<std::cell::Cell<u8>>>();
    is_send::<Consumer<std::cell::Cell<u8>>>();
    <Producer<u32> as NotSync<_>>::check();
    <Consumer<u32> as NotSync<_>>::check();
    // Items that must stay on their thread keep the halves there too.
    <Producer<std::rc::Rc<u8>> as NotSend<_>>::check();
    <Consumer<std::rc::Rc<u8>> as NotSend<_>>::check();
    // A chunk holds its half by `&mut`: never shared either.
    <ReadChunk<'static, u32> as NotSync<_>>::check();
}

/// An item that cannot be printed.
struct Secret(#[allow(dead_code)] u64);

#[test]
fn debug_shows_capacity_and_slots_but_no_items() {
    let (mut tx, mut rx) = RingBuffer::new(4);
    tx.push(Secret(987_654_321)).unwrap();
    assert_eq!(format!("{tx:?}"), "Producer { capacity: 4, slots: 3 }");
    assert_eq!(format!("{rx:?}"), "Consumer { capacity: 4, slots: 1 }");
    let chunk = tx.write_chunk_uninit(2).unwrap();
    assert_eq!(format!("{chunk:?}"), "WriteChunkUninit { len: 2 }");
    let chunk = rx.read_chunk(1).unwrap();
    assert_eq!(format!("{chunk:?}"), "ReadChunk { len: 1 }");
    let mut items = chunk.into_iter();
    assert_eq!(format!("{items:?}"), "ReadChunkIntoIter { remaining: 1 }");
    assert!(items.next().is_some());
    assert_eq!(format!("{items:?}"), "ReadChunkIntoIter { remaining: 0 }");
    let (mut tx, _rx) = RingBuffer::new(1);
    tx.push(Secret(5)).unwrap();
    let refused = tx.push(Secret(987_654_321)).unwrap_err();
    assert_eq!(format!("{refused:?}"), "Full(..)");
    let (mut tx, _rx) = RingBuffer::<u32>::new(3);
    let chunk = tx.write_chunk(3).unwrap();
    assert_eq!(format!("{chunk:?}"), "WriteChunk { len: 3 }");
}

#[test]
fn errors_display_their_messages() {
    assert_eq!(
        CapacityError::TooLarge.to_string(),
        "ring buffer capacity too large: its storage cannot be allocated or indexed"
    );
    assert_eq!(PushError::Full(3).to_string(), "ring buffer is full");
    assert_eq!(PopError::Empty.to_string(), "ring buffer is empty");
    assert_eq!(PeekError::Empty.to_string(), "ring buffer is empty");
    assert_eq!(
        ChunkError::TooFewSlots(3).to_string(),
        "only 3 slots available"
    );
    // And they are all `std::error::Error`s.
    let errors: [&dyn std::error::Error; 5] = [
        &CapacityError::TooLarge,
        &PushError::Full(()),
        &PopError::Empty,
        &PeekError::Empty,
        &ChunkError::TooFewSlots(0),
    ];
    assert!(errors.iter().all(|e| e.source().is_none()));
}

#[test]
fn zero_length_chunks_are_always_granted_and_change_nothing() {
    let (mut tx, mut rx) = RingBuffer::<u32>::new(2);
    let chunk = rx.read_chunk(0).unwrap();
    assert!(chunk.is_empty());
    assert_eq!(chunk.as_slices(), (&[][..], &[][..]));
    chunk.commit_all();
    assert_eq!(tx.push_slice(&[1, 2]), 2);
    let chunk = tx.write_chunk_uninit(0).unwrap();
    assert!(chunk.is_empty());
    assert_eq!(chunk.fill_from_iter(10..), 0);
    let chunk = tx.write_chunk(0).unwrap();
    assert!(chunk.is_empty());
    chunk.commit_all();
    assert_eq!(rx.read_chunk(0).unwrap().into_iter().next(), None);
    assert_eq!(tx.push_slice(&[]), 0);
    assert_eq!(rx.pop_slice(&mut []), 0);
    assert_eq!(rx.pop(), Ok(1));
    assert_eq!(rx.pop(), Ok(2));
    assert_eq!(rx.pop(), Err(PopError::Empty));
}

#[test]
fn committing_more_than_a_chunk_holds_panics_and_changes_nothing() {
    let (mut tx, mut rx) = RingBuffer::<u32>::new(4);
    assert_eq!(tx.push_slice(&[1, 2]), 2);

    let message = panic_message(std::panic::AssertUnwindSafe(|| {
        rx.read_chunk(2).unwrap().commit(3)
    }));
    assert_eq!(message, "cannot commit 3 items of a read chunk of 2");
    assert_eq!((rx.slots(), tx.slots()), (2, 2));

    let message = panic_message(std::panic::AssertUnwindSafe(|| {
        let mut chunk = tx.write_chunk_uninit(2).unwrap();
        let (a, b) = chunk.as_mut_slices();
        a.iter_mut()
            .chain(b)
            .for_each(|slot| *slot = MaybeUninit::new(9));
        // SAFETY: it panics before publishing anything (and would publish
        // only the two slots written).
        unsafe { chunk.commit(3) }
    }));
    assert_eq!(message, "cannot commit 3 slots of a write chunk of 2");
    assert_eq!((rx.slots(), tx.slots()), (2, 2));

    let message = panic_message(std::panic::AssertUnwindSafe(|| {
        tx.write_chunk(1).unwrap().commit(2)
    }));
    assert_eq!(message, "cannot commit 2 slots of a write chunk of 1");
    assert_eq!((rx.slots(), tx.slots()), (2, 2));

    assert_eq!(rx.pop(), Ok(1));
    assert_eq!(rx.pop(), Ok(2));
    assert_eq!(rx.pop(), Err(PopError::Empty));
}
