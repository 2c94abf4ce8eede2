#!/usr/bin/env bash
# bench/report/pairs.sh — CPU time of pmc report, the pmc before a change
# (PMC_OLD, optional) and perf report on the same files, in turns: ROUNDS
# rounds, each running every command once, and the median of each command's
# CPU time (perf stat's task-clock of the command and its threads).  On a
# machine shared with other work, the median of many rounds taken in turns
# is steadier than a best-of-N of one tool after the other.  With
# PAIRS_MEASURE=rss, the median peak RSS instead (/usr/bin/time's %M, in
# MB), each with its run's CPU time (user + system) beside it.
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
MEASURE=${PAIRS_MEASURE:-cpu}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
case $MEASURE in
  cpu) what=CPU ;;
  rss) what="peak RSS (CPU)"
       [ -x /usr/bin/time ] || { echo "pairs.sh: rss needs /usr/bin/time (Debian's time)" >&2; exit 1; } ;;
  *) echo "pairs.sh: PAIRS_MEASURE is cpu or rss" >&2; exit 2 ;;
esac
# measure CMD...: a line whose first field is what is compared (seconds
# of task-clock; MB of peak RSS, then the CPU seconds)
measure() {
  if [ "$MEASURE" = cpu ]; then
    perf stat -x, -e task-clock -o "$T/stat" "$@" >/dev/null 2>&1 || true
    awk -F, '/task-clock/ { printf "%.4f\n", $1 / 1000 }' "$T/stat"
  else
    /usr/bin/time -f '%M %U %S' -o "$T/time" "$@" >/dev/null 2>&1 || true
    awk 'END { printf "%.0f %.2f\n", $1 / 1024, $2 + $3 }' "$T/time"
  fi
}
median() { sort -n | awk '{ a[NR] = $0 } END { print (NR ? a[int((NR + 1) / 2)] : "") }'; }
ratio() { awk -v a="${1%% *}" -v b="${2%% *}" 'BEGIN { if (a == "" || b == "" || b <= 0) print "—"; else printf "%.1fx", a / b }'; }
cell() {  # a median as the table shows it ("" stays empty)
  [ -n "$1" ] || return 0
  if [ "$MEASURE" = cpu ]; then echo "$1 s"; else echo "${1%% *} MB (${1#* } s)"; fi
}
echo "| report | pmc $what | pmc before (PMC_OLD) | perf $what | $([ "$MEASURE" = cpu ] && echo "pmc faster than perf" || echo "perf / pmc") | than before |"
echo "| --- | --- | --- | --- | --- | --- |"
for spec in "$@"; do
  IFS='|' read -r label file pargs fargs <<<"$spec"
  : >"$T/new"; : >"$T/old"; : >"$T/perf"
  for r in $(seq "$ROUNDS"); do
    # shellcheck disable=SC2086
    measure "$PMC" report -i "$file" $pargs >>"$T/new"
    # shellcheck disable=SC2086
    [ -z "${PMC_OLD:-}" ] || measure "$PMC_OLD" report -i "$file" $pargs >>"$T/old"
    # shellcheck disable=SC2086
    [ "$fargs" = "-" ] || measure perf report --stdio --no-children -i "$file" $fargs >>"$T/perf"
  done
  n=$(median <"$T/new"); o=$(median <"$T/old"); f=$(median <"$T/perf")
  printf '| %s | %s | %s | %s | %s | %s |\n' "$label" "$(cell "$n")" "$(cell "$o")" "$(cell "$f")" \
      "$(ratio "$f" "$n")" "$(ratio "$o" "$n")"
done
