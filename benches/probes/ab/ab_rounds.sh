# The body of the interleaved A/B scripts (ab_spsc_try_path.sh,
# ab_disruptor_sequencer.sh), sourced by them after their `set -euo
# pipefail` and argument check, with:
#   ab_crate   spsc or disruptor: the crate checked out at each revision,
#              and `ab_<crate>_round.rs` the round binary built against it
#   ab_items   the default of ITEMS
#   ab_unit    what ITEMS counts (items, events)
#   ab_goal    when not empty, the issue whose goal is a median new÷old of
#              at least 0.97, printed as met or not
#   ab_args    (optional) words passed to the round binary after ITEMS
# and "$@" the scripts' own OLD_REV [NEW_REV]. Their headers say what the
# round runs and what is printed.
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
rounds=${ROUNDS:-21}
items=${ITEMS:-$ab_items}
old_rev=$(git -C "$repo" rev-parse --verify "$1^{commit}")
new_rev=${2:+$(git -C "$repo" rev-parse --verify "$2^{commit}")}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/ab-$ab_crate.XXXXXX")
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

# build SIDE CRATE_DIR: the round binary against the crate in CRATE_DIR.
build() {
    local side=$1 crate=$2 dir=$scratch/$1-round
    mkdir -p "$dir/src"
    cp "$here/ab_${ab_crate}_round.rs" "$dir/src/main.rs"
    # The report's one wait loop (`wait::until`), so a round waits as the
    # report's workload does (std only: it builds in the throwaway crate).
    cp "$here/../../src/wait.rs" "$dir/src/wait.rs"
    cp "$repo/Cargo.lock" "$dir/Cargo.lock"
    cat >"$dir/Cargo.toml" <<TOML
[package]
name = "ab-$ab_crate-round"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
hotq-$ab_crate = { path = "$crate" }

[profile.release]
debug = "line-tables-only"

[workspace]
TOML
    echo "building $side ($crate)" >&2
    cargo build --quiet --release --offline --manifest-path "$dir/Cargo.toml" \
        --target-dir "$scratch/target-$side" >&2
    cp "$scratch/target-$side/release/ab-$ab_crate-round" "$scratch/$side"
}

git -C "$repo" worktree add --detach --quiet "$scratch/old-wt" "$old_rev"
build old "$scratch/old-wt/$ab_crate"
if [ -n "$new_rev" ]; then
    git -C "$repo" worktree add --detach --quiet "$scratch/new-wt" "$new_rev"
    build new "$scratch/new-wt/$ab_crate"
    new_label=$new_rev
else
    build new "$repo/$ab_crate"
    new_label="working tree of $(git -C "$repo" rev-parse HEAD)"
fi

echo "old: $old_rev"
echo "new: $new_label"
echo "rounds: $rounds, $ab_unit per run: $items${ab_args:+, round: $ab_args}"
echo "load before: $(uptime)"
printf '%5s  %12s  %12s  %8s\n' round "old M/s" "new M/s" "new÷old"
: >"$scratch/ratios"
for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) -eq 1 ]; then
        o=$("$scratch/old" "$items" ${ab_args:-})
        n=$("$scratch/new" "$items" ${ab_args:-})
    else
        n=$("$scratch/new" "$items" ${ab_args:-})
        o=$("$scratch/old" "$items" ${ab_args:-})
    fi
    ratio=$(python3 -c "print('%.4f' % ($n / $o))")
    echo "$ratio" >>"$scratch/ratios"
    printf '%5d  %12s  %12s  %8s\n' "$r" "$o" "$n" "$ratio"
done
echo "load after: $(uptime)"
python3 - "$scratch/ratios" "$ab_goal" <<'PY'
import random, statistics, sys
xs = [float(l) for l in open(sys.argv[1]) if l.strip()]
rng = random.Random(13)
meds = sorted(statistics.median(rng.choices(xs, k=len(xs))) for _ in range(10_000))
lo, hi = meds[249], meds[9_749]
m = statistics.median(xs)
print(f"median new÷old: {m:.4f}  (95 % bootstrap interval {lo:.4f} .. {hi:.4f}, {len(xs)} rounds)")
if sys.argv[2]:
    print(f"{sys.argv[2]} (median ≥ 0.97):", "met" if m >= 0.97 else "NOT met")
PY
