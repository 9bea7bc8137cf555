//! The contender binaries: their names, which contenders have one, and
//! the check that they were built from the report's own sources.

use std::path::Path;
use std::process::{Command, Stdio};

use super::request::SOURCE;
use crate::async_channels::{self, AsyncChan};
use crate::channel::{Channel, Shared};
use crate::contenders::{self, ChannelVisitor, SharedVisitor};
use crate::sequenced::{self, Ring, RingVisitor};
use crate::waiting::asynchronous::{self, AsyncChannel, AsyncVisitor};
use crate::waiting::blocking;

/// The binary that runs contender `name` (a row name such as `hotq-spsc`
/// or `Mutex<VecDeque>`): `hotq-contender-` and the name in lower case,
/// each run of other characters one `-`.
pub fn binary(name: &str) -> String {
    format!("hotq-contender-{}", slug(name))
}

/// The binary that runs async contender `name` (a row name of the waiting
/// suite's async rows): [`binary`]'s name ending in `-async`, which
/// keeps async-channel's futures apart from its blocking calls.
pub fn async_binary(name: &str) -> String {
    let slug = slug(name);
    match slug.ends_with("-async") {
        true => format!("hotq-contender-{slug}"),
        false => format!("hotq-contender-{slug}-async"),
    }
}

/// The binary that runs the `channels` suite's async contender `name`:
/// [`binary`]'s name ending in `-async-tasks`, apart from the same
/// crate's blocking and `waiting` suite binaries.
pub fn tasks_binary(name: &str) -> String {
    format!("hotq-contender-{}-async-tasks", slug(name))
}

/// `name` in lower case, each run of other characters one `-`.
fn slug(name: &str) -> String {
    let mut slug = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    slug.trim_end_matches('-').to_string()
}

/// The row name of every contender that runs in a binary of its own:
/// [`each_channel`](contenders::each_channel)'s, the blocking ones of the
/// `waiting` suite and the channels of the `channels` suite's blocking
/// shapes, each once.
pub fn names() -> Vec<&'static str> {
    #[derive(Default)]
    struct Names(Vec<&'static str>);
    impl Names {
        fn add(&mut self, name: &'static str) {
            if !self.0.contains(&name) {
                self.0.push(name);
            }
        }
    }
    impl ChannelVisitor for Names {
        fn visit<C: Channel>(&mut self) {
            self.add(C::NAME);
        }
    }
    impl SharedVisitor for Names {
        fn visit<C: Shared>(&mut self) {
            self.add(C::NAME);
        }
    }
    let mut names = Names::default();
    contenders::each_channel(&mut names);
    blocking::each_blocking(&mut names);
    contenders::each_waiting_channel(&mut names);
    SharedVisitor::visit::<contenders::HotqMpmcChannelBatch>(&mut names);
    SharedVisitor::visit::<contenders::HotqMpmcChannelRecvMany>(&mut names);
    // Counted only (`instructions`): its try path.
    SharedVisitor::visit::<contenders::HotqMpmcChannelTry>(&mut names);
    names.0
}

/// The row name of every contender of the disruptor suite: each runs in
/// a binary of its own too ([`binary`]).
pub fn ring_names() -> Vec<&'static str> {
    struct Names(Vec<&'static str>);
    impl RingVisitor for Names {
        fn visit<R: Ring>(&mut self) {
            self.0.push(R::NAME);
        }
    }
    let mut names = Names(Vec::new());
    sequenced::each_ring(&mut names);
    names.0
}

/// The name of every async contender of the `channels` suite: each runs
/// in a binary of its own too ([`tasks_binary`]).
pub fn tasks_names() -> Vec<&'static str> {
    struct Names(Vec<&'static str>);
    impl async_channels::AsyncVisitor for Names {
        fn visit<C: AsyncChan>(&mut self) {
            self.0.push(C::NAME);
        }
    }
    let mut names = Names(Vec::new());
    async_channels::each(&mut names);
    names.0
}

/// The row name of every async contender of the `waiting` suite: each
/// runs in a binary of its own too ([`async_binary`]).
pub fn async_names() -> Vec<&'static str> {
    struct Names(Vec<&'static str>);
    impl AsyncVisitor for Names {
        fn visit<C: AsyncChannel>(&mut self) {
            self.0.push(C::NAME);
        }
    }
    let mut names = Names(Vec::new());
    asynchronous::each_async(&mut names);
    names.0
}

/// Checks that every contender binary is in `dir` and was built from the
/// same sources as this process; says which is not, and how to mend it.
pub fn check(dir: &Path) -> Result<(), String> {
    let channels = names()
        .into_iter()
        .chain(ring_names())
        .map(|n| (n, binary(n)));
    let futures = async_names().into_iter().map(|n| (n, async_binary(n)));
    let tasks = tasks_names().into_iter().map(|n| (n, tasks_binary(n)));
    for (name, file) in channels.chain(futures).chain(tasks) {
        let path = dir.join(file);
        let out = Command::new(&path)
            .arg("--source")
            .stderr(Stdio::inherit())
            .output()
            .map_err(|e| format!("{name}: cannot start {}: {e}", path.display()))?;
        let theirs = String::from_utf8_lossy(&out.stdout);
        if theirs.trim() != SOURCE {
            return Err(format!(
                "{} was built from other sources than this report (fingerprint {} against {SOURCE}): run the report with `cargo run --release -p hotq-benches`, which builds both",
                path.display(),
                theirs.trim()
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binary_name_is_the_row_name_in_lower_case_with_one_dash_per_gap() {
        assert_eq!(binary("hotq-spsc"), "hotq-contender-hotq-spsc");
        assert_eq!(binary("Mutex<VecDeque>"), "hotq-contender-mutex-vecdeque");
        assert_eq!(
            binary("mpsc::sync_channel"),
            "hotq-contender-mpsc-sync-channel"
        );
        assert_eq!(binary("Mutex+Condvar"), "hotq-contender-mutex-condvar");
        assert_eq!(async_binary("kanal async"), "hotq-contender-kanal-async");
        assert_eq!(
            async_binary("async-channel"),
            "hotq-contender-async-channel-async"
        );
        assert_eq!(
            async_binary("tokio mpsc"),
            "hotq-contender-tokio-mpsc-async"
        );
        assert_eq!(
            tasks_binary("tokio mpsc"),
            "hotq-contender-tokio-mpsc-async-tasks"
        );
    }
}
