//! hotq-mpmc's channel on one thread: every non-blocking operation in the
//! order the fuzzer picks — `try_*`, the timed calls with zero or short
//! deadlines (which must not block past them), one poll of `send_async`
//! and `recv_async` (dropped pending or not), clones and drops of either
//! half (disconnection), reservations (`try_reserve`, one poll of
//! `reserve_async`) and their permits sent or dropped, `close`,
//! `try_recv_many`, `force_send` — each result checked against a model:
//! a `VecDeque` of slots, each an item, a held permit's slot or a dropped
//! permit's tombstone. Items are boxed, so the sanitizer sees a double
//! drop or a leak.
#![no_main]

use std::collections::VecDeque;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use arbitrary::Arbitrary;
use hotq_mpmc::{
    Permit, RecvTimeoutError, SendError, SendTimeoutError, TryRecvError, TrySendError, bounded,
};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input {
    /// 1 + this % 8.
    capacity: u8,
    /// Whether this run reserves: a permit borrows a sender kept for the
    /// whole run (`reserver`), so the senders never all go.
    permits: bool,
    ops: Vec<Op>,
}

#[derive(Arbitrary, Debug)]
enum Op {
    TrySend,
    TryRecv,
    /// `send_timeout` / `recv_timeout` for this many microseconds (% 200).
    SendTimeout(u8),
    RecvTimeout(u8),
    /// A deadline already passed.
    SendDeadlinePast,
    RecvDeadlinePast,
    /// One poll, then the future is dropped.
    SendAsyncOnce,
    RecvAsyncOnce,
    /// Blocking calls, only when they cannot block (the model says so).
    Send,
    Recv,
    CloneSender,
    DropSender,
    CloneReceiver,
    DropReceiver,
    Observe,
    TryIter(u8),
    TryReserve,
    /// One poll of `reserve_async`, then the future is dropped (a permit
    /// it gave is kept).
    ReserveAsyncOnce,
    /// The permit at this index (% the number held) sends, or is dropped.
    PermitSend(u8),
    PermitDrop(u8),
    Close,
    /// `try_recv_many` with a limit of this % 5.
    TryRecvMany(u8),
    /// Skipped when it would wait: the channel full with a held permit as
    /// its oldest slot (nothing to evict).
    ForceSend,
}

/// One slot of the model, oldest first.
#[derive(Debug, PartialEq)]
enum Slot {
    Item(u32),
    /// Held by the permit with this id.
    Held(u32),
    /// A permit dropped unsent, not skipped yet.
    Tomb,
}

/// The channel as the model sees it.
struct Model {
    slots: VecDeque<Slot>,
    capacity: usize,
    /// `Receiver::close` was called.
    closed: bool,
}

impl Model {
    fn items(&self) -> usize {
        self.slots
            .iter()
            .filter(|s| matches!(s, Slot::Item(_)))
            .count()
    }

    /// What a receive gets: the receivers skip tombstones at the front;
    /// a held slot there reads as empty. `Err(true)` empty,
    /// `Err(false)` disconnected.
    fn recv(&mut self, senders_gone: bool) -> Result<u32, bool> {
        while self.slots.front() == Some(&Slot::Tomb) {
            self.slots.pop_front();
        }
        match self.slots.front() {
            Some(Slot::Item(v)) => {
                let v = *v;
                self.slots.pop_front();
                Ok(v)
            }
            Some(_) => Err(true),
            None => Err(!(senders_gone || self.closed)),
        }
    }

    /// Whether a blocking receive would wait: the first slot that is not
    /// a tombstone is held, or there is none and the channel is open.
    fn would_block(&self, senders_gone: bool) -> bool {
        match self.slots.iter().find(|s| **s != Slot::Tomb) {
            Some(Slot::Held(_)) => true,
            Some(_) => false,
            None => !(senders_gone || self.closed),
        }
    }

    /// Whether a send or reserve finds room (a full channel whose oldest
    /// slot is a tombstone skips it first); `Err(true)` full.
    fn room(&mut self, receivers_gone: bool) -> Result<(), bool> {
        if receivers_gone || self.closed {
            return Err(false);
        }
        if self.slots.len() == self.capacity {
            if self.slots.front() != Some(&Slot::Tomb) {
                return Err(true);
            }
            self.slots.pop_front();
        }
        Ok(())
    }

    /// After the last receiver's drain, or a permit's send or skip once
    /// it is gone: items and tombstones go from the front, up to a held
    /// slot.
    fn drain(&mut self) {
        while matches!(self.slots.front(), Some(Slot::Item(_) | Slot::Tomb)) {
            self.slots.pop_front();
        }
    }

    fn at(&self, id: u32) -> usize {
        self.slots
            .iter()
            .position(|s| *s == Slot::Held(id))
            .expect("a held permit's slot")
    }
}

