#!/usr/bin/env bash
# A flat report of a DWARF recording (issue 26 item 1): a pmc log of
# `pmc record --call-graph dwarf` and perf.data of `perf record --call-graph
# dwarf`.  A flat report shows each sample's pc only, so it unwinds nothing
# (its JSON says 0 unwound samples, its text has no "unwound from DWARF"
# line) and its rows are those of the report that unwinds every stack (-g:
# the same rows, with call graphs).  The workload runs beside more than 32
# short processes, all with user stacks, so that the unwinder's table of
# address spaces grows while the first one's libdwfl state is in use (a -g
# report of a `record -a` recording crashed there before each space was
# allocated alone; this workload does not always hit it).
source "$(dirname "$0")/lib.sh"
D=$PMC_ROOT/tests/helpers/dwarf
CC=${CC:-cc}

W=$TMP/w
if ! build_dwarf_work "$W"; then
  skip "DWARF workload" "cannot build it with ${CC:-cc}: $(head -1 "$TMP/cc.err")"; done_testing; exit
fi
cat >"$W/run.sh" <<EOF
"$W/dwarf_work" 4 &
for i in \$(seq 40); do awk 'BEGIN { for (i = 0; i < 100000; i++) s += i }'; done
wait
EOF

# rows: the JSON without what only unwinding fills (the unwinding counts,
# the call graphs); the text's rows (the lines with a percentage first)
json_rows() {
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("unwound_samples", "truncated_stacks"):
    d.pop(k)
for e in d["events"]:
    e.pop("callgraph", None)
print(json.dumps(d, sort_keys=True))' "$1"
}
text_rows() { grep -E '^ +[0-9.]+% ' "$1"; }

flat_vs_unwound() {   # NAME FILE
  local n=$1 f=$2
  if ! "$PMC" report -i "$f" --format json >"$TMP/$n.flat.json" 2>"$TMP/$n.err" ||
     ! "$PMC" report -i "$f" >"$TMP/$n.flat.txt" 2>>"$TMP/$n.err"; then
    fail "$n: flat report" "$(head -3 "$TMP/$n.err")"; return
  fi
  if ! "$PMC" report -i "$f" -g caller --format json >"$TMP/$n.g.json" 2>"$TMP/$n.err" ||
     ! "$PMC" report -i "$f" -g caller >"$TMP/$n.g.txt" 2>>"$TMP/$n.err"; then
    fail "$n: -g report (unwinding more than 32 processes)" "$(head -3 "$TMP/$n.err")"; return
  fi
  ok "$n: flat and -g reports"
  local unw
  unw=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["unwound_samples"], d["truncated_stacks"])' "$TMP/$n.flat.json")
  check "$n: the flat report unwinds nothing (unwound, truncated: $unw)" [ "$unw" = "0 0" ]
  unw=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["unwound_samples"])' "$TMP/$n.g.json")
  check "$n: the -g report unwinds ($unw samples)" [ "$unw" -gt 0 ]
  check "$n: the flat text says nothing of unwinding" \
      bash -c "! grep -q 'unwound from DWARF' '$TMP/$n.flat.txt'"
  # work counted: a flat report starts no unwinding worker (-j 4 clones
  # no more threads than -j 1); -g's workers unwind in unwind_threads.sh
  if command -v strace >/dev/null; then
    strace -f -qq -e trace=clone,clone3 -o "$TMP/$n.st4" "$PMC" report -j 4 -i "$f" \
        >/dev/null 2>&1
    strace -f -qq -e trace=clone,clone3 -o "$TMP/$n.st1" "$PMC" report -j 1 -i "$f" \
        >/dev/null 2>&1
    local c4 c1
    c4=$(grep -c clone "$TMP/$n.st4"); c1=$(grep -c clone "$TMP/$n.st1")
    check "$n: flat report -j 4 starts no unwinding thread ($c4 clones, -j 1: $c1)" [ "$c4" -eq "$c1" ]
  else
    skip "$n: unwinding threads counted" "no strace"
  fi
  json_rows "$TMP/$n.flat.json" >"$TMP/$n.flat.rows"
  json_rows "$TMP/$n.g.json" >"$TMP/$n.g.rows"
  check "$n: JSON rows byte-identical to the unwinding report's" cmp -s "$TMP/$n.flat.rows" "$TMP/$n.g.rows"
  text_rows "$TMP/$n.flat.txt" >"$TMP/$n.flat.trows"
  text_rows "$TMP/$n.g.txt" >"$TMP/$n.g.trows"
  if [ -s "$TMP/$n.flat.trows" ] && cmp -s "$TMP/$n.flat.trows" "$TMP/$n.g.trows"; then
    ok "$n: text rows byte-identical to the unwinding report's ($(wc -l <"$TMP/$n.flat.trows") rows)"
  else
    fail "$n: text rows" "$(diff "$TMP/$n.flat.trows" "$TMP/$n.g.trows" | head -5)"
  fi
}

