//! A ring for single items whose every cache line carries its own
//! publication stamp: the fastest way through this crate when the consumer
//! keeps up with the producer.
//!
//! ```
//! use hotq_spsc::stamped::RingBuffer;
//!
//! const ITEMS: u64 = if cfg!(miri) { 2_000 } else { 100_000 };
//! let (mut producer, mut consumer) = RingBuffer::new(1024);
//! let reader = std::thread::spawn(move || {
//!     let (mut sum, mut received) = (0u64, 0);
//!     while received < ITEMS {
//!         match consumer.pop() {
//!             Ok(v) => (sum, received) = (sum + v, received + 1),
//!             Err(_) => std::thread::yield_now(), // empty: let the producer run
//!         }
//!     }
//!     sum
//! });
//! for i in 0..ITEMS {
//!     let mut item = i;
//!     while let Err(full) = producer.push(item) {
//!         item = full.into_inner();
//!         std::thread::yield_now();
//!     }
//! }
//! assert_eq!(reader.join().unwrap(), (0..ITEMS).sum());
//! ```
//!
//! # Which ring
//!
//! | | [`crate::RingBuffer`] | [`stamped::RingBuffer`](RingBuffer) |
//! |---|---|---|
//! | layout | contiguous slots (rtrb's) | lines of 64 bytes: a stamp, then the items that fit |
//! | the consumer learns of a new item from | the producer's `tail`, a line of its own | the stamp, in the line it reads the item from |
//! | lines moved per item while the consumer keeps up | two (`tail`'s and the item's) | one |
//! | lines moved per item while the ring runs full | two (`head`'s, the item's) | `head`'s once a line, or once every 2–64 lines in a large ring |
//! | capacity | exact | at least: up to a line's items − 1 more, or under 1/64 of the capacity more in a large ring ("Capacity") |
//! | blocking waits (`push_timeout`, `pop_timeout`, deadlines) | yes | on a ring made by [`RingBuffer::with_waits`] |
//! | async waits (`push_async`, `pop_async`) | yes, and `Stream`, `wait_items_async`, ... | `push_async` and `pop_async`, on a ring made by [`RingBuffer::with_waits`] |
//! | chunks, slices, `io` | yes | no: single items |
//!
//! Pick this ring for a stream of single items where the consumer is as
//! fast as the producer or faster (the common case: a consumer that does
//! little per item), with try calls, blocking ones or async ones. Pick
//! [`crate::RingBuffer`] for rtrb's API, for chunks and slices handed out
//! in place, for `std::io`, for a `Stream` or the count waits
//! (`wait_items_async`, ...).
//!
//! # Capacity
//!
//! A push fails only while the ring holds at least `capacity` items,
//! counting every pop that happened before it; it may succeed up to a
//! line's items − 1 beyond (6 more `u64`s, 55 more `u8`s; none for items
//! of 57 bytes or more, or zero-sized ones). A ring whose capacity fills
//! more than 128 lines (896 `u64`s) and whose lines are a power of two
//! bytes long stores `head` only every `k` lines, `k` the largest power
//! of two up to 1/64 of its lines, at most 64 (2 for 1,000 `u64`s, 64 from
//! 28,672): it may then succeed up to `k` lines' items − 1 beyond, under
//! 1/64 of the capacity (447 more `u64`s in a ring of 65,536).
//! [`Producer::slots`] counts the same way. So a producer that waits for
//! room is woken by the consumer's pops as with an exact ring: whenever a
//! push fails, the ring holds at least `capacity` items and every item up
//! to the consumer's next store of `head` is in it, so the pop that makes
//! that store, which comes before the ring can be empty, makes room.
//!
//! ```
//! use hotq_spsc::stamped::RingBuffer;
//!
//! let (mut tx, mut rx) = RingBuffer::<u64>::new(4);
//! let mut pushed = 0;
//! while tx.push(pushed).is_ok() {
//!     pushed += 1;
//! }
//! assert!((4..4 + 7).contains(&pushed)); // at least the capacity
//! for i in 0..pushed {
//!     assert_eq!(rx.pop(), Ok(i)); // FIFO, nothing lost
//! }
//! tx.push(pushed).unwrap(); // empty again: room
//! ```
//!
//! Why: the consumer tells the producer what it has read by storing
//! `head`, and a producer polling a full ring takes `head`'s cache line
//! at every load; an exact ring stores `head` at every pop, so the line
//! crosses between the cores twice per item, and the consumer's stores
//! queue behind each crossing. This ring stores `head` when the consumer
//! leaves a line: once per line. A large ring stores it every `k` lines:
//! its producer, once it has found the ring full, then fills `k` lines at
//! a time, that far behind the consumer, instead of the line behind it,
//! and a stream that runs full moves faster (capacity 65,536, no work:
//! `docs/spsc-regime-grid.md`, "`head` once per 64 lines"). See "Measured".
//!
//! # Design
//!
//! The producer keeps Rigtorp's cached copy of the consumer's `head`
//! (reloaded only when the copy says full), as [`crate::RingBuffer`] does;
//! `head` is the first item of the consumer's line, stored when the
//! consumer enters the line (every `k`-th line of a large ring), so the
//! producer may fill up to `capacity + k × PER_LINE − 1` items past it
//! ("Capacity").
//! The consumer does not read a shared `tail`: each line of the storage
//! begins with a *stamp*, the free-running index + 1 of the last item
//! published in that line, stored by the producer with `Release` after it
//! wrote the item. The consumer `Acquire`-loads the stamp of the line it
//! is about to read, and trusts the value it loaded until it reaches it or
//! leaves the line. A consumer that has caught up therefore waits on the
//! line its next item will be written to, a line the producer must own
//! anyway to write it; with a shared `tail` the producer must also win
//! back `tail`'s line after each read of it, so two lines cross between
//! the cores for every item instead of one.
//!
//! Stamps are free-running indices, so a stamp left from an earlier lap
//! is never above the index the consumer waits for: "`stamp > index`"
//! (wrapping) is exactly "item `index` is published". The ring holds at
//! most `capacity + k × PER_LINE − 1` items past `head` and its storage a line
//! more than that needs, so the producer never writes a slot whose item
//! the consumer has not read, nor, while the ring runs full, anywhere in
//! the line the consumer reads (or the line beside it): a stamp never runs
//! a lap ahead of the consumer.
//!
//! Orderings: the producer's `Release` store of a stamp pairs with the
//! consumer's `Acquire` load of it (the item's write happens before its
//! read); the consumer's `Release` store of `head` pairs with the
//! producer's `Acquire` load of it (the read of an item happens before the
//! slot's next write). Nothing stronger, and no try call waits: both
//! halves' try calls are wait-free.
//!
//! # Waiting
//!
//! A ring made by [`RingBuffer::with_waits`] (halves `Producer<T, true>`
//! and `Consumer<T, true>`) also has `push_timeout` / `push_deadline` and
//! `pop_timeout` / `pop_deadline` (with `std`), which wait as
//! [`crate::RingBuffer`]'s do, in the same machinery: a brief spin, then
//! the thread parks until the other half wakes it; and `push_async` /
//! `pop_async` ([`PushFuture`], [`PopFuture`]; no `std` needed), the same
//! futures as [`crate::RingBuffer`]'s (they yield first while that pays,
//! then register the task's waker), woken by the same checks. Its try path pays for
//! them: after each stamp the producer checks whether a consumer waits,
//! and after each store of `head` (once a line or less) the consumer checks
//! whether a producer waits, a load and a branch each, behind a compiler
//! barrier that keeps the load after the store. That was 39.5 → 42.9
//! instructions per push and pop when measured (callgrind, the report's `hot_path`;
//! 34.2 → 37.5 in a loop over `&mut` halves), and with a `compiler_fence`
//! as that barrier it ran 8-20 % slower in the regime grid's cells with
//! producer work (`docs/performance.md`), so a ring made by [`RingBuffer::new`] has no
//! trace of it: the halves' `WAITS` parameter is a constant, and the
//! blocking calls exist only where it is `true`. `stamped/blocking.rs`
//! names the protocol's store→load order.
//!
//! ```
//! use std::time::Duration;
//! use hotq_spsc::PopTimeoutError;
//! use hotq_spsc::stamped::RingBuffer;
//!
//! let (mut tx, mut rx) = RingBuffer::with_waits(64);
//! let writer = std::thread::spawn(move || {
//!     for i in 0..1000u32 {
//!         tx.push_timeout(i, Duration::from_secs(10)).unwrap(); // parks while full
//!     }
//! }); // the producer's drop ends the stream
//! let mut sum = 0;
//! loop {
//!     match rx.pop_timeout(Duration::from_secs(10)) {
//!         Ok(i) => sum += i,
//!         Err(PopTimeoutError::Abandoned) => break, // drained, producer gone
//!         Err(PopTimeoutError::Timeout) => panic!("stalled"),
//!     }
//! }
//! assert_eq!(sum, (0..1000).sum());
//! writer.join().unwrap();
//! ```
//!
//! # Measured
//!
//! The repository's regime grid (`docs/spsc-regime-grid.md`, "The SPSC regime
//! grid": 144 cells of work per item on either side, wait loop and
//! capacity, each ring in a binary of its own built as a user's release
//! build is, a quiet 2-core VM, 2026-12-07 00:45 UTC, one run): ≥ 1.0 ×
//! the best of rtrb and ringbuf in 118 cells (decided), below it in none,
//! undecided in 26; the median cell 1.67. Where the consumer keeps pace,
//! 1.2–4.7 × (at capacity 1024 with no work, 223 M items/s against 49 and
//! 147, and 39 for [`crate::RingBuffer`]); where the consumer's own work
//! per item is the bottleneck (the ring runs full), 1.01–1.65 × with 16
//! steps of it, where it read 0.76–0.95 × while the consumer stored `head`
//! at every pop and as low as 0.81 × at capacity 65536 while it prefetched 32
//! lines ahead. A round trip over two rings takes 0.69–0.74 × rtrb's time
//! (six report runs on two VMs). On a second VM of the same kind the grid
//! read 126 cells ahead and 11 behind (the median cell 1.55): with the
//! same work on both sides of a ring of 65536, 0.68–0.87 × (with no work
//! there, [`crate::RingBuffer`] ran at 2.6 × this ring); and the default
//! report's single-item row at capacity
//! 1024 read 0.75 × the best peer there (1.39 × on the first VM). Since
//! a large ring stores `head` every few lines ("Capacity"; 2026-12-07),
//! the grid in the report read 133 cells met, none missed, 11 undecided,
//! the median cell 1.78 (one run; 127 / 6 / 11 and 1.63 before), and
//! driven through the contender binaries (three passes) 144 of 144 at
//! 1.0 × or more, the median cell 1.72 (138 and 1.62 before, in the same
//! run). After each half kept its line's end instead of its place
//! (2026-12-08), two runs of the grid in the report read 125 and 127
//! cells met, 1 and 3 missed (no work at 65536, 0.75-0.80 × rtrb, and 16
//! steps on each side, 0.94-0.95 × ringbuf), the median cell 1.51 and
//! 1.62, with the peers 4-6 % faster than in the run before and the ring
//! 1-2 % slower, cell by cell. A push and a pop take 49.4
//! instructions together on the uncontended path (callgrind, in the
//! ring's own contender binary; rtrb 56, [`crate::RingBuffer`] 44): 40.1
//! before each half kept its line's end instead of its place in the line
//! (2026-12-07), the extra ones spills in that count's loop, which holds
//! both halves. That change took the report's single-item loop, which
//! keeps each half in memory, from 136-160 to 211-232 M items/s at
//! capacity 1024 (rtrb 178-205), and 128-134 to 139-141 grid cells at
//! 1.0 × the best peer or more, over three A/B runs
//! (`docs/spsc-regime-grid.md`, "One store per step").

#[cfg(feature = "std")]
mod blocking;
mod consumer;
mod future;
mod place;
mod producer;
mod ring;

pub use consumer::Consumer;
pub use future::{PopFuture, PushFuture};
pub use producer::Producer;
pub use ring::RingBuffer;
