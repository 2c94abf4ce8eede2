#!/usr/bin/env bash
# What is recorded is what is reported (issue 10), with perf as the oracle
# where both can run: one profile per event whatever the number of CPUs
# (record -a), the period really used below mincount, names of children
# forked without exec, samples of no thread (tid -1), cut and killed
# perf.data files warn and fail like cut pmc logs, perf's directory format,
# the pprof header (File, Period), and perf's spellings of report options.
. "$(dirname "$0")/lib.sh"

# ---- record -a: one event is one profile ------------------------------------
busy_bg() { "$HELPERS/busy" 300 >/dev/null 2>&1 & }
busy_bg; bp=$!
if "$PMC" record -q -a -l 0.4 -e cpu-clock -o "$TMP/a.log" 2>"$TMP/a.err"; then
  wait $bp
  "$PMC" report -i "$TMP/a.log" --color never >"$TMP/a.txt" 2>/dev/null
  n=$(grep -c '^# Event:' "$TMP/a.txt")
  check "record -a: one 'Event: cpu-clock' block (got $n)" test "$n" -eq 1
  total=$(sed -n 's/^# Samples: \([0-9,]*\) .*/\1/p' "$TMP/a.txt" | head -1 | tr -d ,)
  ncpu=$("$PMC" dump -i "$TMP/a.log" 2>/dev/null | grep -c 'PMCALLOCATE.*mode="SS"')
  check "record -a: one PMC per CPU in the log ($ncpu)" test "$ncpu" -ge 1
  "$PMC" report -i "$TMP/a.log" -s cpu --color never >"$TMP/acpu.txt" 2>/dev/null
  sum=$(awk '$1 ~ /%$/ { sub("%", "", $1); s += $1 } END { printf "%.0f", s }' "$TMP/acpu.txt")
  check "-s cpu: the CPUs share 100% ($sum)" test "$sum" -eq 100
  fsum=$("$PMC" report -i "$TMP/a.log" -F folded 2>/dev/null | awk '{ s += $NF } END { print s + 0 }')
  check "folded: every CPU's samples ($fsum of $total)" test "$fsum" -eq "$total"
  "$PMC" report -i "$TMP/a.log" -F speedscope >"$TMP/a.ss" 2>/dev/null
  np=$(grep -o '"type":"sampled"' "$TMP/a.ss" | wc -l)
  check "speedscope: one profile, not 'cpu-clock (1/2)' ($np)" test "$np" -eq 1
  "$PMC" report -i "$TMP/a.log" -F svg >"$TMP/a.svg" 2>/dev/null
  s=$(grep -o '<title>all ([0-9,]* samples' "$TMP/a.svg" | head -1 | tr -dc 0-9)
  check "svg: the root holds every CPU's samples (${s:-none} of $total)" test "${s:-0}" -eq "$total"
  ev=$("$PMC" report -i "$TMP/a.log" -F callgrind 2>/dev/null | sed -n 's/^events: //p')
  check "callgrind: one cost column ($ev)" test "$ev" = cpu_clock
  "$PMC" report -i "$TMP/a.log" -F html -o "$TMP/a.html" 2>/dev/null
  nh=$(grep -o '"name":"cpu-clock"' "$TMP/a.html" | wc -l)
  check "html: one event ($nh)" test "$nh" -eq 1
  if command -v go >/dev/null 2>&1 && "$PMC" report -i "$TMP/a.log" -F pprof -o "$TMP/a.pb" 2>/dev/null &&
     go tool pprof -raw "$TMP/a.pb" >"$TMP/a.raw" 2>/dev/null; then
    check "pprof: one sample type per event (samples, cpu-clock)" \
      grep -qx 'samples/count cpu-clock/nanoseconds' "$TMP/a.raw"
  else
    skip "pprof sample types" "go tool pprof is not available"
  fi
  if command -v perf >/dev/null 2>&1 && "$PMC" convert -i "$TMP/a.log" -o "$TMP/a.data" >/dev/null 2>&1; then
    ne=$(perf report -i "$TMP/a.data" --stdio 2>/dev/null | grep -c '^# Samples: .* of event')
    check "convert -a log to perf.data: one event for perf report ($ne)" test "$ne" -eq 1
  else
    skip "convert -a log to perf.data" "perf is not installed or convert failed"
  fi
else
  wait $bp
  skip "record -a" "cannot sample system-wide here: $(tail -1 "$TMP/a.err")"
fi

