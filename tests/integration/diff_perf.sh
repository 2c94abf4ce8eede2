#!/usr/bin/env bash
# pmc diff against perf diff on the same two perf.data files.  The events are
# page faults sampled at a frequency (-F): the kernel starts such an event at
# period 1 and raises it as the faults come, so the few samples of start-up
# (ld.so, the kernel's exec) stand for one fault each and the many of main's
# loop for hundreds.  A share is of the event count (the periods), as perf
# diff computes it; shares of sample counts put main at about half of the
# baseline where perf says 99 %.
source "$(dirname "$0")/lib.sh"

if ! command -v perf >/dev/null 2>&1; then
  skip "pmc diff vs perf diff" "perf is not installed"; done_testing; exit
fi
if ! perf record -q -o "$TMP/probe.data" -e page-faults -- true >/dev/null 2>&1; then
  skip "pmc diff vs perf diff" "perf record cannot sample page faults here"; done_testing; exit
fi

perf_record base -F 1000 -e page-faults -- "$HELPERS/touch_pages" 20000 ||
  fail "perf record (baseline)" "$(tail -1 "$TMP/base.err")"
perf_record new -F 1000 -e page-faults -- "$HELPERS/touch_pages" 60000 ||
  fail "perf record (new)" "$(tail -1 "$TMP/new.err")"

# perf diff -t '|': "baseline|delta%|dso|[.] sym", an empty field where the
# entry is in one file only.  Named symbols: "sym dso baseline delta" with
# "-" for an empty field.
perf diff -t '|' "$TMP/base.data" "$TMP/new.data" 2>/dev/null |
  awk -F'|' '!/^#/ && NF >= 4 {
      b = $1; d = $2; dso = $3; s = $4
      gsub(/[ %]/, "", b); gsub(/[ %]/, "", d); gsub(/ +$/, "", dso); sub(/^\[.\] /, "", s)
      gsub(/ +$/, "", s)
      if (s ~ /^0x/ || s ~ /@plt$/) next   # a PLT stub: perf 6.1 says "@plt", pmc names its target (pmc-script(1))
      print s, dso, (b == "" ? "-" : b), (d == "" ? "-" : d) }' >"$TMP/perf.rows"
"$PMC" diff --percent-limit 0 --color never "$TMP/base.data" "$TMP/new.data" \
  >"$TMP/pmc.txt" 2>"$TMP/pmc.err"
check "pmc diff reads both perf.data files" test -s "$TMP/pmc.txt"
awk '!/^#/ && NF >= 5 { gsub(/%/, ""); print $4, $5, $1, $3 }' "$TMP/pmc.txt" >"$TMP/pmc.rows"

# every row perf prints with a share or change of 0.05 points or more: pmc's
# baseline share and change agree within 0.02 points (both round to 0.01)
awk 'NR == FNR { pb[$1 " " $2] = $3; pd[$1 " " $2] = $4; next }
     { k = $1 " " $2; b = ($3 == "-" ? 0 : $3); d = $4
       if (b < 0.05 && (d == "-" || d < 0.05 && d > -0.05)) next
       n++
       if (!(k in pb)) { print "missing in pmc diff: " k; bad++; next }
       if (pb[k] - b > 0.02 || b - pb[k] > 0.02) { print k ": baseline " pb[k] " vs perf " b; bad++ }
       if (d != "-" && (pd[k] - d > 0.02 || d - pd[k] > 0.02)) { print k ": delta " pd[k] " vs perf " d; bad++ } }
     END { print n + 0, "rows compared"; exit bad > 0 || n < 2 }' \
  "$TMP/pmc.rows" "$TMP/perf.rows" >"$TMP/cmp.txt"
rc=$?
check "baseline shares and changes equal perf diff's ($(tail -1 "$TMP/cmp.txt"))" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMP/cmp.txt"
main_b=$(awk '$1 == "main" && $2 == "touch_pages" { print $3 }' "$TMP/pmc.rows")
check "main's baseline share is its share of the faults, not of the samples (${main_b:-none} %)" \
  awk -v b="${main_b:-0}" 'BEGIN { exit !(b > 90) }'

# JSON keeps the sample counts beside the shares
"$PMC" diff -F json --percent-limit 0 "$TMP/base.data" "$TMP/new.data" >"$TMP/d.json" 2>/dev/null
check "JSON: shares of the count, sample counts beside them" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = [r for r in d["rows"] if r["sym"] == "main"][0]
assert m["baseline"] > 90 and 0 < m["baseline_samples"] <= d["baseline_samples"]
assert abs(sum(r["baseline"] for r in d["rows"]) - 100) < 0.01
' "$TMP/d.json"
done_testing
