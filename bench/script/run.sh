#!/usr/bin/env bash
# bench/script/run.sh — pmc script vs perf script on the same file.
#
# Records the bundled 60/30/10 workload once with `perf record -g`
# (cpu-clock, call chains) and once without call chains, then times, best of
# RUNS runs each, with /usr/bin/time for peak memory, both tools printing
# every sample of the same perf.data (and pmc the same samples converted to a
# pmc log), output to /dev/null; prints a Markdown table (docs/BENCHMARKS.md)
# and checks that the outputs are the same size, so equal work is timed.
#
#   bench/script/run.sh [SAMPLES] [RUNS]       (defaults 100000, 3)
set -eu
N=${1:-100000}
RUNS=${2:-3}
source "$(dirname "$0")/../lib.sh"
BENCH_LINES=1
perf record -q -g -e cpu-clock -c 10000 -o "$T/g.data" -- "$T/w/work603010" "$scale" >/dev/null 2>&1
perf record -q -e cpu-clock -c 10000 -o "$T/flat.data" -- "$T/w/work603010" "$scale" >/dev/null 2>&1
"$PMC" convert -i "$T/g.data" -o "$T/g.log" -f >/dev/null 2>&1

echo "Workload: work603010 (tests/helpers/analysis), perf record -e cpu-clock -c 10000"
echo "($(perf script -i "$T/flat.data" 2>/dev/null | wc -l) samples flat, $("$PMC" script -G -i "$T/g.data" | wc -l) with -g); best of $RUNS runs;"
echo "$(nproc) CPUs, $(uname -r), $(perf --version)"
echo
echo "| script | lines pmc / perf | pmc | pmc peak RSS | perf | perf peak RSS | pmc faster by |"
echo "|---|---|---|---|---|---|---|"
row "no call chains (perf.data)" "$PMC" script -i "$T/flat.data" -- perf script -i "$T/flat.data"
row "call chains (perf.data)" "$PMC" script -i "$T/g.data" -- perf script -i "$T/g.data"
row "call chains, pmc log of the same" "$PMC" script -i "$T/g.log" -- perf script -i "$T/g.data"
row "call chains, --no-inline" "$PMC" script --no-inline -i "$T/g.data" -- \
    perf script --no-inline -i "$T/g.data"
