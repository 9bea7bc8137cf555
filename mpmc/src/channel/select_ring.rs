//! hotq-spsc's halves as [`Select`] arms (feature `spsc`): a
//! [`Consumer`] as a receive arm ([`Select::recv_spsc`]), a [`Producer`]
//! as a send arm ([`Select::send_spsc`]), so that one thread waits on a
//! real-time SPSC feed and on channels at once.
//!
//! # How a ring arm waits
//!
//! A ring has no waiting list: each half has one waker slot, and only that
//! half waits on it. A select registers there a waker made of its token
//! (`context.rs`) and the arm's position, with the ring's own poll call
//! (`Consumer::poll_items(1)`, `Producer::poll_slots(1)`), which is the
//! ring's protocol: register (its store→load barrier included), then check
//! again, so a push (a pop) that the check misses sees the waker and wakes
//! it. Waking it *picks* the token, as a channel's notifier does, and
//! unparks the select. The select then takes the waker back
//! (`clear_waker`) with its other entries.
//!
//! Two things differ from a channel's list, neither of which can lose a
//! wake-up:
//! - the pick is not made under a lock the select takes again: a ring may
//!   wake the waker after the select took it back (the other half had
//!   already taken it out of the slot). The pick then lands on a select
//!   that has moved on: a token of a call that has ended (each blocking
//!   call has its own), or one the select reads as picked for this arm in
//!   its next round, where it tries the arm first, finds nothing, and
//!   tries every arm as always. A spurious wake-up, never a lost one: a
//!   channel notifier that finds the token taken passes its notification
//!   on to its list's next waiter (`context.rs`), and the select re-tries
//!   every arm before it parks again.
//! - nothing is passed on: a ring half has one waiter only, the select.
//!
//! A ring arm completes nothing in the select: the [`SelectedOperation`]
//! it returns holds no item and no slot (dropping it is fine), and the
//! caller pops (pushes) after the select. What the select saw is still
//! there: only this half can take a ring's items (fill its free slots).

use alloc::sync::Arc as StdArc;
use alloc::task::Wake;
use core::task::{Context as TaskContext, Waker};

use hotq_spsc::{Consumer, Producer};

use super::context::Context;
use super::select::{Done, Operand, Select};
use super::waiters::Waiter;
use crate::sync::blocking::Arc;

/// The waker a select leaves in a ring half: picks the select's token for
/// the arm at `position` and unparks the select's thread.
struct PickArm {
    context: Arc<Context>,
    position: usize,
}

impl Wake for PickArm {
    fn wake(self: StdArc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &StdArc<Self>) {
        if self.context.pick(self.position) {
            self.context.unpark();
        }
    }
}

