#!/usr/bin/env bash
# pmc stat typed the way perf users type it (issue 10): -r runs that each
# start from zero, -I with its last partial interval and even CSV columns,
# counts on stderr, -a with a command, shared target validation, perf's
# aggregation modes, groups, tracepoint globs, -d, and modifiers the kernel
# refuses to an unprivileged user.  perf is the oracle where both run.
. "$(dirname "$0")/lib.sh"
have_perf() { command -v perf >/dev/null; }
csv() { awk -F, -v e="$2" '$3==e{print $1}' "$1"; }

# --- -r: each run starts from zero --------------------------------------------
"$PMC" stat -r 5 --json -o "$TMP/r.json" -e page-faults,task-clock -- "$HELPERS/touch_pages" 2000
if python3 - "$TMP/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = {e["event"]: e for e in d["events"]}
pf = ev["page-faults"]
runs = pf["run_values"]
assert d["runs"] == 5 and len(runs) == 5, d
for v in runs:                       # each run: its own 2000 pages, not a running total
    assert 2000 <= v <= 2300, runs
assert 2000 <= pf["value"] <= 2300 and pf["rsd_percent"] < 5, pf
assert pf["raw"] <= 2300, pf         # the last run's own count
tc = ev["task-clock"]
assert tc["metric"]["value"] < 1.5, tc  # CPUs utilized of one run, not of five
PY
then ok "-r 5: every run counts its own ~2000 page faults"; else fail "-r 5 per-run counts" "$(cat "$TMP/r.json")"; fi
out=$("$PMC" stat -r 3 -e page-faults -- "$HELPERS/touch_pages" 500 2>&1 >/dev/null)
if echo "$out" | grep -q '(3 runs)' && echo "$out" | grep -qE '\+- [0-9.]+ seconds time elapsed' &&
   ! echo "$out" | grep -q 'seconds user'; then ok "-r 3: perf's mean +- stddev elapsed line, no summed user/sys"
else fail "-r 3 elapsed line" "$out"; fi
n=$("$PMC" stat -r 2 -x, -e page-faults -- "$HELPERS/touch_pages" 500 2>&1 >/dev/null | awk -F, '$3=="page-faults" && $4 ~ /%$/' | wc -l)
check "-r -x,: the stddev column after the event (perf's)" test "$n" = 1
if have_perf; then
  p=$(perf stat -r 5 -x, -e page-faults -- "$HELPERS/touch_pages" 2000 2>&1 >/dev/null | awk -F, '$3=="page-faults"{print $1}')
  q=$("$PMC" stat -r 5 -x, -e page-faults -- "$HELPERS/touch_pages" 2000 2>&1 >/dev/null | awk -F, '$3=="page-faults"{print $1}')
  if [ -n "$p" ] && [ -n "$q" ] && approx "$q" "$p" 3; then ok "-r 5 mean agrees with perf ($q vs $p)"
  else fail "-r 5 vs perf" "pmc '$q' perf '$p'"; fi
else skip "-r 5 vs perf" "perf is not installed"; fi

# --- -I: the last partial interval, the same columns on every row --------------
"$PMC" stat -I 1000 -x, -e page-faults,cycles -o "$TMP/i.csv" -- "$HELPERS/touch_pages" 3000
sum=$(awk -F, '$4=="page-faults"{s+=$2} END{print s+0}' "$TMP/i.csv")
if [ "$sum" -ge 3000 ] && [ "$sum" -le 3300 ]; then ok "-I 1000 of a short command: the partial interval is printed ($sum faults)"
else fail "-I partial interval" "sum '$sum' $(cat "$TMP/i.csv")"; fi
cols=$(awk -F, '{print NF}' "$TMP/i.csv" | sort -u | tr '\n' ' ')
check "-I -x,: every row has the same number of columns ($cols)" test "$(echo $cols | wc -w)" = 1
"$PMC" stat -I 100 -x, -e task-clock -o "$TMP/i2.csv" -- "$HELPERS/busy" 250 >/dev/null
cols=$(awk -F, '{print NF}' "$TMP/i2.csv" | sort -u | tr '\n' ' ')
check "-I -x, of a longer command: no totals row of fewer columns ($cols)" test "$(echo $cols | wc -w)" = 1

# --- counts on stderr; the command's stdout is its own ------------------------------
printf 'some text to compress\n%.0s' $(seq 200) >"$TMP/f"
"$PMC" stat -e task-clock -- gzip -c "$TMP/f" >"$TMP/f.gz" 2>"$TMP/gz.err"
if gzip -t "$TMP/f.gz" 2>/dev/null && grep -q task-clock "$TMP/gz.err"; then ok "stat -- gzip -c f > f.gz: a valid f.gz, counts on stderr"
else fail "counts on stderr" "$(head -c 200 "$TMP/f.gz" | od -c | head -3)"; fi
out=$("$PMC" stat -e task-clock -- echo hello 2>/dev/null)
check "the command's stdout is untouched ('$out')" test "$out" = hello
"$PMC" stat -x, -e task-clock -o - -- true >"$TMP/dash.out" 2>/dev/null
check "-o - writes the counts to stdout" grep -q ',task-clock,' "$TMP/dash.out"

