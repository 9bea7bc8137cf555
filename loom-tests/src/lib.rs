//! Loom model tests of the hotq queues live in `tests/`; see `README.md`.