if "$PMC" record -q --call-graph dwarf -F 2000 -o "$TMP/dw.log" -- sh "$W/run.sh" \
    >/dev/null 2>"$TMP/rec.err"; then
  flat_vs_unwound "pmc log" "$TMP/dw.log"
  # The log's stack copies are in stack frames (log format 4) that a flat
  # report skips undecoded: with every stack frame's zstd data made
  # corrupt, the flat report is the same and the -g report fails.
  nsf=$(python3 - "$TMP/dw.log" "$TMP/bad.log" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
off, n = 8, 0
while True:
    # a stack frame: skippable magic 0x184D2A5C, its size, a zstd frame
    i = b.find(b"\x5c\x2a\x4d\x18", off)
    if i < 0:
        break
    size = struct.unpack_from("<I", b, i + 4)[0]
    if b[i + 8:i + 12] == b"\x28\xb5\x2f\xfd" and i + 8 + size <= len(b):
        b[i + 8 + size // 2] ^= 0x5A
        b[i + 8 + size - 2] ^= 0x5A
        n += 1
        off = i + 8 + size
    else:
        off = i + 1
open(sys.argv[2], "wb").write(b)
print(n)
PY
)
  "$PMC" report --stdio -i "$TMP/bad.log" >"$TMP/bad.flat" 2>"$TMP/bad.err"; rc=$?
  if [ "${nsf:-0}" -gt 0 ] && [ $rc = 0 ] && cmp -s <(text_rows "$TMP/bad.flat") "$TMP/pmc log.flat.trows"; then
    ok "pmc log: the flat report decodes none of its $nsf stack frames (all made corrupt: the same rows)"
  else fail "pmc log: the flat report skips the stack frames" "$nsf stack frames, exit $rc: $(head -2 "$TMP/bad.err")"; fi
  "$PMC" report --stdio -g caller -i "$TMP/bad.log" >/dev/null 2>"$TMP/bad.gerr"; rc=$?
  if [ $rc != 0 ] && grep -q "stack frame" "$TMP/bad.gerr"; then
    ok "pmc log: the -g report reads them (corrupt: exit $rc, '$(grep -m1 -o "corrupt stack frame[^:]*" "$TMP/bad.gerr")')"
  else fail "pmc log: the -g report reads the stack frames" "exit $rc: $(head -2 "$TMP/bad.gerr")"; fi
else
  fail "pmc record --call-graph dwarf" "$(head -3 "$TMP/rec.err")"
fi

if ! command -v perf >/dev/null; then
  skip "perf.data of perf record --call-graph dwarf" "perf is not installed"
elif perf_record dw --call-graph dwarf -F 2000 -- sh "$W/run.sh"; then
  flat_vs_unwound "perf.data" "$TMP/dw.data"
else
  skip "perf.data of perf record --call-graph dwarf" "perf record failed: $(head -1 "$TMP/dw.err")"
fi
done_testing
