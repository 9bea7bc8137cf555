//! [`Select`]: waits on several channel operations at once and completes
//! one of them, as `crossbeam_channel::Select` does (the macros over it
//! are in `select_macro.rs`).
//!
//! # How a select waits
//!
//! A select first tries its operations once each (in a fresh random order,
//! or as listed when biased). When none can go ahead and it may wait, it
//! first spins and tries again, as a blocking `recv` does before it
//! registers (`SpinFirst`: spin hints, then yields for up to 20 µs; the
//! hints only when this thread's last select parked for long): a peer on
//! another core usually sends within that. Without it, a select that kept
//! pace with its producer parked and was woken for every few items: at
//! 1.8 M items/s against 10.0 with it (data and control channels, 20,000
//! items after 100 ms idle, 2-core VM, 2026-12-06, one set of 10 rounds;
//! docs/goals-missed.md, "The selects"). Then it
//! puts one entry per operation on that operation's waiting list (a
//! receive on the channel's receivers' list, a send on its senders'),
//! every entry sharing one wake-once token (`context.rs`), then tries
//! every operation again before it parks: the re-try after the flag
//! stores of `waiters.rs`'s protocol, whose store→load pairs are, for each
//! list it is on:
//!
//! - the select: `Waiters::register` (flag store) → the queue's
//!   `fence(SeqCst)` in its failure path (`Queue::pop`, `Queue::claim`) →
//!   load of `tail`/`head`; for [`Select::ready`], which completes nothing,
//!   its own `fence(SeqCst)` before it looks at the queues;
//! - the working side: its claim (`SeqCst` CAS) → `load_after_claim` of
//!   the list's flags.
//!
//! So a send or receive that the re-try misses sees the entry and
//! notifies the list. The first notifier to pick the token wakes the
//! select; notifiers of its other lists that find the token taken pass
//! their notification to their next waiter. Once awake, the select takes
//! all its entries off, tries the picked operation first, and passes the
//! notification on if it completes another one (see `context.rs`).
//!
//! A receive arm takes its item during the select (the item waits in the
//! [`SelectedOperation`]); a send arm reserves its slot during the select
//! (`Queue::reserve`, as a `Permit` does: `reserve.rs`) and fills it when
//! the caller gives the value to [`SelectedOperation::send`]. Meanwhile
//! receivers that reach that slot find the channel empty for now; a
//! `SelectedOperation` dropped unsent gives the slot back (a tombstone)
//! before it panics, so they go on to the next items.
//!
//! On a rendezvous channel (`bounded(0)`, `zero.rs`) a completing select's
//! receive arm waits as a receiver (a sender hands its entry a value, which
//! the select takes when it wakes, or gives back if it completed another
//! operation); its send arm watches the senders' list and, when chosen,
//! claims a waiting receiver, which gets the value from
//! [`SelectedOperation::send`] (dropped unsent, the claim is released and
//! the receiver waits again). The `ready` calls watch both lists, as on
//! any channel.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;
use core::mem::{ManuallyDrop, MaybeUninit, align_of, size_of};
use core::ptr::NonNull;
use std::time::{Duration, Instant};

use super::context::Context;
use super::reserve::Reserved;
use super::select_error::{ReadyTimeoutError, SelectTimeoutError, TryReadyError, TrySelectError};
use super::waiters::Waiter;
use super::zero::Claim;
use super::{Receiver, RecvError, SendError, Sender, Shared, TryRecvError};
use crate::sync::blocking::{self, Arc, Ordering, SpinFirst};
use crate::sync::{Position, fence};

/// A channel end a [`Select`] can wait on: one of its operations.
pub(super) trait Operand {
    /// Tries the operation once; `None` when it would block.
    fn attempt(&self) -> Option<Done>;
    /// Whether the operation would go ahead now (a disconnected channel's
    /// would: it fails at once).
    fn is_ready(&self) -> bool;
    /// The channel, to check the handle given to [`SelectedOperation`].
    fn channel(&self) -> *const ();
    /// When a timer receiver's next message is due (nothing notifies its
    /// waiters: a select wakes by itself then).
    fn fire_at(&self) -> Option<Instant> {
        None
    }
    /// Puts the select's `entry` for the operation at `position` where a
    /// notifier finds it: on the channel's list (a notifier picks the
    /// token of `context` through it); for a ring half
    /// (`select_ring.rs`), a waker in the ring that picks it. `completing`:
    /// the select will complete the operation (not only report it ready).
    fn register(
        &self,
        entry: &Arc<Waiter>,
        completing: bool,
        context: &Arc<Context>,
        position: usize,
    );
    /// Takes `entry` off its list (or the waker out of the ring).
    fn unregister(&self, entry: &Arc<Waiter>);
    /// The operation was picked, but the select ends with `same_op` (its
    /// own, completed in the re-try) or another one: what the pick brought
    /// goes on.
    fn pass_on(&self, entry: &Arc<Waiter>, same_op: bool);
    /// Tries the operation after a notifier picked `entry`.
    fn attempt_picked(&self, entry: &Arc<Waiter>) -> Option<Done> {
        let _ = entry;
        self.attempt()
    }
}

