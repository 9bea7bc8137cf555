//! A small deterministic generator (xorshift64), so a failing run can be
//! replayed from its seed. Not for anything but tests.

/// Xorshift64: fast, seedable, good enough to pick operations.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed` (any value; 0 is mapped away from the
    /// all-zero state xorshift cannot leave).
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A generator for thread `t` of the run with `seed`: distinct
    /// streams for distinct threads.
    pub fn for_thread(seed: u64, t: usize) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ ((t as u64 + 1) << 40) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// A value in `0..n` as a `usize`.
    pub fn below_usize(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// Spins a random `0..max` times: between calls of a concurrent
    /// history, so that the calls of threads sharing the cores overlap in
    /// varied ways.
    pub fn pause(&mut self, max: u64) {
        for _ in 0..self.below(max) {
            std::hint::spin_loop();
        }
    }
}
