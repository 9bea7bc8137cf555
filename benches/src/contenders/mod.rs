//! The contenders, one adapter per file. Adding one: write its file, then
//! name it once below (in [`each_channel`], and in [`each_shared`] if its
//! ends can be cloned).

mod array_queue;
mod async_channel;
mod concurrent_queue;
mod condvar_queue;
mod crossbeam_channel;
mod flume;
mod hotq_mpmc;
mod hotq_mpmc_channel;
mod hotq_spsc;
mod hotq_spsc_stamped;
mod kanal;
mod lfqueue;
mod mutex_deque;
mod omango;
mod ringbuf;
mod rtrb;
mod sync_channel;

pub use array_queue::ArrayQueue;
pub use async_channel::AsyncChannel;
pub use concurrent_queue::ConcurrentQueueBounded;
pub use condvar_queue::CondvarQueue;
pub use crossbeam_channel::CrossbeamChannel;
pub use flume::Flume;
pub use hotq_mpmc::HotqMpmc;
pub use hotq_mpmc_channel::{
    BATCH, HotqMpmcChannel, HotqMpmcChannelBatch, HotqMpmcChannelRecvMany, HotqMpmcChannelTry,
};
pub use hotq_spsc::{HotqSpsc, HotqSpscFenced};
pub use hotq_spsc_stamped::HotqSpscStamped;
pub use kanal::Kanal;
pub use lfqueue::Lfqueue;
pub use mutex_deque::MutexDeque;
pub use omango::Omango;
pub use ringbuf::Ringbuf;
pub use rtrb::Rtrb;
pub use sync_channel::SyncChannel;

use crate::channel::{Channel, Shared, TryChannel};

/// Something done once per contender type.
pub trait ChannelVisitor {
    /// Called with each contender.
    fn visit<C: Channel>(&mut self);
}

/// Something done once per cloneable contender type.
pub trait SharedVisitor {
    /// Called with each contender whose ends can be cloned.
    fn visit<C: Shared>(&mut self);
}

/// Every contender, ours first, then peers, then the baselines.
pub fn each_channel(v: &mut impl ChannelVisitor) {
    v.visit::<HotqSpsc>();
    v.visit::<HotqSpscStamped>();
    v.visit::<HotqMpmc>();
    v.visit::<Rtrb>();
    v.visit::<Ringbuf>();
    v.visit::<Omango>();
    v.visit::<ArrayQueue>();
    v.visit::<Lfqueue>();
    v.visit::<CrossbeamChannel>();
    v.visit::<Flume>();
    v.visit::<ConcurrentQueueBounded>();
    v.visit::<MutexDeque>();
    v.visit::<CondvarQueue>();
    v.visit::<SyncChannel>();
}

/// Every SPSC contender with try calls of its own: hotq-spsc's two rings
/// and the SPSC peers (the regime grid's rings).
pub fn each_try_spsc(v: &mut impl TryVisitor) {
    v.visit::<HotqSpsc>();
    v.visit::<HotqSpscStamped>();
    v.visit::<Rtrb>();
    v.visit::<Ringbuf>();
    v.visit::<Omango>();
}

/// Every MPMC queue with try calls of its own: hotq-mpmc's `Queue` and the
/// MPMC peers issue 37 §2 holds it to (the MPMC regime grid's queues).
pub fn each_try_mpmc(v: &mut impl TryVisitor) {
    v.visit::<HotqMpmc>();
    v.visit::<ArrayQueue>();
    v.visit::<Lfqueue>();
}

/// Something done with each [`TryChannel`] contender
/// ([`each_try_spsc`], [`each_try_mpmc`]).
pub trait TryVisitor {
    /// Called once per contender.
    fn visit<C: TryChannel>(&mut self);
}

/// Every contender that works with several producers and consumers.
pub fn each_shared(v: &mut impl SharedVisitor) {
    v.visit::<HotqMpmc>();
    v.visit::<ArrayQueue>();
    v.visit::<Lfqueue>();
    v.visit::<CrossbeamChannel>();
    v.visit::<Flume>();
    v.visit::<ConcurrentQueueBounded>();
    v.visit::<MutexDeque>();
    v.visit::<CondvarQueue>();
}

/// The channels with a rendezvous flavour (capacity 0) among
/// [`each_waiting_channel`], ours first (std's `sync_channel(0)` runs the
/// one-consumer shape beside them).
pub fn each_rendezvous_channel(v: &mut impl SharedVisitor) {
    v.visit::<HotqMpmcChannel>();
    v.visit::<CrossbeamChannel>();
    v.visit::<Flume>();
    v.visit::<Kanal>();
}

/// The channels that wait in their own blocking calls (the `channels`
/// suite; not in the queue suites, which drive every contender through one
/// spin-and-yield), ours first.
pub fn each_waiting_channel(v: &mut impl SharedVisitor) {
    v.visit::<HotqMpmcChannel>();
    v.visit::<CrossbeamChannel>();
    v.visit::<Flume>();
    v.visit::<Kanal>();
    v.visit::<AsyncChannel>();
    v.visit::<CondvarQueue>();
}
