//! Loom models of `hotq-mpmc`'s batch claims (`Queue::pop_many`,
//! `Queue::push_many`, `queue/batch.rs`) racing single pushes and pops,
//! and of the channel's batch calls on them.
//!
//! Each queue model records what every thread's calls returned and checks
//! that some interleaving of those calls, each thread's in its own order,
//! is a run of the sequential bounded FIFO queue (`hotq-testkit`'s model,
//! a batch being its `PushUpTo`/`PopUpTo`: a prefix of a length the call
//! chose within its bounds). Loom has no real-time order between threads,
//! so this is the linearizability check with every call overlapping every
//! other thread's: the strongest order a model can state. It also checks
//! that every item pushed comes out exactly once.

use hotq_loom_tests::model;
use hotq_mpmc::{Queue, bounded};
use hotq_testkit::fifo::{BoundedFifo, Call, Ret};
use hotq_testkit::lincheck::Model;
use loom::sync::Arc;
use loom::thread;

/// The calls of one thread with what they returned, in its order.
type Calls = Vec<(Call, Ret)>;

/// Whether some interleaving of `threads` (each in its own order) is a
/// run of `state`.
fn interleaves(state: &BoundedFifo, threads: &[&[(Call, Ret)]]) -> bool {
    if threads.iter().all(|t| t.is_empty()) {
        return true;
    }
    (0..threads.len()).any(|i| {
        let Some(((call, ret), rest)) = threads[i].split_first() else {
            return false;
        };
        let mut next = state.clone();
        if next.step(call) != *ret {
            return false;
        }
        let mut after = threads.to_vec();
        after[i] = rest;
        interleaves(&next, &after)
    })
}

/// Asserts that the threads' calls are a run of a queue of `capacity`
/// that held `initial`.
fn assert_sequential(capacity: usize, initial: &[u64], threads: &[&Calls]) {
    let mut start = BoundedFifo::new(capacity);
    for &v in initial {
        assert_eq!(start.step(&Call::Push(v)), Ret::Pushed);
    }
    let slices: Vec<&[(Call, Ret)]> = threads.iter().map(|t| &t[..]).collect();
    assert!(
        interleaves(&start, &slices),
        "no sequential order of the calls: {threads:?}"
    );
}

fn push(q: &Queue<u64>, v: u64, calls: &mut Calls) {
    let ret = match q.push(v) {
        Ok(()) => Ret::Pushed,
        Err(_) => Ret::Full,
    };
    calls.push((Call::Push(v), ret));
}

fn pop(q: &Queue<u64>, calls: &mut Calls) {
    calls.push((Call::Pop, Ret::Popped(q.pop())));
}

fn push_many(q: &Queue<u64>, values: &[u64], calls: &mut Calls) {
    let mut items = values.to_vec();
    let took = q.push_many(&mut items);
    assert_eq!(items, values[took..], "what did not go stays");
    let values = values.to_vec();
    calls.push((Call::PushUpTo { values, took }, Ret::Count(took)));
}

fn pop_many(q: &Queue<u64>, max: usize, calls: &mut Calls) {
    let mut buf = Vec::new();
    let took = q.pop_many(&mut buf, max);
    assert_eq!(took, buf.len());
    calls.push((Call::PopUpTo { max, took }, Ret::Values(buf)));
}

