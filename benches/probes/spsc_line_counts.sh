#!/usr/bin/env bash
# What the two cores exchange per item, for hotq-spsc, rtrb and ringbuf in
# three modes (issue 15 §2): each ring × mode runs alone in its own process
# (`benches/probes/spsc_lines.rs`, threads pinned to cores 0 and 1) under
# `perf stat`, and under `perf c2c record` where that works; every count is
# divided by the items (round trips in round-trip mode) and printed as one
# table, with the floor rows (no queue: one line bounced, lines of seven
# items handed over) beside them.
#
# Usage (from anywhere; builds the example first):
#   benches/probes/spsc_line_counts.sh                 # 10M items, 1M trips
#   benches/probes/spsc_line_counts.sh ITEMS TRIPS     # e.g. 2000000 200000
#   REPEAT=3 benches/probes/spsc_line_counts.sh        # each row 3 times (interleaved)
#   RINGS="hotq-spsc rtrb" MODES="round-trip" benches/probes/spsc_line_counts.sh
#   EVENTS="cycles,instructions,r0964" benches/probes/spsc_line_counts.sh   # own events
#   C2C=0 benches/probes/spsc_line_counts.sh           # no perf c2c pass
#   BIN=path/to/spsc_lines benches/probes/spsc_line_counts.sh   # prebuilt, no cargo
#
# Without `perf` (the lent 16-core machines have none) the example counts
# the events itself (`HOTQ_COUNTERS=1`, `hotq_benches::counters`: the same
# generic and vendor events through perf_event_open, from just before the
# workload's threads start to after they are joined) and there is no c2c
# column. HOTQ_COUNTERS=1 asks for that where perf is installed too: it
# leaves out the process's set-up.
#
# COHERENCE=1: no PMU at all (neither this kind of VM nor the lent 16-core
# machine has one), so count the line transfers in a model instead: each
# row runs under qemu-user with the plugin `coherence/coherence.c` (built
# here with gcc; needs Debian's qemu-user, whose plugin API is version 1),
# which puts every load and store of the guest's threads through a MESI
# directory of 64-byte lines and counts, per item, the transfers (a line
# taken from another thread's cache: load-hitm, load-shared, store-hitm,
# store-shared) and the upgrades (a store invalidating other copies, no
# data moved). The model's caches are unbounded and its timing is qemu's
# (ns/item and ≈lines then describe the emulated run, 10-40× slower than
# native), so compare the rings with each other and with the floor rows,
# which the same model counts: 2 transfers per round trip, 2 per 7 items.
#   COHERENCE=1 benches/probes/spsc_line_counts.sh 2000000 200000
#
# Modes: keep-pace (both free-running: the report's single-item
# throughput), fall-behind (the consumer idles 30 µs, the producer fills
# the ring and spins on it full, the consumer drains 1024 at full speed;
# repeated), round-trip (one item there and back over two rings).
#
# Columns: ns/item is the measured part's wall time ÷ items (drain ns: the
# consumer's time inside its drains only, fall-behind); ≈lines is ns/item
# in units of half the floor's round trip (one line transfer, measured in
# the same run): a time proxy for line transfers, exact only when nothing
# overlaps; then each perf event ÷ items. perf counts the whole process,
# set-up included (a few thousand events: nothing beside millions of
# items). c2c HITM is perf c2c's sampled loads that hit a line modified in
# another core's cache (local + remote HITM samples ÷ items; sampled, so
# compare rows with each other, not with the counters).
#
# Events: every one of a list of candidates that `perf stat` counts here
# (the generic cycles, instructions, cache-misses, LLC-load-misses,
# L1-dcache-load-misses, and the vendor events that count lines taken
# from another core: Intel's mem_load_l3_hit_retired.xsnp_hitm / _fwd,
# AMD Zen's ls_any_fills_from_sys.local_ccx and ls_dmnd_fills_from_sys.*),
# plus the software events task-clock, context-switches, cpu-migrations.
# Under KVM without a virtual PMU (this 2-core machine: "PMU not available
# due to virtualization, using software events only" in dmesg) only the
# software events and msr/tsc count, and perf c2c fails ("memory events
# not supported"): the table then has the time columns and the software
# events only; the script says so.
#
# Quiet machine wanted: note the load it prints (uptime) with any figure.
set -uo pipefail
cd "$(dirname "$0")/../.."