/// What a select did to the channel of the operation it selected.
pub(super) enum Done {
    /// A receive took this item.
    Received(Item),
    /// A send reserved this position of the queue (`Queue::reserve`);
    /// `release` gives it back unfilled, given the channel's address.
    Claimed(Position, unsafe fn(*const (), Position)),
    /// A send on a rendezvous channel claimed a waiting receiver
    /// (`zero.rs`).
    Handing(Claim),
    /// The other side is gone (a receive: and the channel is empty).
    Disconnected,
    /// A ring half is ready (`select_ring.rs`): its own call after the
    /// select takes the item or the slot, which no one else can take.
    #[cfg(feature = "spsc")]
    RingReady,
}

/// A received item of a type the select does not know, held until
/// [`SelectedOperation::recv`] takes it out with the type its receiver
/// names: in place when it fits in [`ITEM_WORDS`] words (a number, a
/// pointer, a `String`), else boxed. In place, a select of small items
/// allocates nothing (the box was a quarter of a ready `select!`'s
/// instructions, callgrind, four `recv` arms of `u64`).
pub(super) struct Item {
    /// The item, when [`fits`]`::<T>()`; else the `*mut T` of its box.
    cell: MaybeUninit<[usize; ITEM_WORDS]>,
    /// Drops what `cell` holds, given `cell`'s address (which moves with
    /// the `Item`).
    drop: unsafe fn(*mut [usize; ITEM_WORDS]),
    /// Neither `Send` nor `Sync`, whatever `T` is (as when this held a
    /// pointer): the select does not know `T`.
    _not_send: PhantomData<NonNull<()>>,
}

/// How many words an [`Item`] holds in place.
const ITEM_WORDS: usize = 3;

/// Whether a `T` goes in an [`Item`]'s cell itself (size and alignment
/// within the cell's).
const fn fits<T>() -> bool {
    size_of::<T>() <= size_of::<[usize; ITEM_WORDS]>() && align_of::<T>() <= align_of::<usize>()
}

impl Item {
    fn new<T>(value: T) -> Item {
        /// Drops the `T` in the cell at `cell`.
        ///
        /// # Safety
        ///
        /// `fits::<T>()`, and the cell holds a `T` not dropped or taken.
        unsafe fn drop_in_place<T>(cell: *mut [usize; ITEM_WORDS]) {
            // SAFETY: the caller's promise.
            unsafe { cell.cast::<T>().drop_in_place() }
        }
        /// Drops and frees the box whose pointer the cell at `cell` holds.
        ///
        /// # Safety
        ///
        /// The cell holds `Box::<T>::into_raw`'s pointer, not freed yet.
        unsafe fn drop_box<T>(cell: *mut [usize; ITEM_WORDS]) {
            // SAFETY: the caller's promise.
            drop(unsafe { Box::from_raw(cell.cast::<*mut T>().read()) });
        }
        let mut cell = MaybeUninit::<[usize; ITEM_WORDS]>::uninit();
        let at = cell.as_mut_ptr();
        let drop: unsafe fn(*mut [usize; ITEM_WORDS]) = if fits::<T>() {
            // SAFETY: the cell is large and aligned enough for a `T`
            // (`fits`), and uninitialised: nothing is overwritten.
            unsafe { at.cast::<T>().write(value) };
            drop_in_place::<T>
        } else {
            // SAFETY: a pointer fits in the cell, at its alignment.
            unsafe { at.cast::<*mut T>().write(Box::into_raw(Box::new(value))) };
            drop_box::<T>
        };
        Item {
            cell,
            drop,
            _not_send: PhantomData,
        }
    }

    /// Takes the item out.
    ///
    /// # Safety
    ///
    /// `T` is the type [`Item::new`] was given.
    unsafe fn take<T>(self) -> T {
        // Not dropped: the item is moved out below.
        let mut this = ManuallyDrop::new(self);
        let at = this.cell.as_mut_ptr();
        if fits::<T>() {
            // SAFETY: `new::<T>` put a `T` in the cell (the caller's
            // promise on `T`), read once: `this` is never dropped.
            unsafe { at.cast::<T>().read() }
        } else {
            // SAFETY: `new::<T>` put its box's pointer in the cell, and
            // the box is freed once: here, as `this` is never dropped.
            *unsafe { Box::from_raw(at.cast::<*mut T>().read()) }
        }
    }
}

impl Drop for Item {
    fn drop(&mut self) {
        // SAFETY: `drop` is the function `new` chose for what it put in
        // the cell, still there (`take` does not drop `self`).
        unsafe { (self.drop)(self.cell.as_mut_ptr()) }
    }
}

fn channel_of<T>(shared: &Shared<T>) -> *const () {
    (shared as *const Shared<T>).cast()
}

impl<T> Operand for Receiver<T> {
    fn attempt(&self) -> Option<Done> {
        match self.try_recv() {
            Ok(v) => Some(Done::Received(Item::new(v))),
            Err(TryRecvError::Disconnected) => Some(Done::Disconnected),
            Err(TryRecvError::Empty) => None,
        }
    }

    fn is_ready(&self) -> bool {
        if let Some(timer) = &self.shared.timer {
            return timer.is_ready();
        }
        if let Some(zero) = &self.shared.zero {
            return zero.recv_is_ready();
        }
        // Relaxed: as in `try_send`, a hint; a wait re-reads it after the
        // lock that `disconnect` takes too.
        !self.shared.queue.is_empty() || self.shared.disconnected.load(Ordering::Relaxed)
    }

