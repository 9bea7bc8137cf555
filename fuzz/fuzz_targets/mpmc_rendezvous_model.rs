//! hotq-mpmc's rendezvous channel, `bounded(0)`, on one thread: pending
//! `recv_async` and `send_async` futures stand in for the blocked peers a
//! single thread cannot have, so every hand-off the fuzzer orders can be
//! checked against a model: which waiting receiver a value goes to (the
//! oldest), which offer a receive takes (the oldest, a value given back by
//! a dropped receive first), when a `send_async` completes (only once its
//! value was taken), and where a dropped receive's value goes (to the next
//! waiting receiver, or back into the channel: never destroyed). The
//! try and timed calls (zero or short deadlines), `len`/`capacity`/
//! `is_full`, and `Receiver::close` (pending senders get their values
//! back; values given back stay receivable), are checked too. Values are boxed, so the sanitizer sees a double drop or
//! a leak.
#![no_main]

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use arbitrary::Arbitrary;
use hotq_mpmc::channel::{RecvFut, SendFut};
use hotq_mpmc::{
    RecvError, RecvTimeoutError, SendError, SendTimeoutError, TryRecvError, TrySendError, bounded,
};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Op {
    TrySend,
    /// `send_timeout` for this many microseconds (% 100).
    SendTimeout(u8),
    SendDeadlinePast,
    TryRecv,
    RecvTimeout(u8),
    RecvDeadlinePast,
    /// A new `recv_async`, polled once (kept while pending).
    StartRecv,
    /// Poll / drop the pending receive at this index (% count).
    PollRecv(u8),
    DropRecv(u8),
    /// A new `send_async`, polled once (kept while pending).
    StartSend,
    PollSend(u8),
    DropSend(u8),
    Observe,
    /// `Receiver::close`.
    Close,
}

/// A pending `recv_async` / `send_async` of the channel under test.
type PendingRecv<'a> = Pin<Box<RecvFut<'a, Box<u32>>>>;
type PendingSend<'a> = Pin<Box<SendFut<'a, Box<u32>>>>;

/// The model's view of a pending receive.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Recv {
    Waiting,
    Delivered(u32),
}

fuzz_target!(|ops: Vec<Op>| {
    let (tx, rx) = bounded::<Box<u32>>(0);
    run(&tx, &rx, ops);
});

