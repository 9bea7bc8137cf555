//! The one place that decides between `loom` and `core`/`alloc`.
//!
//! Everything the algorithm shares between threads comes from here, so the
//! source that `cargo test` runs is the source that loom model-checks
//! (`RUSTFLAGS="--cfg loom"`), and no `cfg` appears anywhere else.
//!
//! Slot memory is special. Chunks hand the caller contiguous slices of slots,
//! so the slots must be plain memory in both builds (`core`'s `UnsafeCell` is
//! `repr(transparent)`; loom's is not). Loom still sees every slot access:
//! [`SlotAccess`] keeps one `loom::cell::UnsafeCell<()>` per slot, and the
//! ring claims the slots it touches for exactly as long as it touches them.
//! A read that is not ordered after the write it reads (a too-weak ordering)
//! is then a causality violation that loom reports. Outside loom,
//! `SlotAccess` is zero-sized and every claim compiles to nothing.

pub(crate) use core::cell::UnsafeCell;
pub(crate) use core::sync::atomic::Ordering;

#[cfg(not(loom))]
pub(crate) use alloc::sync::Arc;
#[cfg(not(loom))]
pub(crate) use core::sync::atomic::{AtomicBool, AtomicUsize};
#[cfg(not(loom))]
pub(crate) use untracked::{Claim, SlotAccess};

#[cfg(loom)]
pub(crate) use loom::sync::Arc;
#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicBool, AtomicUsize};
#[cfg(loom)]
pub(crate) use tracked::{Claim, SlotAccess};

#[cfg(not(loom))]
mod untracked {
    /// Access tracking of the ring's slots; nothing to track outside loom.
    pub(crate) struct SlotAccess;

    /// Proof that a range of slots is being accessed; nothing outside loom.
    pub(crate) struct Claim;

    impl SlotAccess {
        #[inline(always)]
        pub(crate) fn new(_slots: usize) -> Self {
            SlotAccess
        }

        #[inline(always)]
        pub(crate) fn claim(&self, _first: usize, _len: usize) -> Claim {
            Claim
        }
    }

    impl Claim {
        /// Ends the access.
        #[inline(always)]
        pub(crate) fn end(self) {}
    }
}

#[cfg(loom)]
mod tracked {
    use alloc::boxed::Box;
    use alloc::vec::Vec;
    use loom::cell::{MutPtr, UnsafeCell};

    /// One loom cell per slot: claiming a slot is a loom write access.
    pub(crate) struct SlotAccess {
        cells: Box<[UnsafeCell<()>]>,
    }

    /// Loom's record that a range of slots is being accessed; the access
    /// ends when the claim drops, so drop it before publishing the range.
    pub(crate) struct Claim {
        _guards: Vec<MutPtr<()>>,
    }

    impl SlotAccess {
        pub(crate) fn new(slots: usize) -> Self {
            SlotAccess {
                cells: (0..slots).map(|_| UnsafeCell::new(())).collect(),
            }
        }

        /// Claims `len` slots from the free-running index `first` on, as
        /// the ring addresses them (masked: the slot count is a power of two).
        #[track_caller]
        pub(crate) fn claim(&self, first: usize, len: usize) -> Claim {
            let mask = self.cells.len() - 1;
            let guards = (0..len)
                .map(|i| self.cells[first.wrapping_add(i) & mask].get_mut())
                .collect();
            Claim { _guards: guards }
        }
    }

    impl Claim {
        /// Ends the access: loom sees it no longer.
        pub(crate) fn end(self) {}
    }
}
