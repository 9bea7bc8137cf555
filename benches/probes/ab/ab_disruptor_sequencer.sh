#!/usr/bin/env bash
# Interleaved A/B of hotq-disruptor (issue #15 §4): the report's sequencer
# 3P-1C workload (ring of 65,536 u64, BusySpin, three producer threads, one
# handler: the multi-producer path), or with TOPOLOGY=unicast its unicast
# 1P-1C one (one producer thread: the single-producer path;
# `ab_disruptor_round.rs` says what each runs), at two revisions,
# alternating the two binaries round by round so that both see the same
# machine load.
#
#   benches/probes/ab/ab_disruptor_sequencer.sh OLD_REV [NEW_REV]
#   TOPOLOGY=unicast benches/probes/ab/ab_disruptor_sequencer.sh OLD_REV [NEW_REV]
#
# NEW_REV defaults to the working tree as it is (uncommitted edits
# included); any rev `git rev-parse` knows works for either. Environment:
#   ROUNDS (default 21)      rounds, each runs both binaries once
#   ITEMS  (default 6000000) events per run (split over the producers)
#   TOPOLOGY (default sequencer) sequencer or unicast
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
# oversubscribed, and unicast's two busy threads fill both cores: quote
# figures only from a quiet machine (`uptime`), and the ratio, not the
# rates. About 2 minutes on 2 cores (builds included).
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    sed -n '2,/^set -e/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 2
fi
topology=${TOPOLOGY:-sequencer}
case $topology in
    sequencer | unicast) ;;
    *)
        echo "TOPOLOGY=$topology: sequencer or unicast" >&2
        exit 2
        ;;
esac
ab_crate=disruptor ab_items=6000000 ab_unit=events ab_goal="" ab_args=$topology
# shellcheck source=ab_rounds.sh
source "$(dirname "$0")/ab_rounds.sh"
