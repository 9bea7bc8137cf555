//! Rendezvous channels, `bounded(0)`: a send and a receive meet, and the
//! value goes from one to the other with nothing stored between them
//! (`crossbeam_channel`'s zero flavour).
//!
//! A rendezvous channel is an ordinary channel whose queue is closed from
//! its creation (capacity 1, `Queue::close`), so that every `push` fails
//! and every `pop` finds it empty, plus a [`Zero`] in its shared state.
//! The array channels' `try_send`/`try_recv` reach it only on their cold
//! branch, after the queue refused (`Sender::full_or_closed`,
//! `Receiver::empty_or_disconnected`), as timers are reached: the array
//! flavour's try path has not one instruction more.
//!
//! # The hand-off protocol
//!
//! Everything a hand-off decides is decided under one lock, `Zero::inner`,
//! which holds three lists:
//!
//! - `receivers`: receives waiting for a value (a blocked `recv`, a pending
//!   `recv_async`, a select's receive arm), oldest first;
//! - `offers`: values waiting for a receiver, each with the waiter of the
//!   blocked `send` (or pending `send_async`) that offers it, oldest first;
//!   an offer with no sender is a value a picked receiver gave back (see
//!   below);
//! - `deliveries`: receivers that a sender picked, with what they get.
//!
//! A sender that finds a receiver picks it (for a select's entry, the
//! wake-once token's CAS: `context.rs`), takes it off `receivers` and
//! records the value as its delivery, all in one critical section, then
//! wakes it: `try_send` succeeds only then, and `send` returns only then:
//! the value is the receiver's, in its delivery, before the send returns.
//! A sender that finds none appends its offer and waits until a receiver
//! has taken it off `offers` (its value with it). A receiver that finds an
//! offer takes it and wakes its sender; one that finds none appends itself
//! to `receivers` and waits for a delivery. A waiter that wakes (notified,
//! timed out, or spuriously) looks at the lists again under the lock: so a
//! receiver that times out while a sender picks it either is still on
//! `receivers` (it leaves: `Timeout`, and the sender never saw it) or has a
//! delivery (it takes it: `Ok`), never both, never neither; a sender that
//! times out either still has its offer (it takes the value back) or the
//! offer is gone (a receiver has the value: `Ok`).
//!
//! A picked receiver never drops its delivery: a `recv_async` dropped (or a
//! select that completed another operation) after a sender picked it puts
//! the value back, to another waiting receiver or at the front of `offers`
//! with no sender (kanal #24 destroyed it). A `send_async` completes only
//! once its offer is gone (flume #140 completed before a receiver took
//! it).
//!
//! The store→load pairs are the lock's: the list writes of one critical
//! section (Release, by the unlock) are read by the next one (Acquire, by
//! the lock). The `notified` flag of a waiter is written under the lock
//! and read by the waiter only to stop parking; its decision is taken
//! again under the lock. The wake-ups of watchers (a `Select::ready`, and a
//! select's send arm, which wait on the channel's ordinary `Waiters` lists
//! and are not offers) follow a registration: a watcher stores its flag
//! (`Waiters::register`) before its re-try takes `inner`; a sender or
//! receiver that appends itself loads the flags (`Waiters::notify_one`)
//! after it releases `inner`. The lock's total order puts the watcher's
//! critical section before the appender's (its flag store then happens
//! before the load) or after it (its re-try sees the new entry).
//!
//! A select's send arm has no value until its caller passes one to
//! `SelectedOperation::send`: the select *claims* a receiver (picked, its
//! delivery `Claimed`), and the claim is filled then, or released if the
//! operation is dropped (the receiver then waits again). A receiver that
//! wakes to a `Claimed` delivery waits for the fill, as crossbeam's does.
//! A select never pairs its send arm with its own receive arm.

use alloc::collections::VecDeque;
use alloc::vec::Vec;
use core::task::{Context, Poll};

use super::waiters::{Waiter, Waiters};
use super::{RecvError, RecvTimeoutError, SendError, SendTimeoutError, TryRecvError, TrySendError};
use crate::sync::blocking::{self, Arc, Instant, Mutex, SpinFirst};

