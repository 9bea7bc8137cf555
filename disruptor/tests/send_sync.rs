//! `Send`/`Sync` of the public types, checked at compile time: a producer
//! can move to another thread, a multi producer can be cloned onto many,
//! and an event type that may not cross threads makes neither `Send`
//! (disrustor declared `Send`/`Sync` without bounds on the event type).
//!
//! The negative checks use inherent-method priority: `Probe::<T>::IS_SEND`
//! finds the inherent constant (true) when `T: Send` holds, and falls back
//! to the trait's default (false) otherwise. So a wrong `unsafe impl Send`
//! in the crate turns a `false` below into `true` and fails the build's
//! `const` assertions.
use std::cell::Cell;
use std::marker::PhantomData;
use std::rc::Rc;

use hotq_disruptor::{Builder, EventPoller, MultiProducer, SingleProducer};

struct Probe<T: ?Sized>(PhantomData<T>);

trait Fallback {
    const IS_SEND: bool = false;
}
impl<T: ?Sized> Fallback for Probe<T> {}

#[allow(dead_code)]
impl<T: ?Sized + Send> Probe<T> {
    const IS_SEND: bool = true;
}

macro_rules! is_send {
    ($t:ty) => {
        <Probe<$t>>::IS_SEND
    };
}

/// A `Send` event type that is not `Sync` (handlers of one stage read the
/// same event from several threads at once).
type NotSync = Cell<u64>;
/// Neither `Send` nor `Sync`.
type NotSend = Rc<u64>;

const _: () = {
    assert!(is_send!(SingleProducer<u64>));
    assert!(is_send!(MultiProducer<u64>));
    // The probe itself can fail: it does see a type that is not Send.
    assert!(!is_send!(Rc<u64>));
    assert!(!is_send!(SingleProducer<NotSend>));
    assert!(!is_send!(MultiProducer<NotSend>));
    assert!(!is_send!(SingleProducer<NotSync>));
    assert!(!is_send!(MultiProducer<NotSync>));
    // A builder can be made on one thread and built on another; a poller
    // can move to the thread that polls it.
    assert!(is_send!(Builder<u64>));
    assert!(is_send!(EventPoller<u64>));
    assert!(!is_send!(Builder<NotSync>));
    assert!(!is_send!(EventPoller<NotSend>));
};

/// A builder sent to another thread and built there.
#[test]
fn a_builder_is_built_on_another_thread() {
    let builder = hotq_disruptor::Disruptor::builder(8, || 0u64)
        .handle_events_with(|_e: &u64, _seq, _eob| {});
    let producer = std::thread::spawn(move || builder.build_single_producer().unwrap())
        .join()
        .unwrap();
    producer.shutdown().unwrap();
}

#[test]
fn multi_producer_is_clone_and_send() {
    fn clone_and_send<T: Clone + Send + 'static>() {}
    clone_and_send::<MultiProducer<u64>>();
    fn send<T: Send + 'static>() {}
    send::<SingleProducer<u64>>();
}
