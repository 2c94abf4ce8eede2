#!/usr/bin/env bash
# Off-CPU and wall-clock profiles: pmc record --off-cpu logs a call chain at
# every switch-out of the command's threads and the SWITCH records that say
# when each came back; pmc report weighs those samples by the time off CPU
# (offcpu-time) and with --wall adds the on-CPU time (cpu-clock) into one
# wall-time event.  The known answer: tests/helpers/offcpu computes ~70 % of
# its wall time and sleeps ~30 %, and measures its own split (the truth when
# load stretches a compute phase); the profile must match it within 2 points.
. "$(dirname "$0")/lib.sh"

OFF=$HELPERS/offcpu
"$PMC" record -q --off-cpu --call-graph dwarf -o "$TMP/off.log" -- "$OFF" 200 \
    >"$TMP/rec.out" 2>"$TMP/rec.err"; rc=$?
truth=$(grep '^compute ' "$TMP/rec.err")
if [ "$rc" != 0 ] || [ -z "$truth" ]; then
  fail "pmc record --off-cpu" "rc=$rc $(cat "$TMP/rec.err")"
  done_testing; exit
fi
ok "pmc record --off-cpu ran the program ($truth)"
read -r _ t_comp _ t_wait _ t_total _ t_nvcsw <<<"$truth"

# --- the log: switch-out samples with chains, SWITCH out and in ---------------
# Every voluntary switch the program made (the kernel's count, which a
# compute phase that overran its period's sleep does not raise) is a
# switch-out sample and a SWITCH out and in: at least that many of each.
"$PMC" dump --json -i "$TMP/off.log" >"$TMP/dump.json" 2>/dev/null
if python3 - "$TMP/dump.json" "$t_nvcsw" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
nvcsw = int(sys.argv[2])
assert nvcsw >= 1, nvcsw          # it slept: the check means something
alloc = {r["pmcid"]: r["event"] for r in recs if r["type"] == "PMCALLOCATE"}
cs = [k for k, v in alloc.items() if v == "context-switches"]
assert len(cs) == 1, alloc
sw = [r for r in recs if r["type"] == "SWITCH"]
outs = [r for r in sw if r["dir"].startswith("out")]
ins = [r for r in sw if r["dir"] == "in"]
assert len(outs) >= nvcsw and len(ins) >= nvcsw, (len(outs), len(ins), nvcsw)
samples = [r for r in recs if r["type"] == "CALLCHAIN" and r["pmcid"] == cs[0]]
assert len(samples) >= nvcsw, (len(samples), nvcsw)
assert all(s["period"] == 1 for s in samples)        # every switch-out, mincount or not
PY
then ok "the log has a sample per switch-out (period 1) and SWITCH out/in records ($t_nvcsw voluntary)"
else fail "SWITCH records and context-switch samples in the log"; fi

# --- apart: offcpu-time and cpu-clock add up to the program's wall time ----------
"$PMC" report -i "$TMP/off.log" -F json >"$TMP/apart.json" 2>"$TMP/apart.err"
if python3 - "$TMP/apart.json" "$t_total" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); total = int(sys.argv[2])
ev = {e["event"]: e for e in d["events"]}
assert set(ev) == {"offcpu-time", "cpu-clock"}, list(ev)
s = ev["offcpu-time"]["event_count"] + ev["cpu-clock"]["event_count"]
# the program's two phases are nearly all its life (start-up and exit aside)
assert abs(s - total) <= 0.05 * total, (s, total)
print("# off %d ns + on %d ns vs %d ns" % (ev["offcpu-time"]["event_count"],
      ev["cpu-clock"]["event_count"], total))
PY
then ok "report: offcpu-time and cpu-clock events, together within 5 % of the wall time"
else fail "offcpu-time + cpu-clock = wall time" "$(cat "$TMP/apart.err")"; fi