/// Runs `threads` (each a list of calls on the queue) on loom threads
/// against a queue of `capacity` holding `initial` (pushed one slot into
/// the lap, so that a batch of two crosses into the next lap), then
/// checks the calls' results and that every item came out exactly once.
fn run(capacity: usize, initial: &[u64], threads: Vec<fn(&Queue<u64>, &mut Calls)>) {
    let q = Arc::new(Queue::new(capacity));
    // One slot into the lap: a batch over the last index steps to index
    // 0 of the next lap.
    q.push(u64::MAX).unwrap();
    assert_eq!(q.pop(), Some(u64::MAX));
    for &v in initial {
        q.push(v).unwrap();
    }
    let mut bodies = threads.into_iter();
    let first = bodies.next().expect("a thread");
    let handles: Vec<_> = bodies
        .map(|body| {
            let q = q.clone();
            thread::spawn(move || {
                let mut calls = Vec::new();
                body(&q, &mut calls);
                calls
            })
        })
        .collect();
    let mut mine = Vec::new();
    first(&q, &mut mine);
    let mut all = vec![mine];
    all.extend(handles.into_iter().map(|h| h.join().unwrap()));
    let refs: Vec<&Calls> = all.iter().collect();
    assert_sequential(capacity, initial, &refs);
    // Conservation: what went in (initial, accepted pushes) = what came
    // out (pops, batches) + what is left.
    let mut went_in: Vec<u64> = initial.to_vec();
    let mut came_out = Vec::new();
    for (call, ret) in all.iter().flatten() {
        match (call, ret) {
            (Call::Push(v), Ret::Pushed) => went_in.push(*v),
            (Call::PushUpTo { values, took }, _) => went_in.extend(&values[..*took]),
            (_, Ret::Popped(Some(v))) => came_out.push(*v),
            (_, Ret::Values(vs)) => came_out.extend(vs),
            _ => {}
        }
    }
    came_out.extend(Arc::try_unwrap(q).ok().expect("every thread joined"));
    went_in.sort_unstable();
    came_out.sort_unstable();
    assert_eq!(went_in, came_out, "an item lost or duplicated");
}

/// A batch pop of up to 3 from a queue of 2 holding one item, racing a
/// producer's two single pushes and a consumer's single pop: it takes a
/// prefix (one or two items, crossing into the next lap), never an item
/// not yet published, never one another consumer took.
#[test]
fn batch_pop_races_single_pushes_and_a_pop() {
    model("batch_pop_races_single_pushes_and_a_pop", 3, || {
        run(
            2,
            &[1],
            vec![
                |q, calls| pop_many(q, 3, calls),
                |q, calls| {
                    push(q, 2, calls);
                    push(q, 3, calls);
                },
                |q, calls| pop(q, calls),
            ],
        );
    });
}

/// A batch push of two into a queue of 2 holding one item, racing a
/// single push and a consumer's pop then batch pop: the batch appends a
/// prefix (none only when full), its items in order and together.
#[test]
fn batch_push_races_a_push_and_pops() {
    model("batch_push_races_a_push_and_pops", 3, || {
        run(
            2,
            &[1],
            vec![
                |q, calls| push_many(q, &[10, 11], calls),
                |q, calls| push(q, 20, calls),
                |q, calls| {
                    pop(q, calls);
                    pop_many(q, 2, calls);
                },
            ],
        );
    });
}

/// Two batches against each other on an empty queue of 2: a batch push of
/// two racing a batch pop of two and a single pop. A batch pop may find
/// the batch push half published and take the published item only.
#[test]
fn batch_pop_races_a_half_published_batch_push() {
    model("batch_pop_races_a_half_published_batch_push", 3, || {
        run(
            2,
            &[],
            vec![
                |q, calls| push_many(q, &[10, 11], calls),
                |q, calls| pop_many(q, 2, calls),
                |q, calls| pop(q, calls),
            ],
        );
    });
}

/// Two empty queues used crosswise with batch calls (store buffering):
/// each thread batch-pushes into one queue and then batch-pops the other;
/// the pops cannot both find nothing, as with single calls
/// (`crosswise_pops_do_not_both_see_empty`): each pop's "empty" comes
/// after its `fence(SeqCst)`.
#[test]
fn crosswise_batch_pops_do_not_both_see_empty() {
    model("crosswise_batch_pops_do_not_both_see_empty", 3, || {
        let (a, b) = (Arc::new(Queue::new(2)), Arc::new(Queue::new(2)));
        let t = {
            let (a, b) = (a.clone(), b.clone());
            thread::spawn(move || {
                assert_eq!(a.push_many(&mut vec![1]), 1);
                b.pop_many(&mut Vec::new(), 2)
            })
        };
        assert_eq!(b.push_many(&mut vec![2]), 1);
        let mine = a.pop_many(&mut Vec::new(), 2);
        let theirs = t.join().unwrap();
        assert!(mine + theirs > 0, "both batch pops saw an empty queue");
    });
}

