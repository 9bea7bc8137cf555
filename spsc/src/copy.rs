//! The copy of a run of `Copy` items between the caller's slice and the
//! ring's slots, for `push_slice` and `pop_slice`.

use core::ptr;

/// The longest run [`copy_run`] copies item by item: at most this many
/// items, and at most [`ITEMWISE_BYTES`] bytes.
const ITEMWISE_ITEMS: usize = 16;
/// See [`ITEMWISE_ITEMS`]: 16 `u64`s, two cache lines.
const ITEMWISE_BYTES: usize = 128;

/// Copies `len` items from `src` to `dst`: a short run item by item, a
/// long one with `memcpy`. `push_slice` copies the caller's items into the
/// ring with it, `pop_slice` copies them out.
///
/// **Into the ring.** A producer that sends batches typically fills a
/// small buffer item by item and pushes it at once. `memcpy` reads that
/// buffer with loads wider than an item, and a load that spans several of
/// the caller's
/// just-issued stores cannot be forwarded from them: it waits until they
/// reach the cache, behind every older store, such as the last batch's
/// stores into lines the consumer's core holds. Item by item, each load
/// forwards from its own store.
///
/// Measured in the batch regime grid (`report --suite batch-regimes`,
/// batches of 16 `u64`s, each filled item by item after that many steps
/// of work, 2026-12-06 on a 2-core Xeon VM): where the producer's work is
/// the bottleneck (16 steps an item), this ring ran at 0.85–0.89 of the
/// producer's work alone with `memcpy` and 0.88–0.90 item by item (the
/// median of each row's 9 cells; one grid run of each); ringbuf, whose
/// `push_slice` is a `memcpy`, 0.82–0.83 in both runs, rtrb, which fills
/// item by item, 0.91–0.95. With 1 or 4 steps of producer work it rose
/// 7–19 % beyond the peers' drift between the runs; with none it was level with them,
/// but for four cells of the bigger rings that fell 9–32 % (still 1.3 ×
/// the best peer there). Longer runs keep `memcpy`, which copies
/// kilobytes faster than a loop (`docs/performance.md`, "Batches: the
/// producer's copy").
///
/// **Out of the ring.** A short run through `memcpy` is a call into
/// libc for a copy of a few items. Item by item, in the same batch grid on
/// another 2-core Xeon VM (2026-12-07, three interleaved passes of every
/// cell, contender binaries): ≥ 1.0 × the best of rtrb and ringbuf in 143
/// of 144 cells against 135, the median cell 1.22 against 1.15, the
/// lowest 1.00 against 0.71 (capacity 64, `yield`, 16/16: 49.1 against
/// 29.4 M items/s, ringbuf 41.7); 73 cells up by more than 5 %, 10 down
/// (by up to 18 %, each still above the best peer). The report's batch
/// rows did not move (`docs/performance.md`, "Batches: the consumer's
/// copy").
///
/// # Safety
///
/// `src` is valid for `len` reads and `dst` for `len` writes of `T`, and
/// the two do not overlap.
#[inline(always)]
pub(crate) unsafe fn copy_run<T: Copy>(src: *const T, dst: *mut T, len: usize) {
    if len <= ITEMWISE_ITEMS && len * core::mem::size_of::<T>() <= ITEMWISE_BYTES {
        for i in 0..len {
            // SAFETY: `i < len`, inside both ranges (the caller's promise).
            // The load is volatile only so that the compiler cannot turn
            // the loop back into a `memcpy` call; it reads the caller's
            // borrowed slice (a push) or slots this consumer owns until it
            // advances `head` (a pop), which nothing else writes meanwhile.
            unsafe { dst.add(i).write(src.add(i).read_volatile()) };
        }
    } else {
        // SAFETY: as promised by the caller.
        unsafe { ptr::copy_nonoverlapping(src, dst, len) };
    }
}
