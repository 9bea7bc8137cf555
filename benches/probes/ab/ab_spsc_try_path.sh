#!/usr/bin/env bash
# Interleaved A/B of hotq-spsc's try path (issue #13): the report's SPSC
# single-item throughput (1P1C, capacity 1024, u64; `ab_spsc_round.rs`
# says what it runs) at two revisions, alternating the two binaries round
# by round so that both see the same machine load.
#
#   benches/probes/ab/ab_spsc_try_path.sh OLD_REV [NEW_REV]
#
# NEW_REV defaults to the working tree as it is (uncommitted edits
# included); any rev `git rev-parse` knows works for either. Environment:
#   ROUNDS (default 21)      rounds, each runs both binaries once
#   ITEMS  (default 50000000, the report's default item count) per run
#   ROUND  (default try)     try, or blocking: push_timeout/pop_timeout
#                            instead of push/pop in a loop (the waiting
#                            suite's blocking workload at capacity 1024)
#   KEEP=1                   keep the scratch directory (printed)
#
# Each revision's `hotq-spsc` is checked out into a temporary git worktree
# and linked into a throwaway crate holding `ab_spsc_round.rs`, built in
# release with the workspace's Cargo.lock (offline: no new dependencies).
# Within a round the order alternates (old first on odd rounds) so a
# periodic disturbance does not always hit the same side. Prints each
# round's M items/s for old and new and their ratio new ÷ old, then the
# median ratio with a 95 % bootstrap interval (10,000 resamples of the
# per-round ratios, percentile method) and the load average before and
# after. Issue #13 asks for a median ≥ 0.97. On a shared machine record
# the load (`uptime`); quote figures only from a quiet one.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    sed -n '2,/^set -e/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 2
fi
ab_crate=spsc ab_items=50000000 ab_unit=items ab_goal="issue #13" ab_args=${ROUND:-try}
# shellcheck source=ab_rounds.sh
source "$(dirname "$0")/ab_rounds.sh"