/// The rendezvous state of a `bounded(0)` channel.
pub(crate) struct Zero<T> {
    inner: Mutex<Inner<T>>,
}

struct Inner<T> {
    receivers: VecDeque<Arc<Waiter>>,
    offers: VecDeque<Offer<T>>,
    deliveries: Vec<Delivery<T>>,
    /// Set once by `Shared::disconnect` (or `Receiver::close`).
    disconnected: bool,
}

/// A value waiting for a receiver.
struct Offer<T> {
    /// The waiting sender; `None` for a value a picked receiver gave back.
    from: Option<Arc<Waiter>>,
    value: T,
}

/// A receiver a sender picked, and what it gets.
struct Delivery<T> {
    to: Arc<Waiter>,
    state: Handed<T>,
}

enum Handed<T> {
    /// A select's send arm claimed the receiver; its value comes with
    /// `SelectedOperation::send`. `abandoned`: the receiver left meanwhile
    /// (a dropped future), and the value, when it comes, goes back.
    Claimed { abandoned: bool },
    /// The value, the receiver's now.
    Value(T),
    /// The claim was dropped unfilled: the receiver waits again.
    Released,
}

/// Someone to wake once the lock is released.
enum After {
    Nothing,
    Wake(Arc<Waiter>),
    /// A value was put back as an offer: tell the receive watchers.
    Offered,
}

impl<T> Zero<T> {
    pub(crate) fn new() -> Self {
        Zero {
            inner: Mutex::new(Inner {
                receivers: VecDeque::new(),
                offers: VecDeque::new(),
                deliveries: Vec::new(),
                disconnected: false,
            }),
        }
    }

    fn lock(&self) -> impl core::ops::DerefMut<Target = Inner<T>> + '_ {
        // No user code runs under this lock (values are dropped after it
        // is released), so a poisoned lock is still consistent.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `try_send`: hands `value` to a waiting receiver, if there is one.
    pub(crate) fn try_send(&self, value: T) -> Result<(), TrySendError<T>> {
        let mut inner = self.lock();
        if inner.disconnected {
            return Err(TrySendError::Disconnected(value));
        }
        match inner.hand_to_receiver(value) {
            Ok(to) => {
                drop(inner);
                to.wake();
                Ok(())
            }
            Err(value) => Err(TrySendError::Full(value)),
        }
    }

    /// `force_send`: a rendezvous channel holds nothing to evict, so a
    /// value no receiver waits for is the one evicted.
    pub(crate) fn force_send(&self, value: T) -> Result<Option<T>, SendError<T>> {
        match self.try_send(value) {
            Ok(()) => Ok(None),
            Err(TrySendError::Full(value)) => Ok(Some(value)),
            Err(TrySendError::Disconnected(value)) => Err(SendError(value)),
        }
    }

    /// A blocking send: returns once a receiver has the value, or gives it
    /// back at `deadline` or on disconnection. `recv_watchers`: the
    /// channel's receivers' `Waiters` (selects' `ready`), told of the offer.
    pub(crate) fn send(
        &self,
        value: T,
        deadline: Option<Instant>,
        recv_watchers: &Waiters,
    ) -> Result<(), SendTimeoutError<T>> {
        let me = Waiter::thread();
        {
            let mut inner = self.lock();
            if inner.disconnected {
                return Err(SendTimeoutError::Disconnected(value));
            }
            let value = match inner.hand_to_receiver(value) {
                Ok(to) => {
                    drop(inner);
                    to.wake();
                    return Ok(());
                }
                Err(value) => value,
            };
            if blocking::passed(deadline) {
                return Err(SendTimeoutError::Timeout(value));
            }
            inner.offers.push_back(Offer {
                from: Some(Arc::clone(&me)),
                value,
            });
        }
        recv_watchers.notify_one();
        loop {
            let in_time = wait_for(&me, deadline);
            let mut inner = self.lock();
            let Some(at) = inner.offer_of(&me) else {
                // A receiver took it.
                return Ok(());
            };
            if inner.disconnected {
                let offer = inner.offers.remove(at).expect("found above");
                return Err(SendTimeoutError::Disconnected(offer.value));
            }
            if !in_time {
                let offer = inner.offers.remove(at).expect("found above");
                return Err(SendTimeoutError::Timeout(offer.value));
            }
        }
    }