# --- together: the known answer --------------------------------------------------
"$PMC" report -i "$TMP/off.log" --wall --children -s sym -F json >"$TMP/wall.json" 2>"$TMP/wall.err"
if got=$(python3 - "$TMP/wall.json" "$t_comp" "$t_wait" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); want = {"compute": float(sys.argv[2]), "wait_for_io": float(sys.argv[3])}
ev = {e["event"]: e for e in d["events"]}
assert list(ev) == ["wall-time"], list(ev)
got = {e["sym"]: e["children"] for e in ev["wall-time"]["entries"] if e["sym"] in want}
assert set(got) == set(want), got
for k in want:
    assert abs(got[k] - want[k]) <= 2.0, (k, got[k], want[k])
print("compute %.2f %% (truth %.2f), wait_for_io %.2f %% (truth %.2f)" % (
      got["compute"], want["compute"], got["wait_for_io"], want["wait_for_io"]))
PY
); then ok "report --wall: $got, within 2 points"
else fail "report --wall known answer" "$got $(cat "$TMP/wall.err")"; fi

# --- exports are weighed by time: folded stacks sum to the wall-time count -------
"$PMC" report -i "$TMP/off.log" --wall -F folded >"$TMP/wall.folded" 2>/dev/null
sum=$(awk '{s += $NF} END {printf "%d", s}' "$TMP/wall.folded")
cnt=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['events'][0]['event_count'])" "$TMP/wall.json")
check "folded stacks are weighed in ns (sum $sum = wall-time $cnt)" test "$sum" = "$cnt"
grep -q 'wait_for_io;clock_nanosleep' "$TMP/wall.folded"
check "a flame graph's off-CPU frames: wait_for_io;clock_nanosleep..." test $? = 0

# --- perf.data: perf record -e cs -c 1 --switch-events reads the same way ---------
if command -v perf >/dev/null 2>&1; then
  # perf_record: perf 6.1 aborts now and then (a cut perf.data lost the
  # user frames once), so an abort is recorded again
  perf_record perf -e cs -c 1 --call-graph dwarf --switch-events -- "$OFF" 100
  ptotal=$(sed -n 's/.*total_ns \([0-9]*\).*/\1/p' "$TMP/perf.err")
  "$PMC" report -i "$TMP/perf.data" --children -s sym -F json >"$TMP/perf.json" 2>/dev/null
  if python3 - "$TMP/perf.json" "${ptotal:-0}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); total = int(sys.argv[2])
ev = {e["event"]: e for e in d["events"]}
assert list(ev) == ["offcpu-time"], list(ev)
off = ev["offcpu-time"]
syms = {e["sym"] for e in off["entries"]}
assert "wait_for_io" in syms, syms
assert 0 < off["event_count"] <= total, (off["event_count"], total)
PY
  then ok "perf.data with --switch-events: context-switches samples become offcpu-time"
  else fail "perf.data off-CPU" "$(cat "$TMP/perf.err")"; fi
else
  skip "perf.data off-CPU" "perf is not installed"
fi

# --- bad input ---------------------------------------------------------------------
"$PMC" record -q -e cpu-clock -o "$TMP/on.log" -- "$HELPERS/busy" 50 >/dev/null 2>&1
"$PMC" report -i "$TMP/on.log" --wall >"$TMP/w.out" 2>"$TMP/w.err"; rc=$?
check "report --wall without off-CPU samples: exit 1 and why (rc=$rc)" \
    sh -c "[ $rc = 1 ] && grep -q 'no off-CPU samples' '$TMP/w.err' && [ ! -s '$TMP/w.out' ]"
"$PMC" record -q --off-cpu -b sim -e cycles -o "$TMP/sim.log" -- "$PMC_ROOT/examples/sim/hot70.wl" \
    >/dev/null 2>"$TMP/sim.err"; rc=$?
check "record --off-cpu on the sim backend: refused with a reason (rc=$rc)" \
    sh -c "[ $rc = 2 ] && grep -q 'off-CPU' '$TMP/sim.err' && [ ! -e '$TMP/sim.log' ]"
done_testing