    fn fire_at(&self) -> Option<Instant> {
        self.shared
            .timer
            .as_ref()
            .and_then(|timer| timer.next_fire())
    }

    /// On a rendezvous channel a completing select's entry waits as a
    /// receiver, for a sender to hand it a value (`zero.rs`); a `ready`
    /// watches the receivers' list, as on any channel.
    fn register(&self, entry: &Arc<Waiter>, completing: bool, _: &Arc<Context>, _: usize) {
        match &self.shared.zero {
            Some(zero) if completing => zero.register_receiver(entry, &self.shared.send_waiters),
            _ => self.shared.recv_waiters.register(entry),
        }
    }

    fn unregister(&self, entry: &Arc<Waiter>) {
        if let Some(zero) = &self.shared.zero {
            zero.unregister_receiver(entry);
        }
        self.shared.recv_waiters.unregister(entry);
    }

    /// A value a sender handed the entry goes back to the channel, even
    /// when the select's re-try received another one here.
    fn pass_on(&self, entry: &Arc<Waiter>, same_op: bool) {
        let given_back = match &self.shared.zero {
            Some(zero) => zero.give_back(entry, &self.shared.recv_waiters),
            None => false,
        };
        if !given_back && !same_op {
            self.shared.recv_waiters.pass_on();
        }
    }

    fn attempt_picked(&self, entry: &Arc<Waiter>) -> Option<Done> {
        if let Some(zero) = &self.shared.zero {
            if let Some(v) = zero.take_delivered(entry) {
                return Some(Done::Received(Item::new(v)));
            }
        }
        self.attempt()
    }

    fn channel(&self) -> *const () {
        channel_of(&self.shared)
    }
}

impl<T> Operand for Sender<T> {
    fn attempt(&self) -> Option<Done> {
        let shared = &*self.shared;
        // Relaxed: a hint, as in `try_reserve` (a waiting select re-reads
        // it after taking the list's lock, which `disconnect` takes too;
        // `Shared::reserve` asks again after its claim).
        if shared.disconnected.load(Ordering::Relaxed) {
            return Some(Done::Disconnected);
        }
        if let Some(zero) = &shared.zero {
            // A rendezvous send claims a waiting receiver (`zero.rs`).
            return match zero.claim() {
                Ok(claim) => claim.map(Done::Handing),
                Err(()) => Some(Done::Disconnected),
            };
        }
        /// Releases the reserved `position` of the channel at `channel`.
        ///
        /// # Safety
        ///
        /// `channel` is a live `Shared<T>`'s address, and `position` its
        /// queue's reservation, neither filled nor released.
        unsafe fn release<T>(channel: *const (), position: Position) {
            // SAFETY: the caller's promise.
            unsafe { (*channel.cast::<Shared<T>>()).release(position) }
        }
        match shared.reserve() {
            Reserved::Slot(position) => Some(Done::Claimed(position, release::<T>)),
            Reserved::Disconnected => Some(Done::Disconnected),
            Reserved::Full => None,
        }
    }

    fn is_ready(&self) -> bool {
        if let Some(zero) = &self.shared.zero {
            return zero.send_is_ready();
        }
        // Relaxed: as in `attempt`.
        !self.shared.queue.is_full() || self.shared.disconnected.load(Ordering::Relaxed)
    }

    fn register(&self, entry: &Arc<Waiter>, _: bool, _: &Arc<Context>, _: usize) {
        self.shared.send_waiters.register(entry);
    }

    fn unregister(&self, entry: &Arc<Waiter>) {
        self.shared.send_waiters.unregister(entry);
    }

    fn pass_on(&self, _: &Arc<Waiter>, same_op: bool) {
        if !same_op {
            self.shared.send_waiters.pass_on();
        }
    }

    fn channel(&self) -> *const () {
        channel_of(&self.shared)
    }
}

/// One operation of a [`Select`].
#[derive(Clone, Copy)]
struct Op<'a> {
    operand: &'a dyn Operand,
    /// The index [`Select::send`]/[`Select::recv`] returned for it.
    index: usize,
    is_send: bool,
}

/// How many operations a `Select` holds in place ([`Ops`]).
const OPS_IN_PLACE: usize = 8;

/// A [`Select`]'s operations, in the order added: the first
/// [`OPS_IN_PLACE`] in place, any more in a `Vec`. A `select!` makes a
/// `Select` for every call, and a `Vec` of them all was an allocation
/// per call, a third of a ready `select!`'s instructions (callgrind, four
/// `recv` arms of `u64`). No `Drop` of its own (its parts are `Copy`, and
/// a `Vec`, which lets its borrows dangle while it drops), so a `Select`
/// in scope does not keep the handles it borrowed from being used once it
/// has returned (a ring half popped after `recv_spsc`, for one).
#[derive(Clone)]
struct Ops<'a> {
    /// `Some` for the first `len` (up to `OPS_IN_PLACE`).
    in_place: [Option<Op<'a>>; OPS_IN_PLACE],
    /// The operations past the first `OPS_IN_PLACE`.
    more: Vec<Op<'a>>,
    len: usize,
}

