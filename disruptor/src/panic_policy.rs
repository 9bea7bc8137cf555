//! What a processor does when its handler panics.

/// What happens when a handler panics. The panic is always caught at the
/// processor's boundary: it never kills the thread silently, never leaves a
/// producer spinning. Set it with
/// [`Builder::on_panic`](crate::Builder::on_panic); it applies to the
/// handlers added after it.
///
/// ```
/// use hotq_disruptor::{Disruptor, PanicPolicy};
/// use std::sync::{Arc, atomic::{AtomicU64, Ordering}};
///
/// let seen = Arc::new(AtomicU64::new(0));
/// let counter = seen.clone();
/// let mut producer = Disruptor::builder(8, || 0u64)
///     .on_panic(PanicPolicy::LogAndSkip)
///     .handle_events_with(move |e: &u64, _seq, _eob| {
///         assert!(*e != 2, "two is skipped");
///         counter.fetch_add(1, Ordering::Relaxed);
///     })
///     .build_single_producer()?;
/// for v in 0..5 {
///     producer.publish(|e| *e = v)?; // never Halted: the panic is logged and skipped
/// }
/// producer.shutdown()?; // Ok: a skipped panic is no failure
/// assert_eq!(seen.load(Ordering::Relaxed), 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PanicPolicy {
    /// Record the panic and halt the whole disruptor: every waiting and
    /// future publish returns [`PublishError::Halted`](crate::PublishError::Halted),
    /// and the shutdown returns the panic as
    /// [`ShutdownError::Panicked`](crate::ShutdownError::Panicked).
    #[default]
    Halt,
    /// Go on with the next event, as if the handler had returned. The
    /// panic is reported once, by the panic hook, as any panic is: std's
    /// default hook prints the thread's name (the handler's, see
    /// [`Builder::named`](crate::Builder::named)), the message and the
    /// place to stderr; a hook of your own (`std::panic::set_hook`) sees
    /// it too, and can log it elsewhere. The shutdown does not return it.
    LogAndSkip,
}
