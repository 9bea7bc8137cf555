//! How to read the report, as a list.

/// How to read the tables: one point a line, so a reader finds the one
/// they need (docs/performance.md carries the same list).
pub const HOW_TO_READ: &str = "\
## How to read it

- **Rounds.** Every contender of a workload runs once per round, in an order that rotates each round, so drift of the machine hits all alike. The rounds of all workloads are interleaved (round 1 of each, then round 2, …) and share one time budget, so each workload samples the machine over the whole run.
- **Figures.** A figure is the median over rounds, with the minimum and maximum in brackets; `items` is what one run moved (a contender too slow for its share of the time gets fewer).
- **Ratios.** Each contender against the baseline (`Mutex<VecDeque>`; crossbeam-channel arcs in the disruptor suite) and against the best peer (the peer crate with the best median), computed per round and given as the median ratio with its 95 % interval. Above 1 is faster for throughput; for round trips the ratio is of times, so below 1 is faster.
- **Verdicts.** From the 95 % interval of a goal's median ratio (a bootstrap of its per-round ratios, 2,000 resamples seeded by the goal's text; a ratio of two workloads' medians resamples each side): **met** when the whole interval is on the goal's side of the target, **missed** when it is all on the other side, undecided when it straddles the target or fewer than 5 rounds back it.
- **Floor.** `limit` is a cache line bounced or handed over with no queue logic. It runs in every round of every workload: as a contender in the SPSC and MPMC suites, as a short probe (10 ms a run at most) in the others. `of floor` is the fraction of it a contender reaches in the same round.
- **The machine's mode.** Before every round the two cores' distance is measured (one cache line bounced 2,000 times: on this kind of VM about 140 ns while the two vCPUs share a cache, 480 ns while they do not; they switch every 20–40 s and every two-core figure follows). Each round is fast or slow by it (the two-means split of the logarithms; steady when it stayed within 2×). A goal's verdict is all its rounds'; each mode's own is listed under the goals table, and **≠** marks a goal that one mode (5 rounds or more) meets and another misses: undecided, since a run with more rounds of the other mode would say otherwise.
- **Marks.** ⚑: the distance moved more than 2× (max ÷ min) over a workload behind the goal, or the goal's two workloads share no mode. busy: other processes used more than 0.2 cores' worth of CPU (median) during its rounds.
- **Load.** `others' load` is the cores' worth of CPU other processes used during a contender's runs (from /proc/stat); figures from rounds above about 0.2 are suspect. Two-thread throughput is bimodal on small machines (a consumer that keeps pace pays a cache miss per item, one that falls behind reads in runs): trust the intervals of per-round ratios over absolute throughput.
- **Plots.** Every round is a dot, marked by the machine's mode in that round, with the table's median as a tick.
";
