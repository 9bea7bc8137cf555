//! `after`, `tick` and `never`: never early, late only by scheduling
//! slack (generous bounds), usable with `recv`, `try_recv`,
//! `recv_timeout` and as select arms, as crossbeam-channel's.

use std::thread;
use std::time::{Duration, Instant};

use hotq_mpmc::{RecvTimeoutError, Select, TryRecvError, after, bounded, never, select, tick};
use hotq_testkit::{bound, within};

const LIMIT: Duration = bound(Duration::from_secs(60));
/// How late a timer may be on a loaded 2-core machine.
const SLACK: Duration = Duration::from_secs(5);

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
#[cfg_attr(miri, ignore = "timing: miri's isolated clock")]
fn after_fires_once_never_early_and_carries_its_due_time() {
    within("after", LIMIT, || {
        let start = Instant::now();
        let rx = after(ms(30));
        assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
        let at = rx.recv().unwrap();
        let now = Instant::now();
        assert!(at >= start + ms(30), "due before its duration");
        assert!(now >= at, "received before it was due");
        assert!(now < at + SLACK, "late by {:?}", now - at);
        // Once only: then nothing, and no disconnection.
        assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
        assert_eq!(rx.recv_timeout(ms(5)), Err(RecvTimeoutError::Timeout));
    });
}

#[test]
#[cfg_attr(miri, ignore = "timing: miri's isolated clock")]
fn after_goes_to_exactly_one_of_its_receivers() {
    within("after, cloned", LIMIT, || {
        let rx = after(ms(5));
        let others: Vec<_> = (0..4)
            .map(|_| {
                let rx = rx.clone();
                thread::spawn(move || rx.recv_timeout(ms(200)).is_ok())
            })
            .collect();
        let mine = rx.recv_timeout(ms(200)).is_ok();
        let got = others
            .into_iter()
            .map(|t| t.join().unwrap())
            .filter(|&g| g)
            .count();
        assert_eq!(got + usize::from(mine), 1);
    });
}

#[test]
#[cfg_attr(miri, ignore = "timing: miri's isolated clock")]
fn recv_timeout_on_a_later_timer_times_out_and_not_early() {
    let rx = after(ms(500));
    let t0 = Instant::now();
    assert_eq!(rx.recv_timeout(ms(20)), Err(RecvTimeoutError::Timeout));
    assert!(t0.elapsed() >= ms(20));
    assert!(t0.elapsed() < ms(500));
}

#[test]
#[cfg_attr(miri, ignore = "timing: miri's isolated clock")]
fn tick_fires_every_period_never_early() {
    within("tick", LIMIT, || {
        let period = ms(10);
        let start = Instant::now();
        let rx = tick(period);
        let mut last = start;
        for _ in 0..5 {
            let at = rx.recv().unwrap();
            let now = Instant::now();
            assert!(at >= last + period, "a tick came early");
            assert!(now >= at);
            assert!(now < at + SLACK);
            last = at;
        }
    });
}

#[test]
#[cfg_attr(miri, ignore = "timing: miri's isolated clock")]
fn a_slow_tick_receiver_gets_one_message_not_a_backlog() {
    let rx = tick(ms(2));
    thread::sleep(ms(30));
    assert!(rx.try_recv().is_ok());
    // The ticks missed meanwhile are not queued.
    assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
}

#[test]
fn never_never_delivers_and_never_disconnects() {
    let rx = never::<String>();
    assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
    assert_eq!(rx.recv_timeout(ms(5)), Err(RecvTimeoutError::Timeout));
    let r = select! { recv(rx) -> _v => 1, default => 2 };
    assert_eq!(r, 2);
}

/// `Receiver::close` on a timer channel, as its docs say: nothing sends
/// to `after` and `tick`, so they keep firing; `never` reports the channel
/// disconnected.
#[test]
#[cfg_attr(miri, ignore = "timing: miri's isolated clock")]
fn closing_a_timer_keeps_after_and_tick_firing_and_disconnects_never() {
    within("closed timers", LIMIT, || {
        let once = after(ms(1));
        once.close();
        assert!(once.recv_timeout(SLACK).is_ok(), "after, closed");
        let ticks = tick(ms(1));
        ticks.close();
        for _ in 0..2 {
            assert!(ticks.recv_timeout(SLACK).is_ok(), "tick, closed");
        }
        let nothing = never::<u8>();
        nothing.close();
        assert_eq!(nothing.try_recv(), Err(TryRecvError::Disconnected));
        assert!(
            nothing
                .recv_timeout(ms(1))
                .is_err_and(|e| e.is_disconnected())
        );
    });
}

#[test]
#[cfg_attr(miri, ignore = "timing: miri's isolated clock")]
fn a_select_waits_for_a_timer_arm_beside_a_channel() {
    within("select with a timer arm", LIMIT, || {
        let (_tx, rx) = bounded::<u32>(1);
        let start = Instant::now();
        let timeout = after(ms(30));
        let fired = select! {
            recv(rx) -> _v => None,
            recv(timeout) -> at => Some(at.unwrap()),
        };
        let at = fired.expect("only the timer can fire");
        assert!(at >= start + ms(30));
        assert!(Instant::now() >= at);
        // A channel message before the timer wins.
        let (tx, rx) = bounded(1);
        let timeout = after(LIMIT);
        let t = thread::spawn(move || tx.send(5).unwrap());
        let got = select! {
            recv(rx) -> v => v.unwrap(),
            recv(timeout) -> _at => panic!("the timer fired first"),
        };
        assert_eq!(got, 5);
        t.join().unwrap();
    });
}

