//! A user's-eye example of model-checking code that uses hotq: a two-stage
//! pipeline, a producer writing into a [`hotq_spsc`] ring, a stage
//! ([`run_stage`]) moving each item on into a [`hotq_mpmc`] channel, and
//! workers receiving from it, with a shutdown that starts when the producer
//! is dropped and ends with every item delivered once and the channel
//! disconnected.
//!
//! ```
//! let (mut feed, input) = hotq_spsc::RingBuffer::new(64);
//! let (output, results) = hotq_mpmc::bounded(64);
//! let stage = verify_pipeline::spawn_stage(input, output, |reading: u32| reading * 10);
//! for reading in 0..100 {
//!     feed.push_timeout(reading, std::time::Duration::from_secs(10)).unwrap();
//! }
//! drop(feed); // shutdown: the stage drains the ring, then drops its sender
//! let delivered: Vec<u32> = results.iter().collect(); // ends at the disconnection
//! assert_eq!(delivered, (0..100).map(|r| r * 10).collect::<Vec<_>>());
//! stage.join().unwrap();
//! ```
//!
//! # Model-checking it
//!
//! `tests/models.rs` holds loom models of the pipeline, with the queues
//! inside: run them with
//!
//! ```sh
//! RUSTFLAGS="--cfg loom" cargo test --release -p verify-pipeline --test models
//! ```
//!
//! Each model sets a preemption bound (2; 3 for the one-item model, 1 for
//! the worker that leaves; `LOOM_MAX_PREEMPTIONS` overrides it): with
//! loom's default of none, the one-item model took 2,969,672 executions
//! and 168 s here, and with a bound of 3, 4,104 executions and 0.3 s. The
//! worker that leaves took 5,233,286 executions and 390 s at bound 2, 285
//! at 1, which still finds the lost wake-up it is for (its comment says
//! how that was checked). The five models take about 25 s together.
//!
//! What it takes (see `Cargo.toml`): the queues' `loom` feature under
//! `[target.'cfg(loom)'.dependencies]`, and this crate's own threads (and
//! any atomics of its own) from a `sync` module that picks loom under
//! `cfg(loom)`, as the queues' own do.
//!
//! # The bug the models caught
//!
//! The stage was first written without the drain ([`planted_bug::run_stage`]):
//! a failed `pop` followed by `is_abandoned() == true` stopped it, and an
//! item pushed between the two was lost. The model
//! `the_planted_bug_is_caught` runs that version and expects loom to fail it
//! (`#[should_panic]`, so `cargo test` passes while loom keeps catching
//! it); the schedule it finds is: the stage's `pop` finds the ring empty,
//! the producer pushes its second item and is dropped, and the stage sees
//! it gone and stops. Run alone
//! (`... --test models -- --exact the_planted_bug_is_caught`), it prints:
//!
//! ```text
//! running 1 test
//!
//! thread 'the_planted_bug_is_caught' panicked at examples/verify-pipeline/tests/models.rs:65:5:
//! assertion `left == right` failed: lost, duplicated or reordered
//!   left: [100]
//!  right: [100, 101]
//! ```
//!
//! With the drain ([`run_stage`]) the same model passes.

mod stage;
mod sync;

pub use stage::{planted_bug, run_stage, spawn_stage};
