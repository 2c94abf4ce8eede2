#!/usr/bin/env bash
# bench/report/pairs.sh — CPU time of pmc report, the pmc before a change
# (PMC_OLD, optional) and perf report on the same files, in turns: ROUNDS
# rounds, each running every command once, and the median of each command's
# CPU time (perf stat's task-clock of the command and its threads).  On a
# machine shared with other work, the median of many rounds taken in turns
# is steadier than a best-of-N of one tool after the other.
#
#   bench/report/pairs.sh ROUNDS 'LABEL|FILE|PMC ARGS|PERF ARGS' ...
#
# e.g. 'flat|every.data||-g none'  'call graph|every.data|-g caller|'
# (perf's arguments after `perf report --stdio --no-children -i FILE`; an
# empty PERF ARGS still runs perf with none; PERF ARGS "-" runs no perf).
set -eu
ROUNDS=${1:?ROUNDS}; shift
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PMC=${PMC:-$ROOT/build/pmc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cpu() {   # CMD...: its task-clock in seconds
  perf stat -x, -e task-clock -o "$T/stat" "$@" >/dev/null 2>&1 || true
  awk -F, '/task-clock/ { printf "%.4f\n", $1 / 1000 }' "$T/stat"
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR ? a[int((NR + 1) / 2)] : "") }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b <= 0) print "—"; else printf "%.1fx", a / b }'; }
echo "| report | pmc CPU | pmc before (PMC_OLD) | perf CPU | pmc faster than perf | than before |"
echo "| --- | --- | --- | --- | --- | --- |"
for spec in "$@"; do
  IFS='|' read -r label file pargs fargs <<<"$spec"
  : >"$T/new"; : >"$T/old"; : >"$T/perf"
  for r in $(seq "$ROUNDS"); do
    # shellcheck disable=SC2086
    cpu "$PMC" report -i "$file" $pargs >>"$T/new"
    # shellcheck disable=SC2086
    [ -z "${PMC_OLD:-}" ] || cpu "$PMC_OLD" report -i "$file" $pargs >>"$T/old"
    # shellcheck disable=SC2086
    [ "$fargs" = "-" ] || cpu perf report --stdio --no-children -i "$file" $fargs >>"$T/perf"
  done
  n=$(median <"$T/new"); o=$(median <"$T/old"); f=$(median <"$T/perf")
  printf '| %s | %s s | %s | %s | %s | %s |\n' "$label" "$n" "${o:+$o s}" "${f:+$f s}" \
      "$(ratio "$f" "$n")" "$(ratio "$o" "$n")"
done
