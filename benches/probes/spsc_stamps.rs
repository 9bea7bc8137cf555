//! Would a ring that marks publication beside the item escape hotq-spsc's
//! slow mode? hotq-spsc, rtrb, ringbuf and omango against three hand-overs
//! written here, in cells of the regime grid (issue 37 §2).
//!
//! hotq-spsc, rtrb and ringbuf publish through a shared `tail`: a consumer
//! that keeps up reloads `tail` for every item or two, so each hand-over
//! moves two lines, `tail`'s and the slot's, and both back to the producer
//! for its next write (*near-empty*). The prototypes below keep the
//! producer's cached copy of the consumer's `head` (Rigtorp's), but mark
//! each item as published in the line that holds it, so the consumer polls
//! the line it is about to read and nothing else:
//!
//! - `slot-stamp`: a word beside each item (16-byte slots for `u64`), the
//!   free-running index + 1 of the item it holds;
//! - `line-stamp`: one word per 64-byte line of 7 items, the index + 1 of
//!   the line's last published item (the density of a plain `[u64]`, less
//!   one slot in eight);
//! - `line-stamp+pf`: the same, its consumer prefetching 16 lines ahead
//!   as it enters each line (hotq-spsc's `pop` prefetches 2 KiB ahead);
//! - `both-stamps`: a word per slot that both sides write (Vyukov's MPMC
//!   queue without its CAS): no shared index at all.
//!
//! None keeps the items contiguous, which hotq-spsc's chunks, slices and
//! `io` hand out as `&[T]`; this measures what that layout costs.
//!
//! ```sh
//! cargo build --release -p hotq-benches --example spsc_stamps
//! target/release/examples/spsc_stamps [ROUNDS, default 7] [ITEMS per run, default 1000000]
//! ```
//!
//! Each cell runs every ring `ROUNDS` times in one order per round, through
//! `workloads::regime` (the grid's loop: spin-then-yield, `p` steps of work
//! before each push, `c` after each pop, each thread on a core of its own,
//! every item checked in order); it prints each ring's median M items/s
//! with the rounds' range. Run it on a quiet machine.

use std::cell::UnsafeCell;
use std::mem::MaybeUninit;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crossbeam_utils::CachePadded;
use hotq_benches::channel::{Channel, Kind, TryChannel};
use hotq_benches::contenders::{HotqSpsc, HotqSpscStamped, Omango, Ringbuf, Rtrb};
use hotq_benches::wait::until;
use hotq_benches::workloads::regime::{Regime, WaitLoop, throughput};
use hotq_benches::workloads::spsc::Ops;

/// One `u64` and its stamp.
struct Slot {
    /// `slot-stamp`: index + 1 of the item the slot holds (0: none yet).
    /// `both-stamps`: that, or the index the producer may write next.
    stamp: AtomicUsize,
    value: UnsafeCell<MaybeUninit<u64>>,
}

/// The slots of `slot-stamp` and `both-stamps`, and `slot-stamp`'s head.
struct Slots {
    /// The consumer's index, stored after each pop (`slot-stamp` only).
    head: CachePadded<AtomicUsize>,
    slots: Box<[Slot]>,
    /// `slots.len() - 1`, a power of two less one.
    mask: usize,
}

// SAFETY: each slot's value is written only by the producer while its
// stamp says it is free, and read only by the consumer after the Acquire
// load of a stamp the producer stored with Release after the write.
unsafe impl Sync for Slots {}

impl Slots {
    fn new(capacity: usize, stamp: impl Fn(usize) -> usize) -> Arc<Slots> {
        let n = capacity.next_power_of_two();
        Arc::new(Slots {
            head: CachePadded::new(AtomicUsize::new(0)),
            slots: (0..n)
                .map(|i| Slot {
                    stamp: AtomicUsize::new(stamp(i)),
                    value: UnsafeCell::new(MaybeUninit::uninit()),
                })
                .collect(),
            mask: n - 1,
        })
    }

    fn slot(&self, index: usize) -> &Slot {
        &self.slots[index & self.mask]
    }
}

