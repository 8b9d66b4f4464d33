#!/usr/bin/env bash
# The prover's speed-up from 1 thread to N, phase by phase (issue #48: the 2-thread / 1-thread
# ratio at 2^14 steps, goal 1.85x): PAIRS proofs of the Fibonacci statement of ../shared/fixtures
# on one thread and on N, alternately (so a busy host spreads both alike), and for each phase the
# median over the pairs of t1/tN (wall time), with its range, split into its two factors:
#   busy     = cpuN / (N·tN), the share of the N threads' time they ran (what the phase's own
#              parallelism gives: 1 when no thread ever waits),
#   cpu cost = cpuN / cpu1, the CPU time N threads spent on the same work against one thread's
#              (above 1 where the cores slow each other, or work is done twice),
# so that t1/tN = N · busy / cpu cost. Then thread_ceiling_bench: what this machine gives a
# second thread on the prover's kernels, the bound the phases are measured against.
#   tests/bench/thread_ratio.sh BUILD_DIR [PAIRS] [LOG_STEPS] [time|size] [THREADS]
# (defaults: 7 pairs, 2^14 steps, time, the machine's threads; about a minute at 2^14 on 2 cores)
set -euo pipefail
BUILD=${1:?usage: thread_ratio.sh BUILD_DIR [PAIRS] [LOG_STEPS] [time|size] [THREADS]}
PAIRS=${2:-7}
LOG_STEPS=${3:-14}
OPTIMIZE=${4:-time}
THREADS=${5:-$(nproc)}
FIXTURES=$(cd "$(dirname "$0")/../../.." && pwd)/shared/fixtures
[ -d "$FIXTURES" ] || { echo "no ../shared/fixtures: nothing to prove"; exit 0; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# A run's phases as "name<TAB>wall<TAB>cpu" lines (the bench prints
# "  <name padded to 20> <wall> s  (cpu <cpu> s)").
phases() {
    awk '/^  / && substr($0, 23) ~ /^ *[0-9.]+ s  \(cpu/ {
        name = substr($0, 3, 20); sub(/ +$/, "", name)
        split(substr($0, 23), f, " ")
        printf "%s\t%s\t%s\n", name, f[1], f[4]
    }'
}
for pair in $(seq "$PAIRS"); do
    for threads in 1 "$THREADS"; do
        "$BUILD/tests/stark_prover_bench" --log-steps "$LOG_STEPS" --optimize "$OPTIMIZE" \
            --threads "$threads" "$FIXTURES" | phases >"$OUT/$threads.$pair"
    done
    paste "$OUT/1.$pair" "$OUT/$THREADS.$pair" | awk -F'\t' -v p="$pair" '$1 == "proving in all" {
        printf "pair %s: %.2f s / %.2f s = %.2fx\n", p, $2, $5, $2 / $5}'
done

# Column `field` (1: t1/tN, 2: busy, 3: cpu cost) of one phase over the pairs: its median and range.
summary() {
    for pair in $(seq "$PAIRS"); do
        paste "$OUT/1.$pair" "$OUT/$THREADS.$pair" |
            awk -F'\t' -v p="$1" -v n="$THREADS" '$1 == p && $5 > 0 && $3 > 0 {
                printf "%.4f %.4f %.4f\n", $2 / $5, $6 / (n * $5), $6 / $3}'
    done | awk -v k="$2" '{print $k}' | sort -n | awk '{r[NR] = $1} END {
        if (NR) printf "%.2f (%.2f-%.2f)", NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2,
            r[1], r[NR]}'
}
echo "2^$LOG_STEPS steps, --optimize $OPTIMIZE, 1 thread against $THREADS: median (range) of $PAIRS pairs"
printf '  %-20s %-18s %-18s %s\n' phase "t1/t$THREADS" busy "cpu cost"
cut -f1 "$OUT/1.1" | while IFS= read -r phase; do
    printf '  %-20s %-18s %-18s %s\n' "$phase" "$(summary "$phase" 1)" "$(summary "$phase" 2)" \
        "$(summary "$phase" 3)"
done
echo "== figures"
figure() { summary "proving in all" "$1" | cut -d' ' -f1; }
echo "prover_thread_ratio_${THREADS}_2^${LOG_STEPS}_${OPTIMIZE} $(figure 1)"
echo "prover_thread_busy_${THREADS}_2^${LOG_STEPS}_${OPTIMIZE} $(figure 2)"
echo "prover_thread_cpu_cost_${THREADS}_2^${LOG_STEPS}_${OPTIMIZE} $(figure 3)"
echo "== the machine's own bound"
"$BUILD/tests/thread_ceiling_bench" --threads "$THREADS"
