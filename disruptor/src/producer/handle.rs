//! A producer handle's hold on the disruptor: the last one to go shuts it
//! down.

use std::time::Duration;

use crate::error::ShutdownError;
use crate::shared::{Release, Shared};
use crate::sync::Arc;

/// One producer handle's hold on the disruptor. Dropping it lets go
/// without waiting on any event poller (ignoring the result, never
/// panicking): the last hold to go closes the stream and joins the
/// processors that are after no poller ([`Release::Drop`]).
pub(super) struct Handle<E> {
    pub(super) shared: Arc<Shared<E>>,
    /// True once [`release`](Self::release) ran, so `Drop` does nothing.
    released: bool,
}

impl<E> Handle<E> {
    /// A hold `Shared` has counted already (it counts the first one from
    /// its creation, [`add_producer`](Shared::add_producer) each clone).
    pub(super) fn new(shared: Arc<Shared<E>>) -> Self {
        Handle {
            shared,
            released: false,
        }
    }

    /// Lets go: the last hold drains (for at most `timeout`), halts and
    /// joins; any other returns at once with a panic recorded so far.
    pub(super) fn release(mut self, timeout: Option<Duration>) -> Result<(), ShutdownError> {
        self.released = true;
        self.shared.release_producer(Release::Shutdown(timeout))
    }

    pub(super) fn halt(&self) {
        self.shared.control.halt();
    }

    pub(super) fn is_halted(&self) -> bool {
        self.shared.control.is_halted()
    }

    pub(super) fn debug(&self, name: &str, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct(name)
            .field("size", &self.shared.ring.size())
            .field("halted", &self.is_halted())
            .finish_non_exhaustive()
    }
}

impl<E> Clone for Handle<E> {
    /// Another hold on the same disruptor, counted by `Shared`.
    fn clone(&self) -> Self {
        self.shared.add_producer();
        Handle::new(Arc::clone(&self.shared))
    }
}

impl<E> Drop for Handle<E> {
    fn drop(&mut self) {
        if !self.released {
            let _ = self.shared.release_producer(Release::Drop);
        }
    }
}
