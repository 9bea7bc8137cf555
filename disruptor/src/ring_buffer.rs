//! The ring of pre-allocated events.

use core::mem;

use crate::sequence::Sequence;
use crate::sync::UnsafeCell;

/// `size` events, created once by the factory and reused for ever: a publish
/// overwrites an event in place, nothing is allocated on the hot path.
///
/// Invariants: `slots.len()` is a power of two and `mask == slots.len() - 1`,
/// so sequence `s` (never negative when addressed) lives in `slots[s & mask]`.
/// Who may touch a slot is decided by the sequencer and the barriers, not
/// here: the producer writes slot `s` only after every leaf consumer has
/// passed `s - size`, consumers read it only after it is published.
pub(crate) struct RingBuffer<E> {
    slots: Box<[UnsafeCell<E>]>,
    mask: usize,
}

// SAFETY: the ring hands out `&E` to consumer threads and `&mut E` to the
// producer thread, never both for one slot at once (the sequences order
// them), so sharing it needs `E: Sync` (several consumers read one event at
// once) and `E: Send` (the producer's writes and the final drop happen on
// other threads than the factory's).
unsafe impl<E: Send + Sync> Sync for RingBuffer<E> {}
// SAFETY: as above: the events move with the ring.
unsafe impl<E: Send + Sync> Send for RingBuffer<E> {}

impl<E> RingBuffer<E> {
    /// `size` must be a power of two (the builder checks it).
    pub(crate) fn new(size: usize, factory: &mut dyn FnMut() -> E) -> Self {
        debug_assert!(size.is_power_of_two());
        let slots = (0..size).map(|_| UnsafeCell::new(factory())).collect();
        RingBuffer {
            slots,
            mask: size - 1,
        }
    }

    /// The number of slots.
    #[inline]
    pub(crate) fn size(&self) -> usize {
        self.mask + 1
    }

    #[inline]
    fn slot(&self, sequence: Sequence) -> &UnsafeCell<E> {
        debug_assert!(sequence >= 0);
        let index = sequence as usize & self.mask;
        // SAFETY: `mask == slots.len() - 1` with the length a power of two
        // (the invariant above), so `index <= mask < slots.len()` whatever
        // the sequence. Unchecked because the bounds check's panic path is
        // an unwind edge on every publish: it kept the producer's
        // publish-on-drop guard in memory (three stores per event).
        unsafe { self.slots.get_unchecked(index) }
    }

    /// Brings the event of `sequence` towards this core's cache, ahead of
    /// its read. A hint, no access: any sequence will do.
    #[inline(always)]
    pub(crate) fn prefetch(&self, sequence: Sequence) {
        crate::sync::prefetch_read(self.slot(sequence));
    }

    /// Runs `f` on the event of `sequence`, read-only.
    ///
    /// # Safety
    /// The event is published and no producer may write it until the
    /// caller's sequence (or one that gates the producer through it) passes
    /// `sequence`; no `&mut` to it exists meanwhile.
    #[inline]
    pub(crate) unsafe fn read<R>(&self, sequence: Sequence, f: impl FnOnce(&E) -> R) -> R {
        // SAFETY: the caller guarantees no concurrent writer.
        self.slot(sequence).with(|p| f(unsafe { &*p }))
    }

    /// Runs `f` on the event of `sequence`, mutably.
    ///
    /// # Safety
    /// The caller has exclusive access to the slot: it claimed it (producer)
    /// or it is the only consumer of its stage and the stages after it have
    /// not been released past `sequence` (a mutable handler).
    #[inline]
    pub(crate) unsafe fn write<R>(&self, sequence: Sequence, f: impl FnOnce(&mut E) -> R) -> R {
        // SAFETY: the caller guarantees exclusive access.
        self.slot(sequence).with_mut(|p| f(unsafe { &mut *p }))
    }

    /// A raw pointer to the event of `sequence`, for `BatchIterMut`, which
    /// hands out `&mut E` one after another inside one claimed range.
    ///
    /// # Safety
    /// As for [`write`](Self::write), for as long as the pointer is used.
    #[inline]
    pub(crate) unsafe fn get_mut_ptr(&self, sequence: Sequence) -> *mut E {
        self.slot(sequence).with_mut(|p| p)
    }
}

impl<E> Drop for RingBuffer<E> {
    /// Drops the events one at a time, first slot to last. If a
    /// destructor panics, the panic goes on to the dropper and the events
    /// after it are leaked (moved out and forgotten; the storage itself is
    /// freed): a slice's drop glue would go on dropping them while the
    /// panic unwinds, and abort the process at the next event whose
    /// destructor panics. A destructor's panic must never become an abort,
    /// and no event is dropped twice.
    fn drop(&mut self) {
        /// Forgets what the iterator still holds, on the way out of a panic.
        struct LeakTheRest<I: Iterator>(I);
        impl<I: Iterator> Drop for LeakTheRest<I> {
            fn drop(&mut self) {
                self.0.by_ref().for_each(mem::forget);
            }
        }
        let mut events = LeakTheRest(Vec::from(mem::take(&mut self.slots)).into_iter());
        events.0.by_ref().for_each(drop);
    }
}