/// `slot-stamp`'s producer: Rigtorp's cached head, a stamp per item.
pub struct SlotTx {
    ring: Arc<Slots>,
    tail: usize,
    /// The cached head plus the capacity.
    limit: usize,
}

/// `slot-stamp`'s consumer: polls the stamp of the slot it reads next.
pub struct SlotRx {
    ring: Arc<Slots>,
    head: usize,
}

impl SlotTx {
    #[inline]
    fn push(&mut self, v: u64) -> Result<(), u64> {
        if self.tail == self.limit {
            // Acquire: pairs with the consumer's Release store of `head`
            // after it moved the item out of the slot reused here.
            self.limit = self.ring.head.load(Ordering::Acquire) + self.ring.mask + 1;
            if self.tail == self.limit {
                return Err(v);
            }
        }
        let s = self.ring.slot(self.tail);
        // SAFETY: `tail < head + capacity`: the consumer is done with it.
        unsafe { (*s.value.get()).write(v) };
        self.tail += 1;
        // Release: pairs with the consumer's Acquire load of the stamp.
        s.stamp.store(self.tail, Ordering::Release);
        Ok(())
    }
}

impl SlotRx {
    #[inline]
    fn pop(&mut self) -> Option<u64> {
        let s = self.ring.slot(self.head);
        // Acquire: pairs with the producer's Release store of this stamp.
        if s.stamp.load(Ordering::Acquire) != self.head + 1 {
            return None;
        }
        // SAFETY: the stamp says the producer wrote item `head` here.
        let v = unsafe { (*s.value.get()).assume_init_read() };
        self.head += 1;
        // Release: pairs with the producer's Acquire load of `head`.
        self.ring.head.store(self.head, Ordering::Release);
        Some(v)
    }
}

/// `both-stamps`' producer: writes a slot when its stamp is its index.
pub struct BothTx {
    ring: Arc<Slots>,
    tail: usize,
}

/// `both-stamps`' consumer: frees a slot by stamping it for the next lap.
pub struct BothRx {
    ring: Arc<Slots>,
    head: usize,
}

impl BothTx {
    #[inline]
    fn push(&mut self, v: u64) -> Result<(), u64> {
        let s = self.ring.slot(self.tail);
        // Acquire: pairs with the consumer's Release store freeing it.
        if s.stamp.load(Ordering::Acquire) != self.tail {
            return Err(v);
        }
        // SAFETY: the stamp says the consumer freed the slot for this lap.
        unsafe { (*s.value.get()).write(v) };
        // Release: pairs with the consumer's Acquire load.
        s.stamp.store(self.tail + 1, Ordering::Release);
        self.tail += 1;
        Ok(())
    }
}

impl BothRx {
    #[inline]
    fn pop(&mut self) -> Option<u64> {
        let s = self.ring.slot(self.head);
        // Acquire: pairs with the producer's Release store.
        if s.stamp.load(Ordering::Acquire) != self.head + 1 {
            return None;
        }
        // SAFETY: the stamp says the producer wrote item `head` here.
        let v = unsafe { (*s.value.get()).assume_init_read() };
        // Release: pairs with the producer's Acquire load a lap later.
        s.stamp
            .store(self.head + self.ring.mask + 1, Ordering::Release);
        self.head += 1;
        Some(v)
    }
}

/// Items in one line of `line-stamp`.
const PER_LINE: usize = 7;

/// One cache line: a stamp and 7 items.
#[repr(align(64))]
struct Line {
    /// Index + 1 of the last item published in this line (this lap's
    /// values are above the line's first index, older laps' are not).
    stamp: AtomicUsize,
    values: [UnsafeCell<MaybeUninit<u64>>; PER_LINE],
}

/// `line-stamp`'s lines and head.
struct Lines {
    head: CachePadded<AtomicUsize>,
    lines: Box<[Line]>,
    /// `lines.len() - 1`, a power of two less one.
    mask: usize,
    capacity: usize,
}

// SAFETY: as for `Slots`, with the line's stamp for the slot's.
unsafe impl Sync for Lines {}

