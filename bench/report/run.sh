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
# "perfdata" times only perf.data input, with CPU time too (for millions
# of samples, where perf's source-line and call-graph reports take minutes),
# pmc, perf and PMC_OLD taking turns, in three pairings: each tool's
# default (pmc flat, perf flat with call graphs), flat vs flat (perf -g
# none) and call graph vs call graph (pmc -g callee); ROWS "log" the flat and the caller
# call-graph reports of the pmc log, with CPU time too.
#
#   bench/report/run.sh [SAMPLES] [RUNS] [all|perfdata|log]   (defaults 200000, 3, all)
#   PMC_OLD=/path/to/pmc: with perfdata or log, that pmc on the same files too
#   BENCH_PERF_DATA=FILE: with perfdata, time that perf.data instead of
#     recording one (SAMPLES is then unused; a file of millions of samples
#     recorded once, as `perf record -g -e cpu-clock -c 10000 work603010 40`)
set -eu
N=${1:-200000}
RUNS=${2:-3}
ROWS=${3:-all}
if [ -n "${BENCH_PERF_DATA:-}" ] && [ "$ROWS" != perfdata ]; then
  echo "bench/report/run.sh: BENCH_PERF_DATA is for the perfdata rows only" >&2
  exit 2
fi
if [ -n "${BENCH_PERF_DATA:-}" ] && [ ! -r "$BENCH_PERF_DATA" ]; then
  echo "bench/report/run.sh: cannot read BENCH_PERF_DATA=$BENCH_PERF_DATA" >&2
  exit 2
fi
source "$(dirname "$0")/../lib.sh"
if [ "$ROWS" = perfdata ]; then
  DATA=${BENCH_PERF_DATA:-$T/perf.data}
  [ -n "${BENCH_PERF_DATA:-}" ] ||
    perf record -q -g -e cpu-clock -c 10000 -o "$DATA" -- "$T/w/work603010" "$scale" >/dev/null 2>&1
  samples=$("$PMC" report -i "$DATA" --color never | awk '/^# Samples:/ { gsub(",", "", $3); print $3; exit }')
  echo "perf.data: ${BENCH_PERF_DATA:-work603010 (tests/helpers/analysis), perf record -g -e cpu-clock -c 10000}"
  echo "$samples samples with call chains, best of $RUNS rounds (the tools in turn);"
  echo "$(nproc) CPUs, $(uname -r), $(perf --version)"
  echo
  # pmc, perf and PMC_OLD (another pmc, say main's build, for old -> new)
  # take turns, one run each per round, best of RUNS rounds: on a shared
  # machine the load changes while the bench runs, and taking turns makes
  # it weigh on all alike (three runs of one, then three of the next, once
  # measured one pmc 40 % slower than the same binary).  Three pairings:
  # what each tool prints by default (pmc a flat profile, perf a flat
  # profile with each entry's call graph: the issue's figure), flat against
  # flat (perf -g none: no chain is resolved), and call graph against call
  # graph (pmc -g callee, the shape of perf's default).
  tools=(pmc pmc_cg perf perf_flat)
  [ -z "${PMC_OLD:-}" ] || tools+=(old old_cg)
  declare -A bt bm bc
  for r in $(seq "$RUNS"); do
    for k in "${tools[@]}"; do
      case $k in
        pmc) cmd=("$PMC" report -i "$DATA" --color never) ;;
        pmc_cg) cmd=("$PMC" report -g callee -i "$DATA" --color never) ;;
        perf) cmd=(perf report --stdio --no-children -i "$DATA") ;;
        perf_flat) cmd=(perf report --stdio --no-children -g none -i "$DATA") ;;
        old) cmd=("$PMC_OLD" report -i "$DATA" --color never) ;;
        old_cg) cmd=("$PMC_OLD" report -g callee -i "$DATA" --color never) ;;
      esac
      read -r t m _ c < <(RUNS=1 measure "${cmd[@]}")
      if [ -z "${bt[$k]:-}" ] || awk -v a="$t" -v b="${bt[$k]}" 'BEGIN{exit !(a<b)}'; then bt[$k]=$t; fi
      if [ -z "${bc[$k]:-}" ] || awk -v a="$c" -v b="${bc[$k]}" 'BEGIN{exit !(a<b)}'; then bc[$k]=$c; fi
      if [ -z "${bm[$k]:-}" ] || [ "$m" -gt "${bm[$k]}" ]; then bm[$k]=$m; fi
    done
  done
  echo "| report | pmc | pmc peak RSS | perf | perf peak RSS | pmc faster by | pmc CPU | perf CPU | pmc faster by (CPU) |"
  echo "|---|---|---|---|---|---|---|---|---|"
  # pair NAME PMC-KEY PERF-KEY
  pair() {
    [ -n "${bt[$2]:-}" ] || return 0
    printf '| %s | %s s | %s MB | %s s | %s MB | %sx | %s s | %s s | %sx |\n' "$1" "${bt[$2]}" \
      "${bm[$2]}" "${bt[$3]}" "${bm[$3]}" "$(ratio "${bt[$3]}" "${bt[$2]}")" "${bc[$2]}" \
      "${bc[$3]}" "$(ratio "${bc[$3]}" "${bc[$2]}")"
  }
  pair "defaults: pmc report (flat) vs perf report (flat + call graphs)" pmc perf
  pair "flat vs flat: pmc report vs perf report -g none" pmc perf_flat
  pair "call graphs: pmc report -g callee vs perf report" pmc_cg perf
  pair "defaults, PMC_OLD" old perf
  pair "flat vs flat, PMC_OLD" old perf_flat
  pair "call graphs, PMC_OLD" old_cg perf
  exit 0
fi
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
if [ "$ROWS" = log ]; then
  echo "| report | pmc | pmc peak RSS | perf | perf peak RSS | pmc faster by | pmc CPU | perf CPU | pmc faster by (CPU) |"
  echo "|---|---|---|---|---|---|---|---|---|"
  cpu_rows "flat, symbols (pmc log)" "$T/pmc.log" -- \
      perf report --stdio --no-children -i "$T/perf.data"
  cpu_rows "call graph (caller)" "$T/pmc.log" -g caller -- \
      perf report --stdio --no-children -G -i "$T/perf.data"
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
