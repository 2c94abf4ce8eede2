#!/usr/bin/env bash
# A tracepoint recording survives pmc convert both ways (issue 25 item 3):
# perf.data -> pmc log -> perf.data keeps perf's tracing data (the
# TRACEDATA records) and every sample's fields (the CALLCHAIN's raw
# payload), so perf script prints the twice-converted file line for line as
# the original, and perf report agrees.  Two tracepoints: sched_switch
# (numbers and fixed-size strings) and sched_process_exec (a __data_loc
# string); perf.data in file mode and in pipe mode, and perf.data written to
# a pipe.
. "$(dirname "$0")/lib.sh"
command -v perf >/dev/null || { skip "tracepoint round trip" "perf is not installed"; done_testing; exit; }
if [ ! -e /sys/kernel/tracing/events/sched/sched_switch/id ] &&
   [ ! -e /sys/kernel/debug/tracing/events/sched/sched_switch/id ]; then
  skip "tracepoint round trip" "no tracefs with the sched tracepoints here"; done_testing; exit
fi

# perf_oracle OUT CMD...: CMD's stdout in OUT, its stderr in OUT.err; perf
# 6.1 aborts now and then ("assertion failed"): three tries
perf_oracle() {
  local out=$1 try; shift
  for try in 1 2 3; do
    "$@" >"$out" 2>"$out.err" && return 0
    grep -q 'assertion failed' "$out.err" || return 1
  done
  return 1
}

WORK='for i in 1 2 3 4; do /bin/true; ls / >/dev/null; done; sleep 0.2'
if ! perf_record tp -e sched:sched_switch -e sched:sched_process_exec -a -- sh -c "$WORK"; then
  skip "tracepoint round trip" "perf record of tracepoints failed: $(tail -1 "$TMP/tp.err")"
  done_testing; exit
fi

"$PMC" convert -i "$TMP/tp.data" -o "$TMP/tp.log" >/dev/null 2>"$TMP/c1.err"
check "perf.data -> pmc log" test -s "$TMP/tp.log"
"$PMC" convert -i "$TMP/tp.log" -o "$TMP/tp2.data" >/dev/null 2>"$TMP/c2.err"
check "pmc log -> perf.data" test -s "$TMP/tp2.data"

"$PMC" dump -i "$TMP/tp.log" >"$TMP/dump.txt" 2>&1
check "the log holds the tracing data (TRACEDATA) and the samples' raw payloads" \
  bash -c "grep -q ' TRACEDATA total=' '$TMP/dump.txt' && grep -q 'CALLCHAIN.* raw=[1-9]' '$TMP/dump.txt' &&
           grep -q 'format=\"3.1\"' '$TMP/dump.txt'"

perf_oracle "$TMP/a.txt" perf script -i "$TMP/tp.data"
if ! perf_oracle "$TMP/b.txt" perf script -i "$TMP/tp2.data"; then
  fail "perf script reads the twice-converted file" "$(head -c 300 "$TMP/b.txt.err")"
else
  n=$(wc -l <"$TMP/a.txt"); nexec=$(grep -c 'sched:sched_process_exec: filename=' "$TMP/a.txt")
  if [ "$n" -gt 0 ] && [ "$nexec" -gt 0 ] && cmp -s "$TMP/a.txt" "$TMP/b.txt"; then
    ok "perf script: the twice-converted file = the original ($n lines, $nexec execs)"
  else
    fail "perf script: the twice-converted file = the original" \
      "$n lines, $nexec execs; $(diff "$TMP/a.txt" "$TMP/b.txt" | head -4 | tr '\n' ' ')"
  fi
fi

perf_oracle "$TMP/ra.txt" perf report --stdio -i "$TMP/tp.data"
perf_oracle "$TMP/rb.txt" perf report --stdio -i "$TMP/tp2.data"
# perf report ends with a random "# (Tip: ...)": not the recording's
sed -i '/^# (Tip:/d' "$TMP/ra.txt" "$TMP/rb.txt"
if grep -q '%' "$TMP/ra.txt" && cmp -s "$TMP/ra.txt" "$TMP/rb.txt"; then
  ok "perf report: the twice-converted file = the original ($(grep -c '%' "$TMP/ra.txt") rows)"
