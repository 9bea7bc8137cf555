//! What both halves of a channel answer about it, read off the state they
//! share: written once, for [`Sender`](super::Sender) and
//! [`Receiver`](super::Receiver) alike (`queries!(Sender, tx)` in each
//! half's file; the second name is the half in the examples).

macro_rules! queries {
    ($half:ident, $h:ident) => {
        impl<T> $half<T> {
            /// The number of items in the channel, at one instant during
            /// the call. Slots held by a [`Permit`](crate::Permit) are no
            /// items: on a channel that has ever had a permit, `len` (and
            /// `is_empty`) also look at the slots' stamps, one load per
            /// slot in use, so that permits themselves cost no shared
            /// counter.
            ///
            /// ```
            /// let (tx, rx) = hotq_mpmc::bounded(4);
            /// tx.send(1).unwrap();
            #[doc = concat!("assert_eq!(", stringify!($h), ".len(), 1);")]
            /// # drop((tx, rx));
            /// ```
            pub fn len(&self) -> usize {
                self.shared.queue.len()
            }

            /// Whether the channel is empty, at one instant during the
            /// call.
            ///
            /// ```
            /// let (tx, rx) = hotq_mpmc::bounded(4);
            #[doc = concat!("assert!(", stringify!($h), ".is_empty());")]
            /// tx.send(1).unwrap();
            #[doc = concat!("assert!(!", stringify!($h), ".is_empty());")]
            /// # drop((tx, rx));
            /// ```
            pub fn is_empty(&self) -> bool {
                self.shared.queue.is_empty()
            }

            /// Whether the channel is full, at one instant during the call.
            /// A rendezvous channel, `bounded(0)`, is always full (and
            /// empty), as `crossbeam_channel`'s.
            ///
            /// ```
            /// let (tx, rx) = hotq_mpmc::bounded(1);
            #[doc = concat!("assert!(!", stringify!($h), ".is_full());")]
            /// tx.send(1).unwrap();
            #[doc = concat!("assert!(", stringify!($h), ".is_full());")]
            /// let (tx, rx) = hotq_mpmc::bounded::<u8>(0);
            #[doc = concat!("assert!(", stringify!($h), ".is_full() && ", stringify!($h), ".is_empty());")]
            /// # drop((tx, rx));
            /// ```
            pub fn is_full(&self) -> bool {
                // A rendezvous channel (capacity 0) is always full, as
                // `crossbeam_channel`'s (its closed queue is empty).
                self.shared.zero.is_some() || self.shared.queue.is_full()
            }

            /// The most items the channel holds: exactly what was asked
            /// for. (A `usize`, where `crossbeam_channel` returns
            /// `Option<usize>`: every channel here is bounded.)
            ///
            /// A rendezvous channel, `bounded(0)`, has capacity 0.
            ///
            /// ```
            /// let (tx, rx) = hotq_mpmc::bounded::<u8>(5);
            #[doc = concat!("assert_eq!(", stringify!($h), ".capacity(), 5);")]
            /// let (tx, rx) = hotq_mpmc::bounded::<u8>(0);
            #[doc = concat!("assert_eq!(", stringify!($h), ".capacity(), 0);")]
            /// # drop((tx, rx));
            /// ```
            pub fn capacity(&self) -> usize {
                // A rendezvous channel's queue is a closed one of 1.
                if self.shared.zero.is_some() {
                    0
                } else {
                    self.shared.queue.capacity()
                }
            }

            #[doc = concat!(
                "Whether `self` and `other` are ",
                stringify!($half),
                "s of the same channel."
            )]
            ///
            /// ```
            /// let (tx, rx) = hotq_mpmc::bounded::<u8>(1);
            /// let (other_tx, other_rx) = hotq_mpmc::bounded::<u8>(1);
            #[doc = concat!("assert!(", stringify!($h), ".same_channel(&", stringify!($h), ".clone()));")]
            #[doc = concat!("assert!(!", stringify!($h), ".same_channel(&other_", stringify!($h), "));")]
            /// # drop((tx, rx, other_tx, other_rx));
            /// ```
            pub fn same_channel(&self, other: &$half<T>) -> bool {
                Arc::ptr_eq(&self.shared, &other.shared)
            }
        }

        impl<T> fmt::Debug for $half<T> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($half))
                    .field("len", &self.len())
                    .field("capacity", &self.capacity())
                    .finish_non_exhaustive()
            }
        }
    };
}
