#!/usr/bin/env bash
# Builds every fuzz target and runs each for SECONDS (default 60), starting
# from its committed seed corpus (corpus/<target>). New inputs libFuzzer
# finds go to target/corpus/<target>, never into the committed seeds; a
# crashing input is saved under artifacts/<target>/ (git ignores both) and
# fails the run. Prints each target's executions per second.
#
# JOBS targets run at once (default 2, one per core of the 2-core machines
# this is sized for: libFuzzer runs a target's inputs on one thread, and
# the threaded targets' threads mostly wait on each other), so SECONDS
# per target takes SECONDS x targets / JOBS of wall time.
#
# Needs nightly and cargo-fuzz (`cargo install cargo-fuzz --locked`) and
# bash 5.1 (`wait -n -p`).
set -uo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
jobs=${2:-2}

cargo +nightly fuzz build || exit 1
# (Each `cargo fuzz run` checks the build again: with nothing to rebuild,
# two runs wait on cargo's lock for well under a second.)
mapfile -t targets < <(cargo +nightly fuzz list)
failed=0
declare -A target_of=() start_of=()

# report PID STATUS: prints how the run with that pid ended.
report() {
    local target=${target_of[$1]} log runs rate took
    log=target/$target.log
    took=$((SECONDS - start_of[$1]))
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    if [ "$2" -eq 0 ]; then
        # libFuzzer's rate counts from the process start (corpus loading
        # included).
        echo "fuzz $target: ok, ${runs:-?} runs, ${rate:-?} exec/s (libFuzzer), $took s wall"
    else
        echo "fuzz $target: FAILED (exit $2); the end of $log:"
        tail -n 40 "$log"
        failed=1
    fi
    unset "target_of[$1]" "start_of[$1]"
}

next=0
while [ $next -lt ${#targets[@]} ] || [ ${#target_of[@]} -gt 0 ]; do
    if [ $failed -eq 0 ] && [ $next -lt ${#targets[@]} ] && [ ${#target_of[@]} -lt "$jobs" ]; then
        target=${targets[$next]}
        next=$((next + 1))
        work=target/corpus/$target
        mkdir -p "$work" "corpus/$target"
        # -timeout: an input that runs this long counts as a hang (a crash).
        # The threaded targets never wait, so a hang is a queue stuck inside.
        cargo +nightly fuzz run "$target" "$work" "corpus/$target" -- \
            -max_total_time="$seconds" -timeout=20 -print_final_stats=1 \
            >"target/$target.log" 2>&1 &
        target_of[$!]=$target
        start_of[$!]=$SECONDS
        continue
    fi
    [ ${#target_of[@]} -gt 0 ] || break
    wait -n -p pid "${!target_of[@]}"
    report "$pid" $?
done
[ $failed -eq 0 ] && [ $next -eq ${#targets[@]} ]
