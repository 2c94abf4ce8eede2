#!/usr/bin/env bash
# pmc stat on the simulated ARMv8 PMU: exact totals from the workloads'
# own descriptions (examples/sim/*.wl), per process, multiplexing, and the
# Linux rules of issue 13 (pinned events, parallel threads, refusals).
. "$(dirname "$0")/lib.sh"
EX=$PMC_ROOT/examples/sim
val() { awk -F, -v e="$2" '$3==e{print $1}' "$1"; }

"$PMC" stat --backend sim -x, -e instructions,cycles -- "$EX/hot70.wl" >"$TMP/h.csv" 2>&1
check "hot70: instructions exactly 160,014,427" test "$(val "$TMP/h.csv" instructions)" = 160014427
check "hot70: cycles exactly 100,009,108" test "$(val "$TMP/h.csv" cycles)" = 100009108

"$PMC" stat --backend sim -x, -e instructions,cycles -- "$EX/threads.wl" >"$TMP/t.csv" 2>&1; rc=$?
check "threads: 4 threads' cycles exactly 24,010,000" test "$(val "$TMP/t.csv" cycles)" = 24010000
check "threads: instructions exactly 36,010,000" test "$(val "$TMP/t.csv" instructions)" = 36010000
check "threads: the workload's exit status (3) passed through" test "$rc" = 3

"$PMC" stat --backend sim -x, -e instructions,cycles -- "$EX/forktree.wl" >"$TMP/f.csv" 2>&1
check "forktree: whole tree cycles 21,500,000" test "$(val "$TMP/f.csv" cycles)" = 21500000
check "forktree: whole tree instructions 24,500,000" test "$(val "$TMP/f.csv" instructions)" = 24500000

"$PMC" stat --backend sim --per-process -x, -e instructions,cycles -- "$EX/forktree.wl" >"$TMP/pp.csv" 2>&1
if python3 - "$TMP/pp.csv" <<'PY'
import sys
rows = [l.strip().split(",") for l in open(sys.argv[1]) if l.count(",") == 4 and l.split(",")[0].isdigit()]
want = {"root": (2500000, 1500000), "child": (3000000, 2000000), "leaf": (4000000, 4000000)}
n = {}
for pid, ppid, comm, ins, cyc in rows:
    assert (int(ins), int(cyc)) == want[comm], (comm, ins, cyc)
    n[comm] = n.get(comm, 0) + 1
assert n == {"root": 1, "child": 2, "leaf": 4}, n
PY
then ok "forktree --per-process: 7 rows with each process's exact counts"
else fail "forktree --per-process" "$(cat "$TMP/pp.csv")"; fi

# More events than counters: multiplexed, scaled, and flagged as such.
PMC_SIM_MACHINE=counters=2 "$PMC" stat --backend sim --json \
    -e instructions,cycles,cache-misses,branch-misses -- "$EX/hot70.wl" >"$TMP/m.json" 2>&1
if python3 - "$TMP/m.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = {e["event"]: e for e in d["events"]}
assert any(e["scaled"] for e in ev.values()), ev
for e in ev.values():
    assert e["running_ns"] <= e["enabled_ns"]
    if e["scaled"]:
        assert e["running_ns"] < e["enabled_ns"] and e["raw"] < e["value"]
# scaled estimates stay close to the exact totals
assert abs(ev["instructions"]["value"] - 160014427) / 160014427 < 0.02, ev["instructions"]
PY
then ok "2 counters, 4 events: values scaled by enabled/running and flagged"
else fail "multiplexing" "$(cat "$TMP/m.json")"; fi
out=$(PMC_SIM_MACHINE=counters=2 "$PMC" stat --backend sim -e instructions,cycles,cache-misses,branch-misses -- "$EX/hot70.wl" 2>&1)
if echo "$out" | grep -qE '\([0-9.]+%\)'; then ok "human output shows the running percentage"; else fail "running % shown" "$out"; fi

# Issue 13 through the CLI.  A pinned event (:D) is on the PMU all the time
# (Linux schedules pinned groups first and never rotates them): exact, unscaled.
PMC_SIM_MACHINE=counters=2 "$PMC" stat --backend sim --json \
    -e instructions:D,cache-misses,branch-misses,branches -- "$EX/hot70.wl" >"$TMP/d.json" 2>&1
