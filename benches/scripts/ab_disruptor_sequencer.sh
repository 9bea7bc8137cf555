#!/usr/bin/env bash
# Interleaved A/B of hotq-disruptor's multi-producer path (issue #15 §4):
# the report's sequencer 3P-1C workload (ring of 65,536 u64, BusySpin, three
# producer threads, one handler; `ab_disruptor_round.rs` says what it runs)
# at two revisions, alternating the two binaries round by round so that
# both see the same machine load.
#
#   benches/scripts/ab_disruptor_sequencer.sh OLD_REV [NEW_REV]
#
# NEW_REV defaults to the working tree as it is (uncommitted edits
# included); any rev `git rev-parse` knows works for either. Environment:
#   ROUNDS (default 21)      rounds, each runs both binaries once
#   ITEMS  (default 6000000) events per run (split over the 3 producers)
#   KEEP=1                   keep the scratch directory (printed)
#
# Each revision's `hotq-disruptor` is checked out into a temporary git
# worktree and linked into a throwaway crate holding
# `ab_disruptor_round.rs`, built in release with the workspace's Cargo.lock
# (offline: no new dependencies). Within a round the order alternates (old
# first on odd rounds) so a periodic disturbance does not always hit the
# same side. Prints each round's M events/s for old and new and their ratio
# new ÷ old, then the median ratio with a 95 % bootstrap interval (10,000
# resamples of the per-round ratios, percentile method) and the load
# average before and after. Three producers on two cores are
# oversubscribed: quote figures only from a quiet machine (`uptime`), and
# the ratio, not the rates. About 2 minutes on 2 cores (builds included).
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    sed -n '2,/^set -e/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
rounds=${ROUNDS:-21}
items=${ITEMS:-6000000}
old_rev=$(git -C "$repo" rev-parse --verify "$1^{commit}")
new_rev=${2:+$(git -C "$repo" rev-parse --verify "$2^{commit}")}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/ab-disruptor.XXXXXX")
cleanup() {
    for side in old new; do
        if [ -d "$scratch/$side-wt" ]; then
            git -C "$repo" worktree remove --force "$scratch/$side-wt" >/dev/null 2>&1 || true
        fi
    done
    if [ "${KEEP:-0}" = 1 ]; then
        echo "scratch kept: $scratch" >&2
    else
        rm -rf "$scratch"
    fi
}
trap cleanup EXIT

# build SIDE CRATE_DIR: the round binary against the hotq-disruptor in CRATE_DIR.
build() {
    local side=$1 crate=$2 dir=$scratch/$1-round
    mkdir -p "$dir/src"
    cp "$here/ab_disruptor_round.rs" "$dir/src/main.rs"
    cp "$repo/Cargo.lock" "$dir/Cargo.lock"
    cat >"$dir/Cargo.toml" <<TOML
[package]
name = "ab-disruptor-round"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
hotq-disruptor = { path = "$crate" }

[profile.release]
debug = "line-tables-only"

[workspace]
TOML
    echo "building $side ($crate)" >&2
    cargo build --quiet --release --offline --manifest-path "$dir/Cargo.toml" \
        --target-dir "$scratch/target-$side" >&2
    cp "$scratch/target-$side/release/ab-disruptor-round" "$scratch/$side"
}

git -C "$repo" worktree add --detach --quiet "$scratch/old-wt" "$old_rev"
build old "$scratch/old-wt/disruptor"
if [ -n "$new_rev" ]; then
    git -C "$repo" worktree add --detach --quiet "$scratch/new-wt" "$new_rev"
    build new "$scratch/new-wt/disruptor"
    new_label=$new_rev
else
    build new "$repo/disruptor"
    new_label="working tree of $(git -C "$repo" rev-parse HEAD)"
fi

echo "old: $old_rev"
echo "new: $new_label"
echo "rounds: $rounds, events per run: $items"
echo "load before: $(uptime)"
printf '%5s  %12s  %12s  %8s\n' round "old M/s" "new M/s" "new÷old"
: >"$scratch/ratios"
for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) -eq 1 ]; then
        o=$("$scratch/old" "$items")
        n=$("$scratch/new" "$items")
    else
        n=$("$scratch/new" "$items")
        o=$("$scratch/old" "$items")
    fi
    ratio=$(python3 -c "print('%.4f' % ($n / $o))")
    echo "$ratio" >>"$scratch/ratios"
    printf '%5d  %12s  %12s  %8s\n' "$r" "$o" "$n" "$ratio"
done
echo "load after: $(uptime)"
python3 - "$scratch/ratios" <<'PY'
import random, statistics, sys
xs = [float(l) for l in open(sys.argv[1]) if l.strip()]
rng = random.Random(13)
meds = sorted(statistics.median(rng.choices(xs, k=len(xs))) for _ in range(10_000))
lo, hi = meds[249], meds[9_749]
m = statistics.median(xs)
print(f"median new÷old: {m:.4f}  (95 % bootstrap interval {lo:.4f} .. {hi:.4f}, {len(xs)} rounds)")
PY