# ---- -c below mincount: the period really used ------------------------------
# (a hardware counter's rule: the simulated PMU's cycles; hot70 runs
# 100,009,108 cycles, so one sample per mincount cycles is 100,009 samples)
minc=$("$PMC" record --show-settings | awk '$1 == "mincount" { print $2 }')
if "$PMC" record --backend sim -e cycles -c 10 -o "$TMP/c.log" -- \
     "$PMC_ROOT/examples/sim/hot70.wl" >/dev/null 2>"$TMP/c.err"; then
  check "-c 10: says the period used (mincount $minc)" grep -q "sampling every $minc events" "$TMP/c.err"
  "$PMC" dump -i "$TMP/c.log" >"$TMP/c.dump" 2>/dev/null
  ns=$(grep -c 'CALLCHAIN' "$TMP/c.dump")
  bad=$(grep 'CALLCHAIN' "$TMP/c.dump" | grep -vc "period=$minc ")
  check "-c 10: every sample has period $minc ($bad do not)" test "$bad" -eq 0
  check "-c 10: one sample per $minc cycles ($ns samples)" test "$ns" -eq $((100009108 / minc))
  "$PMC" report -i "$TMP/c.log" --color never >"$TMP/c.txt" 2>/dev/null
  check "-c 10: the header says period $minc" grep -q "^# Event: cycles (period $minc)" "$TMP/c.txt"
  cnt=$(sed -n 's/.*Event count: \([0-9,]*\).*/\1/p' "$TMP/c.txt" | tr -d ,)
  check "-c 10: event count = samples x $minc ($cnt)" test "${cnt:-0}" -eq $((ns * minc))
else
  fail "record --backend sim -e cycles -c 10" "$(tail -1 "$TMP/c.err")"
fi

# ---- names: children forked without exec, samples of no thread -------------------
"$PMC" record -q -o "$TMP/f.log" -- bash -c \
  'f() { i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done; }; f & f & wait' >/dev/null 2>&1
"$PMC" report -i "$TMP/f.log" -s comm --color never >"$TMP/f.txt" 2>/dev/null
check "forked without exec: the children are 'bash' (perf: bash), no ':PID'" \
  bash -c "grep -q ' bash\$' '$TMP/f.txt' && ! grep -Eq ' :[0-9]+\$' '$TMP/f.txt'"

if command -v perf >/dev/null 2>&1 &&
   perf record -q -a -e sched:sched_switch -o "$TMP/sw.data" -- "$HELPERS/threads" 200 >/dev/null 2>&1; then
  perf report -i "$TMP/sw.data" --stdio -s comm -F sample,comm 2>/dev/null >"$TMP/sw.perf"
  want=$(awk '$2 == ":-1" { print $1 }' "$TMP/sw.perf")
  wantt=$(awk '$2 == "threads" { print $1 }' "$TMP/sw.perf")
  "$PMC" report -i "$TMP/sw.data" -s comm --color never >"$TMP/sw.txt" 2>/dev/null
  got=$(awk '$3 == ":-1" { print $2 }' "$TMP/sw.txt")
  gott=$(awk '$3 == "threads" { print $2 }' "$TMP/sw.txt")
  check "tid -1: ':-1' has perf's count (${got:-0}, perf ${want:-0})" test "${got:-0}" = "${want:-0}"
  check "tid -1: not given to 'threads' (${gott:-0}, perf ${wantt:-0})" test "${gott:-0}" = "${wantt:-0}"
else
  skip "tid -1 against perf" "perf record -a -e sched:sched_switch cannot run here"
fi
"$PMC" record -q -a -l 1 -e sched:sched_switch -o "$TMP/sw.log" 2>/dev/null & rp=$!
sleep 0.3; "$HELPERS/threads" 200
if wait $rp; then
  n=$("$PMC" dump -i "$TMP/sw.log" 2>/dev/null | grep -c 'CALLCHAIN.* tid=-1 ')
  got=$("$PMC" report -i "$TMP/sw.log" -s comm --color never 2>/dev/null | awk '$3 == ":-1" { print $2 }')
  if [ "$n" -gt 0 ]; then
    check "tid -1 in a pmc log: ':-1' has every such sample (${got:-0} of $n)" test "${got:-0}" -eq "$n"
  else
    skip "tid -1 in a pmc log" "no sample of an exited thread was taken"
  fi
else
  skip "tid -1 in a pmc log" "pmc record -a -e sched:sched_switch cannot run here"