if python3 - "$TMP/d.json" <<'PY'
import json, sys
ev = {e["event"]: e for e in json.load(open(sys.argv[1]))["events"]}
d = ev["instructions:D"]
assert d["raw"] == 160014427 and not d["scaled"] and d["running_ns"] == d["enabled_ns"], d
assert all(e["scaled"] for k, e in ev.items() if k != "instructions:D"), ev
PY
then ok "instructions:D with 2 counters and 3 more events: 100% on the PMU, exactly 160,014,427"
else fail "pinned :D" "$(cat "$TMP/d.json")"; fi

# Two threads of 100 ms (main + 1) on 4 CPUs run in parallel: no context
# switch, no migration (a busy CPU's tick does not take a waiting thread
# back from idle CPUs).
printf 'process p entry=main\nfunction main\n  thread w\n  call w\nfunction w\n  work cycles=100M\n' >"$TMP/two.wl"
"$PMC" stat --backend sim -x, -e cycles,context-switches,cpu-migrations -- "$TMP/two.wl" >"$TMP/two.csv" 2>&1
check "two 100 ms threads on 4 CPUs: 200M cycles, 0 context switches, 0 migrations" \
    test "$(val "$TMP/two.csv" cycles)/$(val "$TMP/two.csv" context-switches)/$(val "$TMP/two.csv" cpu-migrations)" = 200000000/0/0

# What the arm64 driver refuses: :I (exclude_idle), CHAIN (r1e), an event
# that can never fit (counters=0: only cycles has a counter).
# :I is refused with EPERM (arm_pmuv3.c), which perf stat reports and stops
# at; an event refused with EINVAL, ENOENT or EOPNOTSUPP is "<not supported>"
# with the reason, and the rest is counted (stat_refused.sh)
"$PMC" stat --backend sim -e instructions:I -- "$EX/hot70.wl" >/dev/null 2>"$TMP/r.err"; rc=$?
check "-e instructions:I is refused (exit $rc), the message says why" \
    eval 'test "$rc" != 0 && grep -q "^pmc stat: cannot count .*idle" "$TMP/r.err"'
"$PMC" stat --backend sim -e r1e -- "$EX/hot70.wl" >/dev/null 2>"$TMP/r.err"; rc=$?
check "-e r1e is not supported (exit $rc), the message says why" \
    eval 'test "$rc" = 0 && grep -q "<not supported>" "$TMP/r.err" && grep -q "^r1e: .*CHAIN" "$TMP/r.err"'
PMC_SIM_MACHINE=counters=0 "$PMC" stat --backend sim -e instructions -- "$EX/hot70.wl" >/dev/null 2>"$TMP/r.err"; rc=$?
check "counters=0: instructions is refused at open: not supported (exit $rc)" \
    eval 'test "$rc" = 0 && grep -q "0 event counters" "$TMP/r.err"'
PMC_SIM_MACHINE=counters=0 "$PMC" stat --backend sim -x, -e cycles -- "$EX/hot70.wl" >"$TMP/c0.csv" 2>&1
check "counters=0: cycles still counts exactly (the cycle counter)" test "$(val "$TMP/c0.csv" cycles)" = 100009108
# Derived metrics key on what an event counts, never on its spelling (issue 14).
for evs in instructions,cycles instructions,cpu-cycles instructions,CPU_CYCLES INST_RETIRED,CPU_CYCLES \
    'EVENT_08H,EVENT_11H' '{instructions,cycles}'; do
  "$PMC" stat --backend sim -x, -e "$evs" -o "$TMP/ipc.csv" -- "$EX/hot70.wl"
  m=$(awk -F, '$7=="insn per cycle"{print $6}' "$TMP/ipc.csv")
  check "IPC of -e $evs: 1.600 insn per cycle ('$m')" test "$m" = 1.600
done
"$PMC" stat --backend sim -x, -e instructions:u,cycles -o "$TMP/ipc.csv" -- "$EX/hot70.wl"
check "instructions:u with cycles (other levels): no IPC" test -z "$(awk -F, '$7=="insn per cycle"' "$TMP/ipc.csv")"
"$PMC" stat --backend sim -x, -e BR_MIS_PRED,BR_RETIRED,L1D_CACHE_REFILL,L1D_CACHE,CPU_CYCLES,task-clock \
    -o "$TMP/m.csv" -- "$EX/hot70.wl"
check "BR_MIS_PRED/BR_RETIRED: 1.199 % of all branches" \
    test "$(awk -F, '$3=="BR_MIS_PRED"{print $6" "$7}' "$TMP/m.csv")" = "1.199 % of all branches"
