//! Counts that shrink under miri. miri interprets every instruction (about
//! a thousand to ten thousand times slower than native code), so the long
//! loops of stress, wrap and history tests run a smaller count there,
//! chosen by each test so that it still crosses at least two laps of the
//! ring: the property under test stays the same, only the repetitions
//! shrink.

/// `native` normally, `miri` when the test runs under miri.
pub const fn scaled(native: usize, miri: usize) -> usize {
    if cfg!(miri) { miri } else { native }
}
