//! Hands the report the facts its header needs that only the build knows:
//! the rustc version and the exact versions of the contenders' crates, read
//! from the workspace's Cargo.lock (so the header can never disagree with
//! what was compiled); and a fingerprint of this package's sources, by
//! which the report refuses contender binaries built from other sources
//! than its own (`src/isolated/`).

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
    println!(
        "cargo:rustc-env=HOTQ_BENCHES_SOURCE={:016x}",
        fingerprint(Path::new(&manifest), &["src", "contenders"])
    );
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join("versions.rs");
    fs::write(out, format!("&[{}]", found.join(" "))).unwrap();
}

/// FNV-1a over the path and contents of every file under `dirs` of
/// `root`, in path order; asks cargo to run this again when any changes.
fn fingerprint(root: &Path, dirs: &[&str]) -> u64 {
    fn walk(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
        for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, files);
            } else {
                files.push(path);
            }
        }
    }
    let mut files = Vec::new();
    for dir in dirs {
        println!("cargo:rerun-if-changed={dir}");
        walk(&root.join(dir), &mut files);
    }
    files.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for file in files {
        let name = file.strip_prefix(root).unwrap_or(&file).to_string_lossy();
        let text = fs::read(&file).unwrap_or_default();
        for byte in name.bytes().chain(text) {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}
