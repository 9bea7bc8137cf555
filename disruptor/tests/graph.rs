//! Dependency graphs beyond a chain of stages, built with `named` and
//! `after` (and `new_chain`): the five-handler graph (A and B; C after A;
//! D after B; E after C and D), two independent chains on one ring, a join
//! of three. For each:
//! - every handler sees every event, in sequence order, with the value the
//!   producer wrote for that sequence;
//! - no handler runs ahead of one it is after: every handler stamps the
//!   event it handles with its sequence (the mutable ones with a plain
//!   write, the read-only ones through an atomic in the event), and checks
//!   the stamp of each handler it is after; a stamp left from the previous
//!   lap means it ran ahead;
//! - the producer never overwrites an event a leaf has not processed: each
//!   leaf reads the event twice, a pause apart.
//!
//! And the graphs the build refuses: a cycle, a mutable handler unordered
//! with another consumer, an unknown or duplicate name.
mod common;

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::mpsc;

use common::{Log, assert_all_in_order, payload};
use hotq_disruptor::wait::{Blocking, WaitStrategy, Yielding};
use hotq_disruptor::{BuildError, Builder, Disruptor, PollError, Sequence, ShutdownError};
use hotq_testkit::{DEADLINE, within};

const EVENTS: u64 = if cfg!(miri) {
    40
} else if cfg!(debug_assertions) {
    5_000
} else {
    100_000
};

const SIZES: &[usize] = if cfg!(miri) {
    &[1, 2, 8]
} else {
    &[1, 2, 8, 1024]
};

/// Up to eight handlers, each stamping its own slot.
const HANDLERS: usize = 8;

struct Event {
    value: u64,
    /// `stamps[h]`: the sequence handler `h` last handled in this slot.
    /// Atomic so that read-only handlers can stamp through `&Event`
    /// (Relaxed: the disruptor's gates order a stamp before the handlers
    /// after it, which is what the test checks).
    stamps: [AtomicI64; HANDLERS],
}

impl Default for Event {
    fn default() -> Self {
        Event {
            value: 0,
            stamps: std::array::from_fn(|_| AtomicI64::new(-1)),
        }
    }
}

/// One handler of a graph: its index (stamp slot), name, the handlers it
/// is after, whether it is mutable, whether it is a leaf.
#[derive(Clone)]
struct Spec {
    name: &'static str,
    after: &'static [&'static str],
    mutable: bool,
}

