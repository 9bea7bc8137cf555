//! Hands the report the facts its header needs that only the build knows:
//! the rustc version and the exact versions of the contenders' crates, read
//! from the workspace's Cargo.lock (so the header can never disagree with
//! what was compiled).

use std::env;
use std::fs;
use std::path::Path;
use std::process::Command;

/// The crates whose versions the report header names.
const CRATES: &[&str] = &[
    "hotq-spsc",
    "hotq-mpmc",
    "rtrb",
    "ringbuf",
    "crossbeam-queue",
    "crossbeam-channel",
    "flume",
    "concurrent-queue",
    "lfqueue",
    "omango",
    "disruptor",
    "hdrhistogram",
    "hotq-disruptor",
];

fn main() {
    let manifest = env::var("CARGO_MANIFEST_DIR").unwrap();
    let lock = Path::new(&manifest).join("../Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    println!("cargo:rerun-if-changed=build.rs");
    let text = fs::read_to_string(&lock).unwrap_or_default();
    let mut found = Vec::new();
    let mut name = None;
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("name = ") {
            name = Some(n.trim_matches('"').to_string());
        } else if let (Some(v), Some(n)) = (line.strip_prefix("version = "), name.take()) {
            if CRATES.contains(&n.as_str()) {
                found.push(format!("(\"{n}\", \"{}\"),", v.trim_matches('"')));
            }
        }
    }
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc)
        .arg("-V")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=HOTQ_RUSTC_VERSION={}", version.trim());
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join("versions.rs");
    fs::write(out, format!("&[{}]", found.join(" "))).unwrap();
}
