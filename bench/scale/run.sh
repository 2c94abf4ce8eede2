#!/usr/bin/env bash
# bench/scale/run.sh — pmc and perf side by side on the same input, on CPUS
# CPUs (every command runs under `taskset -c 0-(CPUS-1)`; the workloads run
# one copy per CPU), so that the same pairs can be measured on any machine:
#   1. the everyday file: `perf record -g` of the 60/30/10 workload, ~100 k
#      samples (cpu-clock, -c 10000):
#        pmc report -i DATA              vs  perf report --stdio --no-children -g none
#        pmc report -g caller -i DATA    vs  perf report --stdio --no-children
#   2. a DWARF recording, system-wide (`record -a --call-graph dwarf -F 1000`
#      while CPUS copies of tests/helpers/dwarf run), recorded by perf
#      (perf.data) and by pmc (its log): the flat report of both (pmc
#      unwinds nothing for it) and the -g report (unwound), against perf's;
#   3. the recorder: `record -a -g -F 20000` for SECS seconds beside CPUS
#      busy copies of the 60/30/10 workload, pmc record vs perf record: the
#      recorder's CPU time (user + system), peak RSS, samples and lost
#      samples.
# Report times are CPU time (perf stat's task-clock, best of RUNS), the
# recorder's user + system: on a shared machine wall time mostly measures
# the neighbours.  Prints Markdown tables (those
# in docs/BENCHMARKS.md).
#
#   bench/scale/run.sh [CPUS] [RUNS] [SECS]     (defaults: every CPU, 3, 3)
set -eu
CPUS=${1:-$(nproc)}
RUNS=${2:-3}
SECS=${3:-3}
N=100000
source "$(dirname "$0")/../lib.sh"
if ! command -v perf >/dev/null; then
  echo "bench/scale/run.sh: perf is not installed (scripts/deps.sh: OPTIONAL)" >&2
  exit 2
fi
case $CPUS in ''|*[!0-9]*|0) echo "bench/scale/run.sh: CPUS must be a number > 0" >&2; exit 2;; esac
TS=(taskset -c "0-$((CPUS - 1))")
CC=${CC:-cc}
D=$ROOT/tests/helpers/dwarf
"$CC" -O2 -fomit-frame-pointer -g -fPIC -shared -o "$T/libdw_work.so" "$D/libdw_work.c"
"$CC" -O2 -fomit-frame-pointer -g -o "$T/dwarf_work" "$D/dwarf_work.c" -L"$T" -ldw_work \
    -Wl,-rpath,"$T" -lpthread

# CPUS copies of a command, in the background; waited for by `wait`
copies() { local i; for i in $(seq "$CPUS"); do "${TS[@]}" "$@" >/dev/null 2>&1 & done; }

