//! One run of one `waiting`-suite workload for one contender, alone, so
//! that its system calls can be counted (or its instructions profiled):
//!
//! ```sh
//! cargo build --release -p hotq-benches --example waiting_probe
//! strace -c -f ./target/release/examples/waiting_probe cap8 hotq 200000
//! ```
//!
//! Arguments: the workload (`trip` round trips over two queues of 8,
//! `cap8`/`cap1024` blocking throughput, `wake` the wake-up latency of a
//! parked consumer, `async8`/`async1024` on tokio with 2 workers, as the
//! report, `async8w1`/`async1024w1` with 1, `channel1p1c` the channels
//! suite's async 1P1C: capacity 1024, 2 workers, `mpmc` or `kanal`), the
//! contender (`hotq`,
//! `crossbeam`, `kanal`, `sync`: `mpsc::sync_channel`, `mpmc`: the
//! hotq-mpmc channel, and `try` / `rtrb`: hotq-spsc's and rtrb's try
//! calls in the report's wait loop, the SPSC suite's contenders, for the
//! same workload without a waiting layer; `mpmctry` / `arrayqueue`: the
//! same for hotq-mpmc's `Queue` and crossbeam's `ArrayQueue`, the queues
//! under the hotq-mpmc and crossbeam channels; async: `hotq`, `kanal`,
//! `tokio`), the items, trips
//! or wake-ups, and `nopin` to leave threads unpinned. Prints the
//! workload's figure (M items/s, or the median trip or wake-up in ns).
use hotq_benches::channel::Channel;
use hotq_benches::waiting::{asynchronous, blocking, wake};
use hotq_benches::workloads::{round_trip, spsc};

fn run<C: Channel>(what: &str, n: u64) -> f64 {
    match what {
        "trip" => round_trip::round_trip::<C>(n, 8).figure,
        "cap8" => spsc::throughput::<C>(n, 8, spsc::Ops::Single),
        "cap1024" => spsc::throughput::<C>(n, 1024, spsc::Ops::Single),
        "wake" => wake::wake_up_latency::<C>(n).figure,
        _ => panic!("workload"),
    }
}
fn run_async<C: asynchronous::AsyncChannel>(what: &str, n: u64) -> f64 {
    match what {
        "async8" => asynchronous::throughput::<C>(n, 8),
        "async1024" => asynchronous::throughput::<C>(n, 1024),
        "async8w1" => asynchronous::throughput_on::<C>(n, 8, 1),
        "async1024w1" => asynchronous::throughput_on::<C>(n, 1024, 1),
        _ => panic!("workload"),
    }
}
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let (what, who, n) = (a[1].as_str(), a[2].as_str(), a[3].parse().unwrap());
    hotq_benches::pin::configure(a.get(4).map(|s| s != "nopin").unwrap_or(true));
    let f = if what == "channel1p1c" {
        use hotq_benches::async_channels as ch;
        match who {
            "mpmc" => ch::throughput::<ch::HotqMpmcAsync>(1, 1, n),
            "kanal" => ch::throughput::<ch::KanalAsync>(1, 1, n),
            _ => panic!("who"),
        }
    } else if what.starts_with("async") {
        match who {
            "hotq" => run_async::<asynchronous::HotqSpscAsync>(what, n),
            "kanal" => run_async::<asynchronous::KanalAsync>(what, n),
            "tokio" => run_async::<asynchronous::TokioMpsc>(what, n),
            "mpmc" => run_async::<
                asynchronous::FromChannels<hotq_benches::async_channels::HotqMpmcAsync>,
            >(what, n),
            _ => panic!("who"),
        }
    } else {
        match who {
            "hotq" => run::<blocking::HotqSpscBlocking>(what, n),
            "crossbeam" => run::<hotq_benches::contenders::CrossbeamChannel>(what, n),
            "kanal" => run::<hotq_benches::contenders::Kanal>(what, n),
            "sync" => run::<hotq_benches::contenders::SyncChannel>(what, n),
            "mpmc" => run::<hotq_benches::contenders::HotqMpmcChannel>(what, n),
            "try" => run::<hotq_benches::contenders::HotqSpsc>(what, n),
            "rtrb" => run::<hotq_benches::contenders::Rtrb>(what, n),
            "mpmctry" => run::<hotq_benches::contenders::HotqMpmc>(what, n),
            "arrayqueue" => run::<hotq_benches::contenders::ArrayQueue>(what, n),
            _ => panic!("who"),
        }
    };
    println!("{what} {who} {n}: {f:.3}");
}
