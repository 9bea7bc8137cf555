//! A bounded, wait-free single-producer single-consumer ring buffer.
//!
//! ```
//! use hotq_spsc::RingBuffer;
//!
//! // (Fewer under miri, which interprets every instruction.)
//! const ITEMS: u64 = if cfg!(miri) { 3_000 } else { 100_000 };
//! let (mut producer, mut consumer) = RingBuffer::new(1024);
//! let reader = std::thread::spawn(move || {
//!     let mut sum = 0u64;
//!     let mut received = 0;
//!     while received < ITEMS {
//!         match consumer.pop() {
//!             Ok(v) => {
//!                 sum += v;
//!                 received += 1;
//!             }
//!             Err(_) => std::thread::yield_now(), // empty: let the producer run
//!         }
//!     }
//!     sum
//! });
//! for i in 0..ITEMS {
//!     let mut item = i;
//!     // A full ring gives the value back: retry it (or drop it, or report it).
//!     while let Err(full) = producer.push(item) {
//!         item = full.into_inner();
//!         std::thread::yield_now();
//!     }
//! }
//! assert_eq!(reader.join().unwrap(), (0..ITEMS).sum());
//! ```
//!
//! # Two rings
//!
//! - [`RingBuffer`]: rtrb's API (a drop-in, below): single items, slices,
//!   chunks handed out in place, `std::io`, blocking and async waits. Its
//!   slots are contiguous, and a consumer that keeps up learns of each
//!   item from the producer's `tail`, a cache line of its own.
//! - [`stamped::RingBuffer`]: single items only: try calls, and on a ring
//!   made by [`stamped::RingBuffer::with_waits`] blocking calls with a
//!   timeout or deadline and `push_async` / `pop_async` (no `Stream`, count
//!   waits, chunks, slices or `io`). Each
//!   cache line of its storage starts with a stamp that says which of its
//!   items are published, so a consumer that keeps up waits on the line it
//!   reads the item from, and one line crosses between the cores per item
//!   instead of two. Its capacity is a floor (a push never fails below
//!   it; the ring may take up to a line's items − 1 more, or under 1/64 of
//!   the capacity in a ring of more than 128 lines). Pick it for a
//!   stream of single items between two threads or tasks; the
//!   [`stamped`] module says where it wins and by how much.
//!
//! # Design
//!
//! The ring follows Erik Rigtorp's SPSC queue and Juho Snellman's
//! free-running indices:
//!
//! - `head` (next item to read) and `tail` (next slot to write) are `usize`
//!   counters that only grow, wrapping at `usize::MAX + 1`, and are masked
//!   only when a slot is addressed. The ring holds `tail - head` items, so
//!   full is `tail - head == capacity` and no slot is sacrificed to tell
//!   full from empty. Any capacity works and is reported exactly;
//!   storage is the capacity rounded up to a power of two (none for a
//!   ring of 0, which is always full and always empty, as rtrb's).
//! - Each half keeps a private copy of the other half's index and reloads
//!   the shared atomic only when its copy says full (producer) or empty
//!   (consumer). In steady state a push or pop touches only its own cache
//!   lines and the slot.
//! - The producer publishes with a `Release` store of `tail` that the
//!   consumer's `Acquire` load pairs with, and the mirror image for `head`.
//!   Nothing stronger is used, and nothing waits: every operation finishes
//!   in a bounded number of its own steps (wait-free), whatever the other
//!   thread does. Waiting for room or for data is the caller's choice
//!   (see [Waiting](#waiting)).
//!
//! # Operations
//!
//! | | [`Producer`] | [`Consumer`] |
//! |---|---|---|
//! | one item | [`push`](Producer::push) | [`pop`](Consumer::pop), [`peek`](Consumer::peek) |
//! | copy a slice (`T: Copy`) | [`push_slice`](Producer::push_slice), [`push_partial_slice`](Producer::push_partial_slice), [`push_entire_slice`](Producer::push_entire_slice) | [`pop_slice`](Consumer::pop_slice), [`pop_partial_slice`](Consumer::pop_partial_slice), [`pop_entire_slice`](Consumer::pop_entire_slice) (and `_uninit`) |
//! | in place | [`write_chunk_uninit`](Producer::write_chunk_uninit), [`write_chunk`](Producer::write_chunk) | [`read_chunk`](Consumer::read_chunk) |
//! | state | [`slots`](Producer::slots), [`cached_slots`](Producer::cached_slots), [`is_full`](Producer::is_full), [`is_abandoned`](Producer::is_abandoned), [`buffer`](Producer::buffer) | [`slots`](Consumer::slots), [`cached_slots`](Consumer::cached_slots), [`is_empty`](Consumer::is_empty), [`is_abandoned`](Consumer::is_abandoned), [`buffer`](Consumer::buffer) |
//!
//! With the `std` feature (on by default), `Producer<u8>` is an
//! [`std::io::Write`] and `Consumer<u8>` an [`std::io::Read`].
//!
//! # Waiting
//!
//! | | [`Producer`] | [`Consumer`] |
//! |---|---|---|
//! | block (`std`) | [`push_timeout`](Producer::push_timeout), [`push_deadline`](Producer::push_deadline) | [`pop_timeout`](Consumer::pop_timeout), [`pop_deadline`](Consumer::pop_deadline) |
//! | block for a chunk (`std`) | [`wait_slots`](Producer::wait_slots) | [`wait_items`](Consumer::wait_items) |
//! | async | [`push_async`](Producer::push_async) | [`pop_async`](Consumer::pop_async), `Stream` (feature `stream`) |
//! | async, for a count (moves nothing: cancel-safe, keeps your value) | [`wait_slots_async`](Producer::wait_slots_async) | [`wait_items_async`](Consumer::wait_items_async) |
//!
//! A waiting thread parks (after a brief spin) and a waiting task returns
//! `Pending`, until the other half publishes or is dropped. The try
//! operations above never wait and are not slowed by the waiting layer
//! beyond one load and branch per publish: a half that goes to sleep pays
//! for the store→load barrier of the wake-up protocol (a `membarrier`
//! system call on Linux), not the half that works, so a real-time producer
//! that only calls [`push`](Producer::push) makes no system call, takes no
//! lock and allocates nothing while nobody waits. Where `membarrier` is
//! missing (not Linux, miri) both sides use a `fence(SeqCst)` instead; and
//! while one half goes to sleep every few items (fewer than 256 between
//! two waits: a small ring between two async tasks), the system call would
//! cost it more than fences on both sides cost them, so its slot switches
//! to fences until more than 512 items pass between its waits again.
//!
//! ```
//! use std::time::Duration;
//! use hotq_spsc::{PopTimeoutError, RingBuffer};
//!
//! let (mut tx, mut rx) = RingBuffer::new(64);
//! let consumer = std::thread::spawn(move || {
//!     let mut sum = 0u64;
//!     loop {
//!         match rx.pop_timeout(Duration::from_secs(10)) {
//!             Ok(v) => sum += v,
//!             Err(PopTimeoutError::Abandoned) => return sum, // producer gone, ring empty
//!             Err(PopTimeoutError::Timeout) => panic!("no item for 10 s"),
//!         }
//!     }
//! });
//! for i in 0..1000 {
//!     tx.push_timeout(i, Duration::from_secs(10)).unwrap();
//! }
//! drop(tx);
//! assert_eq!(consumer.join().unwrap(), (0..1000).sum());
//! ```
//!
//! # Moving from rtrb
//!
//! Rename the dependency: [`RingBuffer`], [`Producer`], [`Consumer`],
//! their methods, the chunk types (also under rtrb's path, [`chunks`]),
//! [`CopyToUninit`] and the error types have rtrb's names, signatures
//! and meaning, a ring of capacity 0 and a destructor that panics in
//! [`ReadChunk::commit`] (the items after it stay in the ring) included.
//!
//! ```toml
//! [dependencies]
//! rtrb = { package = "hotq-spsc", version = "0.1" }  # was: rtrb = "0.4"
//! ```
//!
//! ```
//! use hotq_spsc as rtrb; // or the rename above, and no edit at all
//! use rtrb::{RingBuffer, chunks::ChunkError};
//!
//! let (mut producer, mut consumer) = RingBuffer::new(4);
//! assert_eq!(producer.buffer().capacity(), 4);
//! let (pushed, rest) = producer.push_partial_slice(&[1, 2, 3, 4, 5]);
//! assert_eq!((pushed, rest), (&[1, 2, 3, 4][..], &[5][..]));
//! let mut out = [0; 3];
//! consumer.pop_entire_slice(&mut out).unwrap();
//! assert_eq!(consumer.pop_entire_slice(&mut out), Err(ChunkError::TooFewSlots(1)));
//! let (mut p0, mut c0) = RingBuffer::<u8>::new(0); // always full, always empty
//! assert!(p0.push(1).is_err() && c0.pop().is_err());
//! ```
//!
//! Measured: rtrb 0.4.1's own tests (22, in `tests/`), run against this
//! crate renamed as `rtrb` with no edit by `spsc/compat/rtrb.sh` in the
//! repository, all compile and 19 pass. What still differs:
//!
//! - **Texts.** [`PushError`], [`PopError`] and [`PeekError`]
//!   display as "ring buffer is full" / "ring buffer is empty" (rtrb:
//!   "full ring buffer" / "empty ring buffer"), [`ChunkError`] as "only 3
//!   slots available", with the count (rtrb: "too few slots available in
//!   ring buffer"), and `PushError`'s `Debug` is `Full(..)` (rtrb:
//!   `Full(_)`); the halves' `Debug` shows their capacity and slots
//!   (rtrb's, their fields). The variants are the same; match on them,
//!   not on the text. rtrb's two `trait_impls` tests compare these
//!   strings and fail.
//! - **The largest capacity** of zero-sized items is `2^(usize::BITS -
//!   1)`, one more than rtrb's `usize::MAX / 2`, and a capacity beyond it
//!   panics with [`CapacityError`]'s message (rtrb: "capacity exceeds
//!   usize::MAX / 2"). rtrb's `zero_sized_type_and_excessive_capacity`
//!   expects a panic at `2^63` and fails.
//! - **`commit(n)` past a chunk's length** panics in every build (rtrb
//!   panics in debug builds only, and commits the whole chunk in release).
//! - **Storage** is the capacity rounded up to a power of two (a ring of
//!   1000 items allocates 1024 slots; none for 0): masking, not rtrb's
//!   compare and subtract, maps an index to its slot. The capacity
//!   reported and enforced is exactly what was asked for.
//! - **The chunk types** ([`WriteChunk`], [`WriteChunkUninit`],
//!   [`ReadChunk`]) do not implement `PartialEq`.
//! - **Toolchain and targets**: Rust 1.85 or later (rtrb: 1.38); without
//!   `std`, the target needs compare-and-swap on pointer-sized atomics
//!   (for `alloc::sync::Arc`; see [`no_std`](#no_std)).
//!
//! Beyond rtrb: [`try_new`](RingBuffer::try_new), counts from
//! [`push_slice`](Producer::push_slice) and [`pop_slice`](Consumer::pop_slice),
//! and the blocking and async [waits](#waiting).
//!
//! # Guarantees
//!
//! Every item pushed is popped (or dropped with the ring) exactly once, in
//! order. Dropping the last half drops what is left inside. Chunks may be
//! forgotten (`mem::forget`): that leaks at worst, and never drops an item
//! twice or exposes an uninitialised slot. A destructor that panics during
//! a [`ReadChunk::commit`] cannot cause a double drop either: the items
//! after it stay in the ring (as in rtrb), and no other destructor runs
//! during the unwind, so a second panicking one cannot abort. Nor when the
//! ring drops what is left: the first destructor that panics ends the
//! drop, and the items after it are leaked.
//!
//! The implementation is model-checked with loom (`loom-tests/` in the
//! repository) and stress-tested; see the repository's `README.md`.
//!
//! # Real-time safety and progress
//!
//! Only [`RingBuffer::new`] and [`RingBuffer::try_new`] allocate (the
//! storage, once), and only dropping the last half frees it (dropping the
//! items left inside). Every call that reports "full" or "empty" at once
//! instead of waiting for room or items (today: every other call of
//! [`Producer`], [`Consumer`], their chunks and their `io` impls) never
//! allocates and never takes a lock, makes no system call while the other
//! half is not waiting, and is **wait-free**: it finishes in a bounded number of its own steps
//! whatever the other half is doing (a preempted peer delays nobody). The
//! bound is constant for single-item calls and state queries, and linear
//! in the items moved for slice, chunk and `io` calls. What runs user
//! code is as real-time safe as that
//! code: `T::drop` (in [`ReadChunk::commit`], or when a half is dropped)
//! and the iterator given to [`WriteChunkUninit::fill_from_iter`]. A full
//! or empty ring is reported at once; waiting is the caller's choice.
//! When the other half *is* waiting (a blocking or async wait of its own),
//! the call whose publish ends that wait also wakes it, once: a thread
//! with `Thread::unpark` (a futex system call on Linux), a task with its
//! `Waker::wake` (the executor's code). A half that must never make a
//! system call is paired with one that never blocks, or waits async on an
//! executor whose wake is real-time safe.
//!
//! # `no_std`
//!
//! Without the default `std` feature the crate is `no_std` and needs only
//! `alloc` (a global allocator, for the storage) and compare-and-swap on
//! pointer-sized atomics (for `alloc::sync::Arc`): it builds, for example,
//! for `thumbv7em-none-eabihf`. On a target without CAS, such as
//! `thumbv6m-none-eabi`, it refuses to build with a message saying so.
//! `std` adds the [`std::io`] impls and the blocking waits (`push_timeout`,
//! `pop_deadline`, `wait_items`, ...); the async waits need only `core`.
//!
//! Indices are `usize`s on every target: on 32-bit targets they wrap after
//! 2^32 items, which is harmless (no operation compares an index with one
//! read a lap earlier).
//!
//! # Model-checking code that uses this crate
//!
//! A program can check its own concurrent code with
//! [loom](https://docs.rs/loom) 0.7 with this crate inside: under `--cfg
//! loom` and the `loom` feature, the crate's atomics, cells, `Arc`,
//! parking and wakers are loom's, so loom explores the queue's
//! interleavings together with the program's. In the program's
//! `Cargo.toml`:
//!
//! ```toml
//! [target.'cfg(loom)'.dependencies]
//! hotq-spsc = { version = "0.1", features = ["loom"] }
//! loom = "0.7"
//! ```
//!
//! and `RUSTFLAGS="--cfg loom" cargo test --release`. A crate that never
//! model-checks leaves these lines out, and loom stays out of its
//! lockfile; `--cfg loom` without the feature is refused with a message.
//! Give each model a preemption bound (`LOOM_MAX_PREEMPTIONS=3`, or
//! `loom::model::Builder`'s `preemption_bound`): a model of one item through
//! a hotq-spsc ring and a hotq-mpmc channel took 2,969,672 executions
//! (168 s) unbounded and 4,104 (0.3 s) at 3. In the program's own retry
//! loops, call `loom::thread::yield_now()` each time round, or loom
//! explores the spin forever. The [guide](https://github.com/hotq/hotq/blob/main/docs/model-checking.md) walks through a
//! pipeline whose models catch a bug of the program's
//! (`examples/verify-pipeline`).
//!
//! What this crate's calls do inside a model:
//!
//! - `push`, `pop`, chunks and slices: every ordering is explored, and a
//!   slot read that is not ordered after its write is reported.
//! - The blocking waits (`push_timeout`, `pop_deadline`, `wait_slots`,
//!   `wait_items`, ...) do not spin: they register and park at once, and
//!   end only when the other half publishes or is dropped. Loom has no
//!   clock, so a timeout never fires inside a wait, and a lost wake-up is
//!   a deadlock that loom reports. The deadline is still read from the
//!   real clock before each park: give a model's waits deadlines far ahead
//!   (or already past, for a try); one that passes while loom runs makes
//!   executions differ, which loom cannot explore.
//! - The async waits (`push_async`, `pop_async`, the `Stream`) register at
//!   once (no self-wakes); drive them with `loom::future::block_on`.
//! - The asymmetric barrier (`membarrier`) is out of the model's reach:
//!   under loom, as under miri, every ring puts a `fence(SeqCst)` on both
//!   sides of the wake-up protocol, which is what loom checks. The stress
//!   and waiting tests run the `membarrier` path on real threads.
//! - A late wake-up (an unpark that arrives after its waiter has left)
//!   is harmless, as with `std`: under loom each thread parks on a token of
//!   its own (loom's own `Thread::unpark` would resume a thread blocked on
//!   a lock or a `join`, and fail the model).
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

