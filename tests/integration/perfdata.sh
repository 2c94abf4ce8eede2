#!/usr/bin/env bash
# perf.data: recordings made here with the real `perf record`, read by pmc
# (pmc dump, pmc convert) and compared with `perf script`: sample counts per
# (pid, tid, event) must be exactly equal.  Then the round trips:
#   perf.data -> pmc log -> pmc dump          == perf script
#   pmc log   -> perf.data -> perf script      == the log's samples
#   perf.data -> pmc log -> perf.data -> perf script == perf script
source "$(dirname "$0")/lib.sh"

if ! command -v perf >/dev/null 2>&1; then
  skip "perf.data tests" "perf is not installed"; done_testing; exit
fi
if ! perf record -q -o "$TMP/probe.data" -e cpu-clock -- true >/dev/null 2>&1; then
  skip "perf.data tests" "perf record cannot sample here"; done_testing; exit
fi

# "pid tid event" -> count, sorted: what perf script saw
perf_counts() {
  perf script -i "$1" -G -F pid,tid,event 2>/dev/null |
    awk 'NF >= 2 && $1 ~ /^[0-9-]+\/[0-9-]+$/ {
           split($1, a, "/"); ev = $2; sub(/:$/, "", ev); print a[1], a[2], ev }' |
    sort | uniq -c | awk '{ print $2, $3, $4, $1 }' | sort
}
# the same from pmc dump's CALLCHAIN records (event names from PMCALLOCATE)
pmc_counts() {
  "$PMC" dump -i "$1" 2>"$TMP/dump.err" |
    awk '{
      if ($3 == "PMCALLOCATE") {
        id = ""; name = ""
        for (i = 4; i <= NF; i++) {
          if ($i ~ /^pmcid=/) id = substr($i, 7)
          if ($i ~ /^event="/) { name = substr($i, 8); sub(/"$/, "", name) }
        }
        ev[id] = name
      } else if ($3 == "CALLCHAIN") {
        for (i = 4; i <= NF; i++) {
          if ($i ~ /^pmcid=/) id = substr($i, 7)
          if ($i ~ /^pid=/) pid = substr($i, 5)
          if ($i ~ /^tid=/) tid = substr($i, 5)
        }
        print pid, tid, ev[id]
      }
    }' | sort | uniq -c | awk '{ print $2, $3, $4, $1 }' | sort
}
total() { awk '{ s += $4 } END { print s + 0 }'; }

# same_counts NAME A B: exact equality of two count tables, with a diff on failure
same_counts() {
  local name=$1
  if [ ! -s "$2" ]; then fail "$name" "no samples at all"; return; fi
  if cmp -s "$2" "$3"; then
    ok "$name ($(total <"$2") samples, $(wc -l <"$2") pid/tid/event rows)"
  else
    fail "$name" "counts differ: $(diff "$2" "$3" | head -6 | tr '\n' ' ')"
  fi
}

# compare NAME FILE: pmc's reading of FILE equals perf script's
compare() {
  local name=$1 f=$2
  perf_counts "$f" >"$TMP/perf.cnt"
  pmc_counts "$f" >"$TMP/pmc.cnt"
  same_counts "$name: pmc dump = perf script" "$TMP/perf.cnt" "$TMP/pmc.cnt"
}

H=$HELPERS

# ---- recordings, read directly -----------------------------------------
if perf_record plain -e cpu-clock -- "$H/busy" 300; then compare "cpu-clock" "$TMP/plain.data"
else fail "perf record cpu-clock" "$(head -2 "$TMP/plain.err")"; fi

if perf_record callg -g -e cpu-clock -- "$H/deepcall" 1 30 3000; then
  compare "cpu-clock -g" "$TMP/callg.data"
  # call chains: samples with more than one pc exist and pc[0] is a user or kernel pc
  deep=$("$PMC" dump -i "$TMP/callg.data" | awk '$3 == "CALLCHAIN" { for (i = 4; i <= NF; i++) if ($i ~ /^npc=/ && substr($i, 5) + 0 > 5) n++ } END { print n + 0 }')
  check "cpu-clock -g: deep call chains decoded ($deep samples with > 5 pcs)" [ "$deep" -gt 0 ]
