#!/usr/bin/env bash
# Interleaved A/B of hotq-mpmc's queue (issue #15 §3): the report's MPMC
# throughput workload at 1P1C (or 2P2C with --2p2c; capacity 1024, u64
# items, the report's wait loop of 64 spins then yields;
# `ab_mpmc_round.rs` says what it runs) at two revisions, alternating the
# two binaries round by round so that both see the same machine load.
#
#   benches/probes/ab/ab_mpmc_queue.sh [--2p2c] OLD_REV [NEW_REV]
#
# NEW_REV defaults to the working tree as it is (uncommitted edits
# included); any rev `git rev-parse` knows works for either. Environment:
#   ROUNDS (default 21)      rounds, each runs both binaries once
#   ITEMS  (default 20000000) items per run (split over the producers)
#   KEEP=1                   keep the scratch directory (printed)
#
# Each revision's `hotq-mpmc` is checked out into a temporary git worktree
# and linked into a throwaway crate holding `ab_mpmc_round.rs`, built in
# release with the workspace's Cargo.lock (offline: no new dependencies).
# Within a round the order alternates (old first on odd rounds) so a
# periodic disturbance does not always hit the same side. Prints each
# round's M items/s for old and new and their ratio new ÷ old, then the
# median ratio with a 95 % bootstrap interval (10,000 resamples of the
# per-round ratios, percentile method) and the load average before and
# after. The goal this serves (hotq-mpmc ÷ ArrayQueue ≥ 1.10 at 1P1C) is a
# ratio against a peer, not against an old revision: this A/B says whether
# a change moved hotq-mpmc, the report says where it stands. 2P2C on two
# cores is oversubscribed: quote figures only from a quiet machine
# (`uptime`), and the ratio, not the rates.
set -euo pipefail

ab_args=1p1c
if [ "${1:-}" = --2p2c ]; then
    ab_args=2p2c
    shift
fi
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    sed -n '2,/^set -e/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 2
fi
ab_crate=mpmc ab_items=20000000 ab_unit=items ab_goal=""
# shellcheck source=ab_rounds.sh
source "$(dirname "$0")/ab_rounds.sh"