    /// `try_recv`: takes a waiting sender's value, if there is one.
    pub(crate) fn try_recv(&self) -> Result<T, TryRecvError> {
        let mut inner = self.lock();
        if let Some((value, from)) = inner.take_offer() {
            drop(inner);
            if let Some(from) = from {
                from.wake();
            }
            return Ok(value);
        }
        if let Some(entry) = inner.own_select_delivery() {
            // A select's re-try, after it registered here: a sender has
            // already handed its entry a value (or a select's send arm
            // claimed it), which is this receive's, before any
            // `Disconnected` that came after the hand-off.
            drop(inner);
            if let Some(value) = self.take_delivered(&entry) {
                return Ok(value);
            }
            inner = self.lock();
        }
        if inner.disconnected {
            Err(TryRecvError::Disconnected)
        } else {
            Err(TryRecvError::Empty)
        }
    }

    /// A blocking receive. `send_watchers`: the channel's senders'
    /// `Waiters` (selects' send arms and `ready`), told of this receiver.
    pub(crate) fn recv(
        &self,
        deadline: Option<Instant>,
        send_watchers: &Waiters,
    ) -> Result<T, RecvTimeoutError> {
        let mut me = Waiter::thread();
        {
            let mut inner = self.lock();
            if let Some(done) = inner.recv_now(blocking::passed(deadline)) {
                drop(inner);
                return done.finish();
            }
            inner.receivers.push_back(Arc::clone(&me));
        }
        send_watchers.notify_one();
        loop {
            let in_time = wait_for(&me, deadline);
            let mut inner = self.lock();
            match inner.take_delivery(&me) {
                Taken::Value(value) => return Ok(value),
                Taken::Claimed => {
                    // A select's caller is about to fill it: wait for that,
                    // whatever the deadline (the value is ours already).
                    drop(inner);
                    wait_for(&me, None);
                    continue;
                }
                Taken::Released | Taken::Nothing => {}
            }
            let queued = inner.receiver_at(&me);
            if queued.is_some() && in_time && !inner.disconnected {
                continue; // a spurious wake-up: still waiting, in place
            }
            if let Some(at) = queued {
                inner.receivers.remove(at);
            }
            if let Some(done) = inner.recv_now(!in_time) {
                drop(inner);
                return done.finish();
            }
            // Released by a dropped select operation: wait again, with a
            // fresh waiter (the old one stays notified).
            me = Waiter::thread();
            inner.receivers.push_back(Arc::clone(&me));
            drop(inner);
            send_watchers.notify_one();
        }
    }

    /// One poll of `recv_async` (and of the futures built on it), whose
    /// waiter from an earlier poll, if any, is in `slot`.
    pub(crate) fn poll_recv(
        &self,
        slot: &mut Option<Arc<Waiter>>,
        cx: &mut Context<'_>,
        send_watchers: &Waiters,
    ) -> Poll<Result<T, RecvError>> {
        let mut inner = self.lock();
        if let Some(me) = slot.take() {
            if let Some(at) = inner.delivery_at(&me) {
                match &inner.deliveries[at].state {
                    Handed::Value(_) => {
                        let value = inner.deliveries.swap_remove(at).into_value();
                        return Poll::Ready(Ok(value));
                    }
                    Handed::Claimed { .. } => {
                        // Woken by this task's latest waker when filled.
                        let w = Waiter::task(cx.waker());
                        inner.deliveries[at].to = Arc::clone(&w);
                        *slot = Some(w);
                        return Poll::Pending;
                    }
                    Handed::Released => {
                        inner.deliveries.swap_remove(at);
                    }
                }
            } else if let Some(at) = inner.receiver_at(&me) {
                if !inner.disconnected {
                    // Still waiting, in place, with this poll's waker.
                    let w = Waiter::task(cx.waker());
                    inner.receivers[at] = Arc::clone(&w);
                    *slot = Some(w);
                    return Poll::Pending;
                }
                inner.receivers.remove(at);
            }
        }
        if let Some(done) = inner.recv_now(false) {
            drop(inner);
            return Poll::Ready(done.finish().map_err(|_| RecvError));
        }
        let w = Waiter::task(cx.waker());
        inner.receivers.push_back(Arc::clone(&w));
        *slot = Some(w);
        drop(inner);
        send_watchers.notify_one();
        Poll::Pending
    }

