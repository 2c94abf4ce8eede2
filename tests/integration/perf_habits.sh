#!/usr/bin/env bash
# perf's habits (issue 22 item 5), accepted with perf's meaning: report with
# no -i and no pmc.log reads perf.data (and says so), else names both;
# report --header-only, -T, -v, --tui (a clear refusal), --sort overhead,...;
# script --header; annotate --stdio; top --stdio and --call-graph fp|dwarf;
# list hw|sw|cache|tracepoint|pmu.
source "$(dirname "$0")/lib.sh"
H=$HELPERS

"$PMC" record -g -e cpu-clock:u -F 2000 -o "$TMP/g.log" -- "$H/deepcall" >/dev/null 2>&1
"$PMC" convert -i "$TMP/g.log" -o "$TMP/g.data" --to perf >/dev/null 2>&1

# --- the default input ---------------------------------------------------------
mkdir -p "$TMP/only_perf" "$TMP/none" "$TMP/both"
cp "$TMP/g.data" "$TMP/only_perf/perf.data"
(cd "$TMP/only_perf" && "$PMC" report --color never </dev/null >"$TMP/r.txt" 2>"$TMP/r.err"); rc=$?
if [ $rc -eq 0 ] && grep -q 'descend' "$TMP/r.txt" && grep -q 'perf.data' "$TMP/r.err"; then
  ok "report, only perf.data here: read, said on stderr ($(head -1 "$TMP/r.err"))"
else fail "report reads perf.data" "exit $rc: $(head -2 "$TMP/r.err")"; fi
(cd "$TMP/only_perf" && "$PMC" script </dev/null >"$TMP/s.txt" 2>/dev/null); rc=$?
check "script, only perf.data here: read" [ $rc -eq 0 -a -s "$TMP/s.txt" ]
(cd "$TMP/none" && "$PMC" report </dev/null >/dev/null 2>"$TMP/n.err"); rc=$?
if [ $rc -eq 1 ] && grep -q 'pmc.log' "$TMP/n.err" && grep -q 'perf.data' "$TMP/n.err"; then
  ok "report, neither file: exit 1 naming both ($(head -1 "$TMP/n.err"))"
else fail "report with neither file" "exit $rc: $(head -2 "$TMP/n.err")"; fi
cp "$TMP/g.data" "$TMP/both/perf.data"; cp "$TMP/g.log" "$TMP/both/pmc.log"
(cd "$TMP/both" && "$PMC" report </dev/null >/dev/null 2>"$TMP/b.err"); rc=$?
check "report, both files: pmc.log, nothing said" [ $rc -eq 0 -a ! -s "$TMP/b.err" ]

# --- report ----------------------------------------------------------------------
"$PMC" report -i "$TMP/g.log" --header-only >"$TMP/h.txt" 2>"$TMP/e"; rc=$?
if [ $rc -eq 0 ] && grep -q '^# recorded: ' "$TMP/h.txt" && ! grep -q 'descend' "$TMP/h.txt"; then
  ok "report --header-only: the header lines, no rows"
else fail "report --header-only" "exit $rc: $(head -3 "$TMP/h.txt" | tr '\n' ' ') $(cat "$TMP/e")"; fi
"$PMC" report -i "$TMP/g.log" -T --color never >"$TMP/t.txt" 2>"$TMP/e"; rc=$?
if [ $rc -eq 0 ] && grep -q 'Pid.*Tid' "$TMP/t.txt"; then ok "report -T: per-thread rows"
else fail "report -T" "exit $rc: $(grep -m1 '^#  *Self' "$TMP/t.txt") $(cat "$TMP/e")"; fi
"$PMC" report -i "$TMP/g.log" --tui >/dev/null 2>"$TMP/e" </dev/null; rc=$?
if [ $rc -eq 2 ] && grep -q 'must be a terminal' "$TMP/e"; then ok "report --tui off a terminal: clear refusal, exit 2"
else fail "report --tui off a terminal" "exit $rc: $(cat "$TMP/e")"; fi
"$PMC" annotate -i "$TMP/g.log" --tui >/dev/null 2>"$TMP/e" </dev/null; rc=$?
if [ $rc -eq 2 ] && grep -q "pmc report --tui" "$TMP/e"; then ok "annotate --tui: clear refusal naming report's browser, exit 2"
else fail "annotate --tui" "exit $rc: $(cat "$TMP/e")"; fi
"$PMC" report -i "$TMP/g.log" --sort overhead,sym --color never >"$TMP/o.txt" 2>"$TMP/e"; rc=$?
"$PMC" report -i "$TMP/g.log" --sort sym --color never >"$TMP/o2.txt" 2>/dev/null
if [ $rc -eq 0 ] && diff -q <(grep -v '^# pmc report' "$TMP/o.txt") <(grep -v '^# pmc report' "$TMP/o2.txt") >/dev/null; then
  ok "report --sort overhead,sym = --sort sym"
