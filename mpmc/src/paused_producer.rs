//! Producers stopped mid-operation, through the test seams in `sync`.
//!
//! A producer stopped between claim and publish: consumers must wait for
//! its slot (never skip it or report empty), other producers must keep
//! filling free slots, and once it resumes every item must arrive exactly
//! once, in per-producer order. A `force_push` stopped between evicting
//! the oldest item and writing its own: the queue was full throughout, so
//! a consumer must wait for the new item, never report empty.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread;
use std::time::Duration;
use std::vec::Vec;

use crate::Queue;
use crate::sync::Seam;
use crate::sync::seams::set_hook;

/// How long the test waits for a thread to reach a seam before failing.
const DEADLINE: Duration = Duration::from_secs(60);

/// Sets a hook on this thread that, the first time it passes `at`, says so
/// on `reached` and then waits for a word on `resume` (if given; a dropped
/// sender also resumes it, so a failing test cannot leave it stuck).
fn pause_once_at(at: Seam, reached: Sender<()>, resume: Option<Receiver<()>>) {
    let mut done = false;
    set_hook(move |seam| {
        if seam == at && !done {
            done = true;
            reached.send(()).unwrap();
            if let Some(resume) = &resume {
                let _ = resume.recv();
            }
        }
    });
}

/// Starts a consumer's `pop` and returns once it is waiting at the
/// `PopWaits` seam; fails, saying what it popped, if it returns instead.
fn pop_that_must_wait<T: Send + std::fmt::Debug + 'static>(
    q: &Arc<Queue<T>>,
    for_what: &str,
) -> thread::JoinHandle<Option<T>> {
    let (waiting_tx, waiting) = channel();
    let c = {
        let q = q.clone();
        thread::spawn(move || {
            pause_once_at(Seam::PopWaits, waiting_tx, None);
            q.pop()
        })
    };
    if waiting.recv_timeout(DEADLINE).is_err() {
        let popped = c.join();
        panic!("the consumer did not wait for {for_what}; it popped {popped:?}");
    }
    c
}

#[test]
fn paused_producer_holds_up_only_its_own_slot() {
    let q = Arc::new(Queue::<(u8, u32)>::new(4));

    // Producer A claims position 0 and stops there.
    let (claimed_tx, claimed) = channel();
    let (resume, resume_rx) = channel();
    let a = {
        let q = q.clone();
        thread::spawn(move || {
            pause_once_at(Seam::AfterClaim, claimed_tx, Some(resume_rx));
            q.push((b'A', 0)).unwrap();
        })
    };
    claimed
        .recv_timeout(DEADLINE)
        .expect("producer A never claimed");

    // Producer B still fills the free slots behind it, and sees the queue
    // full only when all four positions are claimed.
    q.push((b'B', 0)).unwrap();
    q.push((b'B', 1)).unwrap();
    q.push((b'B', 2)).unwrap();
    assert_eq!(q.push((b'B', 3)), Err((b'B', 3)));
    assert_eq!(q.len(), 4, "a claimed slot counts as taken");

    // A consumer that comes now must wait for A's slot: not skip to B's
    // items, not report empty. The seam tells us it is waiting.
    let c = pop_that_must_wait(&q, "the claimed slot");

    drop(resume); // A publishes
    a.join().unwrap();
    assert_eq!(
        c.join().unwrap(),
        Some((b'A', 0)),
        "the first claimed item comes first"
    );
    let rest: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
    assert_eq!(rest, [(b'B', 0), (b'B', 1), (b'B', 2)]);
    assert_eq!(q.pop(), None);
}

#[test]
fn paused_force_push_never_looks_empty() {
    // Capacity 1 is where eviction moves `head` onto `tail`.
    let q = Arc::new(Queue::<u32>::new(1));
    q.push(0).unwrap();

    let (evicted_tx, evicted) = channel();
    let (resume, resume_rx) = channel();
    let f = {
        let q = q.clone();
        thread::spawn(move || {
            pause_once_at(Seam::Evicted, evicted_tx, Some(resume_rx));
            q.force_push(1)
        })
    };
    evicted
        .recv_timeout(DEADLINE)
        .expect("force_push never evicted");

    let c = pop_that_must_wait(&q, "the evicting force_push");
    drop(resume);
    assert_eq!(
        f.join().unwrap(),
        Some(0),
        "force_push evicts the oldest item"
    );
    assert_eq!(
        c.join().unwrap(),
        Some(1),
        "the queue was full throughout: pop gets the new item"
    );
    assert_eq!(q.pop(), None);
}
