//! A bounded multi-producer multi-consumer queue: Dmitry Vyukov's array
//! queue with a stamp per slot.
//!
//! ```
//! use hotq_mpmc::Queue;
//!
//! let q = Queue::new(2);
//! std::thread::scope(|s| {
//!     s.spawn(|| {
//!         for i in 0..100 {
//!             let mut item = i;
//!             while let Err(back) = q.push(item) {
//!                 item = back; // full: try again
//!                 std::thread::yield_now();
//!             }
//!         }
//!     });
//!     let mut next = 0;
//!     while next < 100 {
//!         if let Some(v) = q.pop() {
//!             assert_eq!(v, next); // one producer: its items stay in order
//!             next += 1;
//!         }
//!     }
//! });
//! assert_eq!(q.pop(), None);
//! ```
//!
//! # Design
//!
//! A ring of slots, each holding a value and an atomic *stamp*; producers
//! and consumers each own a free-running position counter on its own cache
//! line. A producer claims a slot with one CAS on `tail` when the slot's
//! stamp says it is empty for this lap, writes, and publishes by storing a
//! new stamp (`Release`); a consumer claims with one CAS on `head`, reads,
//! and frees the slot for the next lap the same way. Producers contend only
//! with producers and consumers only with consumers; a failed CAS backs
//! off. Any capacity from 1 up works and is reported exactly; positions
//! keep a lap count so stamps stay unambiguous across `usize` wrap-around.
//! The layout is explained once, in full, at the top of `queue.rs`.
//!
//! # Guarantees
//!
//! - [`push`](Queue::push) and [`pop`](Queue::pop) are linearizable: `pop`
//!   returns `None` only if the queue was empty at some instant of the call,
//!   and `push` fails only if it was full. (Vyukov's original reports a
//!   spurious "empty" when a producer stalls between claim and publish; this
//!   queue waits for it instead, yielding the thread.)
//! - [`pop_many`](Queue::pop_many) and [`push_many`](Queue::push_many) move
//!   a batch with one claim (one CAS) for all of it, and are linearizable
//!   as one atomic removal of the oldest items (append of a prefix of the
//!   caller's): at least one unless the queue was empty (full) at some
//!   instant of the call, at most the limit (the room); fewer than there
//!   are only when a peer is in the middle of the next slot, which a batch
//!   does not wait for (see `queue/batch.rs`).
//! - Every item pushed is popped, evicted by [`force_push`](Queue::force_push),
//!   or dropped with the queue, exactly once; one producer's items are
//!   popped in the order it pushed them. If an item's destructor panics
//!   while the queue or a channel drops what is left, the panic reaches the
//!   dropper and the items after it are leaked: none is dropped twice, and
//!   a second panicking destructor cannot abort the process.
//! - [`len`](Queue::len) is the length at one instant during the call, which
//!   other threads may change before you use it.
//!
//! # Progress: not lock-free in the strict sense
//!
//! A thread preempted between claiming a slot and finishing with it holds
//! up the threads that need that slot next: a producer stalled after its
//! claim delays the consumers behind its slot (they wait rather than report
//! a spurious "empty"), and a consumer stalled after its claim delays the
//! producer of the next lap into that slot, and the consumers of that next
//! lap (they cannot tell its unfinished pop from a `force_push` that is
//! replacing the slot's item, so they wait rather than report "empty"). Other slots stay usable:
//! producers keep filling free slots and consumers keep taking published
//! items ahead of the stalled one. Waiting threads spin briefly and then
//! yield (with the `std` feature), so on a machine with fewer cores than
//! threads the stalled thread gets to run. In practice such stalls last as
//! long as a scheduler time slice at most; a thread that dies mid-push
//! cannot happen (nothing between claim and publish can panic).
//!
//! # Channels: [`bounded`], [`Sender`], [`Receiver`]
//!
//! The same queue with waiting on top, and `crossbeam_channel`'s API:
//! threads block in [`send`](Sender::send) while the channel is full and in
//! [`recv`](Receiver::recv) while it is empty (after a spin of at most
//! 20 µs that yields the core, parked: no CPU), with
//! timeouts and deadlines, `try_*` calls that never block, disconnection
//! when one side's last handle goes, iterators,
//! [`send_async`](Sender::send_async)/[`recv_async`](Receiver::recv_async)
//! for async code on any runtime (`Stream` with the `stream` feature), and
//! [`select!`] (or [`Select`]) to wait on several channels at once, as a
//! stage waits on its data and its control messages, with timer channels
//! ([`after`], [`tick`], [`never`](fn@never)) as arms beside them, and,
//! with the `spsc` feature, hotq-spsc's rings too (`Select::recv_spsc`,
//! `Select::send_spsc`: a real-time SPSC feed and a control channel in
//! one wait, which no other channel crate offers). A select that does not
//! wait allocates nothing unless it has more than eight operations, or
//! its receive arm takes an item larger than three words (or aligned
//! past a word), which it boxes; when it waits, it allocates one waiter
//! entry per operation.
//!
//! ```
//! let (tx, rx) = hotq_mpmc::bounded(16);
//! let producers: Vec<_> = (0..4u64)
//!     .map(|p| {
//!         let tx = tx.clone();
//!         std::thread::spawn(move || (0..100).for_each(|i| tx.send(p * 100 + i).unwrap()))
//!     })
//!     .collect();
//! drop(tx); // the clones keep the channel open until the producers finish
//! assert_eq!(rx.iter().sum::<u64>(), (0..400).sum()); // ends at disconnection
//! producers.into_iter().for_each(|p| p.join().unwrap());
//! ```
//!
//! ## Moving from `crossbeam_channel::bounded`
//!
//! Rename the import: `bounded`, `Sender`, `Receiver`, their methods and
//! the error types have the same names, shapes and meaning
//! (`use hotq_mpmc::{bounded, Sender, Receiver, RecvTimeoutError, ...}`).
//! What changes:
//!
//! - `capacity()` returns `usize`, not `Option<usize>`: every channel is
//!   bounded (there is no `unbounded`);
//! - capacity 0 is a rendezvous channel, as crossbeam's: a `send` returns
//!   once a receiver has the value, a `try_send` succeeds only when a
//!   receiver waits, in blocking, timed, async and select calls alike.
//!   Its `capacity()` is 0 (crossbeam: `Some(0)`). Where it differs: a
//!   value a sender handed to a waiting receive that then could not keep it
//!   (a `recv_async` future dropped, or a select whose re-check completed
//!   another operation first) goes back into the channel, to the next
//!   receive, rather than being lost (crossbeam has no async receive, and
//!   its select never completes an operation it was not picked for);
//!   a `force_send` with no receiver waiting returns its own value as the
//!   evicted one; the batch calls (crossbeam has none) hand the items
//!   over one at a time, as their single calls do; a reserve panics (it
//!   holds no slot to reserve; tokio's `channel(0)` panics when made).
//!   [`try_bounded`] fails only for a capacity that cannot be
//!   allocated ([`CapacityError::TooLarge`]); [`CapacityError::Zero`] is
//!   [`Queue::try_new`]'s;
//! - [`select!`], [`select_biased!`] and [`Select`] have
//!   `crossbeam_channel`'s syntax, names and errors, over these channels
//!   and the timer channels [`after`], [`tick`] and [`never`](fn@never);
//!   a `select!` takes at most 32 arms, and a [`Select`] stays on the
//!   thread that made it (it is neither `Send` nor `Sync`);
//! - a timer receiver's `len()` is always 0 and `is_empty()` always true
//!   (crossbeam's say 1 and false while a message is due), and its
//!   `capacity()` is 1 ([`never`](fn@never)'s too; crossbeam's is `Some(0)`); an
//!   async receive on a timer is woken by one alarm thread shared by the
//!   process, started on the first such wait and ended when no wait is
//!   left (nothing else can wake the task: a timer has no sender);
//! - there are async calls too, and the `stream` feature's `RecvStream`;
//! - with the `spsc` feature a [`Select`] also takes hotq-spsc's halves
//!   as arms (`recv_spsc`, `send_spsc`); the `select!` macro does not.
//!
//! ## Compared with tokio's `mpsc::channel`
//!
//! [`Sender::reserve`] (with `try_`, timed and async forms) gives a
//! [`Permit`] as tokio's does, with one difference: tokio's permit holds
//! *capacity*, this one holds a *place*, the slot at the tail of the queue
//! when it was made. Items sent after the reserve are received after the
//! permit's item (tokio's may overtake it), and a receiver that reaches a
//! held slot waits there, as on an empty channel, until the permit sends
//! or is dropped; items sent before it, and other senders' use of the
//! other free slots, are not held up. A permit dropped unsent gives its
//! slot back at once when it is the oldest, else when the receivers reach
//! it. Hold permits briefly.
//!
//! ```
//! // was: use crossbeam_channel::{bounded, RecvTimeoutError};
//! use hotq_mpmc::{CapacityError, RecvTimeoutError, bounded, try_bounded};
//! use std::time::Duration;
//!
//! let (tx, rx) = bounded::<u32>(8);
//! assert_eq!(tx.capacity(), 8); // crossbeam_channel: Some(8)
//! tx.send(1).unwrap();
//! assert_eq!(rx.recv_timeout(Duration::from_millis(1)), Ok(1));
//! assert_eq!(rx.recv_timeout(Duration::from_millis(1)), Err(RecvTimeoutError::Timeout));
//! // A rendezvous channel, as crossbeam_channel's: `send` waits for a `recv`.
//! let (meet_tx, meet_rx) = bounded::<u32>(0);
//! assert_eq!(meet_tx.capacity(), 0); // crossbeam_channel: Some(0)
//! let t = std::thread::spawn(move || meet_tx.send(2));
//! assert_eq!(meet_rx.recv(), Ok(2));
//! t.join().unwrap().unwrap();
//! // Only a capacity that cannot be allocated is an error.
//! assert_eq!(try_bounded::<u32>(usize::MAX).unwrap_err(), CapacityError::TooLarge);
//!
//! // was: crossbeam_channel::select! — the same arms.
//! let (ctl_tx, ctl) = bounded::<&str>(1);
//! ctl_tx.send("stop").unwrap();
//! let stopped = hotq_mpmc::select! {
//!     recv(rx) -> item => item.is_err(),
//!     recv(ctl) -> cmd => cmd == Ok("stop"),
//!     default(Duration::from_secs(1)) => false,
//! };
//! assert!(stopped);
//! ```
//!
//! An async receiver (any executor; the futures are `Send`):
//!
//! ```
//! # use std::future::Future;
//! # fn block_on<F: Future>(f: F) -> F::Output {
//! #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
//! #     let mut f = std::pin::pin!(f);
//! #     loop {
//! #         if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; }
//! #         std::thread::yield_now();
//! #     }
//! # }
//! let (tx, rx) = hotq_mpmc::bounded(4);
//! std::thread::spawn(move || (1..=3).for_each(|i| tx.send(i).unwrap()));
//! let sum = block_on(async move {
//!     let mut sum = 0;
//!     while let Ok(v) = rx.recv_async().await {
//!         sum += v;
//!     }
//!     sum // the sender is gone and the channel empty
//! });
//! assert_eq!(sum, 6);
//! ```
//!
//! An async send with a timeout that keeps its value: a timeout around
//! `send_async` drops the future and the value in it, but one around
//! [`reserve_async`](Sender::reserve_async) drops only the reservation
//! (which takes no slot), and the [`Permit`] it gives sends without
//! waiting. Any runtime's `timeout` (or a `select!` arm) does; here a
//! hand-made one:
//!
//! ```
//! use std::future::Future;
//! use std::time::{Duration, Instant};
//!
//! /// `fut`'s output, or `None` once `limit` has passed (the future is then
//! /// dropped pending, as a runtime's timeout drops it).
//! fn timeout<F: Future>(limit: Duration, fut: F) -> Option<F::Output> {
//!     let deadline = Instant::now() + limit;
//!     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
//!     let mut fut = std::pin::pin!(fut);
//!     while Instant::now() < deadline {
//!         if let std::task::Poll::Ready(v) = fut.as_mut().poll(&mut cx) {
//!             return Some(v);
//!         }
//!         std::thread::yield_now();
//!     }
//!     None
//! }
//!
//! let (tx, rx) = hotq_mpmc::bounded(1);
//! tx.send(String::from("first")).unwrap(); // full
//! let value = String::from("second");
//! let kept = match timeout(Duration::from_millis(10), tx.reserve_async()) {
//!     Some(Ok(permit)) => {
//!         permit.send(value);
//!         None
//!     }
//!     Some(Err(_disconnected)) => unreachable!("the receiver is alive"),
//!     None => Some(value), // timed out: the value is still here
//! };
//! let value = kept.expect("the channel stayed full");
//! assert_eq!(rx.recv().unwrap(), "first");
//! // Room now: the same value goes in.
//! let permit = timeout(Duration::from_secs(10), tx.reserve_async()).unwrap().unwrap();
//! permit.send(value);
//! assert_eq!(rx.recv().unwrap(), "second");
//! ```
//!
//! A graceful shutdown: the consumer closes the channel, which refuses
//! every later send (the value comes back) and wakes blocked senders, then
//! drains what was sent before; nothing accepted is lost.
//!
//! ```
//! use hotq_mpmc::{RecvError, SendError};
//!
//! let (tx, rx) = hotq_mpmc::bounded(4);
//! let producer = std::thread::spawn(move || {
//!     let mut sent = 0;
//!     loop {
//!         match tx.send(sent) {
//!             Ok(()) => sent += 1,
//!             Err(SendError(back)) => return (sent, back), // closed: keep the value
//!         }
//!     }
//! });
//! assert_eq!(rx.recv(), Ok(0)); // take one, then shut down
//! rx.close();
//! let mut last = 0;
//! while let Ok(v) = rx.recv() {
//!     last = v; // drain what was accepted before the close
//! }
//! assert_eq!(rx.recv(), Err(RecvError));
//! let (sent, refused) = producer.join().unwrap();
//! assert_eq!(last + 1, sent); // every accepted item was received
//! assert_eq!(refused, sent); // the refused one came back
//! ```
//!
//! ## `Queue` or channel?
//!
//! Use [`Queue`] when the threads never wait for each other (they have
//! other work, or drop on full) or share it without handles (a `static`,
//! a field): it is the bare algorithm, `no_std`, with
//! [`force_push`](Queue::force_push). Use a channel when a thread should
//! sleep until there is work or room, needs timeouts, async, or to learn
//! that the other side has gone. With nobody waiting, `try_send` and
//! `try_recv` cost a few instructions over `push` and `pop`.
//!
//! # Real-time safety and the progress of each call
//!
//! This section is about [`Queue`]. A channel adds a waiting layer: with
//! nobody waiting, `try_send`/`try_recv` are `push`/`pop` and a load or
//! two; a call that waits (`send`, `recv`, their timed and async forms)
//! allocates its entry in the waiters' list and takes the list's lock, and
//! the call that ends a wait takes that lock and wakes the waiter (a
//! futex system call for a thread, the task's `Waker` for a future). On
//! Linux, once a channel has had a [`Permit`], a receive that goes on the
//! waiters' list also makes a `membarrier` system call, so that
//! [`Permit::send`] needs no fence (`channel/fill_barrier.rs`).
//!
//! Only [`Queue::new`] and [`Queue::try_new`] allocate (the slots, once),
//! and only dropping the queue (or its [`IntoIter`]) frees them, dropping
//! the items left inside. No `Queue` call takes a lock. Per call:
//!
//! | call | progress |
//! |---|---|
//! | [`capacity`](Queue::capacity) | wait-free (a field read) |
//! | [`len`](Queue::len), [`is_empty`](Queue::is_empty), [`is_full`](Queue::is_full) | lock-free: retries only while producers move `tail` |
//! | [`push`](Queue::push), [`pop`](Queue::pop), [`force_push`](Queue::force_push), [`IntoIter`]'s `next` | lock-free among threads that are running (a failed CAS means another call succeeded); blocking only behind a peer stalled mid-operation on the same slot, as described above |
//!
//! When no peer is mid-operation on its slot, `push`, `pop` and
//! `force_push` finish in a bounded number of steps with no system call.
//! Waiting behind a stalled peer spins, then (with the `std` feature)
//! yields the thread: `std::thread::yield_now`, a system call. Without
//! `std` it only spins. A full or empty queue is reported at once.
//!
//! # `no_std`, 32-bit targets
//!
//! Without the default `std` feature the crate is `no_std`, has the
//! [`Queue`] alone (the channels need `std`'s threads and clocks), and needs
//! `alloc` (a global allocator, for the slots) and compare-and-swap on
//! pointer-sized atomics: it builds, for example, for
//! `thumbv7em-none-eabihf`. On a target without CAS, such as
//! `thumbv6m-none-eabi`, it refuses to build with a message saying so.
//!
//! Positions and stamps are 64-bit wherever the target has 64-bit
//! atomics, i686 and 32-bit ARM Linux included, so no position comes back
//! to a value a stalled thread has read, nor takes a stale position for a
//! closed channel's (that takes 2^61 positions, at least 2^60 items). On a
//! target without them (`thumbv7em`, for example) they are `usize`s, and
//! the queue is correct as long as no thread stalls inside one `push`,
//! `pop` or `force_push` while about 2^28 items (2^29 positions) pass
//! through the queue; a thread stalled that long could claim a slot of a
//! later lap (the lap-wrap ABA) or misread the gap between `head` and
//! `tail` (see `Receiver::close`). Targets with a 16-bit `usize` and no
//! 64-bit atomics are refused.
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
//! hotq-mpmc = { version = "0.1", features = ["loom"] }
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
//! - [`Queue`] and the channels' `try_*` calls: every ordering is
//!   explored. A call that finds a slot mid-operation by another thread
//!   yields; after two such yields in one call loom stops exploring that
//!   branch (`loom::skip_branch`), since waiting longer only reads the
//!   same state: a model whose interesting reads come after a long wait
//!   must not wait.
//! - `send` and `recv` (and the iterators) do not spin: they register and
//!   park at once, and a lost wake-up is a deadlock that loom reports.
//! - The timed calls (`send_timeout`, `recv_deadline`, ...): loom has no
//!   clock, so a timed wait parks as one yield and then times out: every
//!   timed wait races its own timeout (loom explores the other threads
//!   acting before it gives up, and the timeout). A deadline already past
//!   still tries once.
//! - `send_async` and `recv_async` register at once; drive them with
//!   `loom::future::block_on`.
//! - A `SeqCst` access is modelled by loom as `AcqRel`; the one place the
//!   wake-up protocol needs its total order (a claim, then the load of the
//!   waiter flag) puts a `fence(SeqCst)` there under loom instead.
//! - A late wake-up is harmless, as with `std`: under loom each thread
//!   parks on a token of its own (loom's own `Thread::unpark` would resume
//!   a thread blocked on a lock or a `join`, and fail the model).
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
    "hotq-mpmc: `--cfg loom` needs the crate's `loom` feature to model-check code that uses it \
     (e.g. `[target.'cfg(loom)'.dependencies] hotq-mpmc = { version = \"0.1\", features = [\"loom\"] }`)"
);

