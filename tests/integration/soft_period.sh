#!/usr/bin/env bash
# Periods as perf takes them (issue 28 item 3, issue 22 item 5): hwpmc's
# kern.hwpmc.mincount is a hardware counter's rule, so `pmc record -c N`
# samples a software event every N occurrences (-c 1: every page fault, as
# many samples as perf's), tracepoints default to every event (perf's -c 1)
# without -F or -c, and a hardware counter's -c is still raised to mincount.
source "$(dirname "$0")/lib.sh"

samples() { "$PMC" report -i "$1" --stdio 2>/dev/null |
  awk -v ev="$2" '/^# Event:/ { on = index($0, ev) > 0 }
    on && /^# Samples:/ { v = $3; gsub(/,/, "", v); print v; exit }'; }
events() { "$PMC" report -i "$1" --stdio 2>/dev/null |
  awk -v ev="$2" '/^# Event:/ { on = index($0, ev) > 0 }
    on && /Event count:/ { sub(/.*Event count: /, ""); gsub(/,/, ""); print $1; exit }'; }

# -c 1 on a software event: every fault of a program that faults 3000 pages
"$PMC" record -e page-faults -c 1 -o "$TMP/pf.log" -- "$HELPERS/touch_pages" 3000 \
  >/dev/null 2>"$TMP/pf.err"
n=$(samples "$TMP/pf.log" page-faults)
if [ -n "$n" ] && [ "$n" -ge 3000 ]; then ok "record -e page-faults -c 1: $n samples (>= 3000 faults)"
else fail "record -e page-faults -c 1" "${n:-no} samples; $(head -c 300 "$TMP/pf.err")"; fi
if grep -q mincount "$TMP/pf.err"; then fail "no mincount warning for a software event" "$(cat "$TMP/pf.err")"
else ok "no mincount warning for a software event"; fi
if ! command -v perf >/dev/null 2>&1; then
  skip "page-faults -c 1 against perf" "perf is not installed"
elif ! perf_record pf -e page-faults -c 1 -- "$HELPERS/touch_pages" 3000; then
  skip "page-faults -c 1 against perf" "perf record cannot sample here: $(tail -1 "$TMP/pf.err")"
else
  want=$(perf script -i "$TMP/pf.data" 2>/dev/null | wc -l)
  if [ -n "$n" ] && approx "$n" "$want" 1; then ok "page-faults -c 1: $n samples, perf $want (within 1 %)"
  else fail "page-faults -c 1 against perf" "pmc ${n:-none}, perf $want"; fi
fi

# -c 3 on a software event: one sample per 3 faults, not one per mincount
"$PMC" record -q -e page-faults -c 3 -o "$TMP/pf3.log" -- "$HELPERS/touch_pages" 3000 >/dev/null 2>&1
n3=$(samples "$TMP/pf3.log" page-faults)
if [ -n "$n3" ] && [ -n "$n" ] && approx "$n3" "$((n / 3))" 2; then ok "page-faults -c 3: $n3 samples"
else fail "page-faults -c 3" "${n3:-no} samples for ${n:-?} faults"; fi

# tracepoints: every event by default (samples = event count)
if "$PMC" record -q -e sched:sched_switch -a -o "$TMP/tp.log" -- sleep 0.3 >/dev/null 2>"$TMP/tp.err"; then
  s=$(samples "$TMP/tp.log" sched_switch); e=$(events "$TMP/tp.log" sched_switch)
  if [ -n "$s" ] && [ "$s" -gt 0 ] && [ "$s" = "$e" ]; then
    ok "record -e sched:sched_switch: one sample per event ($s)"
  else fail "tracepoint default period" "samples ${s:-none}, events ${e:-none}"; fi
  check "the report says period 1" grep -q "sched:sched_switch (period 1)" \
    <("$PMC" report -i "$TMP/tp.log" --stdio 2>/dev/null)
  # with a software event beside it, the tracepoint still samples every event
  "$PMC" record -q -e sched:sched_switch,cpu-clock -a -o "$TMP/tp2.log" -- sleep 0.3 >/dev/null 2>&1
  s=$(samples "$TMP/tp2.log" sched_switch); e=$(events "$TMP/tp2.log" sched_switch)
  check "beside cpu-clock: one sample per tracepoint event (${s:-none}/${e:-none})" \
    [ -n "$s" ] && [ "$s" = "$e" ]
  # -F given: as asked
  "$PMC" record -q -e sched:sched_switch -F 10 -a -o "$TMP/tp3.log" -- sleep 0.3 >/dev/null 2>&1
  check "-F 10 is taken for a tracepoint" grep -q "sched:sched_switch (frequency 10)" \
    <("$PMC" report -i "$TMP/tp3.log" --stdio 2>/dev/null)
else
  skip "tracepoint default period" "cannot record sched:sched_switch: $(tail -1 "$TMP/tp.err")"
fi
check "record --help says tracepoints default to -c 1" \
  grep -q "tracepoints default to -c 1" <("$PMC" record --help 2>&1)

# a hardware counter (the simulated PMU): -c below mincount is raised, and said
"$PMC" record --backend sim -e cycles -c 10 -o "$TMP/hw.log" -- \
  "$PMC_ROOT/examples/sim/hot70.wl" >/dev/null 2>"$TMP/hw.err"
check "hardware -c below mincount: warned" grep -q "below mincount (1000) for the hardware counter 'cycles'" "$TMP/hw.err"
check "hardware -c below mincount: period 1000" grep -q "cycles (period 1000)" \
  <("$PMC" report -i "$TMP/hw.log" --stdio 2>/dev/null)
done_testing