/// A position in `line-stamp`: the free-running index, its line and place.
#[derive(Clone, Copy, Default)]
struct At {
    index: usize,
    line: usize,
    place: usize,
}

impl At {
    fn advance(&mut self, mask: usize) {
        self.index += 1;
        self.place += 1;
        if self.place == PER_LINE {
            self.place = 0;
            self.line = (self.line + 1) & mask;
        }
    }
}

/// `line-stamp`'s producer.
pub struct LineTx {
    ring: Arc<Lines>,
    tail: At,
    limit: usize,
}

/// How many lines ahead `line-stamp+pf`'s consumer prefetches.
const AHEAD: usize = 16;

/// `line-stamp`'s consumer; with `PF`, it prefetches the line [`AHEAD`]
/// lines on whenever it moves to a new line (`line-stamp+pf`).
pub struct LineRx<const PF: bool> {
    ring: Arc<Lines>,
    head: At,
    /// The current line's stamp as last loaded: items below it are ready.
    ready: usize,
}

impl LineTx {
    #[inline]
    fn push(&mut self, v: u64) -> Result<(), u64> {
        if self.tail.index == self.limit {
            // Acquire: pairs with the consumer's Release store of `head`.
            self.limit = self.ring.head.load(Ordering::Acquire) + self.ring.capacity;
            if self.tail.index == self.limit {
                return Err(v);
            }
        }
        let line = &self.ring.lines[self.tail.line];
        // SAFETY: `tail < head + capacity` and the lines hold at least
        // `capacity` items: the consumer is done with this place.
        unsafe { (*line.values[self.tail.place].get()).write(v) };
        self.tail.advance(self.ring.mask);
        // Release: pairs with the consumer's Acquire load of the stamp.
        line.stamp.store(self.tail.index, Ordering::Release);
        Ok(())
    }
}

impl<const PF: bool> LineRx<PF> {
    #[inline]
    fn pop(&mut self) -> Option<u64> {
        let line = &self.ring.lines[self.head.line];
        if self.head.index == self.ready {
            // Acquire: pairs with the producer's Release store of it.
            let stamp = line.stamp.load(Ordering::Acquire);
            if stamp <= self.head.index {
                return None;
            }
            self.ready = stamp;
        }
        // SAFETY: the line's stamp covers item `head`.
        let v = unsafe { (*line.values[self.head.place].get()).assume_init_read() };
        self.head.advance(self.ring.mask);
        if self.head.place == 0 {
            // A new line: its stamp has not been read.
            self.ready = self.head.index;
            if PF && self.ring.mask >= 2 * AHEAD {
                // In a full ring that line is published: fetch it before
                // it is needed. In a near-empty one it still holds last
                // lap's items, which this core read: usually a hit.
                let ahead = &self.ring.lines[(self.head.line + AHEAD) & self.ring.mask];
                prefetch(ahead);
            }
        }
        // Release: pairs with the producer's Acquire load of `head`.
        self.ring.head.store(self.head.index, Ordering::Release);
        Some(v)
    }
}

#[inline]
fn prefetch(line: &Line) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch of a valid address has no effect on memory.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((line as *const Line).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = line;
}

/// Implements the report's traits for a prototype.
macro_rules! prototype {
    ($ty:ident, $name:literal, $tx:ty, $rx:ty, |$cap:ident| $new:expr) => {
        pub struct $ty;
        impl Channel for $ty {
            const NAME: &'static str = $name;
            const KIND: Kind = Kind::Ours;
            const CRATE: Option<&'static str> = None;
            type Tx = $tx;
            type Rx = $rx;
            fn with_capacity($cap: usize) -> ($tx, $rx) {
                $new
            }
            #[inline]
            fn send(tx: &mut $tx, v: u64) {
                until(|| tx.push(v).ok())
            }
            #[inline]
            fn recv(rx: &mut $rx) -> u64 {
                until(|| rx.pop())
            }
        }
        impl TryChannel for $ty {
            #[inline]
            fn try_send(tx: &mut $tx, v: u64) -> Result<(), u64> {
                tx.push(v)
            }
            #[inline]
            fn try_recv(rx: &mut $rx) -> Option<u64> {
                rx.pop()
            }
        }
    };
}