ITEMS=${1:-10000000}
TRIPS=${2:-1000000}
REPEAT=${REPEAT:-1}
RINGS=${RINGS:-"hotq-spsc rtrb ringbuf"}
MODES=${MODES:-"keep-pace fall-behind round-trip"}
C2C=${C2C:-1}

if [ -z "${BIN:-}" ]; then
    cargo build --release --locked -q -p hotq-benches --example spsc_lines || exit 1
    BIN=target/release/examples/spsc_lines
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ "${COHERENCE:-0}" = 1 ]; then
    command -v qemu-x86_64 >/dev/null 2>&1 || {
        echo "spsc_line_counts: COHERENCE=1 needs qemu-x86_64 (Debian: apt-get install qemu-user)" >&2
        exit 1
    }
    gcc -O2 -Wall -Wextra -shared -fPIC -o "$work/coherence.so" \
        benches/probes/coherence/coherence.c || exit 1
    echo "spsc_line_counts: line transfers counted by the coherence model under $(qemu-x86_64 --version | head -1)"
    C2C=0
    EVENTS=transfers,load-hitm,load-shared,store-hitm,store-shared,upgrades,accesses
elif [ -n "${HOTQ_COUNTERS:-}" ] || ! command -v perf >/dev/null 2>&1; then
    echo "spsc_line_counts: the example counts in-process (HOTQ_COUNTERS=1; perf: $(command -v perf || echo none))"
    export HOTQ_COUNTERS=1
    C2C=0
    # The columns: every EVENT=value the example prints after its times
    # (the events this machine counts), read off one short run.
    events=$("$BIN" floor round-trip 1000 2>"$work/missing" |
        tr ' ' '\n' | grep = | grep -v -E '^(ring|mode|items|pinned|ns_per_item|drain_ns)=' |
        cut -d= -f1 | paste -sd, -)
    sed 's/^/  /' "$work/missing"
    EVENTS=$events
fi

# counts EVENT: whether perf stat counts EVENT on this machine.
counts() {
    perf stat -x, -e "$1" -o "$work/probe" -- true >/dev/null 2>&1 || return 1
    local v
    v=$(grep -v '^#' "$work/probe" | grep -m1 , | cut -d, -f1)
    [[ $v =~ ^[0-9.]+$ ]]
}

if [ -n "${EVENTS:-}" ]; then
    events=$EVENTS