cpu_row() {   # NAME PMC-CMD... -- PERF-CMD...: CPU times and their ratio
  local name=$1 pc fc; shift
  local pcmd=() fcmd=()
  while [ "$1" != "--" ]; do pcmd+=("$1"); shift; done; shift
  fcmd=("$@")
  pc=$(cpu_best "${TS[@]}" "${pcmd[@]}")
  if [ ${#fcmd[@]} -gt 0 ]; then
    fc=$(cpu_best "${TS[@]}" "${fcmd[@]}")
    printf '| %s | %s s | %s s | %sx |\n' "$name" "$pc" "$fc" "$(ratio "$fc" "$pc")"
  else
    printf '| %s | %s s | — | — |\n' "$name" "$pc"
  fi
}
samples_of() { "$PMC" report -i "$1" -F json 2>/dev/null |
  python3 -c 'import json,sys; print(sum(e["samples"] for e in json.load(sys.stdin)["events"]))'; }

echo "CPUs: $CPUS of $(nproc) ($(uname -m)), runs: $RUNS"
echo
# ---- 1. the everyday file -----------------------------------------------------
# ~100 k samples: the workload's scale found from a first recording (a unit
# of it is not the same CPU time on every machine)
every() { "${TS[@]}" perf record -q -g -e cpu-clock -c 10000 -o "$T/every.data" -- \
    "$T/w/work603010" "$1" >/dev/null 2>&1; samples_of "$T/every.data"; }
got=$(every "$scale")
if [ "$got" -lt $((N * 8 / 10)) ]; then
  scale=$(( scale * N / (got > 0 ? got : 1) + 1 ))
  got=$(every "$scale")
fi
echo "Everyday file: $got samples (perf record -g -e cpu-clock -c 10000)"
echo
echo "| report | pmc CPU | perf CPU | pmc faster by |"
echo "| --- | --- | --- | --- |"
cpu_row "flat" "$PMC" report -i "$T/every.data" -- \
    perf report --stdio --no-children -g none -i "$T/every.data"
cpu_row "-g (caller)" "$PMC" report -g caller -i "$T/every.data" -- \
    perf report --stdio --no-children -i "$T/every.data"
echo

# ---- 2. a DWARF recording ---------------------------------------------------------
copies "$T/dwarf_work" 20
"${TS[@]}" perf record -q -a --call-graph dwarf -F 1000 -o "$T/dw.data" -- sleep "$SECS" >/dev/null 2>&1
wait
copies "$T/dwarf_work" 20
"${TS[@]}" "$PMC" record -q -a --call-graph dwarf -F 1000 -o "$T/dw.log" -- sleep "$SECS" \
    >/dev/null 2>&1
wait
echo "DWARF recording (record -a --call-graph dwarf -F 1000, ${SECS} s): perf.data" \
    "$(samples_of "$T/dw.data") samples, pmc log $(samples_of "$T/dw.log") samples"
echo
echo "| report | pmc CPU | perf CPU | pmc faster by |"
echo "| --- | --- | --- | --- |"
cpu_row "flat, perf.data" "$PMC" report -i "$T/dw.data" -- \
    perf report --stdio --no-children -g none -i "$T/dw.data"
cpu_row "flat, pmc log" "$PMC" report -i "$T/dw.log" --
cpu_row "-g (caller), perf.data" "$PMC" report -g caller -i "$T/dw.data" -- \
    perf report --stdio --no-children -i "$T/dw.data"
cpu_row "-g (caller), pmc log" "$PMC" report -g caller -i "$T/dw.log" --
echo

# ---- 3. the recorder ---------------------------------------------------------------
recorder() {   # NAME OUT CMD...: the recorder's CPU, peak RSS; samples and lost
  local name=$1 out=$2 u y k; shift 2
  copies "$T/w/work603010" 40
  /usr/bin/time -f '%U %S %M' -o "$T/rtime" "${TS[@]}" "$@" >/dev/null 2>"$T/rerr" || true
  kill $(jobs -p) 2>/dev/null || true
  wait 2>/dev/null || true
  read -r u y k <"$T/rtime"
  printf '%s %s %s\n' "$(awk -v a="$u" -v b="$y" 'BEGIN{ printf "%.2f", a + b }')" "$((k / 1024))" \
      "$(samples_of "$out")"
}
echo "| record -a -g -F 20000, ${SECS} s | CPU (user + sys) | peak RSS | samples | lost |"
echo "| --- | --- | --- | --- | --- |"
read -r c m s < <(recorder pmc "$T/rec.log" "$PMC" record -a -g -F 20000 -o "$T/rec.log" -- sleep "$SECS")
lost=$("$PMC" report -i "$T/rec.log" -F json 2>/dev/null |
  python3 -c 'import json,sys; print(sum(e["lost"] for e in json.load(sys.stdin)["events"]))')
echo "| pmc record | $c s | $m MB | $s | $lost |"
read -r c m s < <(recorder perf "$T/rec.data" perf record -a -g -F 20000 -o "$T/rec.data" -- sleep "$SECS")
lost=$(perf report --stats -i "$T/rec.data" 2>/dev/null | awk '/LOST events:/ { n += $3 } END { print n + 0 }')
echo "| perf record | $c s | $m MB | $s | $lost |"
