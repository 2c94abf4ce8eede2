#!/usr/bin/env bash
# DWARF unwinding on worker threads (issue 26 item 2): -j N / --jobs N on
# report, script, annotate and diff.  Whatever the number of threads, the
# output is the one one thread gives, byte for byte: call graphs (-g,
# --children), folded stacks and script's samples, of pmc logs and perf.data
# files recorded with --call-graph dwarf and with frame pointers, of a
# workload with a shared library and a thread (tests/helpers/dwarf) and of
# python3, which maps its extension modules while it runs (mappings that
# arrive between samples: the queue is drained at each, and every worker
# steps its modules through the same mapping counts).
source "$(dirname "$0")/lib.sh"
D=$PMC_ROOT/tests/helpers/dwarf
CC=${CC:-cc}

# --- the option ----------------------------------------------------------------
for cmd in report script annotate diff; do
  "$PMC" "$cmd" --help 2>&1 | grep -q -- "-j, --jobs N"
  check "pmc $cmd --help shows -j, --jobs N" [ $? -eq 0 ]
done
for bad in 0 -3 x 1025 ''; do
  "$PMC" report -j "$bad" -i /dev/null >/dev/null 2>"$TMP/bad.err"; rc=$?
  if [ $rc -eq 2 ] && grep -q "pmc report: -j/--jobs: '$bad' is not a number of threads" "$TMP/bad.err"; then
    ok "report -j '$bad': usage error"
  else fail "report -j '$bad'" "exit $rc: $(head -1 "$TMP/bad.err")"; fi
done
"$PMC" script --threads 0 -i /dev/null >/dev/null 2>"$TMP/bad.err"; rc=$?
check "script --threads 0: usage error" [ $rc -eq 2 ]

# --- recordings ------------------------------------------------------------------
W=$TMP/w
if ! build_dwarf_work "$W"; then
  skip "DWARF workload" "cannot build it with ${CC:-cc}: $(head -1 "$TMP/cc.err")"; done_testing; exit
fi
# fp: the same sources with frame pointers
mkdir -p "$W/fp"
"$CC" -O2 -fno-omit-frame-pointer -g -fPIC -shared -o "$W/fp/libdw_work.so" "$D/libdw_work.c"
"$CC" -O2 -fno-omit-frame-pointer -g -o "$W/fp/dwarf_work" "$D/dwarf_work.c" -L"$W/fp" -ldw_work \
    -Wl,-rpath,"$W/fp" -lpthread

INPUTS=()
rec() {   # rec NAME PMC-RECORD-ARGS... -- COMMAND
  local name=$1; shift
  if "$PMC" record -q "$@" >/dev/null 2>"$TMP/$name.err"; then INPUTS+=("$name")
  else fail "pmc record ($name)" "$(head -2 "$TMP/$name.err")"; fi
}
rec dwarf.log --call-graph dwarf -o "$TMP/dwarf.log" -- "$W/dwarf_work" 4
rec fp.log -g -o "$TMP/fp.log" -- "$W/fp/dwarf_work" 4
# 40 processes one after another: more address spaces than an unwinder's
# first table holds (it grows with the spaces' Dwfls attached)
rec many.log --call-graph dwarf -o "$TMP/many.log" -- sh -c \
    'for i in $(seq 40); do awk "BEGIN { for (i = 0; i < 150000; i++) s += i }"; done'
PY=$(command -v python3 || true)
if [ -n "$PY" ]; then
  # modules with C extensions, imported while samples are taken
  rec py.log --call-graph dwarf -F 2000 -o "$TMP/py.log" -- "$PY" -c '
import time
def spin(n):
    s = 0
    for i in range(n): s += i * i
    return s
spin(300000)
import json, decimal, hashlib, zlib, math, random, struct
spin(200000); decimal.Decimal(1) / decimal.Decimal(7); zlib.compress(b"x" * 100000)
import unicodedata, array, select, bisect, heapq, csv, datetime
spin(300000)'
else
  skip "python3 recording" "no python3"
fi
if ! command -v perf >/dev/null; then
  skip "perf.data recordings" "no perf (optional oracle: scripts/deps.sh)"
else
  if perf_record pdwarf --call-graph dwarf -- "$W/dwarf_work" 4; then INPUTS+=(pdwarf.data)
  else fail "perf record --call-graph dwarf" "$(head -2 "$TMP/pdwarf.err")"; fi
  if perf_record pfp -g -- "$W/fp/dwarf_work" 4; then INPUTS+=(pfp.data)
  else fail "perf record -g" "$(head -2 "$TMP/pfp.err")"; fi
fi

