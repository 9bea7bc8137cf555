#!/usr/bin/env bash
# Runs every check of the workspace, stopping at the first failure.
# The last lines say how long each step took and how many steps passed,
# failed and were skipped (a step that cannot run here says `SKIP: <why>`).
set -uo pipefail
cd "$(dirname "$0")"

passed=0
skipped=0
step_names=()
step_times=()
step_results=()
summary() {
    echo
    echo "test.sh: time per step"
    local i
    for i in "${!step_names[@]}"; do
        printf '  %6s s  %-7s  %s\n' "${step_times[$i]}" "${step_results[$i]}" "${step_names[$i]}"
    done
    printf '  %6s s  total\n' "$SECONDS"
    echo "test.sh: $passed passed, $1 failed, $skipped skipped"
}

# A step's command returns this to say it could not run here (after
# printing `SKIP: <why>`); the step then counts as skipped, not passed.
SKIP=77

# step NAME COMMAND...: runs one check, timed; stops everything on failure.
step() {
    local name=$1
    shift
    echo
    echo "==> $name"
    local start=$SECONDS status
    "$@"
    status=$?
    step_names+=("$name")
    step_times+=("$((SECONDS - start))")
    if [ $status -eq 0 ]; then
        echo "<== $name: ok in $((SECONDS - start)) s"
        step_results+=(ok)
        passed=$((passed + 1))
    elif [ $status -eq $SKIP ]; then
        echo "<== $name: skipped"
        step_results+=(skipped)
        skipped=$((skipped + 1))
    else
        echo "<== $name: FAILED after $((SECONDS - start)) s"
        step_results+=(FAILED)
        summary 1
        exit 1
    fi
}

