#!/usr/bin/env bash
# Runs every check of the workspace, stopping at the first failure.
# The last line says how many steps passed and failed.
set -uo pipefail
cd "$(dirname "$0")"

passed=0
summary() {
    echo
    echo "test.sh: $passed passed, $1 failed"
}

# step NAME COMMAND...: runs one check, timed; stops everything on failure.
step() {
    local name=$1
    shift
    echo
    echo "==> $name"
    local start=$SECONDS
    if "$@"; then
        echo "<== $name: ok in $((SECONDS - start)) s"
        passed=$((passed + 1))
    else
        echo "<== $name: FAILED after $((SECONDS - start)) s"
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
step "cargo fmt --check" cargo fmt --all --check
step "cargo clippy" cargo clippy --workspace --all-targets --locked -- -D warnings
step "cargo test (unit, integration, doc)" cargo test --workspace --locked
# The stress tests at full size (millions of items per case) need
# optimised code: about 15 s for hotq-spsc and 40 s for hotq-mpmc when the
# machine is otherwise idle.
step "stress tests (release)" cargo test --locked --release -p hotq-spsc -p hotq-mpmc --test stress
# hotq-disruptor's stress (multi-producer rings of 1, 2, 8 and 1024, many
# threads on 2 cores): its own step, so its time shows apart. About 60 s
# at a load average of 20 on a 2-core machine.
step "disruptor stress tests (release)" cargo test --locked --release -p hotq-disruptor --test stress
# The loom models, in their own target dir: `--cfg loom` changes every
# crate's flags, and sharing a target dir would rebuild the normal one.
step "loom models" env RUSTFLAGS="--cfg loom" \
    cargo test --locked --release -p hotq-loom-tests --target-dir target/loom

summary 0
