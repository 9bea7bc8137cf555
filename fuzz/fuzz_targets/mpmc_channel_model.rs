//! hotq-mpmc's channel on one thread: every non-blocking operation in the
//! order the fuzzer picks — `try_*`, the timed calls with zero or short
//! deadlines (which must not block past them), one poll of `send_async`
//! and `recv_async` (dropped pending or not), clones and drops of either
//! half (disconnection), `Select` over a send and a receive arm (tried, or
//! with a short timeout), and timer channels (`after`, alone and as a
//! select arm beside the channel) — each result checked against a
//! `VecDeque` model.
//! Items are boxed, so the sanitizer sees a double drop or a leak.
#![no_main]

use std::collections::VecDeque;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use arbitrary::Arbitrary;
use hotq_mpmc::{
    RecvTimeoutError, Select, SendTimeoutError, TryRecvError, TrySendError, after, bounded,
};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input {
    /// 1 + this % 8.
    capacity: u8,
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
    /// A `Select` with a send arm and/or a receive arm on the channel:
    /// `try_select`, or `select_timeout` for this many microseconds (% 200).
    Select {
        send: bool,
        recv: bool,
        wait_us: Option<u8>,
    },
    /// `after` this many microseconds (% 200): received once, not early.
    After(u8),
    /// A blocking select over the channel's receive arm and an `after`
    /// timer of this many microseconds (% 200): it returns by the timer
    /// at the latest.
    SelectOrAfter(u8),
}

fuzz_target!(|input: Input| {
    let capacity = 1 + input.capacity as usize % 8;
    let (tx, rx) = bounded::<Box<u32>>(capacity);
    let mut senders = vec![tx];
    let mut receivers = vec![rx];
    let mut model: VecDeque<u32> = VecDeque::new();
    let mut next = 0u32;
    let mut cx = Context::from_waker(Waker::noop());
    // Once a side's last handle is gone the channel is disconnected for
    // good (a new clone needs a live handle).
    let mut senders_gone = false;
    let mut receivers_gone = false;
    for op in input.ops {
        let full = model.len() == capacity;
        match op {
            Op::TrySend
            | Op::SendTimeout(_)
            | Op::SendDeadlinePast
            | Op::SendAsyncOnce
            | Op::Send => {
                let Some(tx) = senders.last() else { continue };
                if matches!(op, Op::Send) && full && !receivers_gone {
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
                        assert!(
                            !full && !receivers_gone,
                            "sent into a full or disconnected channel"
                        );
                        model.push_back(next);
                    }
                    Err((back, was_full)) => {
                        assert_eq!(*back, next, "the value was not given back");
                        if receivers_gone {
                            assert!(!was_full, "full reported after disconnection");
                        } else {
                            assert!(full && was_full, "refused with room");
                        }
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
                if matches!(op, Op::Recv) && model.is_empty() && !senders_gone {
                    continue;
                }
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
                match got {
                    Ok(v) => assert_eq!(Some(*v), model.pop_front(), "received out of order"),
                    Err(empty) => {
                        assert!(
                            model.is_empty(),
                            "nothing received from a non-empty channel"
                        );
                        assert_eq!(empty, !senders_gone, "empty vs disconnected");
                    }
                }
            }
            Op::CloneSender => {
                if let Some(tx) = senders.last() {
                    senders.push(tx.clone());
                }
            }
            Op::DropSender => {
                if senders.pop().is_some() && senders.is_empty() {
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
                    model.clear(); // the last receiver drops what is left
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
                    assert_eq!(len, model.len(), "len");
                    assert_eq!(empty, model.is_empty(), "is_empty");
                    assert_eq!(is_full, model.len() == capacity, "is_full");
                    assert_eq!(cap, capacity, "capacity");
                }
            }
            Op::Select {
                send,
                recv,
                wait_us,
            } => {
                let tx = senders.last().filter(|_| send);
                let rx = receivers.last().filter(|_| recv);
                if tx.is_none() && rx.is_none() {
                    continue;
                }
                let mut sel = Select::new();
                let send_index = tx.map(|t| sel.send(t));
                if let Some(r) = rx {
                    sel.recv(r);
                }
                let send_ready = tx.is_some() && (!full || receivers_gone);
                let recv_ready = rx.is_some() && (!model.is_empty() || senders_gone);
                let start = Instant::now();
                let oper = match wait_us {
                    None => sel.try_select().ok(),
                    Some(us) => sel
                        .select_timeout(Duration::from_micros(us as u64 % 200))
                        .ok(),
                };
                assert!(
                    start.elapsed() < Duration::from_secs(2),
                    "a short wait took too long"
                );
                match oper {
                    None => assert!(!send_ready && !recv_ready, "a ready arm was missed"),
                    Some(oper) if Some(oper.index()) == send_index => {
                        assert!(send_ready, "a send arm chosen on a full channel");
                        let tx = tx.expect("a send arm");
                        match oper.send(tx, Box::new(next)) {
                            Ok(()) => model.push_back(next),
                            Err(back) => {
                                assert!(receivers_gone, "a send arm refused with receivers");
                                assert_eq!(*back.0, next, "the value was not given back");
                            }
                        }
                        next += 1;
                    }
                    Some(oper) => {
                        assert!(recv_ready, "a receive arm chosen on an empty channel");
                        match oper.recv(rx.expect("a receive arm")) {
                            Ok(v) => {
                                assert_eq!(Some(*v), model.pop_front(), "selected out of order")
                            }
                            Err(_) => assert!(model.is_empty() && senders_gone),
                        }
                    }
                }
            }
            Op::After(us) => {
                let d = Duration::from_micros(us as u64 % 200);
                let timer = after(d);
                let at = timer
                    .recv_timeout(Duration::from_secs(2))
                    .expect("an `after` fires once its duration has passed");
                assert!(Instant::now() >= at, "fired early");
                assert_eq!(timer.try_recv(), Err(TryRecvError::Empty), "fired twice");
            }
            Op::SelectOrAfter(us) => {
                let Some(rx) = receivers.last() else { continue };
                let d = Duration::from_micros(us as u64 % 200);
                let timer = after(d);
                let recv_ready = !model.is_empty() || senders_gone;
                let start = Instant::now();
                let mut sel = Select::new();
                let channel = sel.recv(rx);
                sel.recv(&timer);
                let oper = sel.select();
                assert!(
                    start.elapsed() < Duration::from_secs(2),
                    "a short wait took too long"
                );
                if oper.index() == channel {
                    assert!(recv_ready, "a receive arm chosen on an empty channel");
                    match oper.recv(rx) {
                        Ok(v) => assert_eq!(Some(*v), model.pop_front(), "selected out of order"),
                        Err(_) => assert!(model.is_empty() && senders_gone),
                    }
                } else {
                    let at = oper.recv(&timer).expect("a timer never disconnects");
                    assert!(Instant::now() >= at, "the timer arm fired early");
                }
            }
            Op::TryIter(n) => {
                if let Some(rx) = receivers.last() {
                    for v in rx.try_iter().take(n as usize % 4) {
                        assert_eq!(Some(*v), model.pop_front(), "try_iter order");
                    }
                }
            }
        }
    }
});
