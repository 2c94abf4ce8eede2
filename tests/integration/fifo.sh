#!/usr/bin/env bash
# -i FIFO / -o FIFO with nobody on the other end (issue 28 item 4): open(2)
# blocks, as perf's does; after a second one line says what pmc waits for,
# and Ctrl-C ends it cleanly (exit 130, no output file left).  With a peer
# the FIFO works both ways.
source "$(dirname "$0")/lib.sh"

mkfifo "$TMP/ff" || { skip "FIFOs" "mkfifo failed"; done_testing; exit; }
"$PMC" record -q -e cpu-clock -o "$TMP/a.log" -- "$HELPERS/busy" 100 >/dev/null 2>&1
mkdir "$TMP/o"

# waits PEER CMD...: interrupted (SIGINT) after 2.5 s, CMD said it waits for
# PEER in one line and exited 130
waits() {
  local peer=$1 rc; shift
  timeout --preserve-status -s INT 2.5 "$PMC" "$@" >/dev/null 2>"$TMP/w.err"; rc=$?
  if [ "$rc" = 130 ] && [ "$(wc -l <"$TMP/w.err")" = 1 ] &&
     grep -q "waiting for a $peer on FIFO '$TMP/ff'; Ctrl-C to stop" "$TMP/w.err"; then
    ok "$1 with a FIFO and no $peer: says so, Ctrl-C ends it"
  else fail "$1 with a FIFO and no $peer" "rc=$rc $(head -3 "$TMP/w.err")"; fi
}
for c in "report -i $TMP/ff -o $TMP/o/r.txt" "script -i $TMP/ff -o $TMP/o/s.txt" \
         "annotate -i $TMP/ff -o $TMP/o/a.txt main" "convert -i $TMP/ff -o $TMP/o/c.data" \
         "dump -i $TMP/ff"; do
  waits writer $c
done
for c in "record -e cpu-clock -o $TMP/ff -- true" "convert -i $TMP/a.log -o $TMP/ff" \
         "report -i $TMP/a.log -o $TMP/ff"; do
  waits reader $c
done
check "... and no output file left" test -z "$(ls -A "$TMP/o")"

# with a peer: record into the FIFO, report from it
"$PMC" record -e cpu-clock -o "$TMP/ff" -- "$HELPERS/busy" 300 >/dev/null 2>"$TMP/rec.err" &
"$PMC" report -i "$TMP/ff" --stdio >"$TMP/rep.txt" 2>"$TMP/rep.err"; rc=$?
wait
if [ "$rc" = 0 ] && grep -q "^# Samples:" "$TMP/rep.txt" && grep -q busy "$TMP/rep.txt"; then
  ok "record -o FIFO | report -i FIFO: the report"
else fail "record -o FIFO | report -i FIFO" "rc=$rc $(head -3 "$TMP/rep.err")"; fi
"$PMC" script -i "$TMP/ff" >"$TMP/s.txt" 2>&1 & cat "$TMP/a.log" >"$TMP/ff"; wait $!; rc=$?
check "script -i FIFO with a writer (rc $rc)" grep -q busy "$TMP/s.txt"
done_testing