else fail "perf record -g" "$(head -2 "$TMP/callg.err")"; fi

if perf_record syswide -a -e cpu-clock -- "$H/busy" 300; then compare "-a (system-wide)" "$TMP/syswide.data"
else skip "-a (system-wide)" "perf record -a failed: $(head -1 "$TMP/syswide.err")"; fi

if perf_record two -e cpu-clock,task-clock -- "$H/busy" 300; then
  compare "two events (cpu-clock,task-clock)" "$TMP/two.data"
  nev=$(pmc_counts "$TMP/two.data" | awk '{ print $3 }' | sort -u | wc -l)
  check "two events: both named from the event description" [ "$nev" -eq 2 ]
else fail "perf record two events" "$(head -2 "$TMP/two.err")"; fi

if perf_record threads -g -e cpu-clock -- "$H/deepcall" 4 20 2000; then
  compare "multi-threaded (4 threads, -g)" "$TMP/threads.data"
  ntid=$(pmc_counts "$TMP/threads.data" | awk '{ print $2 }' | sort -u | wc -l)
  check "multi-threaded: samples of 4 threads ($ntid)" [ "$ntid" -ge 4 ]
else fail "perf record threads" "$(head -2 "$TMP/threads.err")"; fi

if perf_record forkexec -e cpu-clock -- "$H/forkexec" 100 "$H/busy" 100; then
  compare "fork + exec" "$TMP/forkexec.data"
  "$PMC" dump -i "$TMP/forkexec.data" >"$TMP/fe.dump" 2>&1
  check "fork + exec: PROCFORK, THR_CREATE, PROCEXEC, THR_EXIT records" \
    bash -c "grep -q ' PROCFORK ' '$TMP/fe.dump' && grep -q ' THR_CREATE ' '$TMP/fe.dump' &&
             grep -q ' PROCEXEC .*busy' '$TMP/fe.dump' && grep -q ' THR_EXIT ' '$TMP/fe.dump'"
else fail "perf record forkexec" "$(head -2 "$TMP/forkexec.err")"; fi

# perf record --threads: a directory (data + data.N)
rm -rf "$TMP/dir.data"
if perf record -q --threads -o "$TMP/dir.data" -g -e cpu-clock -- "$H/deepcall" 2 20 2000 >/dev/null 2>"$TMP/dir.err" &&
   [ -d "$TMP/dir.data" ]; then
  compare "perf record --threads (directory format)" "$TMP/dir.data"
else skip "perf record --threads (directory format)" "$(head -1 "$TMP/dir.err")"; fi

# every sample field perf record can produce here is skipped correctly
for opts in "--call-graph dwarf" "-d" "-W" "--phys-data" "--data-page-size" \
            "--code-page-size" "--intr-regs" "--user-regs=ip,sp" "--all-cgroups" \
            "-R --sample-cpu" "-s" "--switch-events --namespaces" "-c 100000"; do
  if perf_record opt -e cpu-clock $opts -- "$H/busy" 100; then
    compare "sample fields: perf record $opts" "$TMP/opt.data"
  else
    skip "sample fields: perf record $opts" "$(head -1 "$TMP/opt.err")"
  fi
done

# ---- pipe mode ------------------------------------------------------------
perf record -q -o - -e cpu-clock -- "$H/busy" 200 >"$TMP/pipe.data" 2>/dev/null
compare "pipe mode (perf record -o - > file)" "$TMP/pipe.data"
perf record -q -o - -g -e cpu-clock,task-clock -- "$H/deepcall" 2 20 1500 2>/dev/null >"$TMP/pipe2.data"
perf_counts "$TMP/pipe2.data" >"$TMP/perf.cnt"
perf record -q -o - -g -e cpu-clock,task-clock -- "$H/deepcall" 2 20 1500 2>/dev/null |
  "$PMC" dump -i - >"$TMP/live.dump" 2>&1