// `--cfg loom` switches the sync module to loom, whose crate only the
// `loom` feature brings in (so that it stays out of the lockfiles of crates
// that never model-check): without it, one clear message instead of an
// error at every `loom::` path. Falling back to `std` would not do: inside
// a loom model a `std` park or yield never lets the other model threads run.
#[cfg(all(loom, not(feature = "loom")))]
compile_error!(
    "hotq-spsc: `--cfg loom` needs the crate's `loom` feature to model-check code that uses it \
     (e.g. `[target.'cfg(loom)'.dependencies] hotq-spsc = { version = \"0.1\", features = [\"loom\"] }`)"
);

// The two halves share the ring through `alloc::sync::Arc`, whose counts
// need compare-and-swap: a target without it (such as `thumbv6m`) is
// refused here, with this message first.
#[cfg(not(target_has_atomic = "ptr"))]
compile_error!(
    "hotq-spsc needs compare-and-swap on pointer-sized atomics (for `alloc::sync::Arc`), \
     which this target lacks (e.g. thumbv6m: load/store only)"
);

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod consumer;
mod copy;
mod error;
#[cfg(feature = "std")]
mod io;
mod producer;
mod read_chunk;
mod ring;
pub mod stamped;
mod sync;
mod wait;
mod write_chunk;
mod write_chunk_uninit;