fi

# ---- pprof: File is the program, Period is not 0 -----------------------------
if command -v go >/dev/null 2>&1; then
  "$PMC" record -q -g -e cpu-clock -F 1000 -o "$TMP/p.log" -- "$HELPERS/busy" 200 >/dev/null 2>&1
  "$PMC" report -i "$TMP/p.log" -F pprof -o "$TMP/p.pb" 2>/dev/null
  go tool pprof -top "$TMP/p.pb" >"$TMP/p.top" 2>/dev/null
  go tool pprof -raw "$TMP/p.pb" >"$TMP/p.raw" 2>/dev/null
  check "pprof: File is the program ($(grep '^File:' "$TMP/p.top"))" grep -qx 'File: busy' "$TMP/p.top"
  per=$(awk '/^Period:/ { print $2 }' "$TMP/p.raw")
  # -F 1000 of cpu-clock: 1 ms between samples
  check "pprof: Period is the mean period (${per:-none} ns, ~1000000)" approx "${per:-0}" 1000000 10
else
  skip "pprof File and Period" "go tool pprof is not available"
fi

# ---- perf.data: cut, killed, directory format ---------------------------------
if command -v perf >/dev/null 2>&1 &&
   perf record -q -g -e cpu-clock -o "$TMP/full.data" -- "$HELPERS/busy" 300 >/dev/null 2>&1; then
  have_full=1
  sz=$(stat -c %s "$TMP/full.data")
  head -c $((sz * 2 / 3)) "$TMP/full.data" >"$TMP/cut.data"
  for fmt in text json folded pprof speedscope callgrind svg html; do
    "$PMC" report -i "$TMP/cut.data" -F "$fmt" -o "$TMP/cut.$fmt" 2>"$TMP/cut.err"; rc=$?
    check "cut perf.data: report -F $fmt warns and exits 1 (rc $rc)" \
      bash -c "[ $rc -eq 1 ] && grep -q 'truncated' '$TMP/cut.err'"
  done
  "$PMC" annotate -i "$TMP/cut.data" main >/dev/null 2>"$TMP/cuta.err"; rc=$?
  check "cut perf.data: annotate warns and exits 1 (rc $rc)" \
    bash -c "[ $rc -eq 1 ] && grep -q 'truncated' '$TMP/cuta.err'"
  "$PMC" diff "$TMP/cut.data" "$TMP/full.data" >/dev/null 2>"$TMP/cutd.err"; rc=$?
  check "cut perf.data: diff warns and exits 1 (rc $rc)" \
    bash -c "[ $rc -eq 1 ] && grep -q 'truncated' '$TMP/cutd.err'"
  # the same cut of a pmc log: the behaviour to match
  "$PMC" convert -i "$TMP/full.data" -o "$TMP/full.log" >/dev/null 2>&1
  lsz=$(stat -c %s "$TMP/full.log")
  head -c $((lsz * 2 / 3)) "$TMP/full.log" >"$TMP/cut.log"
  "$PMC" report -i "$TMP/cut.log" >/dev/null 2>&1; lrc=$?
  check "a cut pmc log: report exits 1 too (rc $lrc)" test "$lrc" -eq 1

  perf record -q -e cpu-clock -o "$TMP/killed.data" -- "$HELPERS/busy" 5000 >/dev/null 2>&1 &
  kp=$!
  # kill it once it has written some data (polling: no time limit on perf)
  for _ in $(seq 300); do
    [ "$(stat -c %s "$TMP/killed.data" 2>/dev/null || echo 0)" -gt 4096 ] && break
    sleep 0.1
  done
  kids=$(pgrep -P $kp)
  kill -KILL $kp; wait $kp 2>/dev/null
  [ -n "$kids" ] && kill $kids 2>/dev/null   # busy, perf's command
  "$PMC" report -i "$TMP/killed.data" >/dev/null 2>"$TMP/k.err"; rc=$?
  check "perf.data of a SIGKILLed perf: report warns, exits 1 (rc $rc)" \
    bash -c "[ $rc -eq 1 ] && grep -q 'truncated' '$TMP/k.err'"

  if perf record -q --threads -e cpu-clock -o "$TMP/dir.data" -- "$HELPERS/busy" 300 >/dev/null 2>&1 &&
     [ -d "$TMP/dir.data" ]; then
    want=$(perf script -i "$TMP/dir.data" -F ip 2>/dev/null | wc -l)
    "$PMC" report -i "$TMP/dir.data" --color never >"$TMP/dir.txt" 2>"$TMP/dir.err"; rc=$?
    got=$(sed -n 's/^# Samples: \([0-9,]*\) .*/\1/p' "$TMP/dir.txt" | tr -d ,)
    check "perf --threads directory: report reads it (rc $rc, $got samples, perf $want)" \
      bash -c "[ $rc -eq 0 ] && [ '${got:-x}' = '${want:-y}' ]"
    "$PMC" annotate -i "$TMP/dir.data" main >/dev/null 2>"$TMP/dira.err"; rc=$?
    check "perf --threads directory: annotate reads it (rc $rc)" test "$rc" -eq 0
    "$PMC" diff "$TMP/dir.data" "$TMP/full.data" >/dev/null 2>"$TMP/dird.err"; rc=$?
    check "perf --threads directory: diff reads it (rc $rc)" test "$rc" -eq 0
  else
    skip "perf --threads directory" "perf record --threads failed here"
  fi