/// The mirror on two full queues of 1: each thread batch-pops one queue
/// and then batch-pushes into the other; the pushes cannot both find it
/// full (each "full" comes after its `fence(SeqCst)`).
#[test]
fn crosswise_batch_pushes_do_not_both_see_full() {
    model("crosswise_batch_pushes_do_not_both_see_full", 3, || {
        let (a, b) = (Arc::new(Queue::new(1)), Arc::new(Queue::new(1)));
        a.push(0).unwrap();
        b.push(0).unwrap();
        let t = {
            let (a, b) = (a.clone(), b.clone());
            thread::spawn(move || {
                assert_eq!(a.pop_many(&mut Vec::new(), 1), 1);
                b.push_many(&mut vec![1])
            })
        };
        assert_eq!(b.pop_many(&mut Vec::new(), 1), 1);
        let mine = a.push_many(&mut vec![2]);
        let theirs = t.join().unwrap();
        assert!(mine + theirs > 0, "both batch pushes saw a full queue");
    });
}

/// The channel: a `send_many` of three through a channel of 2 (it waits
/// for room once) racing a receiver that `recv_many`s until it has all
/// three; each side parks when it must. A lost wake-up on either side
/// (a batch's claim not followed by the waiters' flag load, or its
/// "empty"/"full" without the fence after the flag store) leaves a thread
/// parked forever, which loom reports as a deadlock.
#[test]
fn send_many_and_recv_many_wake_each_other() {
    model("send_many_and_recv_many_wake_each_other", 3, || {
        let (tx, rx) = bounded(2);
        let r = thread::spawn(move || {
            let mut got = Vec::new();
            while got.len() < 3 {
                rx.recv_many(&mut got, 2).unwrap();
            }
            got
        });
        let mut items = vec![1, 2, 3];
        tx.send_many(&mut items).unwrap();
        assert!(items.is_empty());
        assert_eq!(r.join().unwrap(), [1, 2, 3]);
    });
}

/// `len` racing batch calls: one thread hands three items through a queue
/// of 2 one batch of one at a time (`push_many` then `pop_many`), so the
/// queue never holds 2 items, while an observer calls `len`. As for the
/// single calls (`len_never_reports_a_state_the_queue_was_not_in`), a
/// `tail` paired with a `head` from before the pops that followed it, or
/// the other way round, sits on the same index a lap apart, which `len`
/// would report as full: `len`'s Acquire loads pair with the Release half
/// of the batch claims' CASes.
#[test]
fn len_never_reports_a_state_the_queue_was_not_in_with_batches() {
    model(
        "len_never_reports_a_state_the_queue_was_not_in_with_batches",
        3,
        || {
            let q = Arc::new(Queue::new(2));
            let observer = {
                let q = q.clone();
                thread::spawn(move || (q.len(), q.is_full()))
            };
            let mut buf = Vec::new();
            for i in 0..3 {
                assert_eq!(q.push_many(&mut vec![i]), 1);
                assert_eq!(q.pop_many(&mut buf, 2), 1);
            }
            assert_eq!(buf, [0, 1, 2]);
            let (len, full) = observer.join().unwrap();
            assert!(len <= 1, "len {len}: never more than one item was inside");
            assert!(!full, "is_full: never more than one item was inside");
        },
    );
}

/// A full channel (capacity 1, one item) and its last receiver dropped
/// while a sender tries a batch: as for one item (`try_send`), the batch
/// fails and keeps its items; it never takes the room the drop's drain
/// made after marking the channel disconnected.
#[test]
fn a_batch_racing_the_last_receivers_drop_never_takes_the_drained_room() {
    model(
        "a_batch_racing_the_last_receivers_drop_never_takes_the_drained_room",
        3,
        || {
            let (tx, rx) = bounded::<u8>(1);
            tx.try_send(1).unwrap();
            let sender = thread::spawn(move || {
                let mut items = vec![2];
                let sent = tx.try_send_many(&mut items);
                (sent.is_ok(), items)
            });
            drop(rx);
            let (sent, items) = sender.join().unwrap();
            assert!(!sent, "a batch into a full, disconnected channel");
            assert_eq!(items, [2], "the batch keeps its items");
        },
    );
}
