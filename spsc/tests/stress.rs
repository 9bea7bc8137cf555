//! Two threads, many items, every capacity class: the consumer checks that
//! it receives exactly 0, 1, 2, … in order (strict FIFO, nothing lost,
//! nothing duplicated). Full size (10 million items per case) in release
//! builds, as `./test.sh` runs them; a smaller count in debug builds.

use std::thread;

use hotq_spsc::RingBuffer;
use hotq_testkit::wait_for;

/// Items per case. Under miri (which interprets every instruction) just
/// over two laps of the largest ring (1024).
const ITEMS: u64 = if cfg!(miri) {
    2_100
} else if cfg!(debug_assertions) {
    200_000
} else {
    10_000_000
};

/// Largest chunk either side asks for at once.
const MAX_CHUNK: u64 = 64;

fn single_items(capacity: usize) {
    let (mut tx, mut rx) = RingBuffer::<u64>::new(capacity);
    let producer = thread::spawn(move || {
        for i in 0..ITEMS {
            let mut item = Some(i);
            wait_for("push into a full ring", || match tx.push(item.take()?) {
                Ok(()) => Some(()),
                Err(full) => {
                    item = Some(full.into_inner());
                    None
                }
            });
        }
    });
    for expected in 0..ITEMS {
        let got = wait_for("pop from an empty ring", || rx.pop().ok());
        assert_eq!(got, expected, "capacity {capacity}: out of order");
    }
    producer.join().unwrap();
    assert!(rx.is_empty(), "capacity {capacity}: items beyond the last");
}

fn chunks(capacity: usize) {
    let (mut tx, mut rx) = RingBuffer::<u64>::new(capacity);
    let producer = thread::spawn(move || {
        let mut next = 0;
        while next < ITEMS {
            let want = (ITEMS - next).min(MAX_CHUNK) as usize;
            let n = wait_for("free slots", || {
                Some(tx.slots().min(want)).filter(|&n| n > 0)
            });
            let chunk = tx.write_chunk_uninit(n).unwrap();
            assert_eq!(chunk.fill_from_iter(next..), n);
            next += n as u64;
        }
    });
    let mut expected = 0;
    let mut round = 0u64;
    while expected < ITEMS {
        let n = wait_for("ready items", || Some(rx.slots()).filter(|&n| n > 0));
        let n = n.min(MAX_CHUNK as usize);
        let chunk = rx.read_chunk(n).unwrap();
        round += 1;
        if round % 2 == 0 {
            // Read in place, then drop by commit.
            let (a, b) = chunk.as_slices();
            for &got in a.iter().chain(b) {
                assert_eq!(got, expected, "capacity {capacity}: out of order");
                expected += 1;
            }
            chunk.commit_all();
        } else {
            // Move out by iteration.
            for got in chunk {
                assert_eq!(got, expected, "capacity {capacity}: out of order");
                expected += 1;
            }
        }
    }
    producer.join().unwrap();
    assert!(rx.is_empty(), "capacity {capacity}: items beyond the last");
}

#[test]
fn spsc_capacity_1() {
    single_items(1);
}

#[test]
fn spsc_capacity_2() {
    single_items(2);
}

#[test]
fn spsc_capacity_3() {
    single_items(3);
}

#[test]
fn spsc_capacity_1024() {
    single_items(1024);
}

#[test]
fn chunks_capacity_1() {
    chunks(1);
}

#[test]
fn chunks_capacity_2() {
    chunks(2);
}

#[test]
fn chunks_capacity_3() {
    chunks(3);
}

#[test]
fn chunks_capacity_1024() {
    chunks(1024);
}
