//! Single-threaded costs of every SPSC/MPMC contender, uncontended, so a
//! regression of the fast path shows up on its own:
//! `cargo bench -p hotq-benches --bench single_thread [-- FILTER]`.
//!
//! - `push_pop`: one send then one receive on a queue of 1024.
//! - `chunk_256`: a slice of 256 items in, then out (contenders with
//!   slice operations).
//! - `peek`: a look at the front item of a queue holding one (contenders
//!   with peek).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hotq_benches::channel::Channel;
use hotq_benches::contenders::{self, ChannelVisitor};

const CAPACITY: usize = 1024;
const CHUNK: usize = 256;

struct Benches<'a>(&'a mut Criterion);

impl ChannelVisitor for Benches<'_> {
    fn visit<C: Channel>(&mut self) {
        let c = &mut *self.0;
        let (mut tx, mut rx) = C::with_capacity(CAPACITY);
        let mut g = c.benchmark_group("push_pop");
        g.throughput(Throughput::Elements(1));
        g.bench_function(C::NAME, |b| {
            b.iter(|| {
                C::send(&mut tx, black_box(7));
                black_box(C::recv(&mut rx))
            })
        });
        g.finish();
        if C::SLICES {
            let items: Vec<u64> = (0..CHUNK as u64).collect();
            let mut out = vec![0u64; CHUNK];
            let mut g = c.benchmark_group("chunk_256");
            g.throughput(Throughput::Elements(CHUNK as u64));
            g.bench_function(C::NAME, |b| {
                b.iter(|| {
                    assert_eq!(C::send_slice(&mut tx, black_box(&items)), CHUNK);
                    assert_eq!(C::recv_slice(&mut rx, black_box(&mut out)), CHUNK);
                })
            });
            g.finish();
        }
        if C::PEEK {
            C::send(&mut tx, 7);
            let mut g = c.benchmark_group("peek");
            g.bench_function(C::NAME, |b| {
                b.iter(|| black_box(C::peek(black_box(&mut rx))))
            });
            g.finish();
            assert_eq!(C::recv(&mut rx), 7);
        }
    }
}

fn single_thread(c: &mut Criterion) {
    contenders::each_channel(&mut Benches(c));
}

criterion_group!(benches, single_thread);
criterion_main!(benches);
