#!/usr/bin/env bash
# cpulist.sh — one CPU-list grammar (analysis/util/cpulist.c), perf's: CPU
# numbers and ranges A-B, comma separated.  report/script/annotate/diff's
# --cpu filter takes ranges as perf report --cpu does (it refused "0-3"
# before), and keeps the same samples as the list written out; stat and
# record's -C read the same grammar.
source "$(dirname "$0")/lib.sh"

if ! command -v perf >/dev/null; then
  skip "report --cpu ranges" "perf is not installed (scripts/deps.sh: OPTIONAL)"
  done_testing; exit
fi
# one busy process pinned to each of the first two CPUs (one CPU: both on 0)
c1=1; [ "$(nproc)" -ge 2 ] || c1=0
if ! perf_record cpus --sample-cpu -e cpu-clock -c 100000 -- sh -c \
    "taskset -c 0 '$HELPERS/busy' 150 & taskset -c $c1 '$HELPERS/busy' 150; wait"; then
  fail "perf record of two pinned processes" "$(head -3 "$TMP/cpus.err")"
  done_testing; exit
fi
D=$TMP/cpus.data

# report: a range is its CPUs written out; the whole range is every sample
rep() { "$PMC" report -i "$D" --stdio --color never -s cpu,comm "$@" 2>&1; }
rep --cpu 0-1 >"$TMP/r01"
check "report --cpu 0-1: accepted (exit 0)" test "${PIPESTATUS[0]}" = 0 -a -s "$TMP/r01"
rep --cpu 0,1 >"$TMP/r0c1"
check "report --cpu 0-1 is --cpu 0,1" cmp -s "$TMP/r01" "$TMP/r0c1"
rep --cpu 0 >"$TMP/r0"
rep --cpu 0-0 >"$TMP/r00"
check "report --cpu 0-0 is --cpu 0" cmp -s "$TMP/r0" "$TMP/r00"
rows() { grep -v '^#' "$1" | grep -v '^$'; }
check "report --cpu 0-1: every row of the unfiltered report" \
  cmp -s <(rows "$TMP/r01") <(rows <(rep))
check "report --cpu 0: only CPU 0's rows" \
  awk '!/^#/ && NF { n++; if ($3 != 0) bad = 1 } END { exit !(n > 0 && !bad) }' "$TMP/r0"

# the samples kept agree with perf's --cpu, range and list alike
for l in 0-1 "$c1" 0,"$c1" "$c1"-"$c1"; do
  n=$("$PMC" script -i "$D" -G --cpu "$l" 2>/dev/null | wc -l)
  p=$(perf_oracle perf script -i "$D" -F comm,cpu --cpu "$l" | wc -l)
  check "script --cpu $l keeps perf's $p samples ($n)" test "$n" -gt 0 -a "$n" = "$p"
done

# bad lists: one message, exit 2, in report and script as in stat's -C
for l in 3-0 0- -1 0,,1 x; do
  "$PMC" report -i "$D" --stdio --cpu "$l" >/dev/null 2>"$TMP/e"
  check "report --cpu '$l': a usage error" \
    test $? -eq 2 -a "$(grep -c "pmc report: --cpu: '$l' is not a CPU number or range" "$TMP/e")" = 1
done
"$PMC" stat -C 1-0 -e cpu-clock -- true >/dev/null 2>"$TMP/e"
check "stat -C 1-0: a usage error" test $? -eq 2 -a "$(grep -c "'1-0' is not a CPU list" "$TMP/e")" = 1
"$PMC" stat -C 0-99999 -e cpu-clock -- true >/dev/null 2>"$TMP/e"
check "stat -C 0-99999: a CPU this machine does not have" \
  test $? -eq 2 -a "$(grep -c "names a CPU this machine does not have" "$TMP/e")" = 1
"$PMC" stat -C 0-"$c1" -e cpu-clock -x, -- sleep 0.05 >/dev/null 2>"$TMP/e"
check "stat -C 0-$c1: counts" test $? -eq 0

done_testing