impl<'a> Ops<'a> {
    fn new() -> Self {
        Ops {
            in_place: [None; OPS_IN_PLACE],
            more: Vec::new(),
            len: 0,
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    fn push(&mut self, op: Op<'a>) {
        match self.in_place.get_mut(self.len) {
            Some(slot) => *slot = Some(op),
            None => self.more.push(op),
        }
        self.len += 1;
    }

    /// Removes the operation at position `at < len`, keeping the order of
    /// the rest.
    fn remove(&mut self, at: usize) {
        for i in at..self.len - 1 {
            let next = self[i + 1];
            self.set(i, next);
        }
        self.len -= 1;
        match self.in_place.get_mut(self.len) {
            Some(slot) => *slot = None,
            None => drop(self.more.pop()),
        }
    }

    fn set(&mut self, at: usize, op: Op<'a>) {
        match self.in_place.get_mut(at) {
            Some(slot) => *slot = Some(op),
            None => self.more[at - OPS_IN_PLACE] = op,
        }
    }

    fn iter(&self) -> impl Iterator<Item = &Op<'a>> {
        (0..self.len).map(|at| &self[at])
    }
}

impl<'a> core::ops::Index<usize> for Ops<'a> {
    type Output = Op<'a>;

    fn index(&self, at: usize) -> &Op<'a> {
        assert!(at < self.len, "operation {at} of {}", self.len);
        match self.in_place.get(at) {
            Some(op) => op.as_ref().expect("the first `len` are `Some`"),
            None => &self.more[at - OPS_IN_PLACE],
        }
    }
}

/// How many operations a `Select` orders on the stack
/// ([`Select::first_in_order`]).
const ORDER_ON_STACK: usize = 16;

/// Waits on several channel operations at once, and completes (or, with
/// the `ready` calls, reports) the first that can go ahead: the
/// [`select!`](crate::select) macro's engine, with `crossbeam_channel`'s
/// `Select` API.
///
/// Add operations with [`send`](Self::send) and [`recv`](Self::recv)
/// (each returns the operation's index), then call one of the `select`
/// calls: it returns a [`SelectedOperation`], which must be completed with
/// [`SelectedOperation::send`] or [`SelectedOperation::recv`] on the same
/// channel handle. When several operations are ready, [`Select::new`]
/// picks one at random; [`Select::new_biased`] the first added.
///
/// An operation on a disconnected channel is ready: completing it returns
/// its error.
///
/// ```
/// use hotq_mpmc::{Select, bounded};
///
/// let (data_tx, data_rx) = bounded::<u64>(8);
/// let (ctl_tx, ctl_rx) = bounded::<&str>(1);
/// ctl_tx.send("stop").unwrap();
///
/// let mut sel = Select::new();
/// let data = sel.recv(&data_rx);
/// let ctl = sel.recv(&ctl_rx);
/// let oper = sel.select(); // blocks until one of them can go ahead
/// assert_eq!(oper.index(), ctl); // the data channel is empty
/// assert_eq!(oper.recv(&ctl_rx), Ok("stop"));
/// # let _ = data;
///
/// // With nothing ready, `try_select` says so instead of blocking.
/// assert!(sel.try_select().is_err());
/// # drop((data_tx, ctl_tx));
/// ```
pub struct Select<'a> {
    ops: Ops<'a>,
    next_index: usize,
    biased: bool,
}

