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
    paused_producer_holds_up_only_its_own_slot_from(0, 0);
}

/// As above, A's claim the last position before 2^32 and the rest of the
/// test past it: wherever positions are 64-bit (i686 too) nothing wraps or
/// truncates there; where they are a 32-bit `usize` they wrap there.
#[test]
fn paused_producer_holds_up_only_its_own_slot_across_the_32_bit_wrap() {
    paused_producer_holds_up_only_its_own_slot_from((1 << 32) - 8, 3);
}

/// As above, across the wrap of positions (`Position::MAX`).
#[test]
fn paused_producer_holds_up_only_its_own_slot_across_the_position_wrap() {
    paused_producer_holds_up_only_its_own_slot_from(u64::MAX - 7, 3);
}

/// The queue starts at the lap of `start` (capacity 4, one lap is 8
/// positions); `lead` items are pushed and popped first, so that A claims
/// index `lead` of that lap and, with `lead = 3`, everything after A's
/// claim happens in the next lap.
fn paused_producer_holds_up_only_its_own_slot_from(start: u64, lead: u32) {
    let q = Arc::new(Queue::<(u8, u32)>::with_initial_position(4, start).unwrap());
    for i in 0..lead {
        q.push((b'L', i)).unwrap();
        assert_eq!(q.pop(), Some((b'L', i)));
    }

    // Producer A claims the next position and stops there.
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

/// The lap-wrap ABA that crossbeam shipped with 32-bit positions: a
/// producer that has read `tail` and seen its slot free, then stalls
/// before its claim while the positions go once around their whole range,
/// finds `tail` equal to what it read, though the queue is now full. Its
/// claim must fail (and its push report "full"), not overwrite the item in
/// the slot. With 32-bit positions and capacity 1 (a lap is 2 positions)
/// the range is 2^31 laps; `skip_laps` runs them at once. Wherever the
/// target has 64-bit atomics positions are 64-bit, and the claim fails;
/// with 32-bit positions (the queue before 64-bit positions, on i686) the
/// push returned `Ok` and overwrote the item in the full slot. (Without
/// 64-bit atomics that is the documented bound, so the test is left out.)
#[cfg(target_has_atomic = "64")]
#[test]
fn producer_stalled_for_a_whole_position_range_does_not_claim_a_full_slot() {
    let q = Arc::new(Queue::<u32>::new(1));

    // Producer A sees position 0's slot free and stops before its claim.
    let (seen_tx, seen) = channel();
    let (resume, resume_rx) = channel();
    let a = {
        let q = q.clone();
        thread::spawn(move || {
            pause_once_at(Seam::BeforeClaim, seen_tx, Some(resume_rx));
            q.push(1)
        })
    };
    seen.recv_timeout(DEADLINE)
        .expect("producer A never reached its claim");

    // 2^31 - 1 laps of pushes and pops (2^32 - 2 positions), then one more
    // push: the queue is full, and `tail` is 2^32 positions past A's.
    q.skip_laps((1 << 31) - 1);
    q.push(2).unwrap();
    assert!(q.is_full());

    drop(resume);
    assert_eq!(
        a.join().unwrap(),
        Err(1),
        "the queue is full: a producer stalled for 2^32 positions must not claim"
    );
    assert_eq!(q.pop(), Some(2), "the item in the slot is intact");
    assert_eq!(q.pop(), None);
}
