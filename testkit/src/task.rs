//! A minimal executor for the queues' futures, which need only
//! `core::task`: [`block_on`] polls one future on the calling thread and
//! parks between polls, so only a real wake-up (an unpark) moves it on.
//! Run it inside [`within`](crate::within): a wake-up that never comes
//! then fails the test instead of hanging it.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};

/// A waker that unparks the thread it was made on.
struct Unpark(Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

/// Polls `future` to completion on this thread, parking between polls.
///
/// ```
/// let v = hotq_testkit::block_on(async { 7 });
/// assert_eq!(v, 7);
/// ```
pub fn block_on<F: Future>(future: F) -> F::Output {
    let waker = Waker::from(Arc::new(Unpark(thread::current())));
    let mut cx = Context::from_waker(&waker);
    let mut future = pin!(future);
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
        thread::park();
    }
}