# --- targets: -a with a command, one validator for stat and record -------------------
if [ "$(id -u)" = 0 ]; then
  "$PMC" stat -a --json -o "$TMP/a.json" -e cpu-clock -- sleep 0.3; rc=$?
  if [ "$rc" = 0 ] && python3 - "$TMP/a.json" "$(nproc)" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
cc = d["events"][0]["value"]
# every CPU's clock runs for as long as the command: ncpu x elapsed
assert "system wide" in d["target"] and abs(cc / d["elapsed_ns"] - int(sys.argv[2])) < 0.15, (cc, d)
PY
  then ok "stat -a -- sleep 0.3: system-wide for as long as the command runs"
  else fail "stat -a -- cmd" "rc=$rc $(cat "$TMP/a.json")"; fi
  "$PMC" record -q -a -e cpu-clock -o "$TMP/a.log" -- sleep 0.3 2>"$TMP/ra.err"; rc=$?
  if [ "$rc" = 0 ] && [ -s "$TMP/a.log" ]; then ok "record -a -- sleep 0.3 works"
  else fail "record -a -- cmd" "rc=$rc $(cat "$TMP/ra.err")"; fi
else
  skip "-a with a command" "needs root (perf_event_paranoid)"
fi
# (the target ends by itself: a -l that is wrongly accepted cannot hang the test)
for v in nan inf -1 0 abc; do
  sleep 1 & sp=$!
  "$PMC" stat -e task-clock -p "$sp" -l "$v" 2>"$TMP/l1"; r1=$?
  "$PMC" record -e task-clock -p "$sp" -l "$v" -o "$TMP/l.log" 2>"$TMP/l2"; r2=$?
  kill "$sp" 2>/dev/null; wait "$sp" 2>/dev/null
  if [ "$r1" = 2 ] && [ "$r2" = 2 ] && grep -q "not a positive number" "$TMP/l1" && grep -q "not a positive number" "$TMP/l2"
  then ok "-l $v: refused by stat and record alike"; else fail "-l $v" "stat rc=$r1 record rc=$r2 $(cat "$TMP/l1" "$TMP/l2")"; fi
done
"$PMC" stat -e task-clok -- true 2>"$TMP/tc.err"; rc=$?
if [ "$rc" = 2 ] && grep -q "did you mean 'task-clock'" "$TMP/tc.err"; then ok "stat -e task-clok -- cmd: did you mean 'task-clock'?"
else fail "task-clok suggestion" "rc=$rc $(cat "$TMP/tc.err")"; fi
for c in stat record report annotate diff dump convert list control; do
  "$PMC" help "$c" >"$TMP/h1" 2>&1; r1=$?
  "$PMC" "$c" --help >"$TMP/h2" 2>&1
  if [ "$r1" = 0 ] && cmp -s "$TMP/h1" "$TMP/h2"; then ok "pmc help $c = pmc $c --help"; else fail "pmc help $c" "rc=$r1"; fi
done

# --- aggregation: -A, --per-core, --per-socket, --per-thread (perf's layouts) ---------
if [ "$(id -u)" = 0 ]; then
  "$PMC" stat -A -a -x, -e cpu-clock,page-faults -o "$TMP/A.csv" -- sleep 0.2
  "$PMC" stat -A -a --json -e cpu-clock -o "$TMP/A.json" -- sleep 0.2
  if python3 - "$TMP/A.json" "$(nproc)" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["events"]
assert sorted(e["cpu"] for e in ev) == list(range(int(sys.argv[2]))), ev
for e in ev:    # each CPU's clock ran for the whole command
    assert 0.9 < e["value"] / d["elapsed_ns"] < 1.1, (e, d["elapsed_ns"])