    /// A pending `recv_async` (or stream, or batch future) is dropped: it
    /// leaves, and a value a sender handed it goes back to the channel.
    pub(crate) fn cancel_recv(&self, me: &Arc<Waiter>, recv_watchers: &Waiters) {
        let mut inner = self.lock();
        if let Some(at) = inner.receiver_at(me) {
            inner.receivers.remove(at);
            return;
        }
        let Some(at) = inner.delivery_at(me) else {
            return;
        };
        let after = match &mut inner.deliveries[at].state {
            Handed::Claimed { abandoned } => {
                *abandoned = true;
                After::Nothing
            }
            Handed::Value(_) => {
                let value = inner.deliveries.swap_remove(at).into_value();
                inner.put_back(value)
            }
            Handed::Released => {
                inner.deliveries.swap_remove(at);
                After::Nothing
            }
        };
        drop(inner);
        after.run(recv_watchers);
    }

    /// One poll of `send_async`: `value` until it is offered, `slot` the
    /// waiter of its offer once it is.
    pub(crate) fn poll_send(
        &self,
        value: &mut Option<T>,
        slot: &mut Option<Arc<Waiter>>,
        cx: &mut Context<'_>,
        recv_watchers: &Waiters,
    ) -> Poll<Result<(), SendError<T>>> {
        let mut inner = self.lock();
        if let Some(me) = slot.take() {
            let Some(at) = inner.offer_of(&me) else {
                // A receiver took it: only now does the send complete.
                return Poll::Ready(Ok(()));
            };
            if inner.disconnected {
                let offer = inner.offers.remove(at).expect("found above");
                return Poll::Ready(Err(SendError(offer.value)));
            }
            let w = Waiter::task(cx.waker());
            inner.offers[at].from = Some(Arc::clone(&w));
            *slot = Some(w);
            return Poll::Pending;
        }
        let Some(v) = value.take() else {
            panic!("`SendFut` polled after it completed");
        };
        if inner.disconnected {
            return Poll::Ready(Err(SendError(v)));
        }
        let v = match inner.hand_to_receiver(v) {
            Ok(to) => {
                drop(inner);
                to.wake();
                return Poll::Ready(Ok(()));
            }
            Err(v) => v,
        };
        let w = Waiter::task(cx.waker());
        inner.offers.push_back(Offer {
            from: Some(Arc::clone(&w)),
            value: v,
        });
        *slot = Some(w);
        drop(inner);
        recv_watchers.notify_one();
        Poll::Pending
    }

    /// A pending `send_async` is dropped: its offer, if still there, is
    /// withdrawn and its value dropped (after the lock).
    pub(crate) fn cancel_send(&self, me: &Arc<Waiter>) {
        let mut inner = self.lock();
        let withdrawn = inner.offer_of(me).and_then(|at| inner.offers.remove(at));
        drop(inner);
        drop(withdrawn);
    }

    /// A select's receive arm starts waiting.
    pub(crate) fn register_receiver(&self, entry: &Arc<Waiter>, send_watchers: &Waiters) {
        self.lock().receivers.push_back(Arc::clone(entry));
        // Not this select's own send arm: it would only wake itself.
        send_watchers.notify_one_other();
    }