else
  skip "perf.data inputs" "perf is not installed or cannot sample here"
fi

# ---- perf's spellings ------------------------------------------------------------
L=$TMP/g.log
"$PMC" record -q -g -e cpu-clock -o "$L" -- "$HELPERS/busy" 200 >/dev/null 2>&1
rep() { "$PMC" report -i "$L" --color never "$@" 2>"$TMP/rep.err"; }
rep >"$TMP/plain.txt"
rep --stdio >"$TMP/stdio.txt"; rc=$?
check "report --stdio: accepted, the text report (rc $rc)" \
  bash -c "[ $rc -eq 0 ] && diff -q '$TMP/plain.txt' '$TMP/stdio.txt' >/dev/null"
rep --graph-layout tree -g caller,0.5,callee,function,percent >"$TMP/g1.txt"; rc=$?
check "-g caller,0.5,callee,function,percent: perf's form (rc $rc)" \
  bash -c "[ $rc -eq 0 ] && grep -q '^# Call graph (callee' '$TMP/g1.txt'"
rep --graph-layout tree -g caller,0.5 >"$TMP/g2.txt"; rc=$?
rep --graph-layout tree --call-graph=caller,0.5 >"$TMP/g3.txt"
check "-g caller,0.5 as a separate word = --call-graph=caller,0.5 (rc $rc)" \
  bash -c "[ $rc -eq 0 ] && diff -q '$TMP/g2.txt' '$TMP/g3.txt' >/dev/null && grep -q '^# Call graph (caller' '$TMP/g2.txt'"
