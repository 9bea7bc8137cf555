//! Which part of the async flow-control rows (issue 39) costs what:
//! `flow_probe MODE P C ROUNDS` runs hotq-mpmc's async round with `MODE`
//! (`single`, `reserve`, `many16`, `many256`, or tokio's with a `tokio-`
//! prefix) and prints M items/s per round, for `perf record`.

use hotq_benches::async_channels::flow::{Calls, throughput};
use hotq_benches::async_channels::{HotqMpmcAsync, TokioMpsc};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map_or("single", String::as_str);
    if let Some(kind) = mode.strip_prefix("small-") {
        // 1P1C async at a small capacity (8 unless given), where the
        // receiver sleeps every few items: `small-send N [CAP]` or
        // `small-reserve N [CAP]`.
        let n: u64 = args.get(2).map_or(1_000_000, |s| s.parse().unwrap());
        let cap: usize = args.get(3).map_or(8, |s| s.parse().unwrap());
        let reserve = kind == "reserve";
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .build()
            .unwrap();
        let (tx, rx) = hotq_mpmc::bounded::<u64>(cap);
        let t0 = std::time::Instant::now();
        rt.block_on(async move {
            let p = tokio::spawn(async move {
                for i in 0..n {
                    if reserve {
                        tx.reserve_async().await.unwrap().send(i);
                    } else {
                        tx.send_async(i).await.unwrap();
                    }
                }
            });
            let c = tokio::spawn(async move {
                for i in 0..n {
                    assert_eq!(rx.recv_async().await, Ok(i));
                }
            });
            p.await.unwrap();
            c.await.unwrap();
        });
        println!(
            "small-{kind} 1P1C cap {cap} {:.2} M/s",
            n as f64 / t0.elapsed().as_secs_f64() / 1e6
        );
        return;
    }
    if let Some(kind) = mode.strip_prefix("one-thread-") {
        // One thread, for callgrind: N × (send and receive one item).
        let n: u64 = args.get(2).map_or(0, |s| s.parse().unwrap());
        let (tx, rx) = hotq_mpmc::bounded::<u64>(1024);
        let mut sum = 0u64;
        for i in 0..n {
            match kind {
                "send" => tx.try_send(i).unwrap(),
                "reserve" => tx.try_reserve().unwrap().send(i),
                k => panic!("unknown {k}"),
            }
            sum = sum.wrapping_add(rx.try_recv().unwrap());
        }
        std::hint::black_box(sum);
        return;
    }
    let p: u64 = args.get(2).map_or(1, |s| s.parse().unwrap());
    let c: u64 = args.get(3).map_or(1, |s| s.parse().unwrap());
    let rounds: u32 = args.get(4).map_or(5, |s| s.parse().unwrap());
    let (tokio, mode) = match mode.strip_prefix("tokio-") {
        Some(m) => (true, m),
        None => (false, mode),
    };
    let calls = match mode {
        "single" => Calls::Single,
        "reserve" => Calls::Reserve,
        "many16" => Calls::RecvMany(16),
        "many256" => Calls::RecvMany(256),
        m => panic!("unknown mode {m}"),
    };
    for _ in 0..rounds {
        let mps = if tokio {
            throughput::<TokioMpsc>(p, c, 2_000_000, calls)
        } else {
            throughput::<HotqMpmcAsync>(p, c, 2_000_000, calls)
        };
        println!("{mode} {p}P{c}C {mps:.2} M/s");
    }
}