    /// A select's receive arm stops waiting (a delivery, if it had one,
    /// stays for [`take_delivered`](Self::take_delivered)).
    pub(crate) fn unregister_receiver(&self, entry: &Arc<Waiter>) {
        let mut inner = self.lock();
        if let Some(at) = inner.receiver_at(entry) {
            inner.receivers.remove(at);
        }
    }

    /// The value delivered to a select's receive arm, waiting for the fill
    /// of a claim; `None` when it has none (or the claim was released).
    pub(crate) fn take_delivered(&self, entry: &Arc<Waiter>) -> Option<T> {
        loop {
            let mut inner = self.lock();
            match inner.take_delivery(entry) {
                Taken::Value(value) => return Some(value),
                Taken::Claimed => {
                    drop(inner);
                    wait_for(entry, None);
                }
                Taken::Released | Taken::Nothing => return None,
            }
        }
    }

    /// A select that ends with another operation gives back what was
    /// delivered to its receive arm; `false` when nothing was.
    pub(crate) fn give_back(&self, entry: &Arc<Waiter>, recv_watchers: &Waiters) -> bool {
        let Some(value) = self.take_delivered(entry) else {
            return false;
        };
        let after = self.lock().put_back(value);
        after.run(recv_watchers);
        true
    }

    /// A select's send arm: claims a waiting receiver (not one of the
    /// calling select's own), `Err(())` when disconnected, `Ok(None)`
    /// when no receiver waits.
    pub(crate) fn claim(&self) -> Result<Option<Claim>, ()> {
        let mut inner = self.lock();
        if inner.disconnected {
            return Err(());
        }
        let Some(to) = inner.pick_receiver() else {
            return Ok(None);
        };
        inner.deliveries.push(Delivery {
            to: Arc::clone(&to),
            state: Handed::Claimed { abandoned: false },
        });
        Ok(Some(Claim {
            to: Some(to),
            zero: (self as *const Zero<T>).cast(),
            release: release_erased::<T>,
        }))
    }

    /// `SelectedOperation::send`: the claimed receiver gets `value`.
    pub(crate) fn fill(&self, mut claim: Claim, value: T, recv_watchers: &Waiters) {
        let to = claim.to.take().expect("a claim is filled once");
        let mut inner = self.lock();
        let at = inner
            .delivery_at(&to)
            .expect("a claimed delivery stays until filled or released");
        let after = match inner.deliveries[at].state {
            Handed::Claimed { abandoned: false } => {
                inner.deliveries[at].state = Handed::Value(value);
                let to = Arc::clone(&inner.deliveries[at].to);
                to.set_notified();
                After::Wake(to)
            }
            _ => {
                // The receiver left: the value goes back.
                inner.deliveries.swap_remove(at);
                inner.put_back(value)
            }
        };
        drop(inner);
        after.run(recv_watchers);
    }

    /// A claim dropped unfilled: its receiver waits again.
    fn release(&self, to: &Arc<Waiter>) {
        let mut inner = self.lock();
        let Some(at) = inner.delivery_at(to) else {
            return;
        };
        if let Handed::Claimed { abandoned: true } = inner.deliveries[at].state {
            inner.deliveries.swap_remove(at);
            return;
        }
        inner.deliveries[at].state = Handed::Released;
        let to = Arc::clone(&inner.deliveries[at].to);
        to.set_notified();
        drop(inner);
        to.wake();
    }

    /// Whether a receive would go ahead now (a hint, for `Select::ready`).
    pub(crate) fn recv_is_ready(&self) -> bool {
        let inner = self.lock();
        inner.disconnected || !inner.offers.is_empty()
    }

    /// Whether a send would go ahead now (a hint, for `Select::ready`).
    pub(crate) fn send_is_ready(&self) -> bool {
        let inner = self.lock();
        inner.disconnected || !inner.receivers.is_empty()
    }

