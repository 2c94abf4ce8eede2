#!/usr/bin/env bash
# bench/inline/run.sh — the cost of deep inline chains (issue 22 item 3).
#
# Builds tests/helpers/toolchains/nested_inline.sh's program at several
# depths (main -> f0 -> ... -> f(N-1), all always_inline, -O2 -g), records
# each once with `pmc record --call-graph dwarf`, and times `pmc report -g`,
# `pmc script` and flat `pmc report` on it, best of RUNS runs.  A Markdown
# table: report -g should cost about what the flat report does at any depth
# (it was quadratic with dwarf_getscopes: depth 500 took 101 s), script
# grows with what it prints (depth + 1 lines per sample).
#
#   bench/inline/run.sh [DEPTHS] [RUNS]     (defaults "125 250 500 1000 2000", 3)
set -eu
DEPTHS=${1:-125 250 500 1000 2000}
RUNS=${2:-3}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PMC=${PMC:-$ROOT/build/pmc}
CC=${CC:-cc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

best() {   # best wall time (s) of RUNS runs of CMD...
  local b= i s
  for i in $(seq "$RUNS"); do
    /usr/bin/time -f '%e' -o "$T/time" "$@" >/dev/null 2>&1 || true
    s=$(cat "$T/time")
    if [ -z "$b" ] || awk -v a="$s" -v b="$b" 'BEGIN { exit !(a < b) }'; then b=$s; fi
  done
  echo "$b"
}

echo "$(nproc) CPUs, $(uname -r), $($CC --version | head -1); best of $RUNS runs"
echo
echo "| depth | samples | report -g (s) | flat report (s) | script (s) | script lines |"
echo "|---:|---:|---:|---:|---:|---:|"
for N in $DEPTHS; do
  sh "$ROOT/tests/helpers/toolchains/nested_inline.sh" "$N" >"$T/n$N.c"
  "$CC" -O2 -g -o "$T/n$N" "$T/n$N.c"
  "$PMC" record --call-graph dwarf -o "$T/n$N.log" -- "$T/n$N" >/dev/null 2>&1
  samples=$("$PMC" report -i "$T/n$N.log" --stdio 2>/dev/null | awk '/^# Samples:/ { gsub(",", "", $3); print $3; exit }')
  g=$(best "$PMC" report -i "$T/n$N.log" -g --stdio)
  s=$(best "$PMC" script -i "$T/n$N.log")
  f=$(best "$PMC" report -i "$T/n$N.log" --stdio)
  lines=$("$PMC" script -i "$T/n$N.log" 2>/dev/null | wc -l)
  echo "| $N | $samples | $g | $f | $s | $lines |"
done