else
  fail "perf report: the twice-converted file = the original" \
    "$(diff "$TMP/ra.txt" "$TMP/rb.txt" | head -6 | tr '\n' ' ') $(head -c 200 "$TMP/rb.txt.err")"
fi

# pipe mode in: perf's TRACING_DATA record rather than the feature section
if perf_oracle "$TMP/pipe.data" perf record -q -e sched:sched_switch -e sched:sched_process_exec \
     -a -o - -- sh -c "$WORK"; then
  "$PMC" convert -i "$TMP/pipe.data" -o "$TMP/p.log" >/dev/null 2>&1
  "$PMC" convert -i "$TMP/p.log" -o "$TMP/p2.data" >/dev/null 2>&1
  perf_oracle "$TMP/pa.txt" perf script -i "$TMP/pipe.data"
  perf_oracle "$TMP/pb.txt" perf script -i "$TMP/p2.data"
  if [ -s "$TMP/pa.txt" ] && cmp -s "$TMP/pa.txt" "$TMP/pb.txt"; then
    ok "pipe-mode perf.data: perf script on the twice-converted file = the original ($(wc -l <"$TMP/pa.txt") lines)"
  else
    fail "pipe-mode perf.data: perf script on the twice-converted file = the original" \
      "$(diff "$TMP/pa.txt" "$TMP/pb.txt" | head -4 | tr '\n' ' ') $(head -c 200 "$TMP/pb.txt.err")"
  fi
else
  skip "pipe-mode perf.data round trip" "perf record -o - failed: $(tail -1 "$TMP/pipe.data.err")"
fi

# perf.data written to a pipe: the tracing data as perf's TRACING_DATA
# record, the attrs (out before any sample) without a call chain because
# the events were recorded without one
"$PMC" convert -i "$TMP/tp.log" -o - 2>/dev/null | perf script -i - >"$TMP/c.txt" 2>"$TMP/c.err"
if [ -s "$TMP/a.txt" ] && cmp -s "$TMP/a.txt" "$TMP/c.txt"; then
  ok "perf script -i - on pmc convert -o - = the original"
else
  fail "perf script -i - on pmc convert -o - = the original" \
    "$(diff "$TMP/a.txt" "$TMP/c.txt" | head -4 | tr '\n' ' ') $(head -c 200 "$TMP/c.err")"
fi
"$PMC" convert -i "$TMP/tp.log" -o - 2>/dev/null | perf report --stdio -i - >"$TMP/rc.txt" 2>/dev/null
sed -i '/^# (Tip:/d' "$TMP/rc.txt"
if grep -q '%' "$TMP/rc.txt" && cmp -s "$TMP/ra.txt" "$TMP/rc.txt"; then
  ok "perf report -i - on pmc convert -o - = the original"
else
  fail "perf report -i - on pmc convert -o - = the original" "$(diff "$TMP/ra.txt" "$TMP/rc.txt" | head -6 | tr '\n' ' ')"
fi
# a log without tracing data (pmc record's): a pipe's tracepoint attrs get
# no RAW, which perf would parse without formats (it crashed on that)
if "$PMC" record -e sched:sched_switch -a -o "$TMP/pr.log" -- sleep 0.2 >/dev/null 2>"$TMP/pr.err"; then
  "$PMC" convert -i "$TMP/pr.log" -o - 2>/dev/null | perf script -i - >"$TMP/pr.txt" 2>"$TMP/pr.txt.err"
  rc=${PIPESTATUS[1]}
  if [ "$rc" -eq 0 ] && grep -q 'sched:sched_switch' "$TMP/pr.txt"; then
    ok "pmc record's tracepoint log (no tracing data) through a pipe: perf script reads it"
  else
    fail "pmc record's tracepoint log (no tracing data) through a pipe: perf script reads it" \
      "rc $rc: $(head -c 200 "$TMP/pr.txt.err")"
  fi
else
  skip "pmc record's tracepoint log through a pipe" "pmc record -e sched:sched_switch failed: $(tail -1 "$TMP/pr.err")"
fi
done_testing