rc=$?
n=$(grep -c ' CALLCHAIN ' "$TMP/live.dump")
check "pipe mode live: perf record -o - | pmc dump -i - ($n samples, exit $rc)" [ "$rc" -eq 0 -a "$n" -gt 0 ]
perf record -q -o - -e cpu-clock -- "$H/busy" 200 2>/dev/null |
  "$PMC" convert -i - -o "$TMP/live.log" 2>/dev/null
rc=$?
n=$(pmc_counts "$TMP/live.log" | total)
check "pipe mode live: perf record -o - | pmc convert -i - ($n samples, exit $rc)" [ "$rc" -eq 0 -a "$n" -gt 0 ]
cat "$TMP/pipe2.data" | "$PMC" dump -i - >/dev/null 2>&1
check "pipe mode from a pipe, two events" [ $? -eq 0 ]
pmc_counts "$TMP/pipe2.data" >"$TMP/pmc.cnt"
same_counts "pipe mode, -g, two events: pmc dump = perf script" "$TMP/perf.cnt" "$TMP/pmc.cnt"
if perf record -q -o - -e sched:sched_switch -e cpu-clock -- "$H/busy" 100 2>/dev/null >"$TMP/tpipe.data" &&
   [ -s "$TMP/tpipe.data" ]; then
  compare "pipe mode with a tracepoint (TRACING_DATA payload skipped)" "$TMP/tpipe.data"
else skip "pipe mode with a tracepoint" "cannot record sched:sched_switch here"; fi
cat "$TMP/plain.data" | "$PMC" dump -i - | grep -c ' CALLCHAIN ' >"$TMP/n" 2>/dev/null
check "file mode through a pipe (cat perf.data | pmc dump -i -)" \
  [ "$(cat "$TMP/n")" -eq "$(perf_counts "$TMP/plain.data" | total)" ]

# ---- compressed -------------------------------------------------------------
if perf_record zstd -z -g -e cpu-clock -- "$H/deepcall" 2 20 2000; then
  compare "perf record -z (COMPRESSED records)" "$TMP/zstd.data"
  check "perf record -z: the HEADER says compressed" \
    bash -c "'$PMC' dump -i '$TMP/zstd.data' | head -1 | grep -q 'compressed=\"zstd\"'"
else skip "perf record -z" "$(head -1 "$TMP/zstd.err")"; fi

# ---- conversions ------------------------------------------------------------
for f in plain callg two forkexec zstd pipe2 dir; do
  [ -e "$TMP/$f.data" ] || continue
  "$PMC" convert -i "$TMP/$f.data" -o "$TMP/$f.log" 2>"$TMP/conv.err"
  if [ $? -ne 0 ]; then fail "convert $f perf.data -> pmc log" "$(cat "$TMP/conv.err")"; continue; fi
  perf_counts "$TMP/$f.data" >"$TMP/perf.cnt"
  pmc_counts "$TMP/$f.log" >"$TMP/pmc.cnt"
  same_counts "round trip $f: perf.data -> pmc log -> pmc dump = perf script" "$TMP/perf.cnt" "$TMP/pmc.cnt"
  "$PMC" convert -i "$TMP/$f.log" -o "$TMP/$f.back.data" --to perf 2>"$TMP/conv.err"
  if [ $? -ne 0 ]; then fail "convert $f pmc log -> perf.data" "$(cat "$TMP/conv.err")"; continue; fi
  perf_counts "$TMP/$f.back.data" >"$TMP/back.cnt"
  same_counts "round trip $f: perf.data -> pmc log -> perf.data -> perf script = perf script" \
    "$TMP/perf.cnt" "$TMP/back.cnt"
done