PY
  then ok "-A --json: each CPU's own cpu-clock covers the run"; else fail "-A per-CPU values" "$(cat "$TMP/A.json")"; fi
  want=$(for c in $(seq 0 $(($(nproc) - 1))); do echo CPU$c; done | sort | tr '\n' ' ')
  got=$(awk -F, '$4=="cpu-clock"{print $1}' "$TMP/A.csv" | sort | tr '\n' ' ')
  check "-A: one cpu-clock row per CPU ($got)" test "$got" = "$want"
  if have_perf; then
    perf stat -A -a -x, -e cpu-clock,page-faults -- sleep 0.2 2>"$TMP/pA.csv" >/dev/null
    for m in per-core per-socket; do
      perf stat --$m -a -x, -e cpu-clock -- sleep 0.2 2>"$TMP/p$m.csv" >/dev/null
      "$PMC" stat --$m -a -x, -e cpu-clock -o "$TMP/$m.csv" -- sleep 0.2
      a=$(awk -F, '{print $1","$2","NF}' "$TMP/p$m.csv" | sort | tr '\n' ' ')
      b=$(awk -F, '{print $1","$2","NF}' "$TMP/$m.csv" | sort | tr '\n' ' ')
      if [ -n "$a" ] && [ "$a" = "$b" ]; then ok "--$m: the same labels, CPU counts and columns as perf ($b)"
      else fail "--$m vs perf" "perf '$a' pmc '$b'"; fi
    done
    a=$(awk -F, '{print $1","$4","NF}' "$TMP/pA.csv" | sort | tr '\n' ' ')
    b=$(awk -F, '{print $1","$4","NF}' "$TMP/A.csv" | sort | tr '\n' ' ')
    check "-A -x,: the same rows and columns as perf" test "$a" = "$b"
  else
    skip "aggregation vs perf" "perf is not installed"
  fi
else
  skip "-A, --per-core, --per-socket" "needs root (perf_event_paranoid)"
fi
"$PMC" stat -A -e task-clock -- true 2>"$TMP/A.err"; rc=$?
if [ "$rc" = 2 ] && grep -q "need -a" "$TMP/A.err"; then ok "-A without -a: usage error"; else fail "-A without -a" "rc=$rc $(cat "$TMP/A.err")"; fi

"$HELPERS/deepcall" 3 8 100000000 >/dev/null & dp=$!
for _ in $(seq 100); do [ "$(ls /proc/$dp/task 2>/dev/null | wc -l)" -ge 3 ] && break; sleep 0.05; done
"$PMC" stat --per-thread -p "$dp" -l 0.3 -x, -e task-clock,context-switches -o "$TMP/pt.csv"
tids=$(ls /proc/$dp/task | sort -n | sed "s/^/deepcall-/" | tr '\n' ' ')
if have_perf; then perf stat --per-thread -p "$dp" -x, -e task-clock,context-switches -- sleep 0.3 2>"$TMP/ppt.csv" >/dev/null; fi
kill "$dp" 2>/dev/null; wait "$dp" 2>/dev/null
got=$(awk -F, '$4=="task-clock"{print $1}' "$TMP/pt.csv" | sort -t- -k2 -n | tr '\n' ' ')
check "--per-thread -p: one row per thread, named comm-tid ($got)" test "$got" = "$tids"
busy=$(awk -F, '$4=="task-clock" && $2 > 10' "$TMP/pt.csv" | wc -l)
check "--per-thread: the 3 spinning threads each have their own task-clock ($busy)" test "$busy" -ge 2
if have_perf; then
  a=$(awk -F, '{print $1","$4","NF}' "$TMP/ppt.csv" | sort | tr '\n' ' ')
  b=$(awk -F, '{print $1","$4","NF}' "$TMP/pt.csv" | sort | tr '\n' ' ')
  check "--per-thread -x,: the same rows and columns as perf" test "$a" = "$b"
fi
"$PMC" stat --per-thread -e task-clock -- true 2>"$TMP/pt.err"; rc=$?
check "--per-thread with a command: usage error (as perf's)" test "$rc" = 2

# --- groups, tracepoint globs, -d -----------------------------------------------------
"$PMC" stat -x, -e '{task-clock,page-faults}' -o "$TMP/g.csv" -- "$HELPERS/touch_pages" 1000
pf=$(csv "$TMP/g.csv" page-faults)
if [ -n "$pf" ] && [ "$pf" -ge 1000 ] && [ -n "$(csv "$TMP/g.csv" task-clock)" ]; then ok "-e '{task-clock,page-faults}': a group, both counted ($pf faults)"
else fail "event group" "$(cat "$TMP/g.csv")"; fi
if have_perf && [ -d /sys/kernel/tracing/events/sched ] || [ -d /sys/kernel/debug/tracing/events/sched ]; then
  a=$(perf stat -x, -e 'sched:*' -- true 2>&1 >/dev/null | awk -F, '{print $3}' | sort | tr '\n' ' ')
  b=$("$PMC" stat -x, -e 'sched:*' -- true 2>&1 >/dev/null | awk -F, '{print $3}' | sort | tr '\n' ' ')
  if [ -n "$b" ] && [ "$a" = "$b" ]; then ok "-e 'sched:*': the same $(echo $b | wc -w) tracepoints as perf"
  else fail "tracepoint glob vs perf" "perf '$a' pmc '$b'"; fi
  sw=$("$PMC" stat -x, -e 'sched:sched_sw*' -- "$HELPERS/sleeper" 20 2>&1 >/dev/null | awk -F, '$3=="sched:sched_switch"{print $1}')
  if [ -n "$sw" ] && [ "$sw" -ge 20 ]; then ok "a glob's tracepoints count ($sw switches)"; else fail "glob counts" "'$sw'"; fi
