#!/usr/bin/env bash
# The log format's interned call chains (format 3, issue 16) end to end, on
# the simulated PMU (deterministic samples): a sample that repeats a chain
# costs a 32-byte CHAINSAMPLE, so a 6-frame workload's log is at most 40
# bytes a sample (format 1: 96); -z is smaller still; pmc dump shows each
# chain's defining sample (chaindef=) and the samples whole; pmc convert (log -> perf.data) hands
# on the same chains; a format-1 log (tests/data/log-v1.log, written by the
# format-1 writer) and a format-2 log (tests/data/log-v2.log) still read.
. "$(dirname "$0")/lib.sh"

W=$TMP/deep.wl
{ echo "process p entry=f1"
  for i in 1 2 3 4 5; do printf 'function f%d\n  call f%d\n' "$i" $((i + 1)); done
  printf 'function f6\n  work cycles=2G\n'; } >"$W"
"$PMC" record -q --backend sim -e cycles -c 100000 -g -o "$TMP/a.log" -- "$W" >/dev/null 2>&1
"$PMC" record -q --backend sim -e cycles -c 100000 -g -z -o "$TMP/z.log" -- "$W" >/dev/null 2>&1
"$PMC" dump -i "$TMP/a.log" >"$TMP/a.txt" 2>"$TMP/a.err"; rc=$?
n=$(grep -c ' CALLCHAIN ' "$TMP/a.txt")
size=$(stat -c %s "$TMP/a.log"); zsize=$(stat -c %s "$TMP/z.log")
check "dump reads the log (exit 0, no message)" test "$rc" = 0 -a ! -s "$TMP/a.err"
check "20000 samples, each with its 6 pcs" \
  test "$n" = 20000 -a "$(grep ' CALLCHAIN ' "$TMP/a.txt" | grep -Ec ' npc=6 chain(id|def)=[0-9]* chain=\[u:0x[0-9a-f]* u:0x[0-9a-f]* u:0x[0-9a-f]* u:0x[0-9a-f]* u:0x[0-9a-f]* u:0x[0-9a-f]*\]$')" = 20000
# format 3: the first sample of a chain is whole and defines it (chaindef=),
# the others refer to it (chainid=); no CHAIN records
ndef=$(grep -c ' CALLCHAIN .* chaindef=' "$TMP/a.txt")
check "each distinct chain is defined once, by its first sample" \
  test "$ndef" -ge 1 -a "$ndef" -lt 100 -a "$(grep -c ' CHAIN chainid=' "$TMP/a.txt")" = 0
echo "# $n samples, $size bytes raw, $zsize bytes -z"
check "at most 40 bytes per sample at 6 frames (was 96)" test $((size)) -le $((40 * n))
check "-z smaller still" test "$zsize" -lt "$size"
"$PMC" dump -i "$TMP/z.log" | grep ' CALLCHAIN ' | sed 's/^ *[0-9]* //' >"$TMP/z.s"
grep ' CALLCHAIN ' "$TMP/a.txt" | sed 's/^ *[0-9]* //' >"$TMP/a.s"
check "the compressed log holds the same samples" cmp -s "$TMP/a.s" "$TMP/z.s"
"$PMC" report -i "$TMP/a.log" >"$TMP/r.txt" 2>&1
check "report counts every sample" grep -q '^# Samples: 20,000 ' "$TMP/r.txt"

# log -> perf.data: the converter sees whole chains (pmclog_read resolves them)
if "$PMC" convert -i "$TMP/a.log" -o "$TMP/perf.data" >/dev/null 2>&1; then
  # (perf.data has no PMC ids: the reader makes its own)
  strip() { sed 's/^ *[0-9]* //; s/ chain\(id\|def\)=[0-9]*//; s/ pmcid=0x[0-9a-f]*//'; }
  "$PMC" dump -i "$TMP/perf.data" | grep ' CALLCHAIN ' | strip >"$TMP/p.s"
  strip <"$TMP/a.s" >"$TMP/a2.s"
  check "pmc convert to perf.data: the same samples and chains" cmp -s "$TMP/a2.s" "$TMP/p.s"
  # and back: perf.data -> log interns again
  "$PMC" convert -i "$TMP/perf.data" -o "$TMP/back.log" >/dev/null 2>&1
  check "perf.data -> log is interned too" test "$(stat -c %s "$TMP/back.log")" -le $((40 * n))
else
  fail "pmc convert to perf.data"
fi

# A format-1 log (the committed file, from the format-1 writer: every sample
# a whole CALLCHAIN) reads as before.
V1=$PMC_ROOT/tests/data/log-v1.log
"$PMC" dump -i "$V1" >"$TMP/v1.txt" 2>&1; rc=$?
check "format 1 log: dump exit 0" test "$rc" = 0
check "format 1 log: header says 1.0" grep -q ' HEADER format="1.0"' "$TMP/v1.txt"
check "format 1 log: its 75 samples" test "$(grep -c ' CALLCHAIN ' "$TMP/v1.txt")" = 75
"$PMC" report -i "$V1" >"$TMP/v1r.txt" 2>&1; rc=$?
check "format 1 log: report" test "$rc" = 0 -a -n "$(grep '^# Samples: 75 ' "$TMP/v1r.txt")"

# A format-2 log (tests/data/log-v2.log, from the format-2 writer: every new
# chain a CHAIN record before a CHAINSAMPLE) reads as before.
V2=$PMC_ROOT/tests/data/log-v2.log
"$PMC" dump -i "$V2" >"$TMP/v2.txt" 2>&1; rc=$?
check "format 2 log: dump exit 0" test "$rc" = 0
check "format 2 log: header says 2.0" grep -q ' HEADER format="2.0"' "$TMP/v2.txt"
check "format 2 log: its 32 CHAIN records" test "$(grep -c ' CHAIN chainid=' "$TMP/v2.txt")" = 32
check "format 2 log: its 100 samples, each with its chain id" \
  test "$(grep ' CALLCHAIN ' "$TMP/v2.txt" | grep -c ' npc=[23] chainid=[1-9]')" = 100
"$PMC" report -i "$V2" >"$TMP/v2r.txt" 2>&1; rc=$?
check "format 2 log: report" test "$rc" = 0 -a -n "$(grep '^# Samples: 100 ' "$TMP/v2r.txt")"
done_testing