    /// The channel is disconnected or closed: every waiting receiver and
    /// sender wakes (a sender then takes its value back).
    pub(crate) fn disconnect(&self) {
        let woken: Vec<Arc<Waiter>> = {
            let mut inner = self.lock();
            inner.disconnected = true;
            let mut woken: Vec<Arc<Waiter>> = Vec::new();
            let receivers = core::mem::take(&mut inner.receivers);
            // A select another list picked first is awake anyway.
            for w in receivers.into_iter().filter(|w| w.pick()) {
                w.set_notified();
                woken.push(w);
            }
            for w in inner.offers.iter().filter_map(|o| o.from.as_ref()) {
                w.set_notified();
                woken.push(Arc::clone(w));
            }
            woken
        };
        for w in woken {
            w.wake();
        }
    }

    /// The last receiver is gone: drops the values given back by receivers
    /// (no one will take them). If a destructor panics, the panic goes on
    /// and the rest are leaked, never dropped twice, never an abort (as
    /// `Shared::drop_all`).
    pub(crate) fn drop_given_back(&self) {
        struct LeakTheRest<'a, T>(&'a Zero<T>);
        impl<T> Drop for LeakTheRest<'_, T> {
            fn drop(&mut self) {
                let mut inner = self.0.lock();
                while let Some(offer) = inner.offers.pop_front() {
                    core::mem::forget(offer.value);
                }
            }
        }
        let on_panic = LeakTheRest(self);
        loop {
            let next = {
                let mut inner = self.lock();
                let at = inner.offers.iter().position(|o| o.from.is_none());
                at.and_then(|at| inner.offers.remove(at))
            };
            match next {
                Some(offer) => drop(offer.value),
                None => break,
            }
        }
        core::mem::forget(on_panic);
    }
}

impl<T> Inner<T> {
    /// The oldest receiver that takes the pick (not a receive arm of the
    /// calling thread's own select: a select never meets itself), off the
    /// list. Entries whose select another list picked first are dropped on
    /// the way, as `Waiters::notify_one_waiting` drops them.
    fn pick_receiver(&mut self) -> Option<Arc<Waiter>> {
        let mut at = 0;
        while at < self.receivers.len() {
            if self.receivers[at].is_select_of_current_thread() {
                at += 1;
                continue;
            }
            let w = self.receivers.remove(at).expect("in bounds");
            if w.pick() {
                return Some(w);
            }
        }
        None
    }

    /// Gives `value` to the oldest waiting receiver: the one to wake, or
    /// the value back when no receiver waits.
    fn hand_to_receiver(&mut self, value: T) -> Result<Arc<Waiter>, T> {
        let Some(to) = self.pick_receiver() else {
            return Err(value);
        };
        to.set_notified();
        self.deliveries.push(Delivery {
            to: Arc::clone(&to),
            state: Handed::Value(value),
        });
        Ok(to)
    }

    /// A value a picked receiver could not keep: to another waiting
    /// receiver, else first in `offers`, with no sender.
    fn put_back(&mut self, value: T) -> After {
        match self.hand_to_receiver(value) {
            Ok(to) => After::Wake(to),
            Err(value) => {
                self.offers.push_front(Offer { from: None, value });
                After::Offered
            }
        }
    }

    /// The oldest offer a receiver may take (after a disconnection, only
    /// values given back: blocked senders take theirs back), with its
    /// sender, notified, to wake.
    fn take_offer(&mut self) -> Option<(T, Option<Arc<Waiter>>)> {
        let disconnected = self.disconnected;
        let at = self
            .offers
            .iter()
            .position(|o| !disconnected || o.from.is_none())?;
        let offer = self.offers.remove(at)?;
        if let Some(from) = &offer.from {
            from.set_notified();
        }
        Some((offer.value, offer.from))
    }

    /// A receive that does not wait: a value, `Disconnected`, or (when
    /// `timed_out`) `Timeout`; `None` to wait.
    fn recv_now(&mut self, timed_out: bool) -> Option<Received<T>> {
        if let Some((value, from)) = self.take_offer() {
            return Some(Received::Value(value, from));
        }
        if self.disconnected {
            return Some(Received::Failed(RecvTimeoutError::Disconnected));
        }
        if timed_out {
            return Some(Received::Failed(RecvTimeoutError::Timeout));
        }
        None
    }

