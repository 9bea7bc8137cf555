//! Channels on the queue: [`bounded`] gives a [`Sender`] and a
//! [`Receiver`] with `crossbeam_channel`'s API — blocking `send`/`recv`,
//! timeouts and deadlines, `try_*`, disconnection, iterators — plus
//! `send_async`/`recv_async` (flume's names) and, with the `stream`
//! feature, a `futures_core::Stream`.
//!
//! # Layout
//!
//! One [`Queue`] carries the items; the channel adds, in `Shared`, a
//! count of each side's handles, a `disconnected` flag, and two
//! `Waiters` lists (blocked senders, blocked receivers) that live apart
//! from the queue, in `waiters.rs`. `try_send` is `Queue::push` plus a
//! load of `disconnected` and of the receivers' `is_empty` flag; `try_recv`
//! is `Queue::pop` plus a load of the senders' flag. Blocking and async
//! calls are loops of those same try calls, so every send and receive goes
//! through the one queue and the channel's FIFO order is the queue's: one
//! producer's items are received in the order it sent them, however it
//! sent them.
//!
//! A rendezvous channel (`bounded(0)`, `zero.rs`) has a queue closed from
//! its creation, which refuses every push and finds every pop empty, so
//! its `try_send`/`try_recv` fall through to the cold branch that hands
//! a value over between the two sides under the channel's own lock; the
//! array path above has no extra instruction for it (as timers, in
//! `timer.rs`).

#[macro_use]
mod queries;

mod alarm;
mod close;
mod context;
mod disconnect;
mod error;
mod fill_barrier;
mod force;
mod future;
mod iter;
mod receiver;
mod recv_many;
mod reserve;
mod select;
mod select_error;
mod select_macro;
#[cfg(all(feature = "spsc", not(loom)))]
mod select_ring;
mod send_many;
mod sender;
#[cfg(feature = "stream")]
mod stream;
mod timer;
mod waiters;
mod weak;
mod zero;

pub use disconnect::DisconnectedFut;
pub use error::{
    RecvError, RecvTimeoutError, SendError, SendTimeoutError, TryRecvError, TrySendError,
};
pub use future::{RecvFut, SendFut};
pub use iter::{IntoIter, Iter, TryIter};
pub use receiver::Receiver;
pub use recv_many::RecvManyFut;
pub use reserve::{Permit, ReserveFut};
pub use select::{Select, SelectedOperation};
pub use select_error::{ReadyTimeoutError, SelectTimeoutError, TryReadyError, TrySelectError};
pub use sender::Sender;
#[cfg(feature = "stream")]
pub use stream::RecvStream;
pub use timer::{after, never, tick};
pub use weak::WeakSender;

use crate::sync::blocking::{Arc, AtomicBool, Ordering};
use crate::sync::{AtomicUsize, Backoff};
use crate::{CapacityError, Queue};
use timer::Timer;
use waiters::Waiters;
use zero::Zero;

/// Creates a channel of `capacity` items: the [`Sender`] and
/// [`Receiver`] halves, each clonable. Its ring is a [`Queue`]: a slot is
/// the item beside an 8-byte stamp (see [`Queue::new`](crate::Queue::new)).
///
/// `bounded(0)` is a rendezvous channel, as `crossbeam_channel::bounded(0)`:
/// it holds no item, so a `send` returns only once a receiver has taken
/// its value, and a `try_send` succeeds only when a receiver is waiting for
/// one (in `recv`, `recv_timeout`/`recv_deadline`, a pending `recv_async`,
/// or a select's receive arm); `len()` is 0 and `capacity()` is 0.
///
/// # Panics
///
/// On a capacity that [`try_bounded`] rejects (too large to allocate),
/// with the [`CapacityError`]'s message.
///
/// ```
/// let (tx, rx) = hotq_mpmc::bounded(8);
/// std::thread::spawn(move || {
///     for i in 0..100 {
///         tx.send(i).unwrap(); // blocks while the channel is full
///     }
/// });
/// assert_eq!(rx.iter().sum::<i32>(), (0..100).sum()); // ends when `tx` is gone
/// ```
///
/// A rendezvous channel:
///
/// ```
/// use hotq_mpmc::TrySendError;
///
/// let (tx, rx) = hotq_mpmc::bounded(0);
/// assert_eq!(tx.try_send(1), Err(TrySendError::Full(1))); // nobody receives yet
/// assert_eq!((tx.len(), tx.capacity()), (0, 0));
/// let t = std::thread::spawn(move || tx.send(2)); // returns once `recv` has the 2
/// assert_eq!(rx.recv(), Ok(2));
/// t.join().unwrap().unwrap();
/// ```
///
/// ```should_panic
/// let _ = hotq_mpmc::bounded::<u64>(usize::MAX / 4); // panics: capacity too large
/// ```
pub fn bounded<T>(capacity: usize) -> (Sender<T>, Receiver<T>) {
    match try_bounded(capacity) {
        Ok(pair) => pair,
        Err(e) => panic!("{e}"),
    }
}

