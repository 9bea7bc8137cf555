//! hotq-mpmc's `Select` and `select!` on one thread, over two channels, an
//! SPSC ring's two halves (feature `spsc`) and the timer channels `after`
//! and `never`, with every call the fuzzer picks — `try_select`,
//! `select_timeout` with a short timeout, `try_ready`, `ready_timeout`,
//! biased or not, any subset of arms — each result checked against a model
//! of what is ready: a chosen arm was ready, a biased select chose the
//! first ready arm, "nothing ready" only when nothing was, a short wait
//! never took long, and the completed operation (or, for a ring arm, the
//! pop or push after it) moved exactly the model's item. Items are boxed,
//! so the sanitizer sees a double drop or a leak.
#![no_main]

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use arbitrary::Arbitrary;
use hotq_mpmc::{Receiver, Select, Sender, after, bounded, never, select};
use hotq_spsc::RingBuffer;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input {
    /// Capacities: 1 + each % 4 (channels A and B, the ring).
    capacities: [u8; 3],
    ops: Vec<Op>,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Op {
    /// Fill or drain a queue directly (0, 1: channels; 2: the ring).
    Push(u8),
    Pop(u8),
    /// A `Select` over the arms whose bits are set (see `Arm`).
    Select {
        arms: u8,
        call: Call,
        biased: bool,
    },
    /// `select!` over a receive on A, a send on B and `default`.
    Macro,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Call {
    TrySelect,
    /// Microseconds, % 200.
    SelectTimeout(u8),
    TryReady,
    ReadyTimeout(u8),
}

/// The arms, in the order a `Select` lists them.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Arm {
    RecvA,
    RecvB,
    SendA,
    SendB,
    RecvRing,
    SendRing,
    Never,
    After,
}

const ARMS: [Arm; 8] = [
    Arm::RecvA,
    Arm::RecvB,
    Arm::SendA,
    Arm::SendB,
    Arm::RecvRing,
    Arm::SendRing,
    Arm::Never,
    Arm::After,
];

/// A channel.
struct Chan {
    tx: Sender<Box<u32>>,
    rx: Receiver<Box<u32>>,
    capacity: usize,
}

impl Chan {
    fn new(capacity: usize) -> Chan {
        let (tx, rx) = bounded(capacity);
        Chan { tx, rx, capacity }
    }
}

fuzz_target!(|input: Input| {
    let cap = |i: usize| 1 + input.capacities[i] as usize % 4;
    let chans = [Chan::new(cap(0)), Chan::new(cap(1))];
    // The channels' models, apart: a select borrows the channels.
    let mut models: [VecDeque<u32>; 2] = Default::default();
    let ring_capacity = cap(2);
    let (mut ring_tx, mut ring_rx) = RingBuffer::<Box<u32>>::new(ring_capacity);
    let mut ring: VecDeque<u32> = VecDeque::new();
    let timer = after(Duration::ZERO); // due at once, once
    let mut timer_taken = false;
    let nothing = never::<Box<u32>>();
    let mut next = 0u32;
    for op in input.ops {
        match op {
            Op::Push(q) if q % 3 == 2 => {
                let full = ring.len() == ring_capacity;
                assert_eq!(ring_tx.push(Box::new(next)).is_ok(), !full, "ring push");
                if !full {
                    ring.push_back(next);
                }
                next += 1;
            }
            Op::Push(q) => {
                let (c, model) = (&chans[q as usize % 2], &mut models[q as usize % 2]);
                let full = model.len() == c.capacity;
                assert_eq!(c.tx.try_send(Box::new(next)).is_ok(), !full, "try_send");
                if !full {
                    model.push_back(next);
                }
                next += 1;
            }
            Op::Pop(q) if q % 3 == 2 => {
                assert_eq!(ring_rx.pop().ok().map(|b| *b), ring.pop_front(), "ring pop");
            }
            Op::Pop(q) => {
                let (c, model) = (&chans[q as usize % 2], &mut models[q as usize % 2]);
                assert_eq!(
                    c.rx.try_recv().ok().map(|b| *b),
                    model.pop_front(),
                    "try_recv"
                );
            }
            Op::Macro => {
                let [a, b] = &chans;
                let [ma, mb] = &mut models;
                let ready = !ma.is_empty() || mb.len() < b.capacity;
                let value = next;
                let chosen = select! {
                    recv(a.rx) -> msg => {
                        assert_eq!(msg.ok().map(|b| *b), ma.pop_front(), "select! recv");
                        1
                    }
                    send(b.tx, Box::new(value)) -> res => {
                        assert!(res.is_ok() && mb.len() < b.capacity, "select! send");
                        mb.push_back(value);
                        2
                    }
                    default => 0,
                };
                assert_eq!(chosen != 0, ready, "select!'s default vs a ready arm");
                next += 1;
            }
            Op::Select { arms, call, biased } => {
                let listed: Vec<Arm> = ARMS
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| arms & (1 << i) != 0)
                    .map(|(_, &a)| a)
                    .collect();
                let caps = [chans[0].capacity, chans[1].capacity];
                let is_ready =
                    |arm: Arm, models: &[VecDeque<u32>; 2], ring: &VecDeque<u32>| match arm {
                        Arm::RecvA => !models[0].is_empty(),
                        Arm::RecvB => !models[1].is_empty(),
                        Arm::SendA => models[0].len() < caps[0],
                        Arm::SendB => models[1].len() < caps[1],
                        Arm::RecvRing => !ring.is_empty(),
                        Arm::SendRing => ring.len() < ring_capacity,
                        Arm::Never => false,
                        Arm::After => !timer_taken,
                    };
                let first_ready = listed.iter().position(|&a| is_ready(a, &models, &ring));
                // The select's borrows end with this block; a chosen ring
                // arm's pop or push comes after it.
                let ring_op: Option<Arm> = 'select: {
                    let mut sel = if biased {
                        Select::new_biased()
                    } else {
                        Select::new()
                    };
                    for &arm in &listed {
                        match arm {
                            Arm::RecvA => sel.recv(&chans[0].rx),
                            Arm::RecvB => sel.recv(&chans[1].rx),
                            Arm::SendA => sel.send(&chans[0].tx),
                            Arm::SendB => sel.send(&chans[1].tx),
                            Arm::RecvRing => sel.recv_spsc(&ring_rx),
                            Arm::SendRing => sel.send_spsc(&ring_tx),
                            Arm::Never => sel.recv(&nothing),
                            Arm::After => sel.recv(&timer),
                        };
                    }
                    let start = Instant::now();
                    let short = |us: u8| Duration::from_micros(us as u64 % 200);
                    let chosen = match call {
                        Call::TrySelect => sel.try_select().map_err(|_| ()),
                        Call::SelectTimeout(us) => sel.select_timeout(short(us)).map_err(|_| ()),
                        Call::TryReady | Call::ReadyTimeout(_) => {
                            let index = match call {
                                Call::TryReady => sel.try_ready().ok(),
                                Call::ReadyTimeout(us) => sel.ready_timeout(short(us)).ok(),
                                _ => unreachable!(),
                            };
                            assert!(
                                start.elapsed() < Duration::from_secs(2),
                                "a short wait took long"
                            );
                            match index {
                                None => {
                                    assert_eq!(first_ready, None, "nothing ready while an arm was")
                                }
                                Some(i) => {
                                    assert!(
                                        is_ready(listed[i], &models, &ring),
                                        "{:?} not ready",
                                        listed[i]
                                    );
                                    if biased {
                                        assert_eq!(
                                            Some(i),
                                            first_ready,
                                            "a biased ready skipped an arm"
                                        );
                                    }
                                }
                            }
                            break 'select None; // `ready` takes nothing
                        }
                    };
                    assert!(
                        start.elapsed() < Duration::from_secs(2),
                        "a short wait took long"
                    );
                    let Ok(oper) = chosen else {
                        assert_eq!(first_ready, None, "nothing chosen while an arm was ready");
                        break 'select None;
                    };
                    let index = oper.index();
                    let arm = listed[index];
                    assert!(is_ready(arm, &models, &ring), "chose {arm:?}, not ready");
                    if biased {
                        assert_eq!(
                            Some(index),
                            first_ready,
                            "a biased select skipped a ready arm"
                        );
                    }
                    match arm {
                        Arm::RecvA | Arm::RecvB => {
                            let i = (arm == Arm::RecvB) as usize;
                            assert_eq!(
                                oper.recv(&chans[i].rx).ok().map(|b| *b),
                                models[i].pop_front()
                            );
                            None
                        }
                        Arm::SendA | Arm::SendB => {
                            let i = (arm == Arm::SendB) as usize;
                            assert!(
                                oper.send(&chans[i].tx, Box::new(next)).is_ok(),
                                "a selected send failed"
                            );
                            models[i].push_back(next);
                            next += 1;
                            None
                        }
                        Arm::After => {
                            assert!(oper.recv(&timer).is_ok(), "the timer's one message");
                            timer_taken = true;
                            None
                        }
                        Arm::Never => unreachable!("never chosen: checked above"),
                        // A ring arm completes nothing: dropping it is fine.
                        Arm::RecvRing | Arm::SendRing => Some(arm),
                    }
                };
                match ring_op {
                    Some(Arm::RecvRing) => {
                        assert_eq!(
                            ring_rx.pop().ok().map(|b| *b),
                            ring.pop_front(),
                            "the select saw an item"
                        );
                    }
                    Some(_) => {
                        assert!(ring_tx.push(Box::new(next)).is_ok(), "the select saw room");
                        ring.push_back(next);
                        next += 1;
                    }
                    None => {}
                }
            }
        }
    }
    for (c, model) in chans.iter().zip(&models) {
        assert_eq!(c.rx.len(), model.len(), "len at the end");
    }
    assert_eq!(ring_rx.slots(), ring.len(), "ring len at the end");
});
