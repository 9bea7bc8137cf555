//! The stage between the two queues: pops what the producer pushed into the
//! SPSC ring, transforms it, and sends it into the MPMC channel.

use std::time::{Duration, Instant};

use hotq_mpmc::Sender;
use hotq_spsc::Consumer;

use crate::sync::thread;

/// Runs the stage on the calling thread until its input is finished and
/// drained (the ring's producer dropped, every item it pushed sent on), or
/// until nobody receives any more (every receiver dropped). Dropping
/// `output` on the way out is the shutdown's next step: the receivers see
/// the channel disconnected once they have taken every item.
///
/// ```
/// let (mut tx, rx) = hotq_spsc::RingBuffer::new(4);
/// let (out, results) = hotq_mpmc::bounded(4);
/// tx.push(20).unwrap();
/// tx.push(21).unwrap();
/// drop(tx); // the producer is done
/// verify_pipeline::run_stage(rx, out, |x| x * 2);
/// assert_eq!(results.iter().collect::<Vec<_>>(), [40, 42]);
/// ```
pub fn run_stage<T, U>(mut input: Consumer<T>, output: Sender<U>, mut f: impl FnMut(T) -> U) {
    loop {
        match input.pop() {
            Ok(item) => {
                if output.send(f(item)).is_err() {
                    return; // every receiver is gone: nobody to deliver to
                }
            }
            Err(_) if input.is_abandoned() => {
                // The producer is gone, and every item it pushed is visible
                // now, including any pushed after the `pop` above failed:
                // drain them before stopping.
                while let Ok(item) = input.pop() {
                    if output.send(f(item)).is_err() {
                        return;
                    }
                }
                return;
            }
            // Until an item comes or the producer goes, whichever is first.
            Err(_) => {
                let _ = input.wait_items(1, far_future());
            }
        }
    }
}

/// [`run_stage`] on a thread of its own (a loom thread under `--cfg loom`).
///
/// ```
/// let (mut tx, rx) = hotq_spsc::RingBuffer::new(4);
/// let (out, results) = hotq_mpmc::bounded(4);
/// let stage = verify_pipeline::spawn_stage(rx, out, |x: u32| x + 1);
/// tx.push(1).unwrap();
/// drop(tx);
/// assert_eq!(results.recv(), Ok(2));
/// assert!(results.recv().is_err()); // drained and shut down
/// stage.join().unwrap();
/// ```
pub fn spawn_stage<T, U, F>(input: Consumer<T>, output: Sender<U>, f: F) -> thread::JoinHandle<()>
where
    T: Send + 'static,
    U: Send + 'static,
    F: FnMut(T) -> U + Send + 'static,
{
    thread::spawn(move || run_stage(input, output, f))
}

/// A deadline no wait reaches: the stage waits for an item or the producer's
/// drop, not for time. (Under loom hotq-spsc's timed waits end only when
/// woken, whatever the deadline.)
fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(3600)
}

/// The stage as first written, with the bug the loom models caught: kept
/// for `tests/models.rs` to show that they catch it.
pub mod planted_bug {
    use super::*;

    /// [`run_stage`](super::run_stage) without the drain: once a `pop` has
    /// failed and the producer is gone, it stops. But the producer may have
    /// pushed its last items *after* that `pop` failed and before it was
    /// dropped, and those are lost: a window of a few instructions, which
    /// the loom model `the_planted_bug_is_caught` finds (see the crate docs
    /// for its output).
    pub fn run_stage<T, U>(mut input: Consumer<T>, output: Sender<U>, mut f: impl FnMut(T) -> U) {
        loop {
            match input.pop() {
                Ok(item) => {
                    if output.send(f(item)).is_err() {
                        return;
                    }
                }
                Err(_) if input.is_abandoned() => return, // the bug: no drain
                Err(_) => {
                    let _ = input.wait_items(1, far_future());
                }
            }
        }
    }
}
