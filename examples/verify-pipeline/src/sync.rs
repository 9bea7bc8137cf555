//! The one place this crate picks between `std` and loom, as the queues do:
//! under `RUSTFLAGS="--cfg loom"` the stage's thread is a loom thread, so the
//! model sees it, and the queues' own atomics and parking are loom's through
//! their `loom` feature (see `Cargo.toml`).

#[cfg(not(loom))]
pub(crate) use std::thread;

#[cfg(loom)]
pub(crate) use loom::thread;