fn run(tx: &hotq_mpmc::Sender<Box<u32>>, rx: &hotq_mpmc::Receiver<Box<u32>>, ops: Vec<Op>) {
    let mut cx = Context::from_waker(Waker::noop());
    // The real futures and, beside each, the model's id.
    let mut recvs: Vec<(u32, PendingRecv<'_>)> = Vec::new();
    let mut sends: Vec<(u32, PendingSend<'_>)> = Vec::new();
    // The model: waiting receivers in order (ids), what each pending
    // receive holds, the offers in order (sender id or none, value).
    let mut waiting: VecDeque<u32> = VecDeque::new();
    let mut recv_state: Vec<(u32, Recv)> = Vec::new();
    let mut offers: VecDeque<(Option<u32>, u32)> = VecDeque::new();
    let mut next_value = 0u32;
    let mut next_id = 0u32;
    let mut disconnected = false;

    // A value given to the oldest waiting receiver, if any (the model of
    // `hand_to_receiver`).
    let hand = |waiting: &mut VecDeque<u32>, state: &mut Vec<(u32, Recv)>, v: u32| -> bool {
        let Some(id) = waiting.pop_front() else {
            return false;
        };
        let s = state.iter_mut().find(|(i, _)| *i == id).expect("tracked");
        s.1 = Recv::Delivered(v);
        true
    };

    for op in ops {
        match op {
            Op::TrySend | Op::SendTimeout(_) | Op::SendDeadlinePast => {
                let v = next_value;
                next_value += 1;
                let start = Instant::now();
                let sent = match op {
                    Op::TrySend => tx.try_send(Box::new(v)).map_err(|e| match e {
                        TrySendError::Full(b) => (b, true),
                        TrySendError::Disconnected(b) => (b, false),
                    }),
                    Op::SendTimeout(us) => tx
                        .send_timeout(Box::new(v), Duration::from_micros(us as u64 % 100))
                        .map_err(|e| match e {
                            SendTimeoutError::Timeout(b) => (b, true),
                            SendTimeoutError::Disconnected(b) => (b, false),
                        }),
                    _ => tx.send_deadline(Box::new(v), start).map_err(|e| match e {
                        SendTimeoutError::Timeout(b) => (b, true),
                        SendTimeoutError::Disconnected(b) => (b, false),
                    }),
                };
                assert!(
                    start.elapsed() < Duration::from_secs(2),
                    "a short wait took too long"
                );
                let expect_ok = !disconnected && hand(&mut waiting, &mut recv_state, v);
                match sent {
                    Ok(()) => assert!(expect_ok, "sent with no receiver waiting"),
                    Err((b, full)) => {
                        assert!(!expect_ok, "refused although a receiver waited");
                        assert_eq!(*b, v, "the value was not given back");
                        assert_eq!(full, !disconnected, "full vs disconnected");
                    }
                }
            }
            Op::TryRecv | Op::RecvTimeout(_) | Op::RecvDeadlinePast => {
                let start = Instant::now();
                let got: Result<Box<u32>, bool> = match op {
                    Op::TryRecv => rx.try_recv().map_err(|e| e == TryRecvError::Empty),
                    Op::RecvTimeout(us) => rx
                        .recv_timeout(Duration::from_micros(us as u64 % 100))
                        .map_err(|e| e == RecvTimeoutError::Timeout),
                    _ => rx
                        .recv_deadline(start)
                        .map_err(|e| e == RecvTimeoutError::Timeout),
                };
                assert!(
                    start.elapsed() < Duration::from_secs(2),
                    "a short wait took too long"
                );
                let want = take_offer(&mut offers, disconnected);
                match got {
                    Ok(b) => assert_eq!(Some(*b), want, "received the wrong value"),
                    Err(empty) => {
                        assert_eq!(want, None, "nothing received though a value was offered");
                        assert_eq!(empty, !disconnected, "empty vs disconnected");
                    }
                }
            }
            Op::StartRecv => {
                let id = next_id;
                next_id += 1;
                let mut fut = Box::pin(rx.recv_async());
                let polled = fut.as_mut().poll(&mut cx);
                match (polled, take_offer(&mut offers, disconnected)) {
                    (Poll::Ready(Ok(b)), Some(v)) => assert_eq!(*b, v, "received the wrong value"),
                    (Poll::Ready(Err(RecvError)), None) => assert!(disconnected),
                    (Poll::Pending, None) => {
                        assert!(!disconnected, "pending on a disconnected channel");
                        waiting.push_back(id);
                        recv_state.push((id, Recv::Waiting));
                        recvs.push((id, fut));
                    }
                    (p, want) => panic!("recv_async polled {p:?}, model {want:?}"),
                }
            }
            Op::PollRecv(i) | Op::DropRecv(i) => {
                if recvs.is_empty() {
                    continue;
                }
                let at = i as usize % recvs.len();
                let id = recvs[at].0;
                let s = recv_state
                    .iter()
                    .position(|(x, _)| *x == id)
                    .expect("tracked");
                let state = recv_state[s].1;
                if matches!(op, Op::PollRecv(_)) {
                    let polled = recvs[at].1.as_mut().poll(&mut cx);
                    match (polled, state) {
                        (Poll::Ready(Ok(b)), Recv::Delivered(v)) => {
                            assert_eq!(*b, v, "the delivery changed");
                        }
                        (Poll::Pending, Recv::Waiting) if !disconnected => continue,
                        (Poll::Ready(r), Recv::Waiting) if disconnected => {
                            // Woken by the disconnection: a value given
                            // back may still be taken, else the error.
                            waiting.retain(|&w| w != id);
                            match (r, take_offer(&mut offers, true)) {
                                (Ok(b), Some(v)) => assert_eq!(*b, v),
                                (Err(RecvError), None) => {}
                                other => panic!("after disconnection: {other:?}"),
                            }
                        }
                        (p, st) => panic!("pending receive polled {p:?}, model {st:?}"),
                    }
                } else {
                    drop(recvs.remove(at)); // mid hand-off, maybe
                    match state {
                        Recv::Waiting => waiting.retain(|&w| w != id),
                        Recv::Delivered(v) => {
                            // Given back: to the next waiting receiver, or
                            // first among the offers.
                            if !hand(&mut waiting, &mut recv_state, v) {
                                offers.push_front((None, v));
                            }
                        }
                    }
                    recv_state.remove(s);
                    continue;
                }
                drop(recvs.remove(at));
                recv_state.remove(s);
            }
            Op::StartSend => {
                let (id, v) = (next_id, next_value);
                next_id += 1;
                next_value += 1;
                let mut fut = Box::pin(tx.send_async(Box::new(v)));
                let polled = fut.as_mut().poll(&mut cx);
                if disconnected {
                    match polled {
                        Poll::Ready(Err(SendError(b))) => assert_eq!(*b, v),
                        p => panic!("send_async on a disconnected channel: {p:?}"),
                    }
                } else if hand(&mut waiting, &mut recv_state, v) {
                    assert_eq!(polled, Poll::Ready(Ok(())), "a receiver waited");
                } else {
                    assert_eq!(polled, Poll::Pending, "completed with no receiver");
                    offers.push_back((Some(id), v));
                    sends.push((id, fut));
                }
            }
            Op::PollSend(i) | Op::DropSend(i) => {
                if sends.is_empty() {
                    continue;
                }
                let at = i as usize % sends.len();
                let id = sends[at].0;
                let offered = offers.iter().position(|(s, _)| *s == Some(id));
                if matches!(op, Op::DropSend(_)) {
                    drop(sends.remove(at)); // withdrawn with its offer
                    if let Some(o) = offered {
                        offers.remove(o); // withdrawn
                    }
                    continue;
                }
                let polled = sends[at].1.as_mut().poll(&mut cx);
                match (polled, offered) {
                    (Poll::Pending, Some(_)) if !disconnected => continue,
                    (Poll::Ready(Ok(())), None) => {}
                    (Poll::Ready(Err(SendError(b))), Some(o)) if disconnected => {
                        assert_eq!(Some(*b), offers.remove(o).map(|(_, v)| v));
                    }
                    (p, o) => panic!("pending send polled {p:?}, offer {o:?}"),
                }
                drop(sends.remove(at));
            }
            Op::Observe => {
                let t = (tx.len(), tx.capacity(), tx.is_full(), tx.is_empty());
                let r = (rx.len(), rx.capacity(), rx.is_full(), rx.is_empty());
                assert_eq!(t, (0, 0, true, true), "len, capacity, is_full, is_empty");
                assert_eq!(r, t);
            }
            Op::Close => {
                rx.close();
                // Every waiting receiver is woken and leaves the list;
                // pending senders will take their values back.
                waiting.clear();
                disconnected = true;
            }
        }
    }
}

/// The model of `take_offer`: the oldest offer (after a disconnection,
/// only a value given back: blocked senders take theirs back).
fn take_offer(offers: &mut VecDeque<(Option<u32>, u32)>, disconnected: bool) -> Option<u32> {
    let at = offers
        .iter()
        .position(|(s, _)| !disconnected || s.is_none())?;
    offers.remove(at).map(|(_, v)| v)
}