const fn reader(name: &'static str, after: &'static [&'static str]) -> Spec {
    Spec {
        name,
        after,
        mutable: false,
    }
}

const fn writer(name: &'static str, after: &'static [&'static str]) -> Spec {
    Spec {
        name,
        after,
        mutable: true,
    }
}

/// What every handler checks on the event it got, before stamping it.
fn check(what: &str, index: usize, deps: &[usize], e: &Event, seq: Sequence) {
    assert_eq!(e.value, payload(seq), "{what}: wrong value at {seq}");
    for &d in deps {
        let stamp = e.stamps[d].load(Ordering::Relaxed);
        assert_eq!(
            stamp, seq,
            "{what}: handler {index} got {seq} before handler {d} (it is after) had \
             handled it (stamp {stamp})"
        );
    }
}

/// A leaf holds the event a while and reads it again: the producer must
/// not have rewritten it.
fn slow_leaf(what: &str, e: &Event, seq: Sequence) {
    for _ in 0..64 {
        std::hint::spin_loop();
    }
    if seq % 64 == 0 {
        std::thread::yield_now();
    }
    assert_eq!(
        e.value,
        payload(seq),
        "{what}: the producer overwrote {seq} before a leaf had processed it"
    );
}

/// Adds the handlers of `specs` to `builder`, each with `after` (so every
/// one starts a stage of its own), logging into `logs`.
fn add_graph(
    mut builder: Builder<Event>,
    what: &str,
    specs: &[Spec],
    logs: &[Log],
) -> Builder<Event> {
    let index_of = |name: &str| specs.iter().position(|s| s.name == name).unwrap();
    for (i, spec) in specs.iter().enumerate() {
        let deps: Vec<usize> = spec.after.iter().map(|d| index_of(d)).collect();
        let leaf = !specs.iter().any(|s| s.after.contains(&spec.name));
        let log = logs[i].clone();
        let what = format!("{what}, {}", spec.name);
        builder = builder.after(spec.after.iter().copied()).named(spec.name);
        builder = if spec.mutable {
            builder.handle_events_mut_with(move |e: &mut Event, seq, eob| {
                check(&what, i, &deps, e, seq);
                *e.stamps[i].get_mut() = seq;
                if leaf {
                    slow_leaf(&what, e, seq);
                }
                log.record(seq, e.value, eob);
            })
        } else {
            builder.handle_events_with(move |e: &Event, seq, eob| {
                check(&what, i, &deps, e, seq);
                e.stamps[i].store(seq, Ordering::Relaxed);
                if leaf {
                    slow_leaf(&what, e, seq);
                }
                log.record(seq, e.value, eob);
            })
        };
    }
    builder
}

/// Builds `specs` on rings of every size, publishes `EVENTS`, shuts down,
/// and checks every handler's log.
fn run_graph<W: WaitStrategy + Copy>(what: &str, specs: &'static [Spec], strategy: W) {
    for &size in SIZES {
        let what = format!("{what}, size {size}");
        let logs: Vec<Log> = specs.iter().map(|_| Log::new()).collect();
        let (w, l) = (what.clone(), logs.clone());
        within(&what, DEADLINE, move || {
            let builder = Disruptor::builder(size, Event::default).wait_strategy(strategy);
            let mut producer = add_graph(builder, &w, specs, &l)
                .build_single_producer()
                .unwrap();
            for i in 0..EVENTS as Sequence {
                assert_eq!(producer.publish(|e| e.value = payload(i)), Ok(i));
            }
            producer.shutdown().unwrap();
        });
        for (spec, log) in specs.iter().zip(&logs) {
            assert_all_in_order(
                &format!("{what}, {}", spec.name),
                &log.take(),
                EVENTS,
                payload,
            );
        }
    }
}

const FIVE: &[Spec] = &[
    reader("a", &[]),
    reader("b", &[]),
    reader("c", &["a"]),
    reader("d", &["b"]),
    // After everyone: ordered against all, so it may be mutable.
    writer("e", &["c", "d"]),
];

#[test]
fn five_handler_graph_every_handler_after_its_dependencies() {
    run_graph("five-handler graph", FIVE, Yielding);
}

#[test]
fn five_handler_graph_with_parked_waiters() {
    // Blocking: a join parks on two dependencies, each of which must wake it.
    run_graph("five-handler graph, Blocking", FIVE, Blocking);
}

const JOIN_OF_THREE: &[Spec] = &[
    reader("x", &[]),
    reader("y", &[]),
    reader("z", &[]),
    writer("j", &["x", "y", "z"]),
    reader("k", &["j"]),
];

#[test]
fn join_of_three_waits_for_all_three() {
    run_graph("join of three", JOIN_OF_THREE, Yielding);
}

const CHAINS: &[Spec] = &[
    reader("p1", &[]),
    reader("p2", &["p1"]),
    reader("p3", &["p2"]),
    reader("q1", &[]),
    reader("q2", &["q1"]),
];

#[test]
fn two_independent_chains_each_in_order() {
    run_graph("two chains", CHAINS, Yielding);
}

/// The same chains spelled with the stage DSL (`then`, `new_chain`), and
/// shown independent: chain p is held at its first event while chain q
/// handles ten.
#[test]
fn two_chains_in_the_stage_dsl_do_not_wait_for_each_other() {
    within("independent chains", DEADLINE, || {
        let (go, hold) = mpsc::channel::<()>();
        let q = Log::new();
        let p = Log::new();
        let (q2, p2) = (q.clone(), p.clone());
        let mut producer = Disruptor::builder(64, || 0u64)
            .wait_strategy(Yielding)
            .handle_events_with(move |_e: &u64, seq, _eob| {
                if seq == 0 {
                    hold.recv().unwrap();
                }
            })
            .then()
            .handle_events_with(move |e: &u64, seq, eob| p2.record(seq, *e, eob))
            .new_chain()
            .handle_events_with(|_e: &u64, _seq, _eob| {})
            .then()
            .handle_events_with(move |e: &u64, seq, eob| q2.record(seq, *e, eob))
            .build_single_producer()
            .unwrap();
        for i in 0..10 {
            producer.publish(|e| *e = payload(i)).unwrap();
        }
        q.wait_len("chain q while chain p is held", 10);
        assert_eq!(
            p.len(),
            0,
            "chain p's second stage ran past its held first stage"
        );
        go.send(()).unwrap();
        producer.shutdown().unwrap();
        assert_all_in_order("chain p", &p.take(), 10, payload);
        assert_all_in_order("chain q", &q.take(), 10, payload);
    });
}

/// A consumer after a dropped poller stays behind what the poller was
/// behind: E is after the poller P (after A, held) and after B (free).
/// With a gate that falls back per stage instead of per poller, E would
/// follow B and overtake A; here it must wait for A's stamp.
#[test]
fn a_dropped_poller_hands_its_gate_to_those_after_it() {
    within("dropped poller in a graph", DEADLINE, || {
        let (go, hold) = mpsc::channel::<()>();
        let (b_log, e_log) = (Log::new(), Log::new());
        let (b2, e2) = (b_log.clone(), e_log.clone());
        let mut builder = Disruptor::builder(8, Event::default)
            .wait_strategy(Yielding)
            .named("a")
            .handle_events_with(move |e: &Event, seq, _eob| {
                if seq == 0 {
                    hold.recv().unwrap();
                }
                e.stamps[0].store(seq, Ordering::Relaxed);
            })
            .named("b")
            .handle_events_with(move |e: &Event, seq, eob| b2.record(seq, e.value, eob))
            .after(["a"])
            .named("p");
        let poller = builder.event_poller();
        let mut producer = builder
            .after(["p", "b"])
            .handle_events_with(move |e: &Event, seq, eob| {
                check("E after a dropped poller", 4, &[0], e, seq);
                e2.record(seq, e.value, eob);
            })
            .build_single_producer()
            .unwrap();
        drop(poller);
        for i in 0..5 {
            producer.publish(|e| e.value = payload(i)).unwrap();
        }
        b_log.wait_len("b", 5);
        assert_eq!(
            e_log.len(),
            0,
            "E ran ahead of A, which it is after through P"
        );
        go.send(()).unwrap();
        producer.shutdown().unwrap();
        assert_all_in_order("E", &e_log.take(), 5, payload);
    });
}

#[test]
fn a_cycle_is_refused_and_named() {
    let err = Disruptor::builder(8, || 0u64)
        .named("a")
        .handle_events_with(|_e: &u64, _seq, _eob| {})
        .after(["a", "d"])
        .named("b")
        .handle_events_with(|_e: &u64, _seq, _eob| {})
        .after(["b"])
        .named("c")
        .handle_events_with(|_e: &u64, _seq, _eob| {})
        .then()
        .named("d")
        .handle_events_with(|_e: &u64, _seq, _eob| {})
        .build_single_producer()
        .unwrap_err();
    assert_eq!(
        err,
        BuildError::Cycle {
            handlers: ["b", "d", "c", "b"].map(String::from).to_vec()
        }
    );
    assert!(
        err.to_string().contains("b after d after c after b"),
        "{err}"
    );
    let err = Disruptor::builder(8, || 0u64)
        .after(["me"])
        .named("me")
        .handle_events_with(|_e: &u64, _seq, _eob| {})
        .build_multi_producer()
        .unwrap_err();
    assert!(matches!(err, BuildError::Cycle { .. }), "{err:?}");
}

#[test]
fn a_mutable_handler_unordered_with_another_consumer_is_refused() {
    // C mutable in the five-handler graph: B and D are unordered with it.
    let b = Disruptor::builder(8, Event::default);
    let mut specs = FIVE.to_vec();
    specs[2].mutable = true;
    specs[4].mutable = false;
    let logs: Vec<Log> = specs.iter().map(|_| Log::new()).collect();
    let err = add_graph(b, "refused", &specs, &logs)
        .build_single_producer()
        .unwrap_err();
    assert_eq!(
        err,
        BuildError::MutableHandlerUnordered {
            handler: "c".into(),
            other: "b".into()
        }
    );
    // Two independent chains with a mutable head each.
    let err = Disruptor::builder(8, || 0u64)
        .handle_events_mut_with(|_e: &mut u64, _seq, _eob| {})
        .new_chain()
        .handle_events_mut_with(|_e: &mut u64, _seq, _eob| {})
        .build_single_producer()
        .unwrap_err();
    assert_eq!(
        err,
        BuildError::MutableHandlerUnordered {
            handler: "disruptor-0.0".into(),
            other: "disruptor-1.0".into()
        }
    );
    // A poller beside a mutable handler's descendants is unordered with it.
    let mut builder = Disruptor::builder(8, || 0u64)
        .named("w")
        .handle_events_mut_with(|_e: &mut u64, _seq, _eob| {})
        .new_chain();
    let _poller = builder.event_poller();
    assert!(matches!(
        builder.build_single_producer().unwrap_err(),
        BuildError::MutableHandlerUnordered { handler, .. } if handler == "w"
    ));
}

#[test]
fn unknown_and_duplicate_names_are_refused() {
    let err = Disruptor::builder(8, || 0u64)
        .handle_events_with(|_e: &u64, _seq, _eob| {})
        .after(["nobody"])
        .handle_events_with(|_e: &u64, _seq, _eob| {})
        .build_single_producer()
        .unwrap_err();
    assert_eq!(
        err,
        BuildError::UnknownHandler {
            name: "nobody".into()
        }
    );
    let err = Disruptor::builder(8, || 0u64)
        .named("disruptor-0.1")
        .handle_events_with(|_e: &u64, _seq, _eob| {})
        .handle_events_with(|_e: &u64, _seq, _eob| {}) // default-named disruptor-0.1
        .build_single_producer()
        .unwrap_err();
    assert_eq!(
        err,
        BuildError::DuplicateName {
            name: "disruptor-0.1".into()
        }
    );
}

/// A poller can be a dependency by name, and a handler after it waits for
/// its polls.
#[test]
fn a_handler_after_a_named_poller_waits_for_its_polls() {
    within("handler after a poller", DEADLINE, || {
        let log = Log::new();
        let l = log.clone();
        let mut builder = Disruptor::builder(4, || 0u64).named("poller");
        let mut poller = builder.event_poller();
        let mut producer = builder
            .after(["poller"])
            .handle_events_with(move |e: &u64, seq, eob| l.record(seq, *e, eob))
            .build_single_producer()
            .unwrap();
        for i in 0..3 {
            producer.publish(|e| *e = payload(i)).unwrap();
        }
        assert_eq!(log.len(), 0, "the handler ran before the poller polled");
        assert_eq!(poller.poll(|_, _, _| {}), Ok(3));
        log.wait_len("after the poll", 3);
        drop(producer);
        assert_eq!(poller.poll(|_, _, _| {}), Err(PollError::Halted));
        assert_all_in_order("after the poller", &log.take(), 3, payload);
    });
}

/// A mutable handler's state is the graph's: a panic in one branch under
/// the default policy halts every branch and is reported once.
#[test]
fn a_panic_in_one_branch_halts_the_graph() {
    within("panic in a branch", DEADLINE, || {
        let mut producer = Disruptor::builder(4, || 0u64)
            .named("ok")
            .handle_events_with(|_e: &u64, _seq, _eob| {})
            .named("bad")
            .handle_events_with(|_e: &u64, seq, _eob| assert!(seq != 2, "boom"))
            .after(["ok", "bad"])
            .handle_events_with(|_e: &u64, _seq, _eob| {})
            .build_single_producer()
            .unwrap();
        for i in 0..100 {
            if producer.publish(|e| *e = i).is_err() {
                break;
            }
        }
        let Err(ShutdownError::Panicked(p)) = producer.shutdown() else {
            panic!("the branch's panic was not reported");
        };
        assert_eq!((p.handler(), p.sequence()), ("bad", Some(2)));
    });
}