impl<'a> Select<'a> {
    /// A select that picks at random among the operations that are ready.
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded::<i32>(1);
    /// let mut sel = hotq_mpmc::Select::new();
    /// assert_eq!(sel.recv(&rx), 0);
    /// assert!(sel.try_select().is_err()); // nothing to receive yet
    /// tx.send(1).unwrap();
    /// assert_eq!(sel.try_select().unwrap().recv(&rx), Ok(1));
    /// ```
    pub fn new() -> Select<'a> {
        Select {
            ops: Ops::new(),
            next_index: 0,
            biased: false,
        }
    }

    /// A select that picks the first-added operation among those that are
    /// ready.
    ///
    /// ```
    /// let (tx1, rx1) = hotq_mpmc::bounded::<i32>(1);
    /// let (tx2, rx2) = hotq_mpmc::bounded::<i32>(1);
    /// tx1.send(1).unwrap();
    /// tx2.send(2).unwrap();
    /// let mut sel = hotq_mpmc::Select::new_biased();
    /// let first = sel.recv(&rx1);
    /// sel.recv(&rx2);
    /// let oper = sel.select();
    /// assert_eq!(oper.index(), first); // both ready: the first wins
    /// assert_eq!(oper.recv(&rx1), Ok(1));
    /// # drop(rx2);
    /// ```
    pub fn new_biased() -> Select<'a> {
        Select {
            biased: true,
            ..Select::new()
        }
    }

    /// Adds a send on `s`'s channel; returns the operation's index.
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded(1);
    /// let mut sel = hotq_mpmc::Select::new();
    /// let i = sel.send(&tx);
    /// let oper = sel.select(); // there is room
    /// assert_eq!(oper.index(), i);
    /// oper.send(&tx, 5).unwrap();
    /// // Full now: the send would block.
    /// assert!(sel.try_select().is_err());
    /// assert_eq!(rx.recv(), Ok(5));
    /// ```
    pub fn send<T>(&mut self, s: &'a Sender<T>) -> usize {
        self.add(s, true)
    }

    /// Adds a receive on `r`'s channel; returns the operation's index.
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded::<i32>(1);
    /// let mut sel = hotq_mpmc::Select::new();
    /// let i = sel.recv(&rx);
    /// assert!(sel.try_select().is_err()); // empty
    /// drop(tx);
    /// let oper = sel.try_select().unwrap(); // disconnected: ready, and fails
    /// assert_eq!(oper.index(), i);
    /// assert_eq!(oper.recv(&rx), Err(hotq_mpmc::RecvError));
    /// ```
    pub fn recv<T>(&mut self, r: &'a Receiver<T>) -> usize {
        self.add(r, false)
    }

    pub(super) fn add(&mut self, operand: &'a dyn Operand, is_send: bool) -> usize {
        let index = self.next_index;
        self.next_index += 1;
        self.ops.push(Op {
            operand,
            index,
            is_send,
        });
        index
    }

    /// Removes the operation with index `index`; the other operations keep
    /// their indices.
    ///
    /// # Panics
    ///
    /// When there is no such operation (never added, or removed already).
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded::<i32>(1);
    /// let mut sel = hotq_mpmc::Select::new();
    /// let send = sel.send(&tx);
    /// let recv = sel.recv(&rx);
    /// sel.remove(send);
    /// assert!(sel.try_select().is_err()); // only the receive is left, and nothing to receive
    /// # let _ = recv;
    /// ```
    ///
    /// ```should_panic
    /// let (_tx, rx) = hotq_mpmc::bounded::<i32>(1);
    /// let mut sel = hotq_mpmc::Select::new();
    /// let i = sel.recv(&rx);
    /// sel.remove(i);
    /// sel.remove(i); // panics: removed already
    /// ```
    pub fn remove(&mut self, index: usize) {
        let Some(at) = self.ops.iter().position(|op| op.index == index) else {
            panic!("no operation with index {index} in this `Select`");
        };
        self.ops.remove(at);
    }

    /// Completes an operation that can go ahead now, without blocking, or
    /// returns [`TrySelectError`].
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded::<i32>(1);
    /// let mut sel = hotq_mpmc::Select::new();
    /// sel.recv(&rx);
    /// assert_eq!(sel.try_select().unwrap_err(), hotq_mpmc::TrySelectError);
    /// tx.send(3).unwrap();
    /// assert_eq!(sel.try_select().unwrap().recv(&rx), Ok(3));
    /// ```
    pub fn try_select(&mut self) -> Result<SelectedOperation<'a>, TrySelectError> {
        self.select_until(Wait::Never).ok_or(TrySelectError)
    }

    /// Blocks until one operation can go ahead, and completes it. With no
    /// operation added, blocks forever.
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded(1);
    /// let t = std::thread::spawn(move || tx.send(8).unwrap());
    /// let mut sel = hotq_mpmc::Select::new();
    /// sel.recv(&rx);
    /// assert_eq!(sel.select().recv(&rx), Ok(8));
    /// t.join().unwrap();
    /// // The sender is gone: the receive is ready, and fails.
    /// assert_eq!(sel.select().recv(&rx), Err(hotq_mpmc::RecvError));
    /// ```
    pub fn select(&mut self) -> SelectedOperation<'a> {
        self.select_until(Wait::Until(None))
            .expect("a select without a deadline ends only with an operation")
    }

    /// Blocks for at most `timeout` until one operation can go ahead, and
    /// completes it.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let (tx, rx) = hotq_mpmc::bounded::<i32>(1);
    /// let mut sel = hotq_mpmc::Select::new();
    /// sel.recv(&rx);
    /// let waited = sel.select_timeout(Duration::from_millis(10));
    /// assert_eq!(waited.unwrap_err(), hotq_mpmc::SelectTimeoutError);
    /// tx.send(1).unwrap();
    /// assert_eq!(sel.select_timeout(Duration::from_millis(10)).unwrap().recv(&rx), Ok(1));
    /// ```
    pub fn select_timeout(
        &mut self,
        timeout: Duration,
    ) -> Result<SelectedOperation<'a>, SelectTimeoutError> {
        // A timeout too long to represent is no timeout.
        self.select_until(Wait::Until(Instant::now().checked_add(timeout)))
            .ok_or(SelectTimeoutError)
    }

    /// Blocks until `deadline` at the latest until one operation can go
    /// ahead, and completes it. A deadline in the past tries once.
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    ///
    /// let (tx, rx) = hotq_mpmc::bounded::<i32>(1);
    /// let mut sel = hotq_mpmc::Select::new();
    /// sel.send(&tx);
    /// sel.select_deadline(Instant::now()).unwrap().send(&tx, 1).unwrap(); // room: no wait
    /// let late = Instant::now() + Duration::from_millis(10);
    /// assert_eq!(sel.select_deadline(late).unwrap_err(), hotq_mpmc::SelectTimeoutError); // full
    /// assert!(Instant::now() >= late);
    /// # drop(rx);
    /// ```
    pub fn select_deadline(
        &mut self,
        deadline: Instant,
    ) -> Result<SelectedOperation<'a>, SelectTimeoutError> {
        self.select_until(Wait::Until(Some(deadline)))
            .ok_or(SelectTimeoutError)
    }

    /// The index of an operation that can go ahead now, without blocking
    /// and without completing it, or [`TryReadyError`]. Another thread may
    /// take the item (or the room) before the caller's own call does.
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded::<i32>(1);
    /// let mut sel = hotq_mpmc::Select::new();
    /// let i = sel.recv(&rx);
    /// assert_eq!(sel.try_ready(), Err(hotq_mpmc::TryReadyError));
    /// tx.send(1).unwrap();
    /// assert_eq!(sel.try_ready(), Ok(i));
    /// assert_eq!(sel.try_ready(), Ok(i)); // nothing was taken
    /// assert_eq!(rx.try_recv(), Ok(1));
    /// ```
    pub fn try_ready(&mut self) -> Result<usize, TryReadyError> {
        self.ready_until(Wait::Never).ok_or(TryReadyError)
    }

    /// Blocks until an operation can go ahead and returns its index,
    /// without completing it (see [`try_ready`](Self::try_ready)). With no
    /// operation added, blocks forever.
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded(1);
    /// let t = std::thread::spawn(move || tx.send(2).unwrap());
    /// let mut sel = hotq_mpmc::Select::new();
    /// let i = sel.recv(&rx);
    /// assert_eq!(sel.ready(), i);
    /// assert_eq!(rx.try_recv(), Ok(2)); // still there: `ready` takes nothing
    /// t.join().unwrap();
    /// ```
    pub fn ready(&mut self) -> usize {
        self.ready_until(Wait::Until(None))
            .expect("a wait without a deadline ends only with an operation")
    }

    /// Blocks for at most `timeout` until an operation can go ahead, and
    /// returns its index without completing it.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let (tx, rx) = hotq_mpmc::bounded::<i32>(1);
    /// let mut sel = hotq_mpmc::Select::new();
    /// let i = sel.recv(&rx);
    /// assert_eq!(sel.ready_timeout(Duration::from_millis(10)), Err(hotq_mpmc::ReadyTimeoutError));
    /// tx.send(1).unwrap();
    /// assert_eq!(sel.ready_timeout(Duration::from_millis(10)), Ok(i));
    /// ```
    pub fn ready_timeout(&mut self, timeout: Duration) -> Result<usize, ReadyTimeoutError> {
        // A timeout too long to represent is no timeout.
        self.ready_until(Wait::Until(Instant::now().checked_add(timeout)))
            .ok_or(ReadyTimeoutError)
    }

    /// Blocks until `deadline` at the latest until an operation can go
    /// ahead, and returns its index without completing it.
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    ///
    /// let (tx, rx) = hotq_mpmc::bounded::<i32>(1);
    /// let mut sel = hotq_mpmc::Select::new();
    /// let i = sel.send(&tx);
    /// assert_eq!(sel.ready_deadline(Instant::now()), Ok(i)); // room
    /// tx.send(1).unwrap();
    /// let late = Instant::now() + Duration::from_millis(10);
    /// assert_eq!(sel.ready_deadline(late), Err(hotq_mpmc::ReadyTimeoutError)); // full
    /// # drop(rx);
    /// ```
    pub fn ready_deadline(&mut self, deadline: Instant) -> Result<usize, ReadyTimeoutError> {
        self.ready_until(Wait::Until(Some(deadline)))
            .ok_or(ReadyTimeoutError)
    }

    /// Calls `f` with each position in `ops`, in a fresh order (added
    /// order when biased), until it returns `Some`. The order is on the
    /// stack up to [`ORDER_ON_STACK`] operations (see [`Ops`]).
    fn first_in_order<R>(&self, mut f: impl FnMut(usize) -> Option<R>) -> Option<R> {
        let n = self.ops.len();
        let mut on_stack = [0; ORDER_ON_STACK];
        let mut on_heap = Vec::new();
        let order: &mut [usize] = if n <= ORDER_ON_STACK {
            &mut on_stack[..n]
        } else {
            on_heap.resize(n, 0);
            &mut on_heap
        };
        for (at, slot) in order.iter_mut().enumerate() {
            *slot = at;
        }
        if !self.biased {
            blocking::shuffle(order);
        }
        order.iter().find_map(|&at| f(at))
    }

    fn selected(&self, at: usize, done: Done) -> SelectedOperation<'a> {
        let op = self.ops[at];
        // A ring half's operation is its own call, after the select.
        #[cfg(feature = "spsc")]
        let done = (!matches!(done, Done::RingReady)).then_some(done);
        #[cfg(not(feature = "spsc"))]
        let done = Some(done);
        SelectedOperation {
            index: op.index,
            channel: op.operand.channel(),
            is_send: op.is_send,
            done,
            _select: PhantomData,
        }
    }

    /// Tries every operation once, in a fresh order.
    fn attempt_all(&self) -> Option<(usize, Done)> {
        self.first_in_order(|at| self.ops[at].operand.attempt().map(|done| (at, done)))
    }

    fn select_until(&mut self, wait: Wait) -> Option<SelectedOperation<'a>> {
        let (at, done) = self.wait(
            wait,
            true,
            |this: &Self| this.attempt_all(),
            |this: &Self, at, entry| {
                this.ops[at]
                    .operand
                    .attempt_picked(entry)
                    .map(|done| (at, done))
            },
        )?;
        Some(self.selected(at, done))
    }

    fn ready_until(&mut self, wait: Wait) -> Option<usize> {
        let ready_one = |this: &Self, at: usize| this.ops[at].operand.is_ready().then_some(at);
        let at = self.wait(
            wait,
            false,
            |this: &Self| {
                // SeqCst fence: the re-check after the flag stores, which a
                // completing try gets from the queue's failure path; pairs
                // with the working side's claim → `load_after_claim` (see
                // the module docs): a claim this fence does not order
                // before it sees the select's entry. (Before registering it
                // is only a first look.)
                fence(Ordering::SeqCst);
                this.first_in_order(|at| ready_one(this, at))
            },
            |this: &Self, at, _entry: &Arc<Waiter>| ready_one(this, at),
        )?;
        Some(self.ops[at].index)
    }

    /// The waiting loop of every call: `all` tries (or checks) every
    /// operation, `one` the one at a position, whose entry a notifier
    /// picked; `R` says which succeeded. `completing`: the call completes
    /// the operation (`select*`), not only reports it (`ready*`).
    fn wait<R: Positioned>(
        &self,
        wait: Wait,
        completing: bool,
        all: impl Fn(&Self) -> Option<R>,
        one: impl Fn(&Self, usize, &Arc<Waiter>) -> Option<R>,
    ) -> Option<R> {
        if let Some(done) = all(self) {
            return Some(done);
        }
        let deadline = match wait {
            Wait::Never => return None,
            Wait::Until(deadline) => deadline,
        };
        let mut parked_for = None;
        let done = self.wait_for(deadline, completing, all, one, &mut parked_for);
        // This thread's next select spins without yields if this one
        // parked for long, as a channel's side does (`Quiet`).
        blocking::set_select_quiet(parked_for);
        done
    }

    /// [`wait`](Self::wait) once the first tries found nothing and it may
    /// wait (until `deadline`); sets `parked_for` to how long its last park
    /// lasted.
    fn wait_for<R: Positioned>(
        &self,
        deadline: Option<Instant>,
        completing: bool,
        all: impl Fn(&Self) -> Option<R>,
        one: impl Fn(&Self, usize, &Arc<Waiter>) -> Option<R>,
        parked_for: &mut Option<Duration>,
    ) -> Option<R> {
        // The spin phase (see the module docs): tries with no
        // registration; a deadline already past skips it.
        if !blocking::passed(deadline) {
            let mut spin = SpinFirst::new(blocking::select_quiet(), deadline);
            while spin.wait() {
                if let Some(done) = all(self) {
                    return Some(done);
                }
            }
        }
        let context = Context::new();
        let entries: Vec<Arc<Waiter>> = (0..self.ops.len())
            .map(|at| Waiter::select(&context, at))
            .collect();
        loop {
            if blocking::passed(deadline) {
                return None;
            }
            for (at, (op, entry)) in self.ops.iter().zip(&entries).enumerate() {
                op.operand.register(entry, completing, &context, at);
            }
            // The re-try after the flag stores (see the module docs).
            let early = all(self);
            // A timer arm's next message wakes it too: nothing notifies
            // a timer's waiters.
            let timers = self.ops.iter().filter_map(|op| op.operand.fire_at()).min();
            let wake = match (timers, deadline) {
                (Some(t), Some(d)) => Some(t.min(d)),
                (t, d) => t.or(d),
            };
            let in_time = early.is_some()
                || {
                    let parked_at = Instant::now();
                    let woken = context.park(wake);
                    *parked_for = Some(parked_at.elapsed());
                    woken
                }
                || wake != deadline;
            for (op, entry) in self.ops.iter().zip(&entries) {
                op.operand.unregister(entry);
            }
            // Final now: no entry is on any list.
            let picked = context.selected();
            context.reset();
            if let Some(done) = early {
                if let Some(at) = picked {
                    // Picked while the re-try succeeded: with another
                    // operation, that list's notification goes on; a
                    // rendezvous value handed to the entry goes back even
                    // with the same one (`zero.rs`).
                    let same_op = at == done.position();
                    self.ops[at].operand.pass_on(&entries[at], same_op);
                }
                return Some(done);
            }
            // The picked operation first: its try uses the notification
            // (if it fails, someone else took what it was told about).
            if let Some(done) = picked.and_then(|at| one(self, at, &entries[at])) {
                return Some(done);
            }
            if let Some(done) = all(self) {
                return Some(done);
            }
            if !in_time {
                return None;
            }
        }
    }
}

