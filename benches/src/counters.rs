//! Hardware event counts of this process, read in-process through
//! `perf_event_open(2)`, for machines that have a PMU but no `perf` binary
//! (the lent 16-core machines have neither `perf` nor a way to install it).
//!
//! [`Counters::start`] opens one counter per [`Event`] on the calling
//! thread with `inherit` set, so every thread it spawns afterwards is
//! counted too (the kernel adds a thread's counts into the opener's when
//! the thread exits); [`Counters::read`] after the workload's threads are
//! joined gives the whole workload. User space only (`exclude_kernel`), so
//! it works at `perf_event_paranoid` 2; an event the machine lacks is left
//! out, and [`Counters::start`] says which opened.
//!
//! The events: the generic cycles, instructions and cache misses, and the
//! vendor's count of lines a load took from another core's cache, the
//! figure `perf c2c` samples (Intel Skylake and later:
//! `mem_load_l3_hit_retired.xsnp_hitm` / `.xsnp_fwd`, raw `0x04d2`; AMD
//! Zen 2-5: `ls_dmnd_fills_from_sys` from another core of the same CCX,
//! raw `0x0243`, and from another CCX, raw `0x0443`).

use std::fs::File;
use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};

/// A counter to open: its name in the output, and `perf_event_attr`'s
/// `type` and `config`.
#[derive(Debug, Clone, Copy)]
pub struct Event {
    /// The name printed with its count (perf's name where perf has one).
    pub name: &'static str,
    /// `PERF_TYPE_*`.
    pub kind: u32,
    /// The event within `kind`.
    pub config: u64,
}

const HARDWARE: u32 = 0;
const SOFTWARE: u32 = 1;
const HW_CACHE: u32 = 3;
const RAW: u32 = 4;

/// `PERF_TYPE_HW_CACHE` config: cache | op << 8 | result << 16, with op
/// `READ` (0) and result `MISS` (1).
const fn cache_read_miss(cache: u64) -> u64 {
    cache | (1 << 16)
}

/// The kernel's own counts, on any machine: what the workload's threads
/// ran (ns) and how often they were switched out. They also show that the
/// counting covers the spawned threads: task-clock ≈ threads × wall time.
const SOFTWARE_EVENTS: [Event; 2] = [
    Event {
        name: "task-clock",
        kind: SOFTWARE,
        config: 1,
    },
    Event {
        name: "context-switches",
        kind: SOFTWARE,
        config: 3,
    },
];

/// The generic hardware events, on any PMU.
const GENERIC: [Event; 5] = [
    Event {
        name: "cycles",
        kind: HARDWARE,
        config: 0,
    },
    Event {
        name: "instructions",
        kind: HARDWARE,
        config: 1,
    },
    Event {
        name: "cache-misses",
        kind: HARDWARE,
        config: 3,
    },
    Event {
        name: "L1-dcache-load-misses",
        kind: HW_CACHE,
        config: cache_read_miss(0),
    },
    Event {
        name: "LLC-load-misses",
        kind: HW_CACHE,
        config: cache_read_miss(2),
    },
];

/// Intel (Skylake and later): retired loads that hit L3 and found the
/// line modified in (Skylake: HITM) or forwarded from (Ice Lake and
/// later: FWD) another core's cache.
const INTEL: [Event; 1] = [Event {
    name: "xsnp_hitm_or_fwd",
    kind: RAW,
    config: 0x04d2,
}];

/// AMD Zen 2-5: demand fills from another core's cache in the same CCX,
/// and from a cache in another CCX of the same node.
const AMD: [Event; 2] = [
    Event {
        name: "fills_local_ccx",
        kind: RAW,
        config: 0x0243,
    },
    Event {
        name: "fills_near_cache",
        kind: RAW,
        config: 0x0443,
    },
];

/// The events worth trying on this machine: the software and generic
/// ones, and the vendor's line-transfer events by `/proc/cpuinfo`'s
/// `vendor_id`.
pub fn events() -> Vec<Event> {
    let vendor = crate::cpuinfo::field("vendor_id").unwrap_or_default();
    let mut all = SOFTWARE_EVENTS.to_vec();
    all.extend(GENERIC);
    match vendor.as_str() {
        "GenuineIntel" => all.extend(INTEL),
        "AuthenticAMD" | "HygonGenuine" => all.extend(AMD),
        _ => {}
    }
    all
}

