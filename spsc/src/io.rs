//! `std::io` for byte rings: the producer is a writer, the consumer a reader.
//!
//! Neither blocks: a full (resp. empty) ring is `ErrorKind::WouldBlock`.
//! A ring whose other half is gone behaves like a pipe: writing bytes is
//! `ErrorKind::BrokenPipe` (writing none is `Ok(0)`, as for a pipe), and
//! reading returns `Ok(0)` (end of file) once the last byte written has
//! been read.

use std::io;

use crate::{Consumer, Producer};

/// ```
/// use std::io::{ErrorKind, Write};
///
/// let (mut tx, rx) = hotq_spsc::RingBuffer::new(4);
/// assert_eq!(tx.write(b"hello").unwrap(), 4);
/// assert_eq!(tx.write(b"o").unwrap_err().kind(), ErrorKind::WouldBlock);
/// drop(rx);
/// assert_eq!(tx.write(b"o").unwrap_err().kind(), ErrorKind::BrokenPipe);
/// assert_eq!(tx.write(b"").unwrap(), 0); // nothing to write: no error
/// ```
impl io::Write for Producer<u8> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // Writing nothing succeeds, even with the reader gone (a pipe's
        // `write` of 0 bytes does not fail either).
        if buf.is_empty() {
            return Ok(0);
        }
        if self.is_abandoned() {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        match self.push_slice(buf) {
            0 => Err(io::ErrorKind::WouldBlock.into()),
            n => Ok(n),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        // Every write is published before it returns.
        Ok(())
    }
}

/// ```
/// use std::io::{ErrorKind, Read, Write};
///
/// let (mut tx, mut rx) = hotq_spsc::RingBuffer::new(8);
/// let mut buf = [0; 8];
/// assert_eq!(rx.read(&mut buf).unwrap_err().kind(), ErrorKind::WouldBlock);
/// tx.write_all(b"hi").unwrap();
/// drop(tx);
/// assert_eq!(rx.read(&mut buf).unwrap(), 2);
/// assert_eq!(&buf[..2], b"hi");
/// assert_eq!(rx.read(&mut buf).unwrap(), 0); // the writer is gone: end of file
/// ```
impl io::Read for Consumer<u8> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // `buf` is the caller's initialised buffer; only whole bytes from
        // the ring are copied into it, so nothing uninitialised is exposed.
        let n = self.pop_slice(buf);
        if n > 0 || buf.is_empty() {
            return Ok(n);
        }
        if self.is_abandoned() {
            // The producer is gone, and seeing that (Acquire) made all it
            // pushed visible: one more look settles whether this is the end.
            return Ok(self.pop_slice(buf));
        }
        Err(io::ErrorKind::WouldBlock.into())
    }
}