/// How long a select may wait.
#[derive(Clone, Copy)]
enum Wait {
    /// Not at all.
    Never,
    /// Until the deadline, or forever.
    Until(Option<Instant>),
}

/// The position in `ops` of the operation a wait ended with.
trait Positioned {
    fn position(&self) -> usize;
}

impl Positioned for (usize, Done) {
    fn position(&self) -> usize {
        self.0
    }
}

impl Positioned for usize {
    fn position(&self) -> usize {
        *self
    }
}

impl Default for Select<'_> {
    /// [`Select::new`].
    fn default() -> Self {
        Select::new()
    }
}

impl Clone for Select<'_> {
    /// A select with the same operations (same indices) and fairness.
    fn clone(&self) -> Self {
        Select {
            ops: self.ops.clone(),
            next_index: self.next_index,
            biased: self.biased,
        }
    }
}

impl fmt::Debug for Select<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Select")
            .field("operations", &self.ops.len())
            .field("biased", &self.biased)
            .finish_non_exhaustive()
    }
}

/// The operation a [`Select`] chose: complete it with
/// [`send`](Self::send) or [`recv`](Self::recv), passing the same channel
/// handle (or a clone of it) that was added.
///
/// # Panics
///
/// Dropping it without completing its operation panics (as
/// `crossbeam_channel`'s does): a receive's item is dropped with it, and a
/// send's reserved slot is given back first (as a dropped
/// [`Permit`](crate::channel::Permit)'s), so the receivers go on to the
/// next items. Complete it at once, as the macros do.
///
/// ```should_panic
/// let (tx, rx) = hotq_mpmc::bounded(1);
/// tx.send(1).unwrap();
/// let mut sel = hotq_mpmc::Select::new();
/// sel.recv(&rx);
/// let oper = sel.select();
/// drop(oper); // panics: the received item would be lost
/// ```
#[must_use = "a selected operation must be completed with `send` or `recv`"]
pub struct SelectedOperation<'a> {
    index: usize,
    channel: *const (),
    is_send: bool,
    /// Until completed.
    done: Option<Done>,
    _select: PhantomData<&'a ()>,
}

