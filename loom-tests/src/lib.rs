//! Loom model tests of the hotq queues, and the ordering mutation tool
//! that proves they can fail.
//!
//! - Built with `RUSTFLAGS="--cfg loom"`: the helpers the models in
//!   `tests/` share (one file per queue crate; see `README.md`).
//! - Built normally: [`sites`], the finder of every non-`Relaxed` ordering
//!   in the queue crates, which the `mutants` binary mutates one at a time
//!   and the fast `ordering_sites` test checks against `MUTANTS.md`.

#[cfg(loom)]
mod support;
#[cfg(loom)]
pub use support::{DropLog, Spin, Tracked, model};

#[cfg(not(loom))]
pub mod sites;
