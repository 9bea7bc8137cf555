//! Selecting over channels (issue 38): one consumer thread waits on
//! several channels at once with each crate's own select.
//!
//! - **data and control**: one producer streams `items` u64 on a data
//!   channel of [`CAPACITY`] and then one message on a control channel of
//!   capacity 1; the consumer selects over both until the control message,
//!   then drains what is left of the data (a select may take the control
//!   arm first);
//! - **four channels**: four producers, each streaming `items / 4` on its
//!   own channel; the consumer selects over the four until it has every
//!   item.
//!
//! Both check that each producer's items arrive once and in order. The
//! crates: hotq-mpmc's and crossbeam-channel's `select!` (the same
//! syntax), flume's `Selector`.

use std::thread;
use std::time::Instant;

/// Each data channel's capacity.
pub const CAPACITY: usize = 1024;

/// The contenders, in the table's order, with their rounds: each
/// contender's binary (`isolated`) links its own round only.
pub const CONTENDERS: [(&str, Round); 3] = [
    ("hotq-mpmc-channel", hotq),
    ("crossbeam-channel", crossbeam),
    ("flume", flume),
];

/// One contender's round of a shape for `items` items: M items/s.
pub type Round = fn(Shape, u64) -> f64;

/// Checks one producer's stream: every item the next one.
struct Stream {
    next: u64,
}

impl Stream {
    fn take(&mut self, v: u64, who: &str) {
        assert_eq!(v, self.next, "{who}: lost, duplicated or reordered an item");
        self.next += 1;
    }
}

/// Which shape, and for how many items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A data and a control channel, one producer.
    DataAndControl,
    /// Four channels, four producers.
    Four,
}

impl Shape {
    /// Both shapes, in the tables' order.
    pub const ALL: [Shape; 2] = [Shape::DataAndControl, Shape::Four];

    /// Its name in a request line.
    pub fn label(self) -> &'static str {
        match self {
            Shape::DataAndControl => "data+control",
            Shape::Four => "four",
        }
    }
}

/// One round of `shape` with the contender called `name`, in this
/// process; M items/s from the start to the last item received.
///
/// # Panics
///
/// When no contender has that name.
pub fn throughput(name: &str, shape: Shape, items: u64) -> f64 {
    let (_, round) = CONTENDERS
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no select contender called {name}"));
    round(shape, items)
}

/// Times `shape`'s body of one crate: `data_and_control` with all the
/// items, or `four` with a quarter each.
fn timed(shape: Shape, items: u64, data_and_control: fn(u64), four: fn(u64)) -> f64 {
    let t0 = Instant::now();
    let items = match shape {
        Shape::DataAndControl => {
            data_and_control(items);
            items
        }
        Shape::Four => {
            four(items / 4);
            items / 4 * 4
        }
    };
    items as f64 / t0.elapsed().as_secs_f64() / 1e6
}

/// hotq-mpmc's `select!`.
pub fn hotq(shape: Shape, items: u64) -> f64 {
    timed(shape, items, hotq_data_and_control, hotq_four)
}

/// crossbeam-channel's `select!`.
pub fn crossbeam(shape: Shape, items: u64) -> f64 {
    timed(shape, items, crossbeam_data_and_control, crossbeam_four)
}

/// flume's `Selector`.
pub fn flume(shape: Shape, items: u64) -> f64 {
    timed(shape, items, flume_data_and_control, flume_four)
}