rep --graph-layout tree -g graph,50 >"$TMP/g4.txt"
big=$(awk '/^# Call graph/ { cg = 1; next } cg && $1 ~ /%$/ { sub("%", "", $1); if ($1 + 0 < 50) bad++; else good++ }
  END { print (good ? bad + 0 : "none") }' "$TMP/g4.txt")
check "-g graph,50: the threshold hides branches under 50% ($big shown)" test "$big" = 0
rep --graph-layout tree --call-graph=fp >"$TMP/g5.txt"; rc=$?
check "report --call-graph=fp: accepted with a note (rc $rc)" \
  bash -c "[ $rc -eq 0 ] && grep -q 'chosen when recording' '$TMP/rep.err' && grep -q '^# Call graph' '$TMP/g5.txt'"
rep -g fractal >/dev/null; rc=$?
check "-g fractal: refused naming what pmc prints (rc $rc)" \
  bash -c "[ $rc -eq 2 ] && grep -q \"perf's 'graph'\" '$TMP/rep.err'"
rep --comm busy >"$TMP/c1.txt"; rep --comms busy >"$TMP/c2.txt"; rc=$?
check "--comms = --comm (rc $rc)" bash -c "[ $rc -eq 0 ] && diff -q '$TMP/c1.txt' '$TMP/c2.txt' >/dev/null"
rep --dso busy >"$TMP/d1.txt"; rep --dsos busy >"$TMP/d2.txt"; rc=$?
check "--dsos = --dso (rc $rc)" bash -c "[ $rc -eq 0 ] && diff -q '$TMP/d1.txt' '$TMP/d2.txt' >/dev/null"
rep --sym main >"$TMP/s1.txt"; rep --symbols main >"$TMP/s2.txt"; rc=$?
check "--symbols = --sym (rc $rc)" bash -c "[ $rc -eq 0 ] && diff -q '$TMP/s1.txt' '$TMP/s2.txt' >/dev/null"
cat "$L" | "$PMC" report --color never >"$TMP/pipe.txt" 2>/dev/null; rc=$?
check "a pipe on stdin is read without -i - (rc $rc)" \
  bash -c "[ $rc -eq 0 ] && diff -q <(grep -v '^# pmc report' '$TMP/plain.txt') <(grep -v '^# pmc report' '$TMP/pipe.txt') >/dev/null"
cat "$L" | "$PMC" annotate main >"$TMP/apipe.txt" 2>/dev/null; rc=$?
check "annotate reads a pipe on stdin without -i - too (rc $rc)" \
  bash -c "[ $rc -eq 0 ] && grep -q '^# pmc annotate: main' '$TMP/apipe.txt'"
rep -F overhead,sym >/dev/null; rc=$?
check "report -F overhead,sym (perf's --fields): names -s/--sort (rc $rc)" \
  bash -c "[ $rc -eq 2 ] && grep -q -- '-s/--sort' '$TMP/rep.err'"
"$PMC" report -n -i "$L" >/dev/null 2>"$TMP/rep.err"; rc=$?
check "report -n (perf's --show-nr-samples): says what -n is here (rc $rc)" \
  bash -c "[ $rc -eq 2 ] && grep -q 'Samples column' '$TMP/rep.err'"
rep -b >/dev/null; rc=$?
check "report -b (perf's --branch-stack): a clear refusal (rc $rc)" \
  bash -c "[ $rc -eq 2 ] && grep -q 'branch' '$TMP/rep.err'"
"$PMC" record -b -- true >/dev/null 2>"$TMP/rec.err"; rc=$?
check "record -b -- CMD: not \"unknown backend '--'\" (rc $rc)" \
  bash -c "[ $rc -eq 2 ] && grep -q 'branch stack' '$TMP/rec.err'"
"$PMC" record -g dwarf true >/dev/null 2>"$TMP/rec.err"; rc=$?
check "record -g dwarf CMD: not \"cannot run 'dwarf'\" (rc $rc)" \
  bash -c "[ $rc -eq 2 ] && grep -q 'call-graph dwarf' '$TMP/rec.err'"
"$PMC" record -n -- true >/dev/null 2>"$TMP/rec.err"; rc=$?
check "record -n (perf's --no-samples): points to pmc stat (rc $rc)" \
  bash -c "[ $rc -eq 2 ] && grep -q 'pmc stat' '$TMP/rec.err'"
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
"$PMC" record -q -F max -o "$TMP/max.log" -- "$HELPERS/busy" 50 >/dev/null 2>&1; rc=$?
check "record -F max: the kernel's rate ($max)" \
  bash -c "[ $rc -eq 0 ] && '$PMC' report -i '$TMP/max.log' | grep -q '(frequency $max)'"

# ---- filtered reports: percentages of the whole, as perf's -----------------------
main_all=$(awk '$NF == "main" { print $1; exit }' "$TMP/plain.txt")
main_sym=$(awk '$NF == "main" { print $1; exit }' "$TMP/s1.txt")
check "--sym main: main keeps its share of the whole ($main_sym, unfiltered $main_all)" \
  test "$main_sym" = "$main_all"
rep --sym main --graph-layout tree -g caller >"$TMP/s4.txt"
cg_main=$(awk '/^# Call graph/ { cg = 1; next } cg && $2 == "main" { print $1; exit }' "$TMP/s4.txt")
check "--sym main -g: the call graph's main has the same share ($cg_main, flat $main_all)" \
  test "$cg_main" = "$main_all"
rep --sym main --percentage relative >"$TMP/s3.txt"
check "--percentage relative: of the filtered samples (100%)" grep -Eq '^ +100\.00% .*main$' "$TMP/s3.txt"
if [ -n "${have_full:-}" ]; then
  for mode in absolute relative; do
    want=$(perf_oracle perf report -i "$TMP/full.data" --stdio --symbols main --percentage $mode \
      -F overhead,sym | awk '!/^#/ && $NF == "main" { print $1; exit }')
    got=$("$PMC" report -i "$TMP/full.data" --symbols main --percentage $mode --color never 2>/dev/null |
      awk '$NF == "main" { print $1; exit }')
    check "--symbols main --percentage $mode: perf's share ($got, perf $want)" \
      test "${got:-x}" = "${want:-y}"
  done
fi

done_testing
