#!/usr/bin/env bash
# bench/report/rss.sh — peak RSS of pmc report, of the pmc before a change
# (PMC_OLD, optional) and of perf report on the same files: ROUNDS rounds
# in turns, the median of each command's peak RSS (/usr/bin/time's %M, in
# MB), with its CPU time (user + system) beside it.
#
#   bench/report/rss.sh ROUNDS 'LABEL|FILE|PMC ARGS|PERF ARGS' ...
#
# e.g. '-g -j 1|dw.log|-g caller -j 1|-'  '-g|dw.data|-g caller -j 2|-g caller'
# (perf's arguments after `perf report --stdio --no-children -i FILE`; PERF
# ARGS "-" runs no perf).
set -eu
ROUNDS=${1:?ROUNDS}; shift
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PMC=${PMC:-$ROOT/build/pmc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
[ -x /usr/bin/time ] || { echo "rss.sh: needs /usr/bin/time (Debian's time package)" >&2; exit 1; }
peak() {   # CMD...: "peak-MB cpu-s"
  /usr/bin/time -f '%M %U %S' -o "$T/time" "$@" >/dev/null 2>&1 || true
  awk 'END { printf "%.0f %.2f\n", $1 / 1024, $2 + $3 }' "$T/time"
}
median() { sort -n | awk '{ a[NR] = $0 } END { print (NR ? a[int((NR + 1) / 2)] : "") }'; }
col() { [ -n "$1" ] && awk -v s="$1" 'BEGIN { split(s, f, " "); printf "%s MB (%s s)", f[1], f[2] }'; }
echo "| report | pmc peak RSS (CPU) | pmc before (PMC_OLD) | perf | perf / pmc RSS |"
echo "| --- | --- | --- | --- | --- |"
for spec in "$@"; do
  IFS='|' read -r label file pargs fargs <<<"$spec"
  : >"$T/new"; : >"$T/old"; : >"$T/perf"
  for r in $(seq "$ROUNDS"); do
    # shellcheck disable=SC2086
    peak "$PMC" report --stdio -i "$file" $pargs >>"$T/new"
    # shellcheck disable=SC2086
    [ -z "${PMC_OLD:-}" ] || peak "$PMC_OLD" report --stdio -i "$file" $pargs >>"$T/old"
    # shellcheck disable=SC2086
    [ "$fargs" = "-" ] || peak perf report --stdio --no-children -i "$file" $fargs >>"$T/perf"
  done
  n=$(median <"$T/new"); o=$(median <"$T/old"); f=$(median <"$T/perf")
  ratio=$(awk -v a="${f%% *}" -v b="${n%% *}" 'BEGIN { if (a == "" || b <= 0) print "—"; else printf "%.1fx", a / b }')
  printf '| %s | %s | %s | %s | %s |\n' "$label" "$(col "$n")" "$(col "$o")" "$(col "$f")" "$ratio"
done