else
    hw=()
    for e in cycles instructions cache-misses LLC-load-misses L1-dcache-load-misses \
        mem_load_l3_hit_retired.xsnp_hitm mem_load_l3_hit_retired.xsnp_fwd \
        mem_load_l3_hit_retired.xsnp_miss ls_any_fills_from_sys.local_ccx \
        ls_dmnd_fills_from_sys.local_ccx ls_dmnd_fills_from_sys.remote_cache \
        ls_dmnd_fills_from_sys.lcl_l2; do
        counts "$e" && hw+=("$e")
    done
    if [ ${#hw[@]} -eq 0 ]; then
        echo "spsc_line_counts: no hardware event counts here (no PMU: under KVM?); software events and times only"
    fi
    events=$(
        IFS=,
        echo "${hw[*]}${hw[*]:+,}task-clock,context-switches,cpu-migrations"
    )
fi
if [ "$C2C" = 1 ] && ! perf c2c record -o "$work/c2c.probe" -- true >/dev/null 2>&1; then
    echo "spsc_line_counts: perf c2c record does not work here (no memory-sampling events): no HITM column"
    C2C=0
fi
echo "spsc_line_counts: events: $events"
echo "spsc_line_counts: $(nproc) cores, load: $(uptime | sed 's/.*load average/load average/')"

# run RING MODE N: one process under perf stat (and perf c2c); appends a
# row "ring mode n ns drain ev1 ev2 ... hitm" to $work/rows.
run() {
    local ring=$1 mode=$2 n=$3 out
    if [ "${COHERENCE:-0}" = 1 ]; then
        # The plugin's totals (all threads) joined to the example's line.
        out=$(qemu-x86_64 -d plugin -plugin "$work/coherence.so" "$BIN" "$ring" "$mode" "$n" 2>&1)
        out="$(grep '^ring=' <<<"$out" | sed 's/coherence:.*//') $(grep -o 'coherence: vcpu=all.*' <<<"$out")"
        [[ $out == *transfers=* ]]
    elif [ -n "${HOTQ_COUNTERS:-}" ]; then
        out=$("$BIN" "$ring" "$mode" "$n" 2>/dev/null)
    else
        out=$(perf stat -x, -e "$events" -o "$work/stat" -- "$BIN" "$ring" "$mode" "$n")
    fi || {
        echo "spsc_lines $ring $mode failed" >&2
        return 1
    }
    local ns drain
    ns=$(sed -n 's/.*ns_per_item=\([0-9.]*\).*/\1/p' <<<"$out")
    drain=$(sed -n 's/.*drain_ns=\([0-9.]*\).*/\1/p' <<<"$out")
    local row="$ring $mode $n $ns ${drain:--}" e v
    IFS=, read -ra evs <<<"$events"
    if [ "${COHERENCE:-0}" = 1 ] || [ -n "${HOTQ_COUNTERS:-}" ]; then
        # Counts the run printed itself as EVENT=value: the model's totals
        # (after `coherence:`), divided by the items here, or the example's
        # own, already per item (task-clock in ns).
        local per=1
        [ "${COHERENCE:-0}" = 1 ] && per=$n
        for e in "${evs[@]}"; do
            v=$(tr ' ' '\n' <<<"${out#*coherence:}" | sed -n "s/^$e=//p")
            if [[ $v =~ ^[0-9.]+$ ]]; then
                row+=" $(awk -v v="$v" -v n="$per" 'BEGIN { printf "%.3f", v / n }')"
            else
                row+=" n/a"
            fi
        done
        echo "$row" >>"$work/rows"
        echo "  $out" >&2
        return 0
    fi
    for e in "${evs[@]}"; do
        # perf stat -x, lines: value,unit,event,...
        # task-clock comes in msec: its column is in ns.
        v=$(grep -v '^#' "$work/stat" | awk -F, -v e="$e" '$3 == e || $3 ~ "^"e"(:|$)" {
            if ($1 ~ /^[0-9.]+$/) printf "%.0f\n", ($2 == "msec") ? $1 * 1e6 : $1
            else print $1
            exit }')
        if [[ $v =~ ^[0-9.]+$ ]]; then
            row+=" $(awk -v v="$v" -v n="$n" 'BEGIN { printf "%.3g", v / n }')"
        else
            row+=" n/a"
        fi
    done
    if [ "$C2C" = 1 ]; then
        local hitm
        perf c2c record -o "$work/c2c" -- "$BIN" "$ring" "$mode" "$n" >/dev/null 2>&1
        hitm=$(perf c2c report -i "$work/c2c" --stdio --stats 2>/dev/null |
            awk -F: '/Load Local HITM|Load Remote HITM/ { s += $2 } END { print s + 0 }')
        row+=" $(awk -v v="$hitm" -v n="$n" 'BEGIN { printf "%.3g", v / n }')"
    fi
    echo "$row" >>"$work/rows"
    echo "  $out" >&2
}

# The floor first (its half trip is the unit of the ≈lines column), then
# every ring × mode, REPEAT times in turn so that a change of the
# machine's mood spreads over all rows.
for ((r = 0; r < REPEAT; r++)); do
    run floor round-trip "$TRIPS" || exit 1
    run floor keep-pace "$ITEMS" || exit 1
    for mode in $MODES; do
        for ring in $RINGS; do
            n=$ITEMS
            [ "$mode" = round-trip ] && n=$TRIPS
            run "$ring" "$mode" "$n" || exit 1
        done
    done
done

# The table: ≈lines from the first floor round trip's half.
half=$(awk '$1 == "floor" && $2 == "round-trip" { print $4 / 2; exit }' "$work/rows")
{
    head="ring mode n ns/item drain-ns ≈lines"
    IFS=, read -ra evs <<<"$events"
    for e in "${evs[@]}"; do
        [ "$e" = task-clock ] && e=task-clock-ns
        head+=" $e/item"
    done
    [ "$C2C" = 1 ] && head+=" c2c-HITM/item"
    echo "$head"
    awk -v half="$half" '{
        lines = (half > 0) ? sprintf("%.2f", $4 / half) : "-"
        printf "%s %s %s %s %s %s", $1, $2, $3, $4, $5, lines
        for (i = 6; i <= NF; i++) printf " %s", $i
        printf "\n"
    }' "$work/rows"
} | if command -v column >/dev/null 2>&1; then column -t; else cat; fi
echo "(per item; round-trip rows per trip. ≈lines = ns/item ÷ (floor round trip / 2 = $half ns). Load after: $(uptime | sed 's/.*load average/load average/'))"
