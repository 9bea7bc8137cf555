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
//! - Every item pushed is popped, evicted by [`force_push`](Queue::force_push),
//!   or dropped with the queue, exactly once; one producer's items are
//!   popped in the order it pushed them.
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
#![no_std]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

mod error;
mod into_iter;
#[cfg(test)]
mod paused_producer;
mod queue;
mod sync;

pub use error::CapacityError;
pub use into_iter::IntoIter;
pub use queue::Queue;
