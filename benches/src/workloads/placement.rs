//! Where a workload's loops land in the instruction cache, sampled on
//! purpose instead of left to the linker.
//!
//! A contender's hot loop runs at a speed that depends on its address
//! modulo 64 (how its instructions fall into fetch blocks and decoded-uop
//! lines), and the linker decides that address from everything linked
//! before it: an edit to an unrelated crate moved hotq-spsc's contender
//! loops, identical instructions, from 32 to 0 mod 64 and its single-item
//! figure from 223 to 149 M items/s (docs/performance.md, 2026-12-07). A
//! user's build lands on one of these placements by chance; a figure
//! taken at one of them is that chance, not the queue.
//!
//! So the workloads that honour this ([`spsc`](super::spsc),
//! [`regime`](super::regime), [`mpmc`](super::mpmc) and
//! [`round_trip`](super::round_trip)) are compiled once per [`OFFSETS`]
//! entry (`at_drawn_offset!`): each copy starts its body at a 64-byte
//! boundary plus that offset ([`align`]), whatever the linker does around
//! it, and each run draws its offset at random ([`next`]). A verdict over
//! many rounds then sums over the placements a user's build can get, and
//! an unrelated edit moves no loop.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The offsets (bytes past a 64-byte boundary) at which a workload's body
/// starts, one copy each. Multiples of 16, the alignment LLVM gives loop
/// heads on x86-64, so that each copy's loops keep their position relative
/// to the body's start, shifted by the offset.
pub const OFFSETS: [usize; 4] = [0, 16, 32, 48];

/// Runs placed so far in this process.
static RUNS: AtomicUsize = AtomicUsize::new(0);

/// The index into [`OFFSETS`] for this process's next run, drawn at
/// random: a contender binary serves its calibration runs and its timed
/// rounds of several workloads in one sequence, so taking the offsets in
/// turn could give one workload's timed rounds the same few offsets every
/// time. (`Relaxed`: a counter, ordering nothing else; `RandomState`'s
/// keys are random per process.) `HOTQ_PLACEMENT=I` (0 to 3) fixes it,
/// to look at one placement.
pub fn next() -> usize {
    if let Some(i) = fixed() {
        return i;
    }
    let run = RUNS.fetch_add(1, Ordering::Relaxed);
    (RandomState::new().hash_one(run) % OFFSETS.len() as u64) as usize
}

/// The index `HOTQ_PLACEMENT` fixes, if it is set.
///
/// # Panics
///
/// If it is set to anything but an index into [`OFFSETS`].
fn fixed() -> Option<usize> {
    static FIXED: OnceLock<Option<usize>> = OnceLock::new();
    *FIXED.get_or_init(|| {
        let v = std::env::var("HOTQ_PLACEMENT").ok()?;
        match v.parse() {
            Ok(i) if i < OFFSETS.len() => Some(i),
            _ => panic!(
                "HOTQ_PLACEMENT={v}: an index from 0 to {}",
                OFFSETS.len() - 1
            ),
        }
    })
}

/// `$f::<$g.., OFFSET>($arg..)` with the `OFFSET` that [`next`] draws:
/// the four copies of a placed workload, one call.
macro_rules! at_drawn_offset {
    ($f:ident::<$($g:ty),*>($($arg:expr),* $(,)?)) => {{
        use $crate::workloads::placement::{next, OFFSETS};
        match next() {
            0 => $f::<$($g,)* { OFFSETS[0] }>($($arg),*),
            1 => $f::<$($g,)* { OFFSETS[1] }>($($arg),*),
            2 => $f::<$($g,)* { OFFSETS[2] }>($($arg),*),
            _ => $f::<$($g,)* { OFFSETS[3] }>($($arg),*),
        }
    }};
}
pub(crate) use at_drawn_offset;

/// Puts the code that follows at a 64-byte boundary plus `OFFSET`: padding
/// that runs once per call (a few no-ops), on x86-64; nothing elsewhere,
/// where the placement is left to the linker.
#[inline(always)]
pub fn align<const OFFSET: usize>() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the assembly is alignment padding and `OFFSET` one-byte
    // `nop`s: it touches no register, memory, stack or flag.
    unsafe {
        core::arch::asm!(
            ".p2align 6",
            ".fill {offset}, 1, 0x90",
            offset = const OFFSET,
            options(nomem, nostack, preserves_flags),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_offset_is_drawn_and_no_other() {
        let mut seen = [0u32; OFFSETS.len()];
        for _ in 0..400 {
            seen[next()] += 1;
        }
        // Each of 4 offsets has probability 1/4 in each of 400 draws: fewer
        // than 40 of one happens about once in 10^9 runs.
        assert!(seen.iter().all(|&n| n >= 40), "draws per offset: {seen:?}");
    }

    #[test]
    fn placed_code_runs_at_every_offset() {
        fn body<const OFFSET: usize>(x: u64) -> u64 {
            align::<OFFSET>();
            x.wrapping_mul(3) + 1
        }
        assert_eq!(body::<{ OFFSETS[0] }>(1), 4);
        assert_eq!(body::<{ OFFSETS[1] }>(2), 7);
        assert_eq!(body::<{ OFFSETS[2] }>(3), 10);
        assert_eq!(body::<{ OFFSETS[3] }>(4), 13);
    }
}