    fn take_delivery(&mut self, me: &Arc<Waiter>) -> Taken<T> {
        let Some(at) = self.delivery_at(me) else {
            return Taken::Nothing;
        };
        match self.deliveries[at].state {
            Handed::Claimed { .. } => Taken::Claimed,
            Handed::Value(_) => Taken::Value(self.deliveries.swap_remove(at).into_value()),
            Handed::Released => {
                self.deliveries.swap_remove(at);
                Taken::Released
            }
        }
    }

    /// A delivery to a receive arm of a select running on the calling
    /// thread (at most one: a select is picked once).
    fn own_select_delivery(&self) -> Option<Arc<Waiter>> {
        self.deliveries
            .iter()
            .find(|d| d.to.is_select_of_current_thread())
            .map(|d| Arc::clone(&d.to))
    }

    fn receiver_at(&self, me: &Arc<Waiter>) -> Option<usize> {
        self.receivers.iter().position(|w| Arc::ptr_eq(w, me))
    }

    fn delivery_at(&self, me: &Arc<Waiter>) -> Option<usize> {
        self.deliveries.iter().position(|d| Arc::ptr_eq(&d.to, me))
    }

    fn offer_of(&self, me: &Arc<Waiter>) -> Option<usize> {
        self.offers
            .iter()
            .position(|o| o.from.as_ref().is_some_and(|f| Arc::ptr_eq(f, me)))
    }
}

impl<T> Delivery<T> {
    fn into_value(self) -> T {
        match self.state {
            Handed::Value(value) => value,
            _ => unreachable!("only a `Value` delivery is taken"),
        }
    }
}

/// What a delivery held for its receiver.
enum Taken<T> {
    Nothing,
    Claimed,
    Value(T),
    Released,
}

/// A receive decided under the lock, finished after it.
enum Received<T> {
    /// The value, and its sender to wake.
    Value(T, Option<Arc<Waiter>>),
    Failed(RecvTimeoutError),
}

impl<T> Received<T> {
    fn finish(self) -> Result<T, RecvTimeoutError> {
        match self {
            Received::Value(value, from) => {
                if let Some(from) = from {
                    from.wake();
                }
                Ok(value)
            }
            Received::Failed(e) => Err(e),
        }
    }
}

impl After {
    fn run(self, recv_watchers: &Waiters) {
        match self {
            After::Nothing => {}
            After::Wake(to) => to.wake(),
            After::Offered => {
                recv_watchers.notify_one();
            }
        }
    }
}

/// A select's send arm's claim on a receiver, until
/// `SelectedOperation::send` fills it; dropped unfilled, it releases the
/// receiver.
pub(crate) struct Claim {
    to: Option<Arc<Waiter>>,
    /// The `Zero<T>` it was claimed on.
    zero: *const (),
    release: unsafe fn(*const (), &Arc<Waiter>),
}

/// [`Zero::release`] for a `Zero<T>` behind a type-erased pointer.
///
/// # Safety
///
/// `zero` points to a live `Zero<T>`.
unsafe fn release_erased<T>(zero: *const (), to: &Arc<Waiter>) {
    // SAFETY: the caller's promise.
    let zero = unsafe { &*zero.cast::<Zero<T>>() };
    zero.release(to);
}

impl Drop for Claim {
    fn drop(&mut self) {
        if let Some(to) = self.to.take() {
            // SAFETY: a `Claim` lives in a `SelectedOperation<'a>`, which
            // cannot outlive the `&'a Sender<T>` its `Select` borrowed; that
            // sender keeps the channel, and so this `Zero<T>`, alive.
            unsafe { (self.release)(self.zero, &to) }
        }
    }
}

/// Waits until `me` is notified: spins a little, then parks (until
/// `deadline`); `false` when the deadline passed first.
fn wait_for(me: &Waiter, deadline: Option<Instant>) -> bool {
    let mut spin = SpinFirst::new(false, deadline);
    while !me.is_notified() {
        if !spin.wait() {
            return me.park(deadline);
        }
    }
    true
}
