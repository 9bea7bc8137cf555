#!/usr/bin/env bash
# Interleaved A/B of hotq-disruptor's single-producer path: the report's
# unicast 1P-1C workload at two revisions. The same as
# `TOPOLOGY=unicast ab_disruptor_sequencer.sh`, whose header says what it
# runs, prints and takes (ROUNDS, ITEMS, KEEP):
#
#   benches/probes/ab/ab_disruptor_unicast.sh OLD_REV [NEW_REV]
set -euo pipefail
TOPOLOGY=unicast exec "$(dirname "$0")/ab_disruptor_sequencer.sh" "$@"