/// `struct perf_event_attr`, `PERF_ATTR_SIZE_VER5` (112 bytes): the
/// fields this module sets, the rest zero.
#[repr(C)]
#[derive(Default)]
struct Attr {
    kind: u32,
    size: u32,
    config: u64,
    sample_period: u64,
    sample_type: u64,
    read_format: u64,
    flags: u64,
    wakeup_events: u32,
    bp_type: u32,
    config1: u64,
    config2: u64,
    branch_sample_type: u64,
    sample_regs_user: u64,
    sample_stack_user: u32,
    clockid: i32,
    sample_regs_intr: u64,
    aux_watermark: u32,
    sample_max_stack: u16,
    reserved: u16,
}

const DISABLED: u64 = 1 << 0;
const INHERIT: u64 = 1 << 1;
const EXCLUDE_KERNEL: u64 = 1 << 5;
const EXCLUDE_HV: u64 = 1 << 6;
/// `read_format`: the time the counter was enabled and running, to scale
/// a multiplexed count.
const TIMES: u64 = 1 | 2;
/// `PERF_EVENT_IOC_ENABLE`: `_IO('$', 0)`.
const IOC_ENABLE: libc::c_ulong = 0x2400;

/// Open counters, enabled; dropping them closes them.
pub struct Counters {
    open: Vec<(Event, File)>,
}

impl Counters {
    /// Opens and enables a counter for every event of `events` the machine
    /// has, on the calling thread and the threads it spawns from now on.
    /// The `Err` of each that would not open says why (errno).
    pub fn start(events: &[Event]) -> (Counters, Vec<(Event, std::io::Error)>) {
        let mut open = Vec::new();
        let mut failed = Vec::new();
        for &event in events {
            let attr = Attr {
                kind: event.kind,
                size: std::mem::size_of::<Attr>() as u32,
                config: event.config,
                read_format: TIMES,
                flags: DISABLED | INHERIT | EXCLUDE_KERNEL | EXCLUDE_HV,
                ..Attr::default()
            };
            // SAFETY: perf_event_open reads `size` bytes of `attr`, a live,
            // initialised `repr(C)` struct laid out as the kernel's
            // `perf_event_attr` version 5; pid 0 / cpu -1 is "this thread,
            // any CPU"; no group (-1), no flags.
            let fd = unsafe {
                libc::syscall(
                    libc::SYS_perf_event_open,
                    &attr as *const Attr,
                    0 as libc::pid_t,
                    -1 as libc::c_int,
                    -1 as libc::c_int,
                    0 as libc::c_ulong,
                )
            };
            if fd < 0 {
                failed.push((event, std::io::Error::last_os_error()));
                continue;
            }
            // SAFETY: the syscall returned a new descriptor that nothing
            // else owns.
            let fd = unsafe { OwnedFd::from_raw_fd(fd as libc::c_int) };
            let file = File::from(fd);
            open.push((event, file));
        }
        for (_, file) in &open {
            use std::os::fd::AsRawFd;
            // SAFETY: ENABLE takes no argument; the descriptor is a perf
            // event this struct owns.
            unsafe { libc::ioctl(file.as_raw_fd(), IOC_ENABLE, 0) };
        }
        (Counters { open }, failed)
    }

    /// Each open counter's count so far, scaled up where the kernel
    /// multiplexed it (`None` where it never ran).
    pub fn read(&mut self) -> Vec<(&'static str, Option<f64>)> {
        self.open
            .iter_mut()
            .map(|(event, file)| {
                let mut buf = [0u8; 24];
                let count = file.read_exact(&mut buf).ok().and_then(|()| {
                    let word = |i: usize| {
                        u64::from_ne_bytes(buf[i * 8..i * 8 + 8].try_into().expect("8 bytes"))
                    };
                    let (value, enabled, running) = (word(0), word(1), word(2));
                    (running > 0).then(|| value as f64 * enabled as f64 / running as f64)
                });
                (event.name, count)
            })
            .collect()
    }
}