/// The two shapes for a crate whose `select!` has crossbeam-channel's
/// syntax (hotq-mpmc's and crossbeam-channel's own): the same bodies, each
/// crate's `bounded` and `select!`.
macro_rules! select_macro_rounds {
    ($krate:ident, $name:literal, $data_and_control:ident, $four:ident) => {
        fn $data_and_control(items: u64) {
            let (data, rx) = $krate::bounded(CAPACITY);
            let (ctl, ctl_rx) = $krate::bounded(1);
            // The data sender lives until the scope ends (the thread
            // borrows it): dropped with the thread, it would disconnect
            // `rx`, and a select that saw the empty, disconnected `rx` ready
            // before `ctl_rx` would take its `Err` for an item.
            let data = &data;
            thread::scope(|s| {
                s.spawn(move || {
                    (0..items).for_each(|i| data.send(i).unwrap());
                    ctl.send(()).unwrap();
                });
                let mut stream = Stream { next: 0 };
                loop {
                    $krate::select! {
                        recv(rx) -> v => stream.take(v.unwrap(), $name),
                        recv(ctl_rx) -> c => { c.unwrap(); break; }
                    }
                }
                while stream.next < items {
                    stream.take(rx.recv().unwrap(), $name);
                }
            });
        }

        fn $four(each: u64) {
            let chans: Vec<_> = (0..4).map(|_| $krate::bounded(CAPACITY)).collect();
            thread::scope(|s| {
                for (tx, _) in &chans {
                    s.spawn(move || (0..each).for_each(|i| tx.send(i).unwrap()));
                }
                let mut streams: Vec<Stream> = (0..4).map(|_| Stream { next: 0 }).collect();
                let (a, b, c, d) = (&chans[0].1, &chans[1].1, &chans[2].1, &chans[3].1);
                for _ in 0..4 * each {
                    $krate::select! {
                        recv(a) -> v => streams[0].take(v.unwrap(), $name),
                        recv(b) -> v => streams[1].take(v.unwrap(), $name),
                        recv(c) -> v => streams[2].take(v.unwrap(), $name),
                        recv(d) -> v => streams[3].take(v.unwrap(), $name),
                    }
                }
            });
        }
    };
}

select_macro_rounds!(
    hotq_mpmc,
    "hotq-mpmc-channel",
    hotq_data_and_control,
    hotq_four
);
select_macro_rounds!(
    crossbeam_channel,
    "crossbeam-channel",
    crossbeam_data_and_control,
    crossbeam_four
);

fn flume_data_and_control(items: u64) {
    let (data, rx) = flume::bounded(CAPACITY);
    let (ctl, ctl_rx) = flume::bounded(1);
    // As in `select_macro_rounds!`: `rx` stays connected.
    let data = &data;
    thread::scope(|s| {
        s.spawn(move || {
            (0..items).for_each(|i| data.send(i).unwrap());
            ctl.send(()).unwrap();
        });
        let mut stream = Stream { next: 0 };
        loop {
            let stop = flume::Selector::new()
                .recv(&rx, |v| {
                    stream.take(v.unwrap(), "flume");
                    false
                })
                .recv(&ctl_rx, |c| {
                    c.unwrap();
                    true
                })
                .wait();
            if stop {
                break;
            }
        }
        while stream.next < items {
            stream.take(rx.recv().unwrap(), "flume");
        }
    });
}

fn flume_four(each: u64) {
    let chans: Vec<_> = (0..4).map(|_| flume::bounded(CAPACITY)).collect();
    thread::scope(|s| {
        for (tx, _) in &chans {
            s.spawn(move || (0..each).for_each(|i| tx.send(i).unwrap()));
        }
        let mut streams: Vec<Stream> = (0..4).map(|_| Stream { next: 0 }).collect();
        for _ in 0..4 * each {
            let (k, v) = flume::Selector::new()
                .recv(&chans[0].1, |v| (0, v))
                .recv(&chans[1].1, |v| (1, v))
                .recv(&chans[2].1, |v| (2, v))
                .recv(&chans[3].1, |v| (3, v))
                .wait();
            streams[k].take(v.unwrap(), "flume");
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_contender_moves_every_item_in_both_shapes() {
        for (name, _) in CONTENDERS {
            for shape in Shape::ALL {
                assert!(throughput(name, shape, 2_000) > 0.0, "{name} {shape:?}");
            }
        }
    }
}