#[test]
#[cfg_attr(miri, ignore = "timing: miri's isolated clock")]
fn ready_reports_a_due_timer_without_taking_its_message() {
    let rx = after(ms(5));
    let mut sel = Select::new();
    let i = sel.recv(&rx);
    assert_eq!(sel.ready_timeout(LIMIT), Ok(i));
    assert_eq!(sel.ready(), i);
    assert!(rx.try_recv().is_ok());
}

#[test]
#[cfg_attr(miri, ignore = "timing: miri's isolated clock")]
fn an_async_receive_on_a_timer_is_woken_when_it_fires() {
    use std::sync::Arc;
    use std::task::{Context, Poll, Wake, Waker};
    struct Unpark(thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    within("recv_async on after", LIMIT, || {
        let start = Instant::now();
        let rx = after(ms(20));
        let waker = Waker::from(Arc::new(Unpark(thread::current())));
        let mut cx = Context::from_waker(&waker);
        let mut fut = std::pin::pin!(rx.recv_async());
        let mut polls = 0;
        let at = loop {
            polls += 1;
            if let Poll::Ready(v) = fut.as_mut().poll(&mut cx) {
                break v.unwrap();
            }
            thread::park(); // woken by the timer, not by a busy poll
        };
        assert!(at >= start + ms(20));
        assert!(polls < 100, "{polls} polls: a busy loop");
    });
}

/// A waker that unparks the thread it was made on and counts its wakes.
struct Unpark(thread::Thread, std::sync::atomic::AtomicUsize);
impl std::task::Wake for Unpark {
    fn wake(self: std::sync::Arc<Self>) {
        self.1.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.0.unpark();
    }
}

/// The threads of this process, from the kernel.
#[cfg(target_os = "linux")]
fn threads() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("Threads:")).unwrap();
    line["Threads:".len()..].trim().parse().unwrap()
}

/// An executor may poll a pending receive many times before it fires: the
/// alarm that wakes it is asked for once, not once per poll (it used to be
/// a sleeping thread per poll: 1,000 here).
#[test]
#[cfg(target_os = "linux")]
#[cfg_attr(miri, ignore = "reads /proc")]
fn a_pending_timer_receive_polled_many_times_takes_no_thread_per_poll() {
    use std::task::{Context, Poll, Waker};
    within("re-polled recv_async on tick", LIMIT, || {
        let rx = tick(ms(300));
        let unpark = std::sync::Arc::new(Unpark(thread::current(), Default::default()));
        let waker = Waker::from(std::sync::Arc::clone(&unpark));
        let mut cx = Context::from_waker(&waker);
        let before = threads();
        let mut fut = std::pin::pin!(rx.recv_async());
        for _ in 0..1000 {
            assert!(
                fut.as_mut().poll(&mut cx).is_pending(),
                "not due for 300 ms"
            );
        }
        // Other tests of this file run beside it and may hold the alarm
        // thread or threads of their own: a margin, far below 1,000.
        let during = threads();
        assert!(during <= before + 8, "{before} threads, then {during}");
        loop {
            if let Poll::Ready(at) = fut.as_mut().poll(&mut cx) {
                assert!(at.is_ok());
                break;
            }
            thread::park();
        }
    });
}

/// An alarm asked for while the alarm thread sleeps until a later one
/// fires on time: the later one does not hold it back.
#[test]
#[cfg_attr(miri, ignore = "timing: miri's isolated clock")]
fn an_earlier_alarm_is_not_slept_through_for_a_later_one() {
    use std::task::{Context, Waker};
    within("earlier alarm", LIMIT, || {
        let noop = Waker::noop();
        let late = after(ms(20_000));
        let mut late_fut = std::pin::pin!(late.recv_async());
        assert!(
            late_fut
                .as_mut()
                .poll(&mut Context::from_waker(noop))
                .is_pending()
        );
        // Let the alarm thread go to sleep until the late one.
        thread::sleep(ms(20));
        let start = Instant::now();
        let soon = after(ms(10));
        let unpark = std::sync::Arc::new(Unpark(thread::current(), Default::default()));
        let waker = Waker::from(std::sync::Arc::clone(&unpark));
        let mut fut = std::pin::pin!(soon.recv_async());
        while fut
            .as_mut()
            .poll(&mut Context::from_waker(&waker))
            .is_pending()
        {
            thread::park();
        }
        let waited = start.elapsed();
        assert!(waited >= ms(10), "early: {waited:?}");
        assert!(waited < SLACK, "woken after {waited:?} for a 10 ms timer");
        assert!(
            unpark.1.load(std::sync::atomic::Ordering::SeqCst) >= 1,
            "never woken"
        );
    });
}