# The DWARF recordings are unwound: many samples, stacks through main.
for f in dwarf.log pdwarf.data; do
  [ -f "$TMP/$f" ] || continue
  "$PMC" report -j 4 -i "$TMP/$f" -g --stdio >"$TMP/hdr.txt" 2>/dev/null
  n=$(sed -n 's/^# .* (of \([0-9,]*\) unwound from DWARF).*/\1/p' "$TMP/hdr.txt" | tr -d ,)
  if [ "${n:-0}" -ge 200 ] && "$PMC" report -j 4 -i "$TMP/$f" -F folded 2>/dev/null |
      grep -q ';main;path_b;lib_entry;lib_leaf'; then
    ok "$f: ${n} samples unwound on 4 threads, stacks through the library"
  else fail "$f: unwound" "${n:-no} samples unwound: $(grep '^#' "$TMP/hdr.txt" | head -8 | tr '\n' '|')"; fi
done

# --- -j 1 and -j N give the same bytes --------------------------------------------
# view NAME ARGS...: pmc ARGS with -j 1, then with -j 4 and 2 (and --jobs,
# --threads=N spelled out): the outputs equal
same() {
  local what=$1 in=$2; shift 2
  "$PMC" "$@" -j 1 -i "$in" >"$TMP/one.out" 2>"$TMP/one.err"; local rc1=$?
  if [ $rc1 -ne 0 ] || [ ! -s "$TMP/one.out" ]; then
    fail "$what" "-j 1: exit $rc1: $(head -2 "$TMP/one.err")"; return
  fi
  local spell
  for spell in "-j 4" "--jobs 2" "${THREADS_SPELLING:---jobs=3}"; do
    # shellcheck disable=SC2086
    "$PMC" "$@" $spell -i "$in" >"$TMP/many.out" 2>"$TMP/many.err"
    if ! cmp -s "$TMP/one.out" "$TMP/many.out"; then
      fail "$what" "$spell differs from -j 1: $(diff "$TMP/one.out" "$TMP/many.out" | head -4 | tr '\n' '|')"
      return
    fi
  done
  ok "$what: -j 1, -j 4, -j 2, -j 3 byte-identical ($(wc -l <"$TMP/one.out") lines)"
}
for f in "${INPUTS[@]}"; do
  in=$TMP/$f
  THREADS_SPELLING=--threads=3 same "$f report -g" "$in" report -g --stdio
  same "$f report --children -g" "$in" report --children -g caller --stdio
  same "$f report -F folded" "$in" report -F folded
  same "$f report -F json -g" "$in" report -F json -g
  THREADS_SPELLING="--threads 3" same "$f script" "$in" script
  THREADS_SPELLING="--threads 3" same "$f script --show-mmap-events" "$in" script \
      --show-mmap-events --show-task-events
done
# diff: two recordings, each loaded with the same -j
if [ -f "$TMP/dwarf.log" ] && [ -f "$TMP/pdwarf.data" ]; then
  "$PMC" diff -j 1 "$TMP/dwarf.log" "$TMP/pdwarf.data" >"$TMP/d1" 2>&1
  "$PMC" diff -j 4 "$TMP/dwarf.log" "$TMP/pdwarf.data" >"$TMP/d4" 2>&1
  check "diff -j 1 and -j 4 byte-identical" cmp -s "$TMP/d1" "$TMP/d4"
fi

if [ -f "$TMP/dwarf.log" ]; then
  "$PMC" annotate -j 1 -i "$TMP/dwarf.log" lib_leaf >"$TMP/a1" 2>&1
  "$PMC" annotate -j 4 -i "$TMP/dwarf.log" lib_leaf >"$TMP/a4" 2>&1
  check "annotate -j 1 and -j 4 byte-identical" cmp -s "$TMP/a1" "$TMP/a4"
fi

# --- the threads are there --------------------------------------------------------
if command -v strace >/dev/null && [ -f "$TMP/dwarf.log" ]; then
  strace -f -qq -e trace=clone,clone3 -o "$TMP/st4" "$PMC" report -j 4 -i "$TMP/dwarf.log" -g \
      --stdio >/dev/null 2>&1
  strace -f -qq -e trace=clone,clone3 -o "$TMP/st1" "$PMC" report -j 1 -i "$TMP/dwarf.log" -g \
      --stdio >/dev/null 2>&1
  # -j 1 starts no thread of pmc's own; what it clones (a sanitizer's
  # thread under check-sanitize) the -j 4 run clones too
  n4=$(grep -c 'clone' "$TMP/st4"); n1=$(grep -c 'clone' "$TMP/st1")
  check "report -j 4 starts 4 worker threads ($n4 clones against -j 1's $n1)" \
      sh -c "[ $((n4 - n1)) -eq 4 ] && { [ -n '${PMC_SANITIZED:-}' ] || [ $n1 -eq 0 ]; }"
else
  skip "worker threads counted" "no strace"
fi

done_testing
