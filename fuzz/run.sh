#!/usr/bin/env bash
# Builds every fuzz target and runs each for SECONDS (default 60), starting
# from its committed seed corpus (corpus/<target>). New inputs libFuzzer
# finds go to target/corpus/<target>, never into the committed seeds; a
# crashing input is saved under artifacts/<target>/ (git ignores both) and
# fails the run. Prints each target's executions per second.
#
# Needs nightly and cargo-fuzz (`cargo install cargo-fuzz --locked`).
set -uo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}

cargo +nightly fuzz build || exit 1
failed=0
for target in $(cargo +nightly fuzz list); do
    work=target/corpus/$target
    log=target/$target.log
    mkdir -p "$work" "corpus/$target"
    # -timeout: an input that runs this long counts as a hang (a crash).
    # The threaded targets never wait, so a hang is a queue stuck inside.
    start=$SECONDS
    cargo +nightly fuzz run "$target" "$work" "corpus/$target" -- \
        -max_total_time="$seconds" -timeout=20 -print_final_stats=1 >"$log" 2>&1
    status=$?
    took=$((SECONDS - start))
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    if [ $status -eq 0 ]; then
        # libFuzzer's rate counts from the process start (corpus loading
        # included); the wall time includes cargo's up-to-date check.
        echo "fuzz $target: ok, ${runs:-?} runs, ${rate:-?} exec/s (libFuzzer), $took s wall"
    else
        echo "fuzz $target: FAILED (exit $status); the end of $log:"
        tail -n 40 "$log"
        failed=1
    fi
done
exit $failed
