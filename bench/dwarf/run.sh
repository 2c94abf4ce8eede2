#!/usr/bin/env bash
# bench/dwarf/run.sh — DWARF call chains, pmc and perf side by side.
#
# The workload is tests/helpers/dwarf (-O2 -fomit-frame-pointer, a shared
# library, a thread).  Measured, best of RUNS runs (/usr/bin/time for wall
# time and peak memory):
#   1. reporting one `perf record --call-graph dwarf` file:
#        pmc report -i DATA [-g]   vs   perf report --stdio -i DATA
#      (wall time, CPU time and peak RSS: wall time alone is noise on a
#      shared machine)
#   2. bytes per DWARF sample: pmc record --call-graph dwarf's log vs perf.data
#   3. the CPU time (user + system, workload and recorder together) of the
#      workload alone, under pmc record and under perf record (both
#      --call-graph dwarf, 4000 samples/s): the recording's cost, measured
#      in CPU time because wall time on a shared machine is mostly noise
# and prints Markdown tables (the ones in docs/BENCHMARKS.md).
#
#   bench/dwarf/run.sh [UNITS] [RUNS]     (defaults 40 (~10k samples), 3)
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PMC=${PMC:-$ROOT/build/pmc}
UNITS=${1:-40}
RUNS=${2:-3}
CC=${CC:-cc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# pmc's caches (kernel symbols, decompressed debug files: docs/analysis.md)
# in a fresh directory of ours, so that the machine's ~/.cache cannot help
# or hinder; the first of RUNS runs fills them, "caches off" runs without
mkdir -m 700 "$T/cache"
export XDG_CACHE_HOME=$T/cache
unset PMC_NO_KSYM_CACHE
D=$ROOT/tests/helpers/dwarf
"$CC" -O2 -fomit-frame-pointer -g -fPIC -shared -o "$T/libdw_work.so" "$D/libdw_work.c"
"$CC" -O2 -fomit-frame-pointer -g -o "$T/dwarf_work" "$D/dwarf_work.c" -L"$T" -ldw_work \
    -Wl,-rpath,"$T" -lpthread
W=("$T/dwarf_work" "$UNITS")

# best wall time (s) and peak RSS (MB) of RUNS runs of a command
# (with TIMEFMT='%U %S %M': the best user + system CPU time)
measure() {
  local best= mem= i s k u y
  for i in $(seq "$RUNS"); do
    if [ -n "${TIMEFMT:-}" ]; then
      /usr/bin/time -f '%U %S %M' -o "$T/time" "$@" >"$T/out" 2>/dev/null || true
      read -r u y k <"$T/time"
      s=$(awk -v a="$u" -v b="$y" 'BEGIN { printf "%.2f", a + b }')
    else
      /usr/bin/time -f '%e %M' -o "$T/time" "$@" >"$T/out" 2>/dev/null || true
      read -r s k <"$T/time"
    fi
    if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$s; fi
    if [ -z "$mem" ] || [ "$k" -gt "$mem" ]; then mem=$k; fi
  done
  echo "$best $((mem / 1024))"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ printf "%.1f", (b > 0 ? a / b : 0) }'; }

perf record -q --call-graph dwarf -F 4000 -o "$T/perf.data" -- "${W[@]}" >/dev/null 2>&1
"$PMC" record -q --call-graph dwarf -F 4000 -o "$T/pmc.log" -- "${W[@]}" >/dev/null 2>&1
psamples=$("$PMC" report -i "$T/perf.data" --color never | awk '/^# Samples:/ { gsub(",", "", $3); print $3; exit }')
msamples=$("$PMC" report -i "$T/pmc.log" --color never | awk '/^# Samples:/ { gsub(",", "", $3); print $3; exit }')

echo "Workload: dwarf_work $UNITS (tests/helpers/dwarf, -O2 -fomit-frame-pointer), best of $RUNS runs;"
echo "$(nproc) CPUs, $(uname -r), $(perf --version)"
echo
echo "Reporting one perf.data recorded with perf record --call-graph dwarf ($psamples samples):"
echo
echo "| report | pmc wall | pmc CPU | pmc peak RSS | perf wall | perf CPU | perf peak RSS | pmc faster by (wall / CPU) |"
echo "|---|---|---|---|---|---|---|---|"
read -r ft fm < <(measure perf report --stdio -i "$T/perf.data")
read -r fc _ < <(TIMEFMT=cpu measure perf report --stdio -i "$T/perf.data")
for c in "" off; do
  for g in "" -g; do
    read -r pt pm < <(measure env ${c:+PMC_NO_KSYM_CACHE=1} "$PMC" report --color never $g -i "$T/perf.data")
    read -r pc _ < <(TIMEFMT=cpu measure env ${c:+PMC_NO_KSYM_CACHE=1} "$PMC" report --color never $g -i "$T/perf.data")
    echo "| ${g:-flat}${c:+, caches off} | $pt s | $pc s | $pm MB | $ft s | $fc s | $fm MB | $(ratio "$ft" "$pt")x / $(ratio "$fc" "$pc")x |"
  done
done
echo
pb=$(stat -c %s "$T/perf.data"); mb=$(stat -c %s "$T/pmc.log")
echo "| bytes per DWARF sample | pmc log | perf.data | perf / pmc |"
echo "|---|---|---|---|"
echo "| 8192-byte stack copies | $((mb / msamples)) ($msamples samples) | $((pb / psamples)) ($psamples samples) | $(ratio "$((pb / psamples))" "$((mb / msamples))")x |"
echo
read -r bt _ < <(TIMEFMT=cpu measure "${W[@]}")
read -r rt _ < <(TIMEFMT=cpu measure "$PMC" record -q --call-graph dwarf -F 4000 -f -o "$T/x.log" -- "${W[@]}")
read -r qt _ < <(TIMEFMT=cpu measure perf record -q --call-graph dwarf -F 4000 -o "$T/x.data" -- "${W[@]}")
echo "| CPU time (user + system) | alone | pmc record --call-graph dwarf | perf record --call-graph dwarf |"
echo "|---|---|---|---|"
echo "| dwarf_work $UNITS | $bt s | $rt s (+$(awk -v a="$rt" -v b="$bt" 'BEGIN{printf "%.0f", 100*(a-b)/b}') %) | $qt s (+$(awk -v a="$qt" -v b="$bt" 'BEGIN{printf "%.0f", 100*(a-b)/b}') %) |"
