//! Loom model tests of the hotq queues, and the ordering mutation tool
//! that proves they can fail.
//!
//! - Built with `RUSTFLAGS="--cfg loom"`: the helpers the models in
//!   `tests/` share (one file per queue crate; see `README.md`).
//! - Built normally: [`sites`], the finder of every non-`Relaxed` ordering
//!   in the queue crates, which the `mutants` binary mutates one at a time
//!   and the fast `ordering_sites` test checks against `MUTANTS.md`.
//! - Tested normally: the repository's `README.md`, whose examples use all
//!   three queue crates, as doc tests (this crate has them all as
//!   dev-dependencies).

#[cfg(loom)]
mod support;
#[cfg(loom)]
pub use support::{DropLog, Spin, Tracked, model};

#[cfg(not(loom))]
pub mod sites;

// The root README's examples run as doc tests, here because this crate
// sees hotq-spsc, hotq-mpmc and hotq-disruptor at once. Not under loom:
// the examples start real threads, outside any model.
#[cfg(all(doctest, not(loom)))]
#[doc = include_str!("../../README.md")]
struct RootReadmeDoctests;