/// Runs a ring half's poll call with a waker that picks the select's
/// token for the arm at `position`. A `Ready` it returns is seen again by
/// the select's re-try (`attempt`), so it is not kept.
fn poll_with_pick<R>(
    context: &Arc<Context>,
    position: usize,
    poll: impl FnOnce(&mut TaskContext<'_>) -> R,
) {
    let waker = Waker::from(StdArc::new(PickArm {
        context: Arc::clone(context),
        position,
    }));
    let _ = poll(&mut TaskContext::from_waker(&waker));
}

/// A ring half's operation is ready when it has an item (a free slot), or
/// when the other half is gone: whatever it pushed (freed) is visible
/// once `is_abandoned` says so, so `available` is looked at once more; with
/// none, the arm is "ready" to fail (the pop says `Empty`, the push
/// `Full`, and `is_abandoned` says why).
/// (`abandoned` is read before `available` is called.)
fn ring_ready(available: impl Fn() -> usize, abandoned: bool) -> Option<Done> {
    (available() > 0 || abandoned).then_some(Done::RingReady)
}

/// The `Operand` of a ring half, whose poll call for a count is `$poll`.
macro_rules! ring_operand {
    ($half:ident, $poll:ident) => {
        impl<T> Operand for $half<T> {
            fn attempt(&self) -> Option<Done> {
                if self.slots() > 0 {
                    return Some(Done::RingReady); // without the load below
                }
                ring_ready(|| self.slots(), self.is_abandoned())
            }

            fn is_ready(&self) -> bool {
                self.attempt().is_some()
            }

            fn register(&self, _: &Arc<Waiter>, _: bool, context: &Arc<Context>, position: usize) {
                poll_with_pick(context, position, |cx| self.$poll(1, cx));
            }

            fn unregister(&self, _: &Arc<Waiter>) {
                self.clear_waker();
            }

            // One waiter only, the select: nobody to pass a wake-up to.
            fn pass_on(&self, _: &Arc<Waiter>, _: bool) {}

            fn channel(&self) -> *const () {
                (self as *const $half<T>).cast()
            }
        }
    };
}

ring_operand!(Consumer, poll_items);
ring_operand!(Producer, poll_slots);

impl<'a> Select<'a> {
    /// Adds a receive on an SPSC ring's consumer (feature `spsc`) and
    /// returns its index. The arm is ready when the ring holds an item, or
    /// when it is empty and its producer is gone. Selecting it completes
    /// nothing: pop after the select (the item is still there: only this
    /// consumer takes items); the
    /// [`SelectedOperation`](crate::SelectedOperation) may be dropped.
    ///
    /// The select borrows the consumer: build it inside the loop, so that
    /// the borrow ends before the pop. A ring whose producer is gone stays
    /// ready: once its pop fails and [`is_abandoned`](Consumer::is_abandoned)
    /// says so, stop adding its arm.
    ///
    /// ```
    /// use std::time::Duration;
    /// use hotq_mpmc::{Select, bounded};
    /// use hotq_spsc::{PopError, RingBuffer};
    ///
    /// let (mut feed, mut rx) = RingBuffer::<u64>::new(1024); // the real-time feed
    /// let (ctl_tx, ctl_rx) = bounded::<&str>(1); // and the control channel
    /// let source = std::thread::spawn(move || {
    ///     for i in 0..100 {
    ///         while feed.push(i).is_err() {
    ///             std::thread::yield_now();
    ///         }
    ///     }
    ///     ctl_tx.send("stop").unwrap();
    ///     feed // handed back: a producer dropped here would make the arm ready
    /// });
    /// let mut sum = 0;
    /// loop {
    ///     let mut sel = Select::new_biased(); // the feed first
    ///     let feed_arm = sel.recv_spsc(&rx);
    ///     let ctl_arm = sel.recv(&ctl_rx);
    ///     let oper = sel.select_timeout(Duration::from_secs(10)).expect("a message");
    ///     match oper.index() {
    ///         i if i == feed_arm => {
    ///             drop(oper);
    ///             sum += rx.pop().expect("the select saw an item");
    ///         }
    ///         i if i == ctl_arm => {
    ///             assert_eq!(oper.recv(&ctl_rx), Ok("stop"));
    ///             break;
    ///         }
    ///         _ => unreachable!(),
    ///     }
    /// }
    /// let feed = source.join().unwrap();
    /// while let Ok(v) = rx.pop() {
    ///     sum += v; // pushed before "stop", picked up after it
    /// }
    /// assert_eq!(sum, (0..100).sum());
    /// // The producer is gone: the arm is ready, and the pop says why.
    /// drop(feed);
    /// let mut sel = Select::new();
    /// let arm = sel.recv_spsc(&rx);
    /// assert_eq!(sel.ready(), arm);
    /// assert_eq!(rx.pop(), Err(PopError::Empty));
    /// assert!(rx.is_abandoned());
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "spsc")))]
    pub fn recv_spsc<T>(&mut self, consumer: &'a Consumer<T>) -> usize {
        self.add(consumer, false)
    }

    /// Adds a send on an SPSC ring's producer (feature `spsc`) and returns
    /// its index. The arm is ready when the ring has a free slot, or when
    /// its consumer is gone. Selecting it completes nothing: push after
    /// the select (the slot is still free: only this producer fills
    /// slots); the [`SelectedOperation`](crate::SelectedOperation) may be
    /// dropped.
    ///
    /// ```
    /// use hotq_mpmc::{Select, TrySelectError, bounded};
    /// use hotq_spsc::RingBuffer;
    ///
    /// let (mut tx, mut rx) = RingBuffer::new(1);
    /// let (_ctl_tx, ctl_rx) = bounded::<()>(1);
    /// tx.push(1).unwrap(); // full
    /// {
    ///     let mut sel = Select::new();
    ///     sel.send_spsc(&tx);
    ///     sel.recv(&ctl_rx);
    ///     assert!(matches!(sel.try_select(), Err(TrySelectError)));
    /// }
    /// assert_eq!(rx.pop(), Ok(1));
    /// let mut sel = Select::new();
    /// let arm = sel.send_spsc(&tx);
    /// sel.recv(&ctl_rx);
    /// assert_eq!(sel.select().index(), arm);
    /// tx.push(2).unwrap(); // cannot fail: the select saw the slot
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "spsc")))]
    pub fn send_spsc<T>(&mut self, producer: &'a Producer<T>) -> usize {
        self.add(producer, true)
    }
}
