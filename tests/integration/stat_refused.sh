#!/usr/bin/env bash
# pmc stat counts what it can: an event that parses but that the PMU or the
# kernel refuses to open (EINVAL, ENOENT, EOPNOTSUPP) is printed as
# "<not supported>" with the reason, as perf stat does, and the others are
# counted exactly; a name that does not parse stays a usage error (exit 2).
# On the simulated PMU, whose refusals are known: no event counter at all
# (counters=0), the CHAIN event alone (r1e), a PMU type it lacks (a tracepoint).
. "$(dirname "$0")/lib.sh"
EX=$PMC_ROOT/examples/sim
val() { awk -F, -v e="$2" '$3==e{print $1}' "$1"; }

# refused NAME WANT-EVENT WANT-VALUE REFUSED [ENV...]: stat -e WANT,REFUSED
refused() {
  local name=$1 want=$2 wantv=$3 bad=$4 rc; shift 4
  env "$@" "$PMC" stat --backend sim -x, -e "$want,$bad" -- "$EX/hot70.wl" >"$TMP/r.csv" 2>&1; rc=$?
  check "$name: exit 0 ($rc)" test "$rc" = 0
  check "$name: $want counted exactly ($(val "$TMP/r.csv" "$want"))" test "$(val "$TMP/r.csv" "$want")" = "$wantv"
  check "$name: $bad <not supported>" test "$(val "$TMP/r.csv" "$bad")" = "<not supported>"
  env "$@" "$PMC" stat --backend sim -e "$want,$bad" -- "$EX/hot70.wl" >"$TMP/r.txt" 2>&1
  check "$name: the reason is given" grep -q "^$bad: ..*" "$TMP/r.txt"
}
refused "counters=0" cycles 100009108 instructions PMC_SIM_MACHINE=counters=0
refused "CHAIN alone" instructions 160014427 r1e
refused "a tracepoint on the simulated PMU" instructions 160014427 sched:sched_switch

"$PMC" stat --backend sim -e instructions,nosuchevent -- "$EX/hot70.wl" >"$TMP/u.txt" 2>&1; rc=$?
check "an unknown event is still a usage error (exit $rc)" \
  bash -c "[ $rc = 2 ] && grep -q \"unknown event 'nosuchevent'\" '$TMP/u.txt'"
"$PMC" stat -e task-clock,sched:nosuchtp -- true >"$TMP/t.txt" 2>&1; rc=$?
check "an unknown tracepoint is still a usage error (exit $rc)" test "$rc" = 2
done_testing