/// Creates a channel of `capacity` items, or says why it cannot:
/// [`CapacityError::TooLarge`] when its slots cannot be allocated or
/// indexed. Capacity 0 is a rendezvous channel (see [`bounded`]), never
/// an error ([`CapacityError::Zero`] is [`Queue::try_new`]'s only).
///
/// ```
/// use hotq_mpmc::CapacityError;
///
/// let (tx, rx) = hotq_mpmc::try_bounded::<u32>(3)?;
/// assert_eq!((tx.capacity(), rx.capacity()), (3, 3));
/// let (tx, rx) = hotq_mpmc::try_bounded::<u32>(0)?; // a rendezvous channel
/// assert_eq!((tx.capacity(), rx.capacity()), (0, 0));
/// assert_eq!(hotq_mpmc::try_bounded::<u32>(usize::MAX / 4).unwrap_err(), CapacityError::TooLarge);
/// # Ok::<(), CapacityError>(())
/// ```
pub fn try_bounded<T>(capacity: usize) -> Result<(Sender<T>, Receiver<T>), CapacityError> {
    let shared = if capacity == 0 {
        Shared::rendezvous()
    } else {
        Shared::new(Queue::try_new(capacity)?, None)
    };
    let shared = Arc::new(shared);
    Ok((
        Sender {
            shared: Arc::clone(&shared),
        },
        Receiver { shared },
    ))
}

/// What both halves share.
pub(crate) struct Shared<T> {
    pub(crate) queue: Queue<T>,
    /// Set once, when the last handle of either side is dropped or a
    /// receiver closes the channel (`close.rs`): a sender that reads `true`
    /// knows no receiver takes its items any more, a receiver that reads
    /// it knows no sender adds any.
    pub(crate) disconnected: AtomicBool,
    /// Live `Sender`s; the one that takes it to 0 disconnects.
    pub(crate) senders: AtomicUsize,
    /// Live `Receiver`s; the one that takes it to 0 disconnects and drops
    /// what is left.
    pub(crate) receivers: AtomicUsize,
    /// Senders blocked on a full channel; notified by every receive.
    pub(crate) send_waiters: Waiters,
    /// Receivers blocked on an empty channel; notified by every send.
    pub(crate) recv_waiters: Waiters,
    /// `Sender::disconnected_async` futures; notified only by the
    /// disconnection (see `disconnect.rs`).
    pub(crate) closed_waiters: Waiters,
    /// A timer receiver's timer (`timer.rs`); `None` for every other
    /// channel. Asked only after a receive found the queue empty.
    pub(crate) timer: Option<Timer<T>>,
    /// A rendezvous channel's hand-off state (`zero.rs`); `None` for every
    /// other channel. Its queue is closed from the start, so the array
    /// path reaches this only on its cold branch (the queue refused).
    pub(crate) zero: Option<Zero<T>>,
}

impl<T> Shared<T> {
    /// Whether items come one at a time and never through the queue: a
    /// timer's (`timer.rs`) and a rendezvous channel's hand-offs
    /// (`zero.rs`). Their batch calls are loops of the single calls
    /// (`recv_many.rs`, `send_many.rs`).
    pub(crate) fn one_at_a_time(&self) -> bool {
        self.timer.is_some() || self.zero.is_some()
    }

    /// One sender and one receiver (a timer's sender count stays at 1,
    /// with no sender behind it: it never disconnects).
    pub(crate) fn new(queue: Queue<T>, timer: Option<Timer<T>>) -> Self {
        let capacity = queue.capacity();
        Shared {
            queue,
            disconnected: AtomicBool::new(false),
            senders: AtomicUsize::new(1),
            receivers: AtomicUsize::new(1),
            send_waiters: Waiters::new(),
            recv_waiters: Waiters::for_receivers(capacity),
            closed_waiters: Waiters::new(),
            timer,
            zero: None,
        }
    }

    /// A rendezvous channel (`bounded(0)`): a closed queue (every push
    /// fails, every pop finds it empty) and the hand-off state.
    fn rendezvous() -> Self {
        let queue = Queue::new(1);
        queue.close();
        Shared {
            zero: Some(Zero::new()),
            ..Shared::new(queue, None)
        }
    }

