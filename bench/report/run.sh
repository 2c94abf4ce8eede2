#!/usr/bin/env bash
# bench/report/run.sh — pmc report vs perf report on the same samples.
#
# Records the bundled 60/30/10 workload once with `perf record -g`
# (cpu-clock, call chains; ~200k samples), converts that perf.data into a
# pmc log with `pmc convert` (the same samples, mappings and names), then
# times, best of N runs each, with /usr/bin/time for peak memory:
#   pmc report -i LOG                       vs  perf report --stdio --no-children -i DATA
#   pmc report -i LOG -s sym,srcline        vs  perf report --stdio --no-children -s sym,srcline -i DATA
#   pmc report -i DATA (perf.data directly) for the reader's cost
# and prints a Markdown table (the one in docs/BENCHMARKS.md).  ROWS
# "perfdata" times only the perf.data row, with CPU time too (for millions
# of samples, where perf's source-line and call-graph reports take minutes);
# ROWS "log" the flat and the caller call-graph reports of the pmc log, with
# CPU time too.
#
#   bench/report/run.sh [SAMPLES] [RUNS] [all|perfdata|log]   (defaults 200000, 3, all)
#   PMC_OLD=/path/to/pmc: with perfdata or log, that pmc on the same files too
set -eu
N=${1:-200000}
RUNS=${2:-3}
ROWS=${3:-all}
source "$(dirname "$0")/../lib.sh"
perf record -q -g -e cpu-clock -c 10000 -o "$T/perf.data" -- "$T/w/work603010" "$scale" >/dev/null 2>&1
"$PMC" convert -i "$T/perf.data" -o "$T/pmc.log" -f >/dev/null 2>&1
samples=$("$PMC" report -i "$T/pmc.log" --color never | awk '/^# Samples:/ { gsub(",", "", $3); print $3; exit }')

echo "Workload: work603010 (tests/helpers/analysis), $samples samples with call chains"
echo "(perf record -g -e cpu-clock -c 10000; pmc log from pmc convert), best of $RUNS runs;"
echo "$(nproc) CPUs, $(uname -r), $(perf --version)"
echo
# cpu_rows NAME INPUT [PMC-ARGS...] -- PERF-CMD...: a row with CPU time, pmc
# against perf, and with PMC_OLD another pmc (say main's build) on the same
# file, for old -> new
cpu_rows() {
  local name=$1 in=$2 args=(); shift 2
  while [ "$1" != "--" ]; do args+=("$1"); shift; done; shift
  BENCH_CPU=1 row "$name" "$PMC" report -i "$in" "${args[@]}" --color never -- "$@"
  [ -z "${PMC_OLD:-}" ] || BENCH_CPU=1 row "the same, PMC_OLD" "$PMC_OLD" report -i "$in" \
      "${args[@]}" --color never --
}
if [ "$ROWS" = perfdata ] || [ "$ROWS" = log ]; then
  echo "| report | pmc | pmc peak RSS | perf | perf peak RSS | pmc faster by | pmc CPU | perf CPU | pmc faster by (CPU) |"
  echo "|---|---|---|---|---|---|---|---|---|"
  if [ "$ROWS" = perfdata ]; then
    cpu_rows "flat, symbols (perf.data input)" "$T/perf.data" -- \
        perf report --stdio --no-children -i "$T/perf.data"
  else
    cpu_rows "flat, symbols (pmc log)" "$T/pmc.log" -- \
        perf report --stdio --no-children -i "$T/perf.data"
    cpu_rows "call graph (caller)" "$T/pmc.log" -g caller -- \
        perf report --stdio --no-children -G -i "$T/perf.data"
  fi
  exit 0
fi
echo "| report | pmc | pmc peak RSS | perf | perf peak RSS | pmc faster by |"
echo "|---|---|---|---|---|---|"
row "flat, symbols (pmc log)" "$PMC" report -i "$T/pmc.log" --color never -- \
    perf report --stdio --no-children -i "$T/perf.data"
row "flat, sym + srcline" "$PMC" report -i "$T/pmc.log" -s sym,srcline --color never -- \
    perf report --stdio --no-children -s sym,srcline -i "$T/perf.data"
row "flat, symbols (perf.data input)" "$PMC" report -i "$T/perf.data" --color never -- \
    perf report --stdio --no-children -i "$T/perf.data"
row "call graph (caller)" "$PMC" report -i "$T/pmc.log" -g caller --color never -- \
    perf report --stdio --no-children -G -i "$T/perf.data"
row "folded stacks" "$PMC" report -i "$T/pmc.log" -F folded --
row "pprof" "$PMC" report -i "$T/pmc.log" -F pprof -o "$T/x.pb.gz" -f --
row "html" "$PMC" report -i "$T/pmc.log" -F html -o "$T/x.html" -f --