else fail "report --sort overhead,sym" "exit $rc: $(cat "$TMP/e")"; fi
"$PMC" report -i "$TMP/g.log" -v --color never >/dev/null 2>"$TMP/e"; rc=$?
check "report -v: accepted" [ $rc -eq 0 ]

# --- script, annotate --------------------------------------------------------------
"$PMC" script -i "$TMP/g.log" --header >"$TMP/sh.txt" 2>"$TMP/e"; rc=$?
if [ $rc -eq 0 ] && head -1 "$TMP/sh.txt" | grep -q '^# ' && grep -q 'descend' "$TMP/sh.txt"; then
  ok "script --header: '# ' lines, then the samples"
else fail "script --header" "exit $rc: $(head -2 "$TMP/sh.txt") $(cat "$TMP/e")"; fi
"$PMC" annotate -i "$TMP/g.log" --stdio descend >"$TMP/a.txt" 2>"$TMP/e"; rc=$?
check "annotate --stdio: accepted ($(head -c 100 "$TMP/e"))" [ $rc -eq 0 -a -s "$TMP/a.txt" ]

# --- top ---------------------------------------------------------------------------
"$PMC" top --stdio -e cpu-clock:u --call-graph fp -l 1 -- "$H/busy" 3000 >"$TMP/top.txt" 2>"$TMP/e" </dev/null; rc=$?
if [ $rc -eq 0 ] && grep -q 'Children' "$TMP/top.txt"; then ok "top --stdio --call-graph fp: plain blocks with call chains"
else fail "top --stdio --call-graph fp" "exit $rc: $(head -c 300 "$TMP/e")"; fi
"$PMC" top --call-graph dwarf -e cpu-clock:u -l 1 -- "$H/busy" 3000 >"$TMP/top2.txt" 2>"$TMP/e" </dev/null; rc=$?
if [ $rc -eq 0 ] && grep -q 'Children' "$TMP/top2.txt"; then ok "top --call-graph dwarf: call chains"
else fail "top --call-graph dwarf" "exit $rc: $(head -c 300 "$TMP/e")"; fi
"$PMC" top --call-graph bogus -- true >/dev/null 2>"$TMP/e"; rc=$?
check "top --call-graph bogus: exit 2" [ $rc -eq 2 ]

# --- list --------------------------------------------------------------------------
"$PMC" list sw >"$TMP/l.txt" 2>"$TMP/e"; rc=$?
if [ $rc -eq 0 ] && grep -q 'cpu-clock' "$TMP/l.txt" && ! grep -q 'Tracepoints' "$TMP/l.txt"; then
  ok "list sw: the software events only"
else fail "list sw" "exit $rc: $(cat "$TMP/e")"; fi
"$PMC" list tracepoint >"$TMP/lt.txt" 2>/dev/null
if [ -d /sys/kernel/tracing/events ] || [ -d /sys/kernel/debug/tracing/events ]; then
  check "list tracepoint: every tracepoint, nothing else" \
    bash -c "grep -q 'sched:sched_switch' '$TMP/lt.txt' && ! grep -q 'cpu-clock' '$TMP/lt.txt'"
else skip "list tracepoint" "no tracefs here"; fi
for w in hw cache pmu; do
  "$PMC" list $w >/dev/null 2>"$TMP/e"; rc=$?
  check "list $w: accepted" [ $rc -eq 0 -o $rc -eq 1 ]
done

done_testing