    /// Marks the channel disconnected and wakes every blocked handle of
    /// both sides (those of the side that left are gone, so waking both is
    /// waking the other). `mark_closed`: a side's last handle is gone, and
    /// the receivers' list is marked `CLOSED` too; `false` for
    /// `Receiver::close`, whose receivers stay and drain (`close.rs`).
    fn disconnect(&self, mark_closed: bool) {
        // Release pairs with the fence(SeqCst) of the pop that follows the
        // flag's load in `Receiver::try_recv` (see there): the
        // last sender's pushes (and, through the `senders` count's AcqRel,
        // every other sender's) are visible to the receiver that sees the
        // flag, so it drains them before it reports `Disconnected`. After
        // `Receiver::close`, likewise the queue's closing CAS on `tail`
        // (sequenced before this), so the receiver's `tail` load sees the
        // close point and it waits for every item claimed before it.
        self.disconnected.store(true, Ordering::Release);
        if let Some(zero) = &self.zero {
            // Before the watchers wake: a `ready` woken below sees it.
            zero.disconnect();
        }
        // Both lists take their lock: a waiter registered after this sees
        // the flag on its re-try. `CLOSED` in the receivers' list tells a
        // send that races the last receiver's drain (see `waiters.rs`).
        self.send_waiters.close();
        if mark_closed {
            self.recv_waiters.close();
        } else {
            self.recv_waiters.notify_all();
        }
        self.closed_waiters.close();
    }

    /// Pops an item, as `Queue::pop`; a tombstone skipped on the way (a
    /// dropped permit's slot, `reserve.rs`) frees a slot, so a blocked
    /// sender is woken, as after a receive. Every pop of a channel goes
    /// through here (or, for `try_recv`'s fast path, the same call).
    #[inline]
    pub(crate) fn pop(&self) -> Option<T> {
        let backoff = Backoff::new();
        loop {
            if let Some(v) = self.queue.pop() {
                return Some(v);
            }
            match self.skip_tombstone() {
                None => return None,
                Some(true) => {}
                // Another thread's skip of it is under way (it has moved
                // `head`, or this thread's `head` was stale): let it
                // finish, then look again.
                Some(false) => backoff.snooze(),
            }
        }
    }

    /// After a pop found no item: skips a tombstone at `head` (a dropped
    /// permit's slot). `None`: there was none; `Some(won)`: there was, and
    /// this thread skipped it (`won`) or another did or does (then pop
    /// again). The thread whose skip (a SeqCst claim of `head`, which
    /// `load_after_claim` follows) freed the slot wakes a blocked sender, as
    /// after a receive.
    #[cold]
    #[inline(never)]
    pub(crate) fn skip_tombstone(&self) -> Option<bool> {
        let won = self.queue.skip_tombstone_at_head()?;
        if won {
            let _ = self.send_waiters.notify_one();
        }
        Some(won)
    }

    /// Drops every item `next` takes out of the queue, in order. If a
    /// destructor panics, the panic goes on to the caller and the items
    /// still inside are taken out and leaked, not dropped: the unwind may
    /// drop the channel, and the queue's drop would then run the next
    /// destructor while panicking, which aborts the process. A destructor's
    /// panic must never become an abort, and no item is dropped twice (as
    /// in crossbeam-channel).
    pub(crate) fn drop_all(&self, mut next: impl FnMut() -> Option<T>) {
        /// On the way out of a panic: empties the queue without dropping.
        struct LeakTheRest<'a, T>(&'a Queue<T>);
        impl<T> Drop for LeakTheRest<'_, T> {
            fn drop(&mut self) {
                // Past dropped permits' tombstones too: the queue's own
                // drop must find no item it could drop while unwinding.
                loop {
                    while let Some(item) = self.0.pop() {
                        core::mem::forget(item);
                    }
                    if self.0.skip_tombstone_at_head().is_none() {
                        break;
                    }
                }
            }
        }
        let on_panic = LeakTheRest(&self.queue);
        while let Some(item) = next() {
            drop(item);
        }
        core::mem::forget(on_panic);
    }
}

/// Adds one handle to a count, refusing to wrap (as `Arc` does: only a
/// program that leaks handles in a loop gets there).
fn add_handle(count: &AtomicUsize) {
    // Relaxed: the new handle comes from an existing one, which keeps the
    // count above 0 meanwhile; nothing is published by cloning.
    let before = count.fetch_add(1, Ordering::Relaxed);
    assert!(before < isize::MAX as usize, "too many channel handles");
}