# a log pmc record wrote -> perf.data -> perf script
if "$PMC" record -q -e cpu-clock -g -o "$TMP/rec.log" -- "$H/deepcall" 2 20 2000 >/dev/null 2>"$TMP/rec.err"; then
  pmc_counts "$TMP/rec.log" >"$TMP/pmc.cnt"
  "$PMC" convert -i "$TMP/rec.log" -o "$TMP/rec.data" --to perf 2>/dev/null
  perf_counts "$TMP/rec.data" >"$TMP/perf.cnt"
  same_counts "pmc record log -> perf.data: perf script = the log's samples" "$TMP/pmc.cnt" "$TMP/perf.cnt"
  perf report -i "$TMP/rec.data" --stdio --no-children >"$TMP/rep.txt" 2>&1
  check "pmc record log -> perf.data: perf report resolves symbols (deepcall's work)" \
    grep -q 'work' "$TMP/rep.txt"
  "$PMC" convert -i "$TMP/rec.log" -o - --to perf 2>/dev/null | perf script -i - -G -F pid 2>/dev/null | wc -l >"$TMP/n"
  check "pmc log -> perf.data on a pipe (pipe mode) reads in perf script" \
    [ "$(cat "$TMP/n")" -eq "$(total <"$TMP/pmc.cnt")" ]
else
  skip "pmc record log -> perf.data" "pmc record failed: $(head -1 "$TMP/rec.err")"
fi

# ---- the command line -----------------------------------------------------------
"$PMC" convert -i "$TMP/plain.data" -o "$TMP/plain.log" 2>"$TMP/err"
rc=$?
check "convert refuses to overwrite without -f (exit 1)" \
  bash -c "[ $rc -eq 1 ] && grep -q 'exists' '$TMP/err'"
"$PMC" convert -f -z -i "$TMP/plain.data" -o "$TMP/plain.zlog" 2>/dev/null
check "convert -z: a compressed pmc log with the same samples" \
  [ "$(pmc_counts "$TMP/plain.zlog" | total)" -eq "$(perf_counts "$TMP/plain.data" | total)" ]
"$PMC" convert -i "$TMP/plain.data" -o - 2>/dev/null | "$PMC" dump -i - | grep -c ' CALLCHAIN ' >"$TMP/n"
check "convert -o - | pmc dump -i -" [ "$(cat "$TMP/n")" -eq "$(perf_counts "$TMP/plain.data" | total)" ]
"$PMC" convert -i "$TMP/plain.data" -o "$TMP/x" --to perf >/dev/null 2>&1
check "convert --to perf of a perf.data: refused (exit 1)" [ $? -eq 1 ]
"$PMC" convert -i "$TMP/plain.data" >/dev/null 2>&1
check "convert without -o: usage error (exit 2)" [ $? -eq 2 ]
"$PMC" convert -i "$TMP/plain.data" -o "$TMP/y" --to elf >/dev/null 2>&1
check "convert --to elf: usage error (exit 2)" [ $? -eq 2 ]

# ---- damage -------------------------------------------------------------------------
sz=$(stat -c %s "$TMP/plain.data")
head -c $((sz / 2)) "$TMP/plain.data" >"$TMP/cut.data"
"$PMC" dump -i "$TMP/cut.data" >"$TMP/cut.out" 2>"$TMP/cut.err"
rc=$?
check "a perf.data cut in half: records up to the cut, 'truncated', exit 1" \
  bash -c "[ $rc -eq 1 ] && grep -q truncated '$TMP/cut.err' && grep -q ' CALLCHAIN ' '$TMP/cut.out'"
# a flat report reads the samples in runs straight from the read buffer
# (docs/perfdata.md): the file's header still claims the whole data
# section, and the report counts the same samples as dump's events
"$PMC" report -i "$TMP/cut.data" >"$TMP/cutr.out" 2>"$TMP/cutr.err"
rc=$?
n=$(awk '/^# Samples:/ { gsub(",", "", $3); print $3; exit }' "$TMP/cutr.out")
check "pmc report of a perf.data cut in half: dump's samples, 'truncated', exit 1" \
  bash -c "[ $rc -eq 1 ] && grep -q truncated '$TMP/cutr.err' &&
    [ '${n:-x}' = \"\$(grep -c ' CALLCHAIN ' '$TMP/cut.out')\" ]"
printf 'not a perf.data at all' >"$TMP/junk.data"
"$PMC" convert -i "$TMP/junk.data" -o "$TMP/junk.log" >/dev/null 2>"$TMP/err"
check "convert of a non-log: a clear error, exit 1" [ $? -eq 1 ]

done_testing