fuzz_target!(|input: Input| {
    let capacity = 1 + input.capacity as usize % 8;
    let (tx, rx) = bounded::<Box<u32>>(capacity);
    let reserver = input.permits.then(|| tx.clone());
    let mut permits: Vec<(Permit<'_, Box<u32>>, u32)> = Vec::new();
    let mut next_permit = 0u32;
    let mut senders = vec![tx];
    let mut receivers = vec![rx];
    let mut model = Model {
        slots: VecDeque::new(),
        capacity,
        closed: false,
    };
    let mut next = 0u32;
    let mut cx = Context::from_waker(Waker::noop());
    // Once a side's last handle is gone the channel is disconnected for
    // good (a new clone needs a live handle).
    let mut senders_gone = false;
    let mut receivers_gone = false;
    for op in input.ops {
        match op {
            Op::TrySend
            | Op::SendTimeout(_)
            | Op::SendDeadlinePast
            | Op::SendAsyncOnce
            | Op::Send => {
                let Some(tx) = senders.last() else { continue };
                let room = model.room(receivers_gone);
                if matches!(op, Op::Send) && room == Err(true) {
                    continue; // would block forever on one thread
                }
                let item = Box::new(next);
                let start = Instant::now();
                // Ok(()) sent; Err((value, was_full)) not sent.
                let sent: Result<(), (Box<u32>, bool)> = match op {
                    Op::TrySend => tx.try_send(item).map_err(|e| match e {
                        TrySendError::Full(v) => (v, true),
                        TrySendError::Disconnected(v) => (v, false),
                    }),
                    Op::SendTimeout(us) => tx
                        .send_timeout(item, Duration::from_micros(us as u64 % 200))
                        .map_err(|e| match e {
                            SendTimeoutError::Timeout(v) => (v, true),
                            SendTimeoutError::Disconnected(v) => (v, false),
                        }),
                    Op::SendDeadlinePast => tx.send_deadline(item, start).map_err(|e| match e {
                        SendTimeoutError::Timeout(v) => (v, true),
                        SendTimeoutError::Disconnected(v) => (v, false),
                    }),
                    Op::SendAsyncOnce => {
                        let mut fut = pin!(tx.send_async(item));
                        match fut.as_mut().poll(&mut cx) {
                            Poll::Ready(r) => r.map_err(|e| (e.0, false)),
                            // Pending: the future (and its value) is dropped.
                            Poll::Pending => Err((Box::new(next), true)),
                        }
                    }
                    _ => tx.send(item).map_err(|e| (e.0, false)),
                };
                assert!(
                    start.elapsed() < Duration::from_secs(2),
                    "a short wait took too long"
                );
                match sent {
                    Ok(()) => {
                        assert_eq!(room, Ok(()), "sent into a full or disconnected channel");
                        model.slots.push_back(Slot::Item(next));
                    }
                    Err((back, was_full)) => {
                        assert_eq!(*back, next, "the value was not given back");
                        assert_eq!(
                            room,
                            Err(was_full),
                            "refused with room, or full vs disconnected"
                        );
                    }
                }
                next += 1;
            }
            Op::TryRecv
            | Op::RecvTimeout(_)
            | Op::RecvDeadlinePast
            | Op::RecvAsyncOnce
            | Op::Recv => {
                let Some(rx) = receivers.last() else { continue };
                if matches!(op, Op::Recv) && model.would_block(senders_gone) {
                    continue; // would block forever on one thread
                }
                let expected = model.recv(senders_gone);
                let start = Instant::now();
                // Ok(v) received; Err(true) empty, Err(false) disconnected.
                let got: Result<Box<u32>, bool> = match op {
                    Op::TryRecv => rx.try_recv().map_err(|e| e == TryRecvError::Empty),
                    Op::RecvTimeout(us) => rx
                        .recv_timeout(Duration::from_micros(us as u64 % 200))
                        .map_err(|e| e == RecvTimeoutError::Timeout),
                    Op::RecvDeadlinePast => rx
                        .recv_deadline(start)
                        .map_err(|e| e == RecvTimeoutError::Timeout),
                    Op::RecvAsyncOnce => {
                        let mut fut = pin!(rx.recv_async());
                        match fut.as_mut().poll(&mut cx) {
                            Poll::Ready(r) => r.map_err(|_| false),
                            Poll::Pending => Err(true),
                        }
                    }
                    _ => rx.recv().map_err(|_| false),
                };
                assert!(
                    start.elapsed() < Duration::from_secs(2),
                    "a short wait took too long"
                );
                assert_eq!(got.map(|v| *v), expected, "received, empty or disconnected");
            }
            Op::CloneSender => {
                if let Some(tx) = senders.last() {
                    senders.push(tx.clone());
                }
            }
            Op::DropSender => {
                // (`reserver`, when there is one, is a sender too.)
                if senders.pop().is_some() && senders.is_empty() && reserver.is_none() {
                    senders_gone = true;
                }
            }
            Op::CloneReceiver => {
                if let Some(rx) = receivers.last() {
                    receivers.push(rx.clone());
                }
            }
            Op::DropReceiver => {
                if receivers.pop().is_some() && receivers.is_empty() {
                    receivers_gone = true;
                    model.drain(); // the last receiver drops what is left
                }
            }
            Op::Observe => {
                let len = senders
                    .last()
                    .map(|t| (t.len(), t.is_empty(), t.is_full(), t.capacity()))
                    .or_else(|| {
                        receivers
                            .last()
                            .map(|r| (r.len(), r.is_empty(), r.is_full(), r.capacity()))
                    });
                if let Some((len, empty, is_full, cap)) = len {
                    // Items only; a full channel counts held slots too.
                    assert_eq!(len, model.items(), "len");
                    assert_eq!(empty, model.items() == 0, "is_empty");
                    assert_eq!(is_full, model.slots.len() == capacity, "is_full");
                    assert!(len + permits.len() <= cap, "len + permits over capacity");
                    assert_eq!(cap, capacity, "capacity");
                }
            }
            Op::TryIter(n) => {
                if let Some(rx) = receivers.last() {
                    let mut iter = rx.try_iter();
                    for _ in 0..n as usize % 4 {
                        // Each `next` is a `try_recv`: an empty one skips
                        // the tombstones at the front too.
                        let got = iter.next().map(|v| *v);
                        let expected = model.recv(senders_gone).ok();
                        assert_eq!(got, expected, "try_iter order");
                        if got.is_none() {
                            break;
                        }
                    }
                }
            }
            Op::TryReserve | Op::ReserveAsyncOnce => {
                let Some(tx) = reserver.as_ref() else {
                    continue;
                };
                let room = model.room(receivers_gone);
                let got: Result<Permit<'_, Box<u32>>, bool> = match op {
                    Op::TryReserve => tx.try_reserve().map_err(|e| e.is_full()),
                    _ => {
                        let mut fut = pin!(tx.reserve_async());
                        match fut.as_mut().poll(&mut cx) {
                            Poll::Ready(r) => r.map_err(|_| false),
                            Poll::Pending => Err(true),
                        }
                    }
                };
                match got {
                    Ok(permit) => {
                        assert_eq!(room, Ok(()), "reserved in a full or disconnected channel");
                        model.slots.push_back(Slot::Held(next_permit));
                        permits.push((permit, next_permit));
                        next_permit += 1;
                    }
                    Err(full) => assert_eq!(room, Err(full), "refused with room"),
                }
            }
            Op::PermitSend(i) | Op::PermitDrop(i) => {
                if permits.is_empty() {
                    continue;
                }
                let (permit, id) = permits.swap_remove(i as usize % permits.len());
                let at = model.at(id);
                if matches!(op, Op::PermitSend(_)) {
                    permit.send(Box::new(next));
                    model.slots[at] = Slot::Item(next);
                    next += 1;
                    if receivers_gone {
                        model.drain(); // the send drops what it can reach
                    }
                } else {
                    drop(permit);
                    model.slots[at] = Slot::Tomb;
                    if at == 0 {
                        // The oldest: the drop skips its own tombstone.
                        model.slots.pop_front();
                        if receivers_gone {
                            model.drain();
                        }
                    }
                }
            }
            Op::Close => {
                if let Some(rx) = receivers.last() {
                    rx.close();
                    model.closed = true;
                }
            }
            Op::TryRecvMany(limit) => {
                let Some(rx) = receivers.last() else { continue };
                let limit = limit as usize % 5;
                let mut buf = Vec::new();
                let got = rx.try_recv_many(&mut buf, limit);
                let mut want = Vec::new();
                let expected = if limit == 0 {
                    Ok(0)
                } else {
                    match model.recv(senders_gone) {
                        Err(empty) => Err(empty),
                        Ok(first) => {
                            want.push(first);
                            while want.len() < limit {
                                match model.recv(senders_gone) {
                                    Ok(v) => want.push(v),
                                    Err(_) => break,
                                }
                            }
                            Ok(want.len())
                        }
                    }
                };
                assert_eq!(
                    got.map_err(|e| e == TryRecvError::Empty),
                    expected,
                    "try_recv_many's count"
                );
                assert_eq!(buf.iter().map(|v| **v).collect::<Vec<_>>(), want);
            }
            Op::ForceSend => {
                let Some(tx) = senders.last() else { continue };
                let full = model.slots.len() == capacity;
                if full
                    && !receivers_gone
                    && !model.closed
                    && matches!(model.slots.front(), Some(Slot::Held(_)))
                {
                    continue; // waits for the permit: would block on one thread
                }
                let got = tx.force_send(Box::new(next));
                if receivers_gone || model.closed {
                    assert!(
                        matches!(&got, Err(SendError(v)) if **v == next),
                        "not refused"
                    );
                } else {
                    let evicted = if !full {
                        None
                    } else {
                        match model.slots.pop_front() {
                            Some(Slot::Item(v)) => Some(v),
                            // A tombstone: skipped, nothing evicted.
                            _ => None,
                        }
                    };
                    model.slots.push_back(Slot::Item(next));
                    assert_eq!(got.map(|e| e.map(|v| *v)), Ok(evicted), "force_send");
                }
                next += 1;
            }
        }
    }
    // Permits first: they borrow `reserver`.
    drop(permits);
});
