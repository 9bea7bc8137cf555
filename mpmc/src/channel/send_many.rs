//! Batch sends: `try_send_many`, `send_many` and `send_many_timeout`, each
//! sending from the front of a `Vec` (the batch receives are
//! `recv_many.rs`).
//!
//! Each batch is one claim on the queue
//! ([`Queue::push_many`](crate::Queue::push_many): one CAS for the whole
//! batch, `queue/batch.rs`), followed by one load of the receivers' waiter
//! flags, as after a single item's claim, that wakes up to one waiter per
//! item sent (`Waiters::notify_many`). So the wake-up protocol is
//! `waiters.rs`'s, unchanged: the batch's claim CAS is `SeqCst`, the flag
//! load after it `SeqCst`, and a batch that finds no room runs the queue's
//! `fence(SeqCst)` before deciding "full", after the waiter's flag store.
//! No item is held across a wait: a blocking batch send keeps the items
//! not yet sent in the caller's `Vec`.

use alloc::vec::Vec;
use std::time::{Duration, Instant};

use super::{SendError, SendTimeoutError, Sender, TrySendError};
use crate::queue::FrontDrain;
use crate::sync::blocking::Ordering;

impl<T> Sender<T> {
    /// Sends items from the front of `items`, in order, as many as there
    /// is room for now, without blocking, and returns how many; what did
    /// not go stays in `items`, at its front. (It may send fewer than there
    /// is room for when a receiver is in the middle of taking the item of
    /// the next slot: see [`Queue::push_many`](crate::Queue::push_many).)
    /// At least one is sent, or
    /// [`TrySendError::Full`] when there is no room, and
    /// [`TrySendError::Disconnected`] when every receiver is gone (or
    /// [`Receiver::close`](super::Receiver::close) ran); either way `items` is left as it was. An
    /// empty `items` returns `Ok(0)` at once. One claim on the queue for
    /// the whole batch ([`Queue::push_many`](crate::Queue::push_many)).
    ///
    /// ```
    /// use hotq_mpmc::TrySendError;
    ///
    /// let (tx, rx) = hotq_mpmc::bounded(3);
    /// let mut items = vec![1, 2, 3, 4];
    /// assert_eq!(tx.try_send_many(&mut items), Ok(3)); // room for three
    /// assert_eq!(items, [4]);
    /// assert_eq!(tx.try_send_many(&mut items), Err(TrySendError::Full(())));
    /// assert_eq!(items, [4]); // kept
    /// assert_eq!(rx.try_iter().collect::<Vec<_>>(), [1, 2, 3]);
    /// drop(rx);
    /// assert_eq!(tx.try_send_many(&mut items), Err(TrySendError::Disconnected(())));
    /// assert_eq!(items, [4]);
    /// ```
    pub fn try_send_many(&self, items: &mut Vec<T>) -> Result<usize, TrySendError<()>> {
        if items.is_empty() {
            return Ok(0);
        }
        if self.shared.zero.is_some() {
            // Each item to a waiting receiver, while there is one.
            let (sent, refused) = self.hand_over_each(items, |v| match self.try_send(v) {
                Ok(()) => Ok(()),
                Err(TrySendError::Full(v)) => Err((v, TrySendError::Full(()))),
                Err(TrySendError::Disconnected(v)) => Err((v, TrySendError::Disconnected(()))),
            });
            return match (sent, refused) {
                (0, Some(e)) => Err(e),
                (sent, _) => Ok(sent),
            };
        }
        self.send_front_of(&mut FrontDrain::new(items))
    }

    /// Sends every item of `items`, in order, blocking while the channel
    /// is full; `items` is empty afterwards. Consecutive items of the batch
    /// stay together in the channel's order as far as the room at each
    /// claim allows (each claim appends as many as fit, at once). Fails
    /// only when every receiver is gone (or [`Receiver::close`](super::Receiver::close) ran): the
    /// items not sent are then still in `items`, in order.
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded(2);
    /// let t = std::thread::spawn(move || {
    ///     let mut items: Vec<u32> = (0..10).collect();
    ///     tx.send_many(&mut items).unwrap(); // waits for room four times
    ///     assert!(items.is_empty());
    /// });
    /// assert_eq!(rx.iter().collect::<Vec<_>>(), (0..10).collect::<Vec<_>>());
    /// t.join().unwrap();
    /// ```
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded(2);
    /// tx.send_many(&mut vec!['a', 'b']).unwrap(); // full now
    /// let t = std::thread::spawn(move || drop(rx)); // while `send_many` waits, perhaps
    /// // (full, and nobody receives: the only room is what the drop's drain
    /// // makes, after the disconnection, so nothing is sent)
    /// let mut items = vec!['c', 'd'];
    /// assert_eq!(tx.send_many(&mut items), Err(hotq_mpmc::SendError(())));
    /// t.join().unwrap();
    /// assert_eq!(items, ['c', 'd']); // never sent
    /// ```
    pub fn send_many(&self, items: &mut Vec<T>) -> Result<(), SendError<()>> {
        self.send_many_until(items, None).map_err(|_| SendError(()))
    }

