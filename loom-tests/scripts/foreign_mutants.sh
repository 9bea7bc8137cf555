#!/bin/sh
# Runs the ordering-mutation tool on loom-tested crates that nobody here
# wrote, as published: each crate's package is fetched with cargo (the
# ordinary client, so whatever registry cargo is set up for), unpacked into
# target/foreign/<name>-<version>, and handed to
#
#     cargo run --release -p hotq-loom-tests --bin mutants -- --path <dir> --test-cmd <cmd>
#
# which writes <dir>/MUTANTS.md; that table is copied to
# loom-tests/foreign/<name>-<version>.md (committed by hand, after reading
# the survivors). Nothing is vendored into the repository.
#
#     loom-tests/scripts/foreign_mutants.sh              # every crate below
#     loom-tests/scripts/foreign_mutants.sh thingbuf     # only this one
#     FETCH_ONLY=1 loom-tests/scripts/foreign_mutants.sh # download and unpack only
#
# Extra arguments for the tool (e.g. `--site src/lib.rs`) go in
# MUTANTS_ARGS. The machine is shared: everything runs under nice.
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
foreign=target/foreign

# name | version | the crate's own loom test command, run by the tool with
# `sh -c` in its scratch copy of the crate | the tool's other arguments (the
# reasons for each are in loom-tests/foreign/<name>-<version>.md):
# - concurrent-queue: its loom suite is tests/loom.rs behind the optional
#   `loom` dependency; unbounded it ran past 10 minutes here, 3 preemptions
#   take 14 s.
# - thingbuf: its loom suite is unit tests (`cfg(all(loom, test))`), which
#   compile only with debug assertions (a `#[cfg(debug_assertions)]` field);
#   the whole suite takes minutes per run (and 5 of its tests fail unmutated
#   at 1 preemption), so the ring core's own models (`thingbuf::tests`) judge
#   the mutants of the ring core, src/lib.rs, at 1 preemption, with the
#   crate itself (not loom) at opt-level 1 to halve each rebuild.
crates() {
    cat <<'LIST'
concurrent-queue|2.5.0|RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=3 cargo test --release --features loom --test loom|
thingbuf|0.1.6|RUSTFLAGS="--cfg loom" CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS=true LOOM_MAX_PREEMPTIONS=1 cargo test --release --config 'profile.release.package.thingbuf.opt-level=1' --lib thingbuf::tests|--site src/lib.rs
LIST
}

# Unpacks <name>-<version> under target/foreign, fetching its .crate through
# a throw-away package that depends on exactly that version.
fetch() {
    name=$1 version=$2
    dest="$foreign/$name-$version"
    if [ -f "$dest/Cargo.toml" ]; then
        return 0
    fi
    probe="$foreign/.fetch-$name-$version"
    mkdir -p "$probe/src"
    : >"$probe/src/lib.rs"
    cat >"$probe/Cargo.toml" <<TOML
[package]
name = "fetch-probe"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
$name = "=$version"
TOML
    cargo fetch --quiet --manifest-path "$probe/Cargo.toml" </dev/null
    crate=$(ls "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/"$name-$version.crate" | head -n 1)
    if [ ! -f "$crate" ]; then
        echo "foreign_mutants: cargo fetched no $name-$version.crate" >&2
        exit 2
    fi
    tar -xzf "$crate" -C "$foreign"
    rm -rf "$probe"
    echo "foreign_mutants: $name $version unpacked in $dest" >&2
}

mkdir -p "$foreign"
crates | while IFS='|' read -r name version cmd args; do
    if [ $# -gt 0 ]; then
        wanted=no
        for w in "$@"; do [ "$w" = "$name" ] && wanted=yes; done
        [ $wanted = yes ] || continue
    fi
    fetch "$name" "$version"
    [ "${FETCH_ONLY:-}" = 1 ] && continue
    dir="$foreign/$name-$version"
    # Exit 1 (a survivor not in the crate's allow-list) is a result, not a
    # failure of this script: the table says which.
    # shellcheck disable=SC2086
    nice -n 10 cargo run --quiet --release -p hotq-loom-tests --bin mutants -- \
        --path "$dir" --test-cmd "$cmd" $args ${MUTANTS_ARGS:-} </dev/null || [ $? -eq 1 ]
    mkdir -p loom-tests/foreign
    cp "$dir/MUTANTS.md" "loom-tests/foreign/$name-$version.md"
    echo "foreign_mutants: loom-tests/foreign/$name-$version.md" >&2
done