pub use consumer::Consumer;
pub use error::{CapacityError, ChunkError, PeekError, PopError, PushError};
pub use producer::Producer;
pub use read_chunk::{ReadChunk, ReadChunkIntoIter};
pub use ring::RingBuffer;
pub use wait::{
    PopAsyncError, PopFuture, PopTimeoutError, PushAsyncError, PushFuture, PushTimeoutError,
    WaitError, WaitItemsFuture, WaitSlotsFuture,
};
pub use write_chunk::WriteChunk;
pub use write_chunk_uninit::{CopyToUninit, WriteChunkUninit};

/// The chunk types and their error under the path rtrb gives them
/// (`rtrb::chunks::ChunkError`, ...), so that imports written for rtrb
/// keep working; they are the crate root's items, re-exported.
///
/// ```
/// use hotq_spsc::RingBuffer;
/// use hotq_spsc::chunks::{ChunkError, ReadChunk};
///
/// let (_tx, mut rx) = RingBuffer::<u8>::new(2);
/// let chunk: Result<ReadChunk<'_, u8>, ChunkError> = rx.read_chunk(1);
/// assert_eq!(chunk.unwrap_err(), ChunkError::TooFewSlots(0));
/// assert_eq!(hotq_spsc::ChunkError::TooFewSlots(0), ChunkError::TooFewSlots(0));
/// ```
pub mod chunks {
    pub use crate::{ChunkError, ReadChunk, ReadChunkIntoIter, WriteChunk, WriteChunkUninit};
}

// The README's examples (what crates.io shows) run as doc tests too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
