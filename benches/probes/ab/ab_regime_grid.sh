#!/usr/bin/env bash
# Did a change to an SPSC ring move it against the best of rtrb and
# ringbuf across the regime grid, and where?
#
#   benches/probes/ab/ab_regime_grid.sh PASSES NAME:BINARY [NAME:BINARY ...]
#
# Each BINARY is a contender binary (`target/release/hotq-contender-*`;
# copy the one built at each revision aside first). The last two must be
# the peers, e.g.
#
#   ab_regime_grid.sh 5 old:/tmp/old new:/tmp/new \
#       rtrb:target/release/hotq-contender-rtrb \
#       ringbuf:target/release/hotq-contender-ringbuf
#
# It sends each binary the report's own `regime` requests (see
# `src/isolated/request.rs`): every cell of capacities $CAPS (default
# "1024 65536"), the three wait loops and producer/consumer work of
# 0, 1, 4, 16 steps, with $OPS (default "single"; "batch:16" for the batch
# grid); 2M items a cell (4M with no work); a fresh process per
# run; PASSES passes, each cell's binaries run back to back. It prints each
# cell's medians and ratio to the best peer, then per ring how many cells
# are at 1.0 or more, the median and lowest cell, and for the first two
# rings how many cells moved more than 5 % either way. Take it on a quiet
# machine; 5 passes over 96 cells take about 90 s on the 2-core VM.
#
# 2026-12-07: the stamped ring with and without its consumer's prefetch
# (docs/spsc-regime-grid.md, "The stamped ring's prefetch goes").
set -euo pipefail
[ $# -ge 4 ] || { sed -n 2,24p "$0"; exit 2; }
PASSES=$1; shift
CAPS=${CAPS:-1024 65536} OPS=${OPS:-single} python3 - "$PASSES" "$@" <<'PY'
import collections, os, statistics, subprocess, sys
passes = int(sys.argv[1])
bins = [a.split(':', 1) for a in sys.argv[2:]]
cells = [(c, w, p, q) for c in map(int, os.environ['CAPS'].split())
         for w in ['spin-then-yield', 'spin', 'yield']
         for p in [0, 1, 4, 16] for q in [0, 1, 4, 16]]
runs = collections.defaultdict(list)
for _ in range(passes):
    for cell in cells:
        c, w, p, q = cell
        items = 4_000_000 if p == q == 0 else 2_000_000
        req = f"regime {c} {w} {p} {q} {os.environ['OPS']} {items}\n"
        for name, binary in bins:
            out = subprocess.run([binary], input=req, capture_output=True,
                                 text=True, check=True).stdout
            runs[(name, cell)].append(float(out.split()[0]))
names = [n for n, _ in bins]
ours, peers = names[:-2], names[-2:]
ratios = collections.defaultdict(list)
for cell in cells:
    med = {n: statistics.median(runs[(n, cell)]) for n in names}
    best = max(med[p] for p in peers)
    row = []
    for n in ours:
        ratios[n].append(med[n] / best)
        row.append(f"{n} {med[n]:7.1f} ({med[n] / best:.2f})")
    print(f"{' '.join(map(str, cell)):28} {'  '.join(row)}  best {best:7.1f}")
for n in ours:
    v = ratios[n]
    print(f"{n}: {sum(x >= 1.0 for x in v)} of {len(v)} cells >= 1.0, "
          f"{sum(x < 0.97 for x in v)} < 0.97, median cell {statistics.median(v):.2f}, "
          f"lowest {min(v):.2f}")
if len(ours) >= 2:
    a, b = ours[0], ours[1]
    moved = [y / x for x, y in zip(ratios[a], ratios[b])]
    print(f"{b} / {a} per cell: median {statistics.median(moved):.2f}; "
          f"{sum(x > 1.05 for x in moved)} cells up by more than 5 %, "
          f"{sum(x < 0.95 for x in moved)} down")
PY