check "L1D_CACHE_REFILL/L1D_CACHE: 2.740 % of all cache refs" \
    test "$(awk -F, '$3=="L1D_CACHE_REFILL"{print $6" "$7}' "$TMP/m.csv")" = "2.740 % of all cache refs"
check "CPU_CYCLES per task-clock: 1.000 GHz" \
    test "$(awk -F, '$3=="CPU_CYCLES"{print $6" "$7}' "$TMP/m.csv")" = "1.000 GHz"

# -I in simulated time: the intervals, the last partial one included, add up exactly.
"$PMC" stat --backend sim -I 30 -x, -e cycles -o "$TMP/iv.csv" -- "$EX/hot70.wl"
check "-I 30: 4 intervals (3 full, 1 partial)" test "$(grep -c ',cycles,' "$TMP/iv.csv")" = 4
check "-I 30: the intervals add up to the total 100,009,108" \
    test "$(awk -F, '$4=="cycles"{s+=$2} END{print s}' "$TMP/iv.csv")" = 100009108
check "-I 30: the last interval ends at the command's end (0.100009 s)" \
    test "$(tail -1 "$TMP/iv.csv" | cut -d, -f1)" = 0.100009
# An interval that does not divide the simulated clock's steps (this once spun forever).
"$PMC" stat --backend sim -I 25 -x, -e cycles -o "$TMP/iv25.csv" -- "$EX/hot70.wl"
check "-I 25: 5 intervals adding up to 100,009,108" \
    test "$(awk -F, '$4=="cycles"{n++; s+=$2} END{print n" "s}' "$TMP/iv25.csv")" = "5 100009108"
# --delay in simulated time: the first 50 ms are not counted.
"$PMC" stat --backend sim -D 50 -x, -e cycles -o "$TMP/dl.csv" -- "$EX/hot70.wl"
c=$(val "$TMP/dl.csv" cycles)
if [ -n "$c" ] && approx "$c" 50009108 2; then ok "--delay 50: about the last 50 ms of 100 counted ($c)"
else fail "--delay 50" "$(cat "$TMP/dl.csv")"; fi
# A group is scheduled together: its members run for the same time when multiplexed.
PMC_SIM_MACHINE=counters=2 "$PMC" stat --backend sim --json -o "$TMP/g.json" \
    -e '{instructions,cycles},cache-misses,branch-misses' -- "$EX/hot70.wl"
if python3 - "$TMP/g.json" <<'PY'
import json, sys
ev = {e["event"]: e for e in json.load(open(sys.argv[1]))["events"]}
assert ev["instructions"]["running_ns"] == ev["cycles"]["running_ns"], ev
assert ev["instructions"]["running_ns"] < ev["instructions"]["enabled_ns"], ev   # multiplexed
PY
then ok "{instructions,cycles} with 2 counters: scheduled together (equal running time)"
else fail "group scheduling" "$(cat "$TMP/g.json")"; fi
"$PMC" stat --backend sim -d -x, -o "$TMP/d.csv" -- "$EX/hot70.wl"
check "-d: L1-dcache-loads counted on the sim (41,969,988)" test "$(val "$TMP/d.csv" L1-dcache-loads)" = 41969988
check "-d: LLC-loads <not supported> on the sim" test "$(val "$TMP/d.csv" LLC-loads)" = "<not supported>"

"$PMC" stat --backend sim -e instructions -- /nonexistent.wl 2>"$TMP/e1"; rc=$?
if [ "$rc" = 1 ] && grep -q "^pmc stat:" "$TMP/e1"; then ok "missing workload file: exit 1 with a message"; else fail "missing workload" "rc=$rc $(cat "$TMP/e1")"; fi
# -l without a command runs on real time: nothing advances the sim's clock
# then (stat waited on it for ever; record did not).
"$PMC" stat --backend sim -a -l 0.2 -x, -e cycles >"$TMP/l.csv" 2>&1; rc=$?
check "-a -l 0.2 without a command ends" test "$rc" = 0 -a -n "$(val "$TMP/l.csv" cycles)"
"$PMC" stat --backend nope -- true 2>"$TMP/e2"; rc=$?
if [ "$rc" = 2 ] && grep -q "known: linux, sim" "$TMP/e2"; then ok "unknown backend: exit 2"; else fail "unknown backend" "rc=$rc $(cat "$TMP/e2")"; fi
done_testing