    /// As [`send_many`](Self::send_many), blocking for at most `timeout`
    /// in all: [`SendTimeoutError::Timeout`] when it passes with items
    /// left, which are then still in `items`, in order (those sent before
    /// stay sent).
    ///
    /// ```
    /// use std::time::Duration;
    /// use hotq_mpmc::SendTimeoutError;
    ///
    /// let (tx, rx) = hotq_mpmc::bounded(2);
    /// let mut items = vec![1, 2, 3];
    /// let wait = Duration::from_millis(10);
    /// assert_eq!(tx.send_many_timeout(&mut items, wait), Err(SendTimeoutError::Timeout(())));
    /// assert_eq!(items, [3]); // two sent, one left
    /// assert_eq!(rx.recv(), Ok(1));
    /// assert_eq!(tx.send_many_timeout(&mut items, wait), Ok(()));
    /// drop(rx);
    /// items.push(4);
    /// assert_eq!(
    ///     tx.send_many_timeout(&mut items, wait),
    ///     Err(SendTimeoutError::Disconnected(()))
    /// );
    /// ```
    pub fn send_many_timeout(
        &self,
        items: &mut Vec<T>,
        timeout: Duration,
    ) -> Result<(), SendTimeoutError<()>> {
        // A timeout too long to represent is no timeout.
        self.send_many_until(items, Instant::now().checked_add(timeout))
    }

    /// Batch tries until `items` is empty, waiting (as `send` does) after
    /// each that finds no room.
    fn send_many_until(
        &self,
        items: &mut Vec<T>,
        deadline: Option<Instant>,
    ) -> Result<(), SendTimeoutError<()>> {
        if self.shared.zero.is_some() {
            // Each item handed to a receiver, all by the one deadline.
            let (_, refused) = self.hand_over_each(items, |v| {
                let sent = match deadline {
                    None => self
                        .send(v)
                        .map_err(|SendError(v)| SendTimeoutError::Disconnected(v)),
                    Some(at) => self.send_deadline(v, at),
                };
                sent.map_err(|e| match e {
                    SendTimeoutError::Timeout(v) => (v, SendTimeoutError::Timeout(())),
                    SendTimeoutError::Disconnected(v) => (v, SendTimeoutError::Disconnected(())),
                })
            });
            return refused.map_or(Ok(()), Err);
        }
        let mut from = FrontDrain::new(items);
        let queue = &self.shared.queue;
        while from.remaining() > 0 {
            match self.send_front_of(&mut from) {
                Ok(_) => continue,
                Err(TrySendError::Disconnected(())) => {
                    return Err(SendTimeoutError::Disconnected(()));
                }
                Err(TrySendError::Full(())) => {}
            }
            // As in `Sender::send_waiting`: between the spin phase's tries,
            // wait until half the ring is free again.
            let ahead = queue.capacity() / 2;
            let sent = self.shared.send_waiters.block_on(
                deadline,
                || match self.send_front_of(&mut from) {
                    Ok(_) => Some(Ok(())),
                    Err(TrySendError::Disconnected(())) => Some(Err(())),
                    Err(TrySendError::Full(())) => None,
                },
                || queue.has_room_ahead(ahead),
            );
            match sent {
                Some(Ok(())) => {}
                Some(Err(())) => return Err(SendTimeoutError::Disconnected(())),
                None => return Err(SendTimeoutError::Timeout(())),
            }
        }
        Ok(())
    }

    /// A rendezvous channel's batch (it has no queue to claim slots in):
    /// `send_one` hands the items over one at a time, from the front,
    /// until it gives one back; that one and those after it stay in
    /// `items`, in order. Returns how many went, and why the one that came
    /// back did not.
    fn hand_over_each<E>(
        &self,
        items: &mut Vec<T>,
        mut send_one: impl FnMut(T) -> Result<(), (T, E)>,
    ) -> (usize, Option<E>) {
        let mut rest = core::mem::take(items).into_iter();
        let mut sent = 0;
        while let Some(v) = rest.next() {
            if let Err((v, why)) = send_one(v) {
                items.push(v);
                items.extend(rest);
                return (sent, Some(why));
            }
            sent += 1;
        }
        (sent, None)
    }

    /// One batch claim of what `from` has left (at least one item), then
    /// the receivers' notification (one per item sent).
    fn send_front_of(&self, from: &mut FrontDrain<'_, T>) -> Result<usize, TrySendError<()>> {
        let shared = &*self.shared;
        // Relaxed: a hint that saves a claim nobody will receive.
        if shared.disconnected.load(Ordering::Relaxed) {
            return Err(TrySendError::Disconnected(()));
        }
        // Asked again after the claim, as in `try_send` (see there): a
        // batch must not take room the last receiver's drain made. The
        // claim's scan loaded every claimed slot's stamp with Acquire, so
        // a slot the drain freed orders the flag store before this load.
        let claimed = shared
            .queue
            .push_front_of_unless(from, || shared.disconnected.load(Ordering::Relaxed));
        match claimed {
            Err(run) => {
                // Given back as dropped permits' slots are; `from` keeps
                // every item.
                shared.queue.hold_each(run, |position| {
                    // SAFETY: claimed by this batch, held just now, and
                    // neither filled nor released: released exactly once.
                    unsafe { shared.release(position) }
                });
                Err(TrySendError::Disconnected(()))
            }
            Ok(0) if shared.queue.is_closed() => Err(TrySendError::Disconnected(())),
            Ok(0) => Err(TrySendError::Full(())),
            Ok(sent) => {
                // After the claim (push_many's SeqCst CAS on `tail`): see
                // `waiters.rs` for the store→load order.
                if shared.recv_waiters.notify_many(sent) {
                    // The last receiver left meanwhile: drop what its drain
                    // may have missed, as `try_send` does.
                    shared.drop_all(|| shared.queue.pop());
                }
                Ok(sent)
            }
        }
    }
}