# What a fresh machine of this kind may lack: the stable toolchain's
# formatter and linter (rustup fetches them from the toolchain's registry).
ensure_components() {
    local missing=()
    cargo fmt --version >/dev/null 2>&1 || missing+=(rustfmt)
    cargo clippy --version >/dev/null 2>&1 || missing+=(clippy)
    [ ${#missing[@]} -eq 0 ] || rustup component add "${missing[@]}"
}

step "toolchain components" ensure_components
# The fuzz project is a workspace of its own: `--all` does not reach it.
fmt_check() {
    cargo fmt --all --check && cargo fmt --check --manifest-path fuzz/Cargo.toml
}
step "cargo fmt --check (workspace and fuzz/)" fmt_check
clippy_check() {
    cargo clippy --workspace --all-targets --locked -- -D warnings &&
        cargo clippy --manifest-path fuzz/Cargo.toml --all-targets --locked -- -D warnings
}
step "cargo clippy (workspace and fuzz/)" clippy_check
step "cargo test (unit, integration, doc)" cargo test --workspace --locked
# The optional `stream` features (futures_core::Stream for hotq-mpmc's
# receiver and hotq-spsc's consumer), which no workspace member enables:
# their lints, their doc tests and hotq-spsc's stream test (a few
# seconds).
stream_features() {
    cargo clippy -p hotq-mpmc --all-features --all-targets --locked -- -D warnings &&
        cargo test --locked -p hotq-mpmc --all-features --doc &&
        cargo clippy -p hotq-spsc --all-features --all-targets --locked -- -D warnings &&
        cargo test --locked -p hotq-spsc --all-features --doc &&
        cargo test --locked -p hotq-spsc --all-features --test waiting stream
}
step "hotq-mpmc and hotq-spsc with the stream feature" stream_features
# The API docs as users read them: a broken intra-doc link or a bad code
# block fails here (cargo test checks the examples, not the links).
step "cargo doc (warnings are errors)" env RUSTDOCFLAGS="-D warnings" \
    cargo doc --workspace --no-deps --locked
# ---- as published, and on other toolchains and targets ----------------------
# Each installs what it needs (a toolchain or target through rustup, the
# 32-bit C runtime through apt-get) and says `SKIP: <why>` where it cannot.

# has_rustup: whether rustup is there to install toolchains and targets.
has_rustup() {
    if ! command -v rustup >/dev/null 2>&1; then
        echo "SKIP: no rustup to install toolchains and targets"
        return 1
    fi
}

# add_targets TARGET...: installs the targets' standard libraries.
add_targets() {
    if ! rustup target add "$@" >/dev/null; then
        echo "SKIP: rustup could not add the targets $*"
        return 1
    fi
}

# The three queue crates as crates.io serves them: `cargo package` (with
# hotq-testkit, their published dev-dependency), each .crate unpacked
# outside the workspace and every one of its test targets built there
# (`--all-features`: `test-hooks` turns on the tests that start near the
# index wrap), hotq-testkit taken from its own unpacked package (as if it
# were published; a `[patch]`). Built, not run: a file the package lacks
# fails the build (a module, a test's shared `common/`), and no test reads
# a file of its package at run time (their only reads are of /proc), so a
# run would repeat the cargo test step's run of the same code. Checked
# (`cargo check --all-targets`), not built, since 2026-12-02: a missing
# file fails type checking as well, and codegen and linking repeated the
# cargo test step's build.
PACKAGED=(hotq-testkit hotq-spsc hotq-mpmc hotq-disruptor)
packaged_tests() {
    local root=$PWD dir version p
    version=$(cargo metadata --format-version 1 --no-deps --locked |
        sed -n 's/.*"name":"hotq-spsc","version":"\([^"]*\)".*/\1/p')
    [ -n "$version" ] || { echo "cannot read hotq-spsc's version"; return 1; }
    local args=()
    for p in "${PACKAGED[@]}"; do args+=(-p "$p"); done
    cargo package --locked --allow-dirty --no-verify "${args[@]}" || return 1
    dir=$(mktemp -d) || return 1
    for p in "${PACKAGED[@]}"; do
        tar xzf "target/package/$p-$version.crate" -C "$dir" || return 1
    done
    local q patches
    for p in "${PACKAGED[@]:1}"; do
        echo "-- $p, unpacked"
        # Every other packaged crate from its unpacked package: hotq-testkit
        # (a dev-dependency of each), hotq-spsc (hotq-mpmc's optional `spsc`
        # feature, which --all-features turns on).
        patches=()
        for q in "${PACKAGED[@]}"; do
            [ "$q" = "$p" ] || patches+=(--config "patch.crates-io.$q.path='$dir/$q-$version'")
        done
        (cd "$dir/$p-$version" &&
            CARGO_TARGET_DIR="$root/target" cargo check --all-features --all-targets \
                "${patches[@]}") ||
            { rm -rf "$dir"; return 1; }
    done
    rm -rf "$dir"
}
step "packaged crates: every test target builds from the unpacked .crate files" packaged_tests

# MSRV: the libraries build with the declared `rust-version` (1.85) with
# default, all and no features. The test suites need 1.88 (proptest 1.12,
# a dev-dependency, requires it): that is the MSRV for tests, checked here
# by `cargo check --tests` (type checking is where an MSRV break shows).
# 53 s here from an empty target/msrv at a load average of 17, plus
# 10-20 s per toolchain rustup installs.
MSRV=1.85
MSRV_TESTS=1.88
msrv() {
    has_rustup || return $SKIP
    local t
    for t in $MSRV $MSRV_TESTS; do
        if ! rustup run $t rustc --version >/dev/null 2>&1 &&
            ! rustup toolchain install $t --profile minimal; then
            echo "SKIP: rustup could not install Rust $t"
            return $SKIP
        fi
    done
    local crates=(-p hotq-spsc -p hotq-mpmc -p hotq-disruptor) f
    for f in "" --all-features --no-default-features; do
        echo "-- Rust $MSRV, ${f:-default features}"
        # shellcheck disable=SC2086 # an empty $f is no flag
        cargo +$MSRV build --locked "${crates[@]}" $f --target-dir target/msrv || return 1
    done
    echo "-- Rust $MSRV_TESTS, the test suites"
    cargo +$MSRV_TESTS check --locked --tests --all-features "${crates[@]}" \
        --target-dir target/msrv
}
step "MSRV: Rust $MSRV builds the crates, $MSRV_TESTS their tests" msrv

# no_std: hotq-spsc and hotq-mpmc build without `std` for a Cortex-M4F
# (`thumbv7em-none-eabihf`: CAS, no 64-bit atomics, so hotq-mpmc's
# positions are `usize` there); on `thumbv6m-none-eabi` (no CAS) both
# refuse to build, and the first error is the crate's own message.
# 2 s here (a few more the first time).
no_std() {
    has_rustup && add_targets thumbv7em-none-eabihf thumbv6m-none-eabi || return $SKIP
    cargo build --locked -p hotq-spsc -p hotq-mpmc --no-default-features \
        --target thumbv7em-none-eabihf || return 1
    local p out
    for p in hotq-spsc hotq-mpmc; do
        if out=$(cargo build --locked -p $p --no-default-features \
            --target thumbv6m-none-eabi 2>&1); then
            echo "$p built for thumbv6m, which has no compare-and-swap"
            return 1
        fi
        if ! grep -m1 '^error' <<<"$out" | grep -q "$p needs compare-and-swap"; then
            echo "$out"
            echo "$p on thumbv6m: the first error is not the crate's own message"
            return 1
        fi
        echo "$p on thumbv6m: refused with its message"
    done
}
step "no_std: thumbv7em builds, thumbv6m is refused" no_std

# 32-bit: every test of the queue crates (unit, integration, doc) for
# `i686-unknown-linux-gnu`, where `usize` is 32 bits but 64-bit atomics
# exist: hotq-mpmc's 64-bit positions (the stalled-producer ABA test) and
# the wrap tests. Linking needs the 32-bit C runtime (`gcc-multilib`),
# which the step installs with apt-get when it can. hotq-disruptor: its
# unit tests only (its sequences are `i64` everywhere, so its threaded
# suites and examples test nothing width-dependent; building its 18 test
# targets for i686 as well was about a third of this step). 99 s in a
# fresh clone on 2026-12-02 with them, most of it building.
I686_CRATES=(-p hotq-spsc -p hotq-mpmc)
i686_tests() {
    has_rustup && add_targets i686-unknown-linux-gnu || return $SKIP
    if ! echo 'int main(void) { return 0; }' |
        gcc -m32 -x c - -o /dev/null >/dev/null 2>&1; then
        local sudo=()
        [ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
        if ! { "${sudo[@]}" apt-get update -qq &&
            "${sudo[@]}" apt-get install -y -qq gcc-multilib; } >/dev/null 2>&1; then
            echo "SKIP: no 32-bit C runtime to link with, and apt-get could not install gcc-multilib"
            return $SKIP
        fi
    fi
    local t=(--locked --target i686-unknown-linux-gnu)
    cargo test "${t[@]}" "${I686_CRATES[@]}" &&
        cargo test "${t[@]}" -p hotq-disruptor --lib
}
step "32-bit: tests on i686-unknown-linux-gnu" i686_tests

# The stress tests at full size (millions of items per case) need
# optimised code: about 15 s for hotq-spsc and 40 s for hotq-mpmc when the
# machine is otherwise idle.
step "stress tests (release)" cargo test --locked --release -p hotq-spsc -p hotq-mpmc --test stress
# hotq-mpmc's flow tests again in optimised code, where a poll takes well
# under the batch receive's 1 µs hold, so that the holds' lower bounds in
# time tell a hold of 1 µs from one of 4 (`an_async_batch_receive_holds_on_
# while_items_stream_in_then_takes_them_all`). About 1 s of tests.
step "mpmc flow tests (release)" cargo test --locked --release -p hotq-mpmc --test flow
# hotq-spsc's waiting layer at full size: blocking FIFO of 1M items at
# capacities 1, 2, 3 and 16, the real-time try side against a parking side
# both ways, async both ways and mixed (1M items each), a blocked thread's
# CPU clock over 1 s, timeouts, wake-up latency. 13 s of tests (21 s wall
# with the up-to-date check) at a load average of 15 on 2 cores.
step "waiting tests (release)" cargo test --locked --release -p hotq-spsc --test waiting --test count_waits --test stamped_waiting
# hotq-disruptor's stress (multi-producer rings of 1, 2, 8 and 1024, many
# threads on 2 cores): its own step, so its time shows apart. About 60 s
# at a load average of 20 on a 2-core machine.
step "disruptor stress tests (release)" cargo test --locked --release -p hotq-disruptor --test stress

# ---- miri, ThreadSanitizer, fuzzing (nightly tools) ------------------------
# Each prints `SKIP: <why>` and is counted as skipped when nightly or its
# component is unavailable; what can be installed is installed first.
# A new crate joins each by one line in the lists below (and, for fuzzing,
# one file per target in fuzz/fuzz_targets plus its [[bin]] in
# fuzz/Cargo.toml).

# What ./test.sh runs is a subset sized for a few minutes on 2 cores;
# `HOTQ_FULL=1 ./test.sh` runs the full lists instead (the comments say what
# they add). Under cfg(miri) the tests shrink their counts themselves.
#
# miri, first pass: every soundness test of the unsafe code (drops: panics
# in `T::drop` during commits and drains, forgotten chunks and iterators,
# partial commits; edge: ZSTs with huge capacities, capacity errors) and
# short concurrent histories.
# The subset keeps ./test.sh within its time on 2 cores: the soundness
# tests of hotq-spsc's unsafe code and its linearizability histories,
# hotq-mpmc's unit tests and its channels' real-thread tests (which run the
# queue's claims and stamps from several threads). hotq-mpmc's drops (15 min
# of miri time here), its queue's and the disruptor's linearizability
# histories and the rest are in the full run; cargo test and
# ThreadSanitizer run the histories on every run.
# hotq-disruptor (times: miri's user CPU, measured at a load average of 6
# to 12 from other work): its unit tests (sequencers, processor, wait
# strategies: 22 s), drops (every event dropped once on every way
# out: halt, handler panic, a publish closure panicking mid-batch, a batch
# iterator dropped or forgotten, a panicking event drop, ZSTs: 19 s) and
# panic (blocked producers halted, the publish drop guard: 7 s), those
# three 39 s (40 s wall at a load average of 4); dropped_stages (a dropped
# stage never lets anyone pass the live stage before it) joins them. Its
# linearizability histories (58 s of test time) and hotq-mpmc's queue's
# (46 s) left the subset on 2026-12-02: the lanes' critical path was the
# channel line plus the mpmc line (about 340 s of the 390 s step in a fresh
# clone), and it becomes about 295.
# hotq-spsc's waiting tests (300 items per case, the fenced protocol that
# miri can run: no membarrier under miri): 16 s of test time here, plus
# about 40 s to build them (at a load average of 15).
# The checker tests (`checker_rejects_*`: a deliberately broken queue's
# histories must be rejected) test hotq-testkit's checker, not the queue:
# the cargo test step runs them (200 and 20 runs); under miri they only
# repeat the accepting tests' queue calls through a wrapper that injects
# the fault, in the full run.
# Longest line first (two lanes): wall times in a fresh clone on a quiet
# machine (2026-12-02 05:45 UTC), builds included, before the histories
# left: channels 260 s (the shared build of about 100 s is in the first
# line's time), disruptor 230 s, spsc 103 s, mpmc 79 s.
MIRI_SUBSET=(
    # hotq-mpmc's channels: the real-thread tests (blocking, timed and async
    # calls, disconnection, drops; 136 s of test time). The channel's
    # linearizability histories (51 s under miri) are in the full run, with
    # the queue's own: the histories run in cargo test and ThreadSanitizer.
    "-p hotq-mpmc --test channel"
    # hotq-mpmc's select and timer channels (about 110 s; the timing tests
    # are ignored under miri's isolated clock).
    "-p hotq-mpmc --test select --test timer --test select_spsc"
    # hotq-mpmc's flow control: close, weak senders, force_send,
    # disconnected_async, recv_many (77 s here, 2026-12-05).
    "-p hotq-mpmc --test flow"
    # hotq-mpmc's rendezvous channels, bounded(0): blocking, timed, async
    # and select hand-offs, cancelled receives (issue 38).
    "-p hotq-mpmc --test rendezvous"
    # hotq-mpmc's reservations: Permit, reserve and its timed and async
    # forms, a select's send arm dropped unsent.
    "-p hotq-mpmc --test reserve"
    # hotq-mpmc's batch claims (pop_many/push_many) and the channel's
    # batch calls: sequential results across the lap and the wrap, batch
    # and single calls on real threads, close during a batch send.
    "-p hotq-mpmc --test batch"
    "-p hotq-disruptor --lib --test drops --test panic --test dropped_stages"
    # hotq-spsc's stamped ring (its lines' layout, the wrap, drops): 7
    # tests at miri's sizes.
    "-p hotq-spsc --lib --test drops --test edge --test linearizability --test waiting --test count_waits --test stamped --test stamped_waiting"
    "-p hotq-mpmc --lib"
)
MIRI_FULL=(
    "-p hotq-spsc" # + doc tests, io, model, wrap, stress
    # + doc tests (29 s), model, wrap (750 s), stress (about 1,200 s: its
    # 16-thread and capacity-1024 cases at just over two laps each)
    "-p hotq-mpmc"
    "-p hotq-testkit"
    # + doc tests (20 s), blocking (10 s), claim (36 s), model (94 s), poller
    # (9 s), send_sync, shutdown (8 s), stress (219 s), topology (51 s);
    # graph, drop_never_hangs, publish_timeout, state, ported_disruptor_rs:
    # 11 min wall together at a load average of 19 (graph most of it).
    # Skipped: the doc test of SingleProducer::shutdown_timeout, whose
    # handler is still asleep on its detached thread (as documented) when
    # the example returns, which miri reports as the main thread ending
    # before the others; the same path runs in tests/shutdown.rs.
    "-p hotq-disruptor -- --skip SingleProducer<E>::shutdown_timeout"
)
# miri, second pass (tree borrows, several schedules each): the
# concurrency tests, 2 seeds in ./test.sh (4 until 2026-12-02, when a
# fresh clone took 2,003 s of its 1,800) and 8 in the full run. Each seed
# is a whole run of the test binary, miri's start-up included (about 7 s
# of CPU here before the first test: hotq-mpmc's 5 unit tests take 2.2 s a
# seed and 72 s of CPU for 8 seeds), so 8 seeds took about 120 s of the
# step in a fresh clone (2026-12-02) and 4 take about 60.
# The subset: hotq-mpmc's unit tests, whose seam tests stop a producer
# between its claim and its publish (spsc's linearizability histories take
# about 9 min for 8 seeds here: full run only).
# hotq-disruptor: panic (producers blocked on a full ring while a handler
# panics, clones halted together, publish closures panicking): 53 s for
# 8 seeds here (54 s wall at a load average of 4).
MIRI_CONCURRENT=(
    "-p hotq-mpmc --lib"
    "-p hotq-disruptor --test panic"
)
MIRI_CONCURRENT_FULL=(
    "-p hotq-spsc --test linearizability --test stress --test io --test waiting"
    "-p hotq-mpmc --lib --test linearizability"
    # hotq-mpmc's channels under 8 schedules (about 8 × 140 s: full run only).
    "-p hotq-mpmc --test channel --test channel_linearizability"
    # hotq-mpmc's stress and wrap files at the small capacities, where full
    # and empty race. Their capacity-1024 cases, the long drains and the
    # single-threaded len checks run in the first pass only: they are most
    # of its time (stress about 1,200 s and wrap 750 s of CPU there), and
    # 8 seeds of them would take about 4 hours here.
    "-p hotq-mpmc --test stress --test wrap -- --skip capacity_1024 --skip long_drain --skip len_is_full --skip tail_wrapped"
    # hotq-disruptor: every file that runs processors on threads (8 seeds:
    # unit tests 246 s, drops 214 s, panic 62 s, shutdown 71 s, poller 91 s,
    # blocking 110 s, topology 463 s; stress 558 s). The stress runs of 16
    # producers and of the ring of 1024 (150 s a seed) run in the first
    # pass only.
    # drop_never_hangs, publish_timeout, state, ported_disruptor_rs: the
    # drop that closes the stream, timed claims, state made on the thread
    # (their first pass, one seed: under 2 min wall together at a load
    # average of 19). graph (five handler threads, about 9 min of that
    # first pass) runs in the first pass only.
    "-p hotq-disruptor --lib --test drops --test panic --test shutdown --test poller --test blocking --test topology --test dropped_stages --test linearizability --test drop_never_hangs --test publish_timeout --test state --test ported_disruptor_rs"
    "-p hotq-disruptor --test stress -- --skip sixteen --skip 1024"
)
# ThreadSanitizer: the stress tests (the subset leaves out the 16-thread
# cases: 16 threads on 2 cores under TSan take minutes each).
# hotq-disruptor: every test file that runs processors on real threads
# (17 s here; a Relaxed single-producer cursor store makes TSan report the
# event slot's data race), and graph (five handler threads on rings of 1
# to 1024: 8 s). The full run adds dropped_stages, drop_never_hangs,
# publish_timeout, state and ported_disruptor_rs: their tests take under a
# second together here, but building the five instrumented binaries took
# about 25 s of the step's 72 s of disruptor building in a fresh clone
# (2026-12-02); what they drive (stages dropped, the stream's closing
# drop, timed claims) runs under miri and in cargo test.
TSAN_DISRUPTOR="-p hotq-disruptor --test stress --test topology --test blocking --test shutdown --test panic --test poller --test drops --test linearizability --test graph"
TSAN_DISRUPTOR_REST="--test dropped_stages --test drop_never_hangs --test publish_timeout --test state --test ported_disruptor_rs"
# The select, timer, flow-control, rendezvous, reserve and batch tests:
# 10 s together after the instrumented build (2026-12-05, before the
# rendezvous, reserve and batch tests: those took 2.5, about 20 and 4.6 s
# alone in their helpers' runs).
TSAN_CHANNELS="-p hotq-mpmc --test channel --test channel_linearizability --test select --test timer --test flow --test select_spsc --test rendezvous --test reserve --test batch"
# hotq-spsc's waiting tests (debug sizes: 50,000 items per case): 3 s of
# test time here, after the instrumented build.
TSAN_SUBSET=(
    "-p hotq-spsc --test stress --test waiting --test count_waits --test stamped --test stamped_waiting"
    "-p hotq-mpmc --test stress -- --skip 16x16 --skip 16_"
    # hotq-mpmc's channels: parking, wakers, the waiters' mutex,
    # disconnection (61 s of tests at a load average of 15-20, after the
    # instrumented build).
    "$TSAN_CHANNELS"
    "$TSAN_DISRUPTOR"
)
TSAN_FULL=(
    "-p hotq-spsc --test stress --test waiting --test count_waits --test stamped --test stamped_waiting"
    "-p hotq-mpmc --test stress"
    "$TSAN_CHANNELS"
    "$TSAN_DISRUPTOR $TSAN_DISRUPTOR_REST"
)
# Seconds per fuzz target in ./test.sh (fuzz/run.sh defaults to 60): 6,
# down from 15 and then 10 on 2026-12-02 when fresh clones' runs came to
# about 1,900 and 2,003 s of their 1,800 (at 10 s the model targets made
# 20k-160k runs each, the threaded ones 3k-20k).
# fuzz/run.sh runs two targets at a time, so the 9 targets take about
# 4 x 6 s of wall time after the build.
FUZZ_SECONDS=${HOTQ_FUZZ_SECONDS:-6}
if [ -n "${HOTQ_FULL:-}" ]; then
    scope=full
else
    scope=subset
fi

# has_nightly: whether the nightly toolchain is installed (installing a
# whole toolchain is left to whoever sets the machine up).
has_nightly() {
    if ! rustup run nightly rustc --version >/dev/null 2>&1; then
        echo "SKIP: no nightly toolchain (rustup toolchain install nightly)"
        return 1
    fi
}

# nightly_components NAME...: installs the nightly components missing.
nightly_components() {
    local missing=() c
    for c in "$@"; do
        rustup component list --toolchain nightly --installed 2>/dev/null |
            grep -q "^$c" || missing+=("$c")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if ! rustup component add "${missing[@]}" --toolchain nightly; then
        echo "SKIP: nightly lacks ${missing[*]} and rustup could not add them"
        return 1
    fi
}

# run_each FLAGS-VAR COMMAND...: runs COMMAND with each line of the list
# whose name is FLAGS-VAR appended (word-split), stopping at a failure.
run_each() {
    local -n lines=$1
    shift
    local line
    for line in "${lines[@]}"; do
        # shellcheck disable=SC2086 # the lines are flag lists
        "$@" $line || return 1
    done
}

# run_two_at_a_time FLAGS-VAR COMMAND...: runs COMMAND with each line of
# the list appended, as run_each does, but two lines at once, the next
# starting as soon as one ends. For miri's first pass: miri interprets a
# test binary on one host thread (its threads are interleaved on it), so
# one line at a time kept one of the two cores busy for the whole pass,
# most of the step. The second pass needs no lanes:
# `-Zmiri-many-seeds` already runs its seeds on every core. Cargo locks the
# target dir only while it builds, so one line builds while the other's
# tests run. Each line's output is printed when it ends (lines never
# interleave); after a failure no new line starts, the one still running
# finishes, and the call fails. Needs bash 5.1 (`wait -n -p`).
run_two_at_a_time() {
    local -n two_lines=$1
    shift
    local dir line pid status failed=0 next=0 n=${#two_lines[@]}
    local -A line_of=() log_of=() start_of=()
    dir=$(mktemp -d) || return 1
    while [ $next -lt $n ] || [ ${#line_of[@]} -gt 0 ]; do
        if [ $failed -eq 0 ] && [ $next -lt $n ] && [ ${#line_of[@]} -lt 2 ]; then
            line=${two_lines[$next]}
            # shellcheck disable=SC2086 # the lines are flag lists
            "$@" $line >"$dir/$next.log" 2>&1 &
            line_of[$!]=$line
            log_of[$!]=$dir/$next.log
            start_of[$!]=$SECONDS
            next=$((next + 1))
            continue
        fi
        [ ${#line_of[@]} -gt 0 ] || break
        wait -n -p pid "${!line_of[@]}"
        status=$?
        echo "-- $* ${line_of[$pid]}: $([ $status -eq 0 ] && echo ok || echo "FAILED (exit $status)") in $((SECONDS - start_of[$pid])) s"
        cat "${log_of[$pid]}"
        [ $status -eq 0 ] || failed=1
        unset "line_of[$pid]" "log_of[$pid]" "start_of[$pid]"
    done
    rm -rf "$dir"
    [ $failed -eq 0 ] && [ $next -eq $n ]
}

# miri: `-Zmiri-strict-provenance -Zmiri-symbolic-alignment-check` over
# the first list (two lines at a time), then `-Zmiri-tree-borrows` with 4
# seeds of the scheduler (8 in the full run) over the concurrency tests. Tests shrink their
# counts under cfg(miri); the few parts skipped say why where they are.
miri() {
    has_nightly && nightly_components miri rust-src || return $SKIP
    cargo +nightly miri setup >/dev/null || return 1
    local first=MIRI_SUBSET second=MIRI_CONCURRENT seeds=2
    if [ $scope = full ]; then
        first=MIRI_FULL second=MIRI_CONCURRENT_FULL seeds=8
    fi
    MIRIFLAGS="-Zmiri-strict-provenance -Zmiri-symbolic-alignment-check" \
        run_two_at_a_time $first cargo +nightly miri test --locked || return 1
    MIRIFLAGS="-Zmiri-tree-borrows -Zmiri-many-seeds=0..$seeds" \
        run_each $second cargo +nightly miri test --locked
}

# ThreadSanitizer over the stress tests: optimised, with std rebuilt
# instrumented (-Zbuild-std; the prebuilt std is not), in its own target
# dir. `-C debug-assertions` keeps the tests at their debug sizes (TSan
# slows atomics 5-15x). Any report fails the run: halt_on_error stops at
# the first, abort_on_error turns it into a failed test binary.
# No suppressions: TSan does not model standalone fences, and hotq-mpmc
# has two `fence(SeqCst)`, but they only order its claim checks (no data
# is handed over through them: every item is, through the slot stamp's
# Release/Acquire pair, which TSan sees), so they can make TSan miss a
# race but not report one, and it reported none.
tsan() {
    has_nightly && nightly_components rust-src || return $SKIP
    RUSTFLAGS="-Zsanitizer=thread -Cdebug-assertions=on" \
        TSAN_OPTIONS="halt_on_error=1 abort_on_error=1 second_deadlock_stack=1" \
        run_each "TSAN_${scope^^}" cargo +nightly test --locked -Zbuild-std \
        --target x86_64-unknown-linux-gnu --release --target-dir target/tsan
}

# A short pass of every fuzz target (libFuzzer through cargo-fuzz).
fuzz() {
    has_nightly || return $SKIP
    if ! command -v cargo-fuzz >/dev/null 2>&1 && ! cargo install cargo-fuzz --locked; then
        echo "SKIP: cargo-fuzz is not installed and could not be installed"
        return $SKIP
    fi
    fuzz/run.sh "$FUZZ_SECONDS"
}

# The API docs as docs.rs builds them: nightly, every feature, `--cfg
# docsrs` (which turns on `doc(cfg)` in each crate root, so that
# feature-gated items say which feature they need). 16 s here from an
# empty target/docsrs at a load average of 20.
docs_rs() {
    has_nightly || return $SKIP
    RUSTDOCFLAGS="--cfg docsrs -D warnings" cargo +nightly doc --locked --no-deps \
        --all-features -p hotq-spsc -p hotq-mpmc -p hotq-disruptor -p hotq-testkit \
        --target-dir target/docsrs
}

# The loom models, in their own target dir: `--cfg loom` changes every
# crate's flags, and sharing a target dir would rebuild the normal one.
# rustdoc takes its flags from RUSTDOCFLAGS: without `--cfg loom` there it
# would build the crate's doc tests against the non-loom dependencies
# (`syn`, for the mutation tool), which the loom build does not link.
# Two test binaries at a time, longest first: in one `cargo test` the
# binaries ran one after another (a fresh clone, 2026-12-02: build 46 s,
# disruptor 94 s, mpmc 201 s, spsc 17 s), and hotq-mpmc's models kept 1.4
# of the 2 cores busy (its last model runs alone for over a minute), so
# disruptor and spsc now run beside it. loom's own cost here is the
# kernel's: every model thread is a freshly mapped coroutine stack (two
# page faults and three system calls per thread per execution), more
# system time than user time in this VM.
# The subset skips hotq-mpmc's two_producers_two_consumers_capacity_1
# (preemption bound 2): alone it took 207 s of one core in a quiet run
# (2026-12-02 15:10 UTC), the lane's tail that ran with the other core
# idle, when a fresh clone's run came to 2,003 s of its 1,800. No mutant of
# MUTANTS.md is killed by it alone; 2P2C stays checked per commit by
# two_producers_two_consumers_capacity_2, and `HOTQ_FULL=1` runs both.
LOOM_MPMC="--test mpmc"
[ "$scope" = full ] || LOOM_MPMC="$LOOM_MPMC -- --skip two_producers_two_consumers_capacity_1"
# The last line is a user's: examples/verify-pipeline's models of its own
# code with hotq-spsc and hotq-mpmc inside, through the queues' `loom`
# feature as a dependent crate turns it on (five models, about 20 s; one
# must fail, and is `#[should_panic]`). Its model of a worker that leaves
# runs at preemption bound 1 since 2026-12-06: at bound 2 it had grown to
# 5.2 M executions (390 s alone, 401-499 s in fresh clones), the tail of
# this step; its comment says what bound 1 still catches.
LOOM_LINES=(
    "-p hotq-loom-tests $LOOM_MPMC"
    "-p hotq-loom-tests --test disruptor"
    "-p hotq-loom-tests --lib --bins --test spsc --test ordering_sites"
    "-p hotq-loom-tests --doc"
    "-p verify-pipeline --test models"
)
loom_models() (
    export RUSTFLAGS="--cfg loom" RUSTDOCFLAGS="--cfg loom"
    local loom=(cargo test --locked --release --target-dir target/loom)
    "${loom[@]}" -p hotq-loom-tests -p verify-pipeline --no-run &&
        run_two_at_a_time LOOM_LINES "${loom[@]}"
)

step "loom models" loom_models
step "docs.rs build (nightly, all features, doc(cfg))" docs_rs
step "miri ($scope)" miri
step "ThreadSanitizer (stress tests, $scope)" tsan
step "fuzz ($FUZZ_SECONDS s per target)" fuzz

summary 0
