//! `std::io` on byte rings: `Producer<u8>` writes, `Consumer<u8>` reads,
//! neither blocks (`WouldBlock`), and a ring whose other half is gone acts
//! as a closed pipe (`BrokenPipe` for the writer, end of file for the
//! reader once drained).

use std::io::{ErrorKind, Read, Write};
use std::sync::{Arc, Barrier};
use std::thread;

use hotq_spsc::RingBuffer;
use hotq_testkit::wait_for;

#[test]
fn write_takes_what_fits_then_would_block_when_full() {
    let (mut tx, mut rx) = RingBuffer::<u8>::new(5);
    assert_eq!(tx.write(b"abc").unwrap(), 3);
    assert_eq!(tx.write(b"defg").unwrap(), 2);
    assert_eq!(tx.write(b"h").unwrap_err().kind(), ErrorKind::WouldBlock);
    // An empty write is not a blocked one.
    assert_eq!(tx.write(b"").unwrap(), 0);
    tx.flush().unwrap();
    let mut buf = [0; 8];
    assert_eq!(rx.read(&mut buf).unwrap(), 5);
    assert_eq!(&buf[..5], b"abcde");
    assert_eq!(tx.write(b"hij").unwrap(), 3);
    assert_eq!(rx.read(&mut buf).unwrap(), 3);
    assert_eq!(&buf[..3], b"hij");
}

#[test]
fn read_would_block_when_empty_while_the_writer_lives() {
    let (mut tx, mut rx) = RingBuffer::<u8>::new(4);
    let mut buf = [7; 4];
    assert_eq!(rx.read(&mut buf).unwrap_err().kind(), ErrorKind::WouldBlock);
    assert_eq!(rx.read(&mut []).unwrap(), 0);
    tx.write_all(b"xy").unwrap();
    assert_eq!(rx.read(&mut buf[..1]).unwrap(), 1);
    assert_eq!(rx.read(&mut buf[1..]).unwrap(), 1);
    assert_eq!(buf, [b'x', b'y', 7, 7]);
    assert_eq!(rx.read(&mut buf).unwrap_err().kind(), ErrorKind::WouldBlock);
}

#[test]
fn write_after_the_reader_dropped_is_a_broken_pipe() {
    let (mut tx, rx) = RingBuffer::<u8>::new(4);
    assert_eq!(tx.write(b"ab").unwrap(), 2);
    drop(rx);
    // With room left, and when full: broken either way, nothing taken.
    assert_eq!(tx.write(b"c").unwrap_err().kind(), ErrorKind::BrokenPipe);
    assert_eq!(tx.slots(), 2);
    assert_eq!(
        tx.write_all(b"cd").unwrap_err().kind(),
        ErrorKind::BrokenPipe
    );
    assert_eq!(tx.slots(), 2);
    tx.flush().unwrap();
}

/// As a pipe: writing no bytes is `Ok(0)`, with the reader there or gone,
/// and with the ring full or not.
#[test]
fn writing_nothing_is_ok_even_after_the_reader_dropped() {
    let (mut tx, rx) = RingBuffer::<u8>::new(2);
    assert_eq!(tx.write(b"").unwrap(), 0);
    tx.write_all(b"ab").unwrap();
    assert_eq!(tx.write(b"").unwrap(), 0, "full");
    drop(rx);
    assert_eq!(tx.write(b"").unwrap(), 0, "reader gone");
    tx.write_all(b"").unwrap();
    assert_eq!(tx.write(b"c").unwrap_err().kind(), ErrorKind::BrokenPipe);
}

