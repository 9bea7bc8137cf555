//! Weak senders: a handle that can become a [`Sender`] again while some
//! `Sender` still exists, without keeping the channel connected itself
//! (tokio's `WeakSender`).
//!
//! A `WeakSender` holds the shared state (so the memory stays) but is not
//! counted in `Shared::senders`. [`WeakSender::upgrade`] adds one to that
//! count only if it is not 0, in a CAS loop: the last `Sender`'s
//! `fetch_sub` to 0 and an upgrade are two read-modify-writes of the one
//! count, so one of them comes first in its modification order. If the
//! drop comes first, the upgrade reads 0 and fails (0 is never
//! resurrected: the channel is already disconnected, and its receivers
//! may have reported it); if the upgrade comes first, the drop reads 2 and
//! is not the last.

use core::fmt;

use super::{Sender, Shared};
use crate::sync::blocking::{Arc, Ordering};

/// A sender that does not keep the channel connected: once every
/// [`Sender`] is gone the receivers see the channel disconnected, and
/// [`upgrade`](Self::upgrade) returns `None`. Made by
/// [`Sender::downgrade`]; clonable.
///
/// ```
/// let (tx, rx) = hotq_mpmc::bounded(2);
/// let weak = tx.downgrade();
/// weak.upgrade().unwrap().send(1).unwrap(); // a `Sender` still exists
/// drop(tx);
/// assert!(weak.upgrade().is_none()); // every `Sender` is gone
/// assert_eq!(rx.recv(), Ok(1));
/// assert_eq!(rx.recv(), Err(hotq_mpmc::RecvError)); // the weak one kept nothing open
/// ```
pub struct WeakSender<T> {
    shared: Arc<Shared<T>>,
}

impl<T> Sender<T> {
    /// A [`WeakSender`] for this channel: it does not count as a sender
    /// (the channel disconnects when the last `Sender` goes, whatever weak
    /// ones remain), and can be upgraded back while a `Sender` exists.
    ///
    /// ```
    /// let (tx, rx) = hotq_mpmc::bounded::<u8>(1);
    /// let weak = tx.downgrade();
    /// drop(tx);
    /// assert!(rx.is_disconnected());
    /// assert!(weak.upgrade().is_none());
    /// ```
    pub fn downgrade(&self) -> WeakSender<T> {
        WeakSender {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl<T> WeakSender<T> {
    /// A [`Sender`] again, if some `Sender` of the channel still exists;
    /// `None` once every one is gone (even if more weak senders remain).
    ///
    /// ```
    /// let (tx, _rx) = hotq_mpmc::bounded::<u8>(1);
    /// let weak = tx.downgrade();
    /// let tx2 = weak.upgrade().expect("`tx` is alive");
    /// drop(tx);
    /// assert!(weak.upgrade().is_some()); // `tx2` keeps it alive
    /// drop(tx2);
    /// assert!(weak.upgrade().is_none());
    /// ```
    pub fn upgrade(&self) -> Option<Sender<T>> {
        let senders = &self.shared.senders;
        // Relaxed: only the count's modification order matters here (see
        // the module docs); the new sender publishes nothing by existing,
        // and its own sends are ordered before its drop's `fetch_sub`
        // (AcqRel) like any sender's.
        let mut n = senders.load(Ordering::Relaxed);
        loop {
            if n == 0 {
                return None;
            }
            assert!(n < isize::MAX as usize, "too many channel handles");
            // Relaxed: as the load above.
            match senders.compare_exchange_weak(n, n + 1, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => {
                    return Some(Sender {
                        shared: Arc::clone(&self.shared),
                    });
                }
                Err(now) => n = now,
            }
        }
    }

    /// The number of [`Sender`]s of the channel at one instant during the
    /// call (weak ones not counted).
    ///
    /// ```
    /// let (tx, _rx) = hotq_mpmc::bounded::<u8>(1);
    /// let weak = tx.downgrade();
    /// let tx2 = tx.clone();
    /// assert_eq!(weak.strong_count(), 2);
    /// drop((tx, tx2));
    /// assert_eq!(weak.strong_count(), 0);
    /// ```
    pub fn strong_count(&self) -> usize {
        // Relaxed: a snapshot of the count, ordering nothing.
        self.shared.senders.load(Ordering::Relaxed)
    }
}

impl<T> Clone for WeakSender<T> {
    /// Another weak sender of the same channel.
    fn clone(&self) -> Self {
        WeakSender {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl<T> fmt::Debug for WeakSender<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WeakSender")
            .field("strong_count", &self.strong_count())
            .finish_non_exhaustive()
    }
}