else
  skip "tracepoint globs" "perf or tracefs missing"
fi
"$PMC" stat -e 'nosuchsys:*' -- true 2>"$TMP/gl.err"; rc=$?
if [ "$rc" = 2 ] && grep -q "no tracepoint matches" "$TMP/gl.err"; then ok "a glob that matches nothing: usage error"; else fail "empty glob" "rc=$rc $(cat "$TMP/gl.err")"; fi
"$PMC" stat -d -x, -o "$TMP/d.csv" -- true; rc=$?
n=$(awk -F, '$3 ~ /^(L1-dcache-loads|L1-dcache-load-misses|LLC-loads|LLC-load-misses)$/' "$TMP/d.csv" | wc -l)
if [ "$rc" = 0 ] && [ "$n" = 4 ]; then ok "-d adds perf's four cache events ($(awk -F, '$3=="LLC-loads"{print $1}' "$TMP/d.csv") where absent)"
else fail "-d" "rc=$rc $(cat "$TMP/d.csv")"; fi

# --- --per-process: task-clock with its unit ---------------------------------------------
"$PMC" stat --per-process -e task-clock -- "$HELPERS/busy" 50 >/dev/null 2>"$TMP/pp.txt"
if grep -q 'task-clock msec' "$TMP/pp.txt" && awk '$3=="busy" && $4 ~ /^[0-9]+\.[0-9][0-9]$/ {f=1} END{exit !f}' "$TMP/pp.txt"
then ok "--per-process prints task-clock in msec, with its unit"; else fail "--per-process task-clock unit" "$(cat "$TMP/pp.txt")"; fi

# --- an unprivileged user: modifiers the kernel refuses -----------------------------------
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ]; then
  nob() { (cd / && setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"); }
  W=$(mktemp -d /tmp/pmc-nobody-XXXXXX); chmod 1777 "$W"
  nob "$PMC" stat -x, -e cpu-clock:k -- "$HELPERS/busy" 20 >/dev/null 2>"$W/k.err"; rc=$?
  if [ "$rc" = 1 ] && grep -q "perf_event_paranoid" "$W/k.err"; then ok "unprivileged stat -e cpu-clock:k: refused with the paranoid advice"
  else fail "unprivileged :k (stat)" "rc=$rc $(cat "$W/k.err")"; fi
  if have_perf; then nob perf stat -e cpu-clock:k -- true >/dev/null 2>&1; check "perf refuses cpu-clock:k too" test $? != 0; fi
  nob "$PMC" record -e cpu-clock:k -o "$W/k.log" -- "$HELPERS/busy" 20 >/dev/null 2>"$W/rk.err"; rc=$?
  if [ "$rc" = 1 ] && grep -q "perf_event_paranoid" "$W/rk.err"; then ok "unprivileged record -e cpu-clock:k: refused, no empty log"
  else fail "unprivileged :k (record)" "rc=$rc $(cat "$W/rk.err")"; fi
  nob "$PMC" stat -x, -e cpu-clock,page-faults:u -- "$HELPERS/busy" 20 >/dev/null 2>"$W/u.csv"; rc=$?
  if [ "$rc" = 0 ] && [ -n "$(csv "$W/u.csv" cpu-clock:u)" ] && [ -n "$(csv "$W/u.csv" page-faults:u)" ]
  then ok "unprivileged, no modifier: falls back to user space and says so (cpu-clock:u)"
  else fail "user-only fallback" "rc=$rc $(cat "$W/u.csv")"; fi
  if have_perf; then
    p=$(nob perf stat -x, -e cpu-clock -- true 2>&1 >/dev/null | awk -F, '{print $3}')
    check "perf names it the same ('$p')" test "$p" = cpu-clock:u
  fi
  nob "$PMC" record -e cpu-clock -o "$W/u2.log" -- "$HELPERS/busy" 20 >/dev/null 2>"$W/ru.err"
  check "unprivileged record, no modifier: says it samples cpu-clock:u" \
      grep -q "sampling 'cpu-clock' as 'cpu-clock:u'" "$W/ru.err"
  nob "$PMC" record -q -e cpu-clock -o "$W/u.log" -- "$HELPERS/busy" 50 >/dev/null 2>&1
  if "$PMC" dump -i "$W/u.log" 2>/dev/null | grep -q 'event="cpu-clock:u"'; then ok "the log says cpu-clock:u"
  else fail "log names the fallback" "$("$PMC" dump -i "$W/u.log" 2>&1 | grep -i alloc)"; fi
  rm -rf "$W"
else
  skip "unprivileged modifiers" "needs root, setpriv and perf_event_paranoid >= 2"
fi
done_testing