prototype!(SlotStamp, "slot-stamp", SlotTx, SlotRx, |capacity| {
    let ring = Slots::new(capacity, |_| 0);
    let limit = ring.mask + 1;
    (
        SlotTx {
            ring: ring.clone(),
            tail: 0,
            limit,
        },
        SlotRx { ring, head: 0 },
    )
});

prototype!(BothStamps, "both-stamps", BothTx, BothRx, |capacity| {
    let ring = Slots::new(capacity, |i| i);
    (
        BothTx {
            ring: ring.clone(),
            tail: 0,
        },
        BothRx { ring, head: 0 },
    )
});

prototype!(LineStamp, "line-stamp", LineTx, LineRx<false>, |capacity| {
    lines(capacity)
});

prototype!(
    LineStampPf,
    "line-stamp+pf",
    LineTx,
    LineRx<true>,
    |capacity| lines(capacity)
);

fn lines<const PF: bool>(capacity: usize) -> (LineTx, LineRx<PF>) {
    let n = capacity.div_ceil(PER_LINE).next_power_of_two();
    let ring = Arc::new(Lines {
        head: CachePadded::new(AtomicUsize::new(0)),
        lines: (0..n)
            .map(|_| Line {
                stamp: AtomicUsize::new(0),
                values: std::array::from_fn(|_| UnsafeCell::new(MaybeUninit::uninit())),
            })
            .collect(),
        mask: n - 1,
        capacity,
    });
    (
        LineTx {
            ring: ring.clone(),
            tail: At::default(),
            limit: capacity,
        },
        LineRx {
            ring,
            head: At::default(),
            ready: 0,
        },
    )
}

/// Every ring's name and one run of it.
type Run = fn(u64, Regime) -> f64;
const RINGS: [(&str, Run); 9] = [
    ("hotq-spsc", throughput::<HotqSpsc>),
    ("hotq-spsc stamped", throughput::<HotqSpscStamped>),
    ("rtrb", throughput::<Rtrb>),
    ("ringbuf", throughput::<Ringbuf>),
    ("omango", throughput::<Omango>),
    ("slot-stamp", throughput::<SlotStamp>),
    ("line-stamp", throughput::<LineStamp>),
    ("line-stamp+pf", throughput::<LineStampPf>),
    ("both-stamps", throughput::<BothStamps>),
];

fn main() {
    let arg = |i: usize, default: u64| {
        std::env::args()
            .nth(i)
            .map_or(default, |s| s.parse().expect("a positive integer"))
    };
    let (rounds, items) = (arg(1, 7) as usize, arg(2, 1_000_000));
    hotq_benches::pin::configure(true);
    // (producer work, consumer work, capacity): none; producer slower
    // (near-empty); consumer slower (fall-behind, then level); other sizes.
    let cells = [
        (0, 0, 1024),
        (1, 0, 1024),
        (4, 0, 1024),
        (0, 1, 1024),
        (0, 4, 1024),
        (0, 16, 1024),
        (0, 0, 64),
        (0, 0, 65536),
        (4, 0, 65536),
    ];
    println!("M items/s, median (min-max) of {rounds} rounds of {items} items");
    for (p, c, capacity) in cells {
        let regime = Regime {
            producer_work: p,
            consumer_work: c,
            wait: WaitLoop::SpinThenYield,
            capacity,
            ops: Ops::Single,
        };
        let mut figures: Vec<Vec<f64>> = vec![Vec::new(); RINGS.len()];
        for _ in 0..rounds {
            for ((_, run), f) in RINGS.iter().zip(&mut figures) {
                f.push(run(items, regime));
            }
        }
        let mut line = format!("p{p} c{c} cap {capacity}:");
        for ((name, _), f) in RINGS.iter().zip(&mut figures) {
            f.sort_by(f64::total_cmp);
            line += &format!(
                " {name} {:.0} ({:.0}-{:.0})",
                f[f.len() / 2],
                f[0],
                f[f.len() - 1]
            );
        }
        println!("{line}");
    }
}