// The claims are compare-and-swaps: a target without them (such as
// `thumbv6m`, whose atomics only load and store) is refused here, with
// this message instead of the errors of every CAS.
#[cfg(not(target_has_atomic = "ptr"))]
compile_error!(
    "hotq-mpmc needs compare-and-swap on pointer-sized atomics, which this target \
     lacks (e.g. thumbv6m: load/store only); use a target with CAS, such as thumbv7m"
);
// Without 64-bit atomics positions are `usize`s (see `# 32-bit targets`);
// 16 bits would wrap after 2^15 items, too soon for the documented bound.
#[cfg(all(not(target_has_atomic = "64"), target_pointer_width = "16"))]
compile_error!("hotq-mpmc needs 64-bit atomics or a usize of at least 32 bits");

extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

#[cfg(feature = "std")]
pub mod channel;
mod error;
mod into_iter;
#[cfg(test)]
mod paused_producer;
mod queue;
mod sync;

pub use error::CapacityError;
pub use into_iter::IntoIter;
pub use queue::Queue;

// The README's examples (what crates.io shows) run as doc tests too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
#[cfg(feature = "stream")]
pub use channel::RecvStream;
#[cfg(feature = "std")]
pub use channel::{
    DisconnectedFut, Permit, ReadyTimeoutError, Receiver, RecvError, RecvManyFut, RecvTimeoutError,
    ReserveFut, Select, SelectTimeoutError, SelectedOperation, SendError, SendTimeoutError, Sender,
    TryReadyError, TryRecvError, TrySelectError, TrySendError, WeakSender, after, bounded, never,
    tick, try_bounded,
};
#[cfg(all(loom, feature = "std"))]
#[doc(hidden)]
pub use sync::blocking::try_only_model;