#[test]
fn read_drains_then_reports_end_of_file_after_the_writer_dropped() {
    let (mut tx, mut rx) = RingBuffer::<u8>::new(8);
    tx.write_all(b"hello").unwrap();
    drop(tx);
    let mut buf = [0; 3];
    assert_eq!(rx.read(&mut buf).unwrap(), 3);
    assert_eq!(&buf, b"hel");
    assert_eq!(rx.read(&mut buf).unwrap(), 2);
    assert_eq!(&buf[..2], b"lo");
    // End of file, and it stays so.
    assert_eq!(rx.read(&mut buf).unwrap(), 0);
    assert_eq!(rx.read(&mut buf).unwrap(), 0);

    // `read_to_end` sees the same: everything, then the end.
    let (mut tx, mut rx) = RingBuffer::<u8>::new(8);
    tx.write_all(b"world").unwrap();
    drop(tx);
    let mut all = Vec::new();
    assert_eq!(rx.read_to_end(&mut all).unwrap(), 5);
    assert_eq!(all, b"world");
}

/// Deterministic, position-dependent bytes: a lost, repeated or reordered
/// run of bytes shows.
fn pattern(len: usize) -> Vec<u8> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 56) as u8
        })
        .collect()
}

#[test]
fn two_threads_copy_megabytes_through_a_small_ring_byte_for_byte() {
    // Under miri (which interprets every instruction) 2,000 bytes: still
    // 32 laps of the 61-byte ring.
    const LEN: usize = if cfg!(miri) { 2_000 } else { 4 << 20 };
    let data = Arc::new(pattern(LEN));
    let (mut tx, mut rx) = RingBuffer::<u8>::new(61);
    let start = Arc::new(Barrier::new(2));
    let writer = thread::spawn({
        let (data, start) = (Arc::clone(&data), Arc::clone(&start));
        move || {
            start.wait();
            let mut sent = 0;
            let mut round = 0usize;
            while sent < LEN {
                // Writes of 1 to 100 bytes, more than the ring holds at times.
                round += 1;
                let end = LEN.min(sent + 1 + round % 100);
                let n = wait_for("room to write", || match tx.write(&data[sent..end]) {
                    Ok(n) => Some(n),
                    Err(e) if e.kind() == ErrorKind::WouldBlock => None,
                    Err(e) => panic!("write failed: {e}"),
                });
                assert!(n > 0 && n <= end - sent, "wrote {n} of {}", end - sent);
                sent += n;
            }
            // Dropping the writer here is the reader's end of file.
        }
    });
    start.wait();
    let mut received = Vec::with_capacity(LEN);
    let mut buf = [0; 97];
    let mut round = 0usize;
    loop {
        round += 1;
        let want = 1 + round % buf.len();
        let n = wait_for("bytes to read", || match rx.read(&mut buf[..want]) {
            Ok(n) => Some(n),
            Err(e) if e.kind() == ErrorKind::WouldBlock => None,
            Err(e) => panic!("read failed: {e}"),
        });
        if n == 0 {
            break;
        }
        received.extend_from_slice(&buf[..n]);
        assert!(received.len() <= LEN, "more bytes than were written");
    }
    writer.join().unwrap();
    assert_eq!(received.len(), LEN);
    let first_difference = received.iter().zip(data.iter()).position(|(a, b)| a != b);
    assert_eq!(first_difference, None, "the copy differs");
}

#[test]
fn writer_gets_a_broken_pipe_once_the_reader_thread_quits() {
    let (mut tx, mut rx) = RingBuffer::<u8>::new(16);
    let start = Arc::new(Barrier::new(2));
    let reader = thread::spawn({
        let start = Arc::clone(&start);
        move || {
            start.wait();
            let mut buf = [0; 1000];
            let mut got = 0;
            while got < 1000 {
                got += wait_for("bytes", || rx.read(&mut buf[got..]).ok());
            }
            assert!(buf.iter().all(|&b| b == 0xAB));
            // Quits: dropping `rx` here.
        }
    });
    start.wait();
    let bytes = [0xAB; 64];
    let mut sent = 0usize;
    let error = wait_for("the broken pipe", || match tx.write(&bytes) {
        Ok(n) => {
            sent += n;
            None
        }
        Err(e) if e.kind() == ErrorKind::WouldBlock => None,
        Err(e) => Some(e),
    });
    assert_eq!(error.kind(), ErrorKind::BrokenPipe);
    assert!(sent >= 1000, "only {sent} bytes sent before the pipe broke");
    reader.join().unwrap();
    assert!(tx.is_abandoned());
}