impl SelectedOperation<'_> {
    /// The index [`Select::send`] or [`Select::recv`] returned for the
    /// chosen operation.
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded::<i32>(1);
    /// let mut sel = hotq_mpmc::Select::new();
    /// let r = sel.recv(&rx);
    /// let s = sel.send(&tx);
    /// let oper = sel.select(); // the receive has nothing yet: the send
    /// assert_eq!(oper.index(), s);
    /// oper.send(&tx, 1).unwrap();
    /// # let _ = r;
    /// ```
    pub fn index(&self) -> usize {
        self.index
    }

    /// Completes the chosen send with `msg`. It never blocks: the select
    /// has set a slot aside. Gives `msg` back when every receiver was gone.
    ///
    /// # Panics
    ///
    /// When the chosen operation is not a send on `s`'s channel.
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded(1);
    /// let mut sel = hotq_mpmc::Select::new();
    /// sel.send(&tx);
    /// sel.select().send(&tx, 'a').unwrap();
    /// assert_eq!(rx.recv(), Ok('a'));
    /// drop(rx);
    /// // Disconnected: ready, and the value comes back.
    /// assert_eq!(sel.select().send(&tx, 'b'), Err(hotq_mpmc::SendError('b')));
    /// ```
    pub fn send<T>(mut self, s: &Sender<T>, msg: T) -> Result<(), SendError<T>> {
        assert!(
            self.is_send && self.channel == channel_of(&s.shared),
            "passed a sender that was not selected"
        );
        match self.done.take() {
            Some(Done::Claimed(position, _)) => {
                // SAFETY: `Select` reserved `position` on this channel's
                // queue (checked above) for this operation, and `done`
                // held it until now: filled once. `fill` wakes the
                // receivers, and drops the item if the last one has gone.
                unsafe { s.shared.fill(position, msg) };
                Ok(())
            }
            Some(Done::Handing(claim)) => {
                let shared = &*s.shared;
                let zero = shared
                    .zero
                    .as_ref()
                    .expect("claimed on a rendezvous channel");
                // The claimed receiver gets `msg` (`zero.rs`).
                zero.fill(claim, msg, &shared.recv_waiters);
                Ok(())
            }
            _ => Err(SendError(msg)),
        }
    }

    /// Completes the chosen receive: the item the select took, or
    /// [`RecvError`] when the channel was empty and every sender gone.
    ///
    /// # Panics
    ///
    /// When the chosen operation is not a receive on `r`'s channel.
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded(1);
    /// tx.send("x").unwrap();
    /// drop(tx);
    /// let mut sel = hotq_mpmc::Select::new();
    /// sel.recv(&rx);
    /// assert_eq!(sel.select().recv(&rx), Ok("x"));
    /// assert_eq!(sel.select().recv(&rx), Err(hotq_mpmc::RecvError));
    /// ```
    pub fn recv<T>(mut self, r: &Receiver<T>) -> Result<T, RecvError> {
        assert!(
            !self.is_send && self.channel == channel_of(&r.shared),
            "passed a receiver that was not selected"
        );
        match self.done.take() {
            // SAFETY: the item was received from this channel (checked
            // above), whose items are `T`s.
            Some(Done::Received(item)) => Ok(unsafe { item.take::<T>() }),
            _ => Err(RecvError),
        }
    }
}

impl Drop for SelectedOperation<'_> {
    fn drop(&mut self) {
        if let Some(Done::Claimed(position, release)) = self.done {
            // SAFETY: `channel` is the channel of this send arm, alive for
            // `'a` (the `Select` borrows its sender), and `position` its
            // reservation, unfilled (`send` takes `done`): released once.
            // Before the panic: the receivers must not wait for the slot.
            unsafe { release(self.channel, position) };
            self.done = None;
            if !std::thread::panicking() {
                panic!("dropped a `SelectedOperation` without completing its operation");
            }
        }
        if self.done.is_some() && !std::thread::panicking() {
            panic!("dropped a `SelectedOperation` without completing its operation");
        }
    }
}

impl fmt::Debug for SelectedOperation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SelectedOperation")
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}
