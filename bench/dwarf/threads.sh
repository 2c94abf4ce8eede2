#!/usr/bin/env bash
# bench/dwarf/threads.sh — the -g report of a --call-graph dwarf recording
# with the unwinding on 1 thread and on N (pmc report -j), beside perf
# report on the same perf.data (issue 26 item 2).
#
# The workload is tests/helpers/dwarf (-O2 -fomit-frame-pointer, a shared
# library, a thread), recorded once with perf record --call-graph dwarf and
# once with pmc record --call-graph dwarf (-F 4000).  Measured, best of RUNS
# runs (/usr/bin/time): wall time, CPU time (user + system) and peak RSS of
#   pmc report -g -j 1 / -j N    (perf.data and pmc log)
#   perf report --stdio --no-children -g    (perf.data)
# and prints a Markdown table (the one in docs/BENCHMARKS.md).
#
#   bench/dwarf/threads.sh [UNITS] [RUNS] [JOBS]   (defaults 40, 5, the CPUs)
set -eu
UNITS=${1:-40}
RUNS=${2:-5}
JOBS=${3:-$(nproc)}
N=25000        # bench/lib.sh's workload size (not used here)
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"      # ROOT, PMC, T, measure, ratio
CC=${CC:-cc}
mkdir -m 700 "$T/cache"
export XDG_CACHE_HOME=$T/cache
D=$ROOT/tests/helpers/dwarf
"$CC" -O2 -fomit-frame-pointer -g -fPIC -shared -o "$T/libdw_work.so" "$D/libdw_work.c"
"$CC" -O2 -fomit-frame-pointer -g -o "$T/dwarf_work" "$D/dwarf_work.c" -L"$T" -ldw_work \
    -Wl,-rpath,"$T" -lpthread
W=("$T/dwarf_work" "$UNITS")

perf record -q --call-graph dwarf -F 4000 -o "$T/perf.data" -- "${W[@]}" >/dev/null 2>&1
"$PMC" record -q --call-graph dwarf -F 4000 -o "$T/pmc.log" -- "${W[@]}" >/dev/null 2>&1
samples() { "$PMC" report -j 1 -i "$1" --color never | awk '/^# Samples:/ { gsub(",", "", $3); print $3; exit }'; }
# the caches (kernel symbols, debug files) filled once
"$PMC" report -j 1 -g -i "$T/perf.data" >/dev/null 2>&1 || true

echo "dwarf_work $UNITS, best of $RUNS runs; $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')),"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg), $(uname -r), $(perf --version)"
echo
read -r fw fm _ fc < <(measure perf report --stdio --no-children -g -i "$T/perf.data")
echo "| -g report | samples | wall | CPU | peak RSS | perf report wall / CPU | perf / pmc (wall / CPU) |"
echo "|---|---|---|---|---|---|---|"
for f in perf.data pmc.log; do
  n=$(samples "$T/$f")
  for j in 1 "$JOBS"; do
    read -r w m _ c < <(measure "$PMC" report --color never -g -j "$j" -i "$T/$f")
    if [ "$f" = perf.data ]; then
      echo "| pmc, $f, -j $j | $n | $w s | $c s | $m MB | $fw s / $fc s | $(ratio "$fw" "$w")x / $(ratio "$fc" "$c")x |"
    else
      echo "| pmc, $f, -j $j | $n | $w s | $c s | $m MB | | |"
    fi
  done
done
echo "| perf report --stdio --no-children -g, perf.data | | $fw s | $fc s | $fm MB | | |"
