#!/usr/bin/env bash
# pmc record on the Linux backend (software events: cpu-clock) and on the
# simulated PMU: what is sampled and attributed to whom, the log's life
# (pipes, compression, overwrite, kill -9, full disks), lost samples, the
# tunables, exit statuses and bad input.  Values are asserted, never times.
. "$(dirname "$0")/lib.sh"

# jq-like helpers over `pmc dump --json` (one object per line)
dumpjson() { "$PMC" dump --json -i "$1" 2>/dev/null; }
count_type() { dumpjson "$1" | python3 -c "
import json, sys
print(sum(1 for l in sys.stdin if json.loads(l)['type'] == sys.argv[1]))" "$2"; }
summary_field() {   # FILE WORD -> the number before WORD in 'N samples, N lost, N bytes'
  sed -n "s/.* \([0-9][0-9]*\) $2[,. ].*/\1/p" "$1" | tail -1; }

# --- what is sampled: -c, -F, enable on exec ---------------------------------
"$PMC" record -e cpu-clock -c 100000 -o "$TMP/c.log" -- sh -c 'echo $$; exec "$0" 300' "$HELPERS/busy" \
    >"$TMP/c.out" 2>"$TMP/c.err"; rc=$?
if [ "$rc" = 0 ] && python3 - "$TMP/c.out" <("$PMC" dump --json -i "$TMP/c.log") <<'PY'
import json, sys
pid = int(open(sys.argv[1]).readline())
recs = [json.loads(l) for l in open(sys.argv[2])]
s = [r for r in recs if r["type"] == "CALLCHAIN"]
assert len(s) > 100, len(s)                        # 300 ms of CPU at one per 100 us
assert all(r["pid"] == pid and r["tid"] == pid for r in s), {(r["pid"], r["tid"]) for r in s}
assert all(r["period"] == 100000 for r in s)
a = [r for r in recs if r["type"] == "PMCALLOCATE"]
assert len(a) == 1 and a[0]["rate"] == 100000 and a[0]["mode"] == "TS", a
# enable on exec: nothing before the command's exec (the fork of pmc is not
# sampled).  The exec is its COMM record with the exec flag, written when the
# kernel reports it: the PROCEXEC waits for the image's mappings, and a
# kernel-mode sample inside the exec may come before them.
ex = min(r["time"] for r in recs if r.get("pid") == pid and
         (r["type"] == "PROCEXEC" or (r["type"] == "COMM" and r.get("exec") == "yes")))
assert all(r["time"] >= ex for r in s), "a sample before the exec"
assert recs[-1]["type"] == "CLOSELOG"
PY
then ok "-c 100000: $(summary_field "$TMP/c.err" samples) samples, all of the command's pid, none before its exec"
else fail "-c period sampling" "rc=$rc $(cat "$TMP/c.err")"; fi
n=$(summary_field "$TMP/c.err" samples); m=$(count_type "$TMP/c.log" CALLCHAIN)
check "the summary's sample count is the log's ($n = $m)" test -n "$n" -a "$n" = "$m"
b=$(summary_field "$TMP/c.err" bytes); sz=$(stat -c %s "$TMP/c.log")
check "the summary's byte count is the file's ($b = $sz)" test "$b" = "$sz"
grep -q "written to '$TMP/c.log'" "$TMP/c.err"; check "the summary names the file" test $? = 0

"$PMC" record -F 2000 -e cpu-clock -o "$TMP/f.log" -- "$HELPERS/busy" 200 >/dev/null 2>"$TMP/f.err"; rc=$?
if [ "$rc" = 0 ] && dumpjson "$TMP/f.log" | python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.stdin]
a = [r for r in recs if r["type"] == "PMCALLOCATE"]
assert a[0].get("freq") == 2000, a
assert sum(r["type"] == "CALLCHAIN" for r in recs) > 0'
then ok "-F 2000: PMCALLOCATE says 2000/s, samples taken"; else fail "-F" "rc=$rc $(cat "$TMP/f.err")"; fi

# Default event: cycles, or cpu-clock without a PMU, said once.
( cd "$TMP" && "$PMC" record -- "$HELPERS/busy" 50 >/dev/null 2>"$TMP/d.err" ); rc=$?
if [ ! -e /sys/bus/event_source/devices/cpu ]; then
  n=$(grep -c "no hardware PMU" "$TMP/d.err")
  if [ "$rc" = 0 ] && [ "$n" = 1 ] && grep -q 'event="cpu-clock"' <("$PMC" dump -i "$TMP/pmc.log"); then
    ok "no PMU: the default cycles falls back to cpu-clock, said once; default file pmc.log"
  else fail "default event fallback" "rc=$rc n=$n $(cat "$TMP/d.err")"; fi
else
  if [ "$rc" = 0 ] && grep -q 'event="cycles"' <("$PMC" dump -i "$TMP/pmc.log"); then ok "default event cycles, file pmc.log"
  else fail "default event" "rc=$rc $(cat "$TMP/d.err")"; fi
fi

# --- call chains ---------------------------------------------------------------
"$PMC" record -g -e cpu-clock -F 2000 -o "$TMP/g.log" -- "$HELPERS/deepcall" 2 64 20000 >/dev/null 2>"$TMP/g.err"; rc=$?
if [ "$rc" = 0 ] && dumpjson "$TMP/g.log" | python3 -c '
import json, sys
s = [r for r in map(json.loads, sys.stdin) if r["type"] == "CALLCHAIN"]
assert s, "no samples"
deep = [r for r in s if r["npc"] >= 64]
assert len(deep) * 2 > len(s), "%d of %d chains reach depth 64" % (len(deep), len(s))
assert all(any(p["user"] for p in r["chain"]) for r in deep)
print(len(deep), len(s))' >"$TMP/g.n"
then ok "-g: call chains through 64 frames ($(cat "$TMP/g.n") samples)"; else fail "-g call chains" "rc=$rc $(cat "$TMP/g.err")"; fi
"$PMC" record -e cpu-clock -o "$TMP/ng.log" -- "$HELPERS/deepcall" 1 64 3000 >/dev/null 2>&1
mx=$(dumpjson "$TMP/ng.log" | python3 -c '
import json, sys
print(max([r["npc"] for r in map(json.loads, sys.stdin) if r["type"] == "CALLCHAIN"] or [0]))')
check "without -g a sample is one pc (max npc $mx)" test "$mx" = 1

# --- a target that forks, execs and starts threads --------------------------------
"$PMC" record -e cpu-clock -F 5000 -o "$TMP/fe.log" -- "$HELPERS/forkexec" 200 "$HELPERS/busy" 200 \
    >"$TMP/fe.out" 2>"$TMP/fe.err"; rc=$?
dumpjson "$TMP/fe.log" >"$TMP/fe.json"
if [ "$rc" = 0 ] && python3 - "$TMP/fe.out" "$TMP/fe.json" >"$TMP/fe.res" 2>&1 <<'PY'
import json, sys
want = {}                       # tid -> (pid, names it may have had)
for l in open(sys.argv[1]):
    f = l.split()
    if len(f) >= 3 and f[0].isdigit() and f[1].isdigit():
        want[int(f[1])] = (int(f[0]), f[2:])
assert len(want) == 5, want
recs = sorted((json.loads(l) for l in open(sys.argv[2])), key=lambda r: r["time"])
comm, seen, bad, n = {}, set(), [], 0
for r in recs:                  # rings are per CPU: replay in time order
    t = r["type"]
    if t == "COMM":
        comm[r["tid"]] = r["name"]
    elif t == "PROCFORK":
        comm[r["tid"]] = comm.get(r["ptid"])
    elif t == "THR_CREATE":
        comm.setdefault(r["tid"], comm.get(r["pid"]))
    elif t == "CALLCHAIN":
        n += 1
        tid, pid = r["tid"], r["pid"]
        seen.add(tid)
        if tid not in want:
            bad.append("tid %d (pid %d, %s) is not the workload's" % (tid, pid, comm.get(tid)))
        elif want[tid][0] != pid:
            bad.append("tid %d sampled as pid %d, is pid %d" % (tid, pid, want[tid][0]))
        elif comm.get(tid) not in want[tid][1]:
            bad.append("tid %d sampled as '%s', it was %s" % (tid, comm.get(tid), want[tid][1]))
assert not bad, "%d of %d samples misattributed: %s" % (len(bad), n, bad[:5])
assert seen == set(want), "tasks never sampled: %s" % (set(want) - seen)
names = {comm[t] for t in seen}
assert {"fe-worker1", "fe-worker2", "fe-cthread", "busy"} <= names, names
print("%d samples, %d tasks" % (n, len(seen)))
PY
then ok "fork+exec+threads: every sample's pid/tid/command is right ($(cat "$TMP/fe.res"))"
else fail "fork+exec+threads attribution" "rc=$rc $(cat "$TMP/fe.res" "$TMP/fe.err")"; fi

# --- output: pipe, compression, overwrite -------------------------------------------
"$PMC" record -e cpu-clock -o - -- "$HELPERS/busy" 100 2>"$TMP/p.err" | "$PMC" dump -i - >"$TMP/p.txt" 2>"$TMP/p.derr"
rcs="${PIPESTATUS[*]}"
if [ "$rcs" = "0 0" ] && grep -q CALLCHAIN "$TMP/p.txt" && tail -1 "$TMP/p.txt" | grep -q CLOSELOG; then
  ok "-o - | pmc dump -i -: live pipeline, complete log"
else fail "-o - pipeline" "rcs=$rcs $(cat "$TMP/p.err" "$TMP/p.derr")"; fi
if grep -q "written to '<stdout>'" "$TMP/p.err" && grep -qE '^[0-9]+$' "$TMP/p.err"; then
  ok "-o -: the summary on stderr, the command's stdout moved to stderr"
else fail "-o - stdout/stderr" "$(cat "$TMP/p.err")"; fi
# a pipe has no size to ask: the summary counts what went through it, the
# compressed log's last frame (CLOSELOG) too
for z in "" -z; do
  "$PMC" record $z -e cpu-clock -o - -- "$HELPERS/busy" 50 2>"$TMP/pz.err" | cat >"$TMP/pz.log"
  b=$(summary_field "$TMP/pz.err" bytes); sz=$(stat -c %s "$TMP/pz.log")
  check "-o - ${z:-(raw)}: the summary's byte count is what the pipe got ($b = $sz)" test "$b" = "$sz"
done

"$PMC" record -z -e cpu-clock -o "$TMP/z.log" -- "$HELPERS/busy" 200 >/dev/null 2>"$TMP/z.err"; rc=$?
magic=$(head -c 8 "$TMP/z.log" | tail -c 7)
n=$(count_type "$TMP/z.log" CALLCHAIN); s=$(summary_field "$TMP/z.err" samples)
if [ "$rc" = 0 ] && [ "$magic" = PMCLOGZ ] && [ "$n" -gt 0 ] && [ "$n" = "$s" ] &&
   "$PMC" dump -i "$TMP/z.log" | head -1 | grep -q 'compressed="zstd"'; then
  ok "-z: a zstd log, dump reads all $n samples"
else fail "-z" "rc=$rc magic=$magic n=$n s=$s"; fi

echo keep >"$TMP/keep.log"
"$PMC" record -e cpu-clock -o "$TMP/keep.log" -- true 2>"$TMP/o.err"; rc=$?
if [ "$rc" = 0 ] && [ "$(cat "$TMP/keep.log.old")" = keep ]; then
  ok "an existing file is not overwritten without -f: renamed to FILE.old (as perf does)"
else fail "keep the old log as .old" "rc=$rc $(cat "$TMP/o.err")"; fi
"$PMC" record -f -e cpu-clock -o "$TMP/keep.log" -- true 2>/dev/null; rc=$?
"$PMC" dump -i "$TMP/keep.log" >/dev/null 2>&1
check "-f overwrites it with a valid log" test "$rc" = 0 -a $? = 0

# --- targets ----------------------------------------------------------------------------
"$PMC" record -e cpu-clock -o "$TMP/t.log" -- true 2>"$TMP/t.err"; rc=$?
if [ "$rc" = 0 ] && "$PMC" dump -i "$TMP/t.log" | tail -1 | grep -q CLOSELOG; then ok "a command exiting at once: exit 0, complete log"
else fail "command exiting at once" "rc=$rc $(cat "$TMP/t.err")"; fi
"$PMC" record -e cpu-clock -o "$TMP/x7.log" -- sh -c 'exit 7' 2>/dev/null; rc=$?
check "the command's exit status is passed through ($rc)" test "$rc" = 7
"$PMC" record -e cpu-clock -o "$TMP/k9.log" -- sh -c 'kill -9 $$' 2>/dev/null; rc=$?
check "a command killed by signal 9: exit 137 ($rc)" test "$rc" = 137
"$PMC" record -e cpu-clock -o "$TMP/nc.log" -- /no/such/command 2>"$TMP/nc.err"; rc=$?
if [ "$rc" = 1 ] && grep -q "not found" "$TMP/nc.err" && [ ! -e "$TMP/nc.log" ]; then ok "missing command: exit 1, 'not found', no log left"
else fail "missing command" "rc=$rc $(cat "$TMP/nc.err")"; fi
"$PMC" record -e cpu-clock -o "$TMP/np.log" -p 999999 -l 0.1 2>"$TMP/np.err"; rc=$?
if [ "$rc" = 1 ] && grep -q 999999 "$TMP/np.err" && [ ! -e "$TMP/np.log" ]; then ok "nonexistent pid: exit 1, message, no log left"
else fail "nonexistent pid" "rc=$rc $(cat "$TMP/np.err")"; fi

"$HELPERS/busy" 1500 >/dev/null & bp=$!
sleep 0.1
"$PMC" record -e cpu-clock -c 100000 -o "$TMP/pid.log" -p "$bp" -l 0.5 2>"$TMP/pid.err"; rc=$?
kill "$bp" 2>/dev/null; wait "$bp" 2>/dev/null
if [ "$rc" = 0 ] && dumpjson "$TMP/pid.log" | python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.stdin]
s = [r for r in recs if r["type"] == "CALLCHAIN"]
pid = int(sys.argv[1])
assert len(s) > 100 and all(r["pid"] == pid for r in s), len(s)
assert any(r["type"] == "COMM" and r["pid"] == pid and r["name"] == "busy" for r in recs)
m = [r for r in recs if r["type"] == "MAP_IN" and r["pid"] == pid and r["path"].endswith("/busy")]
assert m and (not sys.argv[2] or m[0].get("buildid") == sys.argv[2]), (m, sys.argv[2])
assert any(r["type"] == "PMCATTACH" and r["pid"] == pid and r["path"].endswith("/busy") for r in recs)' "$bp" \
    "$(readelf -n "$HELPERS/busy" 2>/dev/null | sed -n 's/.*Build ID: //p')"
then ok "-p PID -l 0.5: samples of that process only, its name and mappings (with build ids) logged"
else fail "-p PID" "rc=$rc $(cat "$TMP/pid.err")"; fi
"$HELPERS/busy" 200 >/dev/null & bp=$!
"$PMC" record -e cpu-clock -o "$TMP/pid2.log" -p "$bp" 2>"$TMP/pid2.err"; rc=$?
wait "$bp" 2>/dev/null
if [ "$rc" = 0 ] && grep -q "exited" "$TMP/pid2.err" && "$PMC" dump -i "$TMP/pid2.log" | tail -1 | grep -q CLOSELOG; then
  ok "-p: recording ends when the process exits"
else fail "-p until exit" "rc=$rc $(cat "$TMP/pid2.err")"; fi

"$HELPERS/deepcall" 2 16 100000000 >/dev/null & dp=$!
tid=""
for _ in $(seq 200); do tid=$(ls "/proc/$dp/task" 2>/dev/null | grep -vx "$dp" | head -1); [ -n "$tid" ] && break; sleep 0.02; done
"$PMC" record -e cpu-clock -o "$TMP/tid.log" -t "$tid" -l 0.3 2>"$TMP/tid.err"; rc=$?
kill "$dp" 2>/dev/null; wait "$dp" 2>/dev/null
if [ "$rc" = 0 ] && dumpjson "$TMP/tid.log" | python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.stdin]
pid, tid = int(sys.argv[1]), int(sys.argv[2])
s = [r for r in recs if r["type"] == "CALLCHAIN"]
assert s and all((r["pid"], r["tid"]) == (pid, tid) for r in s), {(r["pid"], r["tid"]) for r in s}
assert any(r["type"] == "COMM" and (r["pid"], r["tid"]) == (pid, tid) for r in recs)
assert any(r["type"] == "MAP_IN" and r["pid"] == pid for r in recs)' "$dp" "$tid"
then ok "-t TID: samples of that thread only (its process's pid), its name and the process's maps"
else fail "-t TID" "rc=$rc $(cat "$TMP/tid.err")"; fi

if [ "$(id -u)" = 0 ]; then
  "$PMC" record -e cpu-clock -a -C 0 -l 0.3 -o "$TMP/a.log" 2>"$TMP/a.err"; rc=$?
  if [ "$rc" = 0 ] && dumpjson "$TMP/a.log" | python3 -c '
import json, sys, os
recs = [json.loads(l) for l in sys.stdin]
s = [r for r in recs if r["type"] == "CALLCHAIN"]
assert len(s) > 100 and all(r["cpu"] == 0 for r in s), len(s)
a = [r for r in recs if r["type"] == "PMCALLOCATE"]
assert len(a) == 1 and a[0]["mode"] == "SS" and a[0]["cpu"] == 0, a
k = [r for r in recs if r["type"] == "KSYMSRC"]
assert len(k) == 1 and k[0]["path"] == "/proc/kallsyms" and k[0]["release"] == os.uname().release, k
pc = {r["pid"] for r in recs if r["type"] == "PROC_CREATE"}
assert 1 in pc and int(sys.argv[1]) in pc, "processes at start: %d" % len(pc)
assert any(r["type"] == "MAP_IN" and r["pid"] == int(sys.argv[1]) for r in recs)
assert any(r["type"] == "COMM" and r["pid"] == 1 for r in recs)' "$$"
  then ok "-a -C 0 -l 0.3: SS samples of CPU 0; every process, its maps and KSYMSRC (kernel release) logged"
  else fail "-a -C 0" "rc=$rc $(cat "$TMP/a.err")"; fi
else
  skip "-a -C 0" "needs root"
fi

# --- the recorder killed, the disk full ------------------------------------------------
"$PMC" record -q -e cpu-clock -o "$TMP/kill.log" -- "$HELPERS/busy" 1500 >/dev/null 2>&1 & rp=$!
for _ in $(seq 200); do [ "$(stat -c %s "$TMP/kill.log" 2>/dev/null || echo 0)" -gt 20000 ] && break; sleep 0.05; done
kill -9 "$rp"; wait "$rp" 2>/dev/null
cp "$TMP/kill.log" "$TMP/kill2.log"        # a snapshot: the command still runs
"$PMC" dump -i "$TMP/kill2.log" >"$TMP/kill.txt" 2>"$TMP/kill.err"; rc=$?
victim=$(grep -m1 -o 'PMCATTACH pmcid=[^ ]* pid=[0-9]*' "$TMP/kill.txt" | sed 's/.*pid=//')
[ -n "$victim" ] && kill "$victim" 2>/dev/null
if [ "$rc" = 1 ] && grep -q "truncated" "$TMP/kill.err" && grep -q CALLCHAIN "$TMP/kill.txt" && head -1 "$TMP/kill.txt" | grep -q HEADER; then
  ok "SIGKILL of the recorder: the log reads ($(grep -c CALLCHAIN "$TMP/kill.txt") samples), dump says truncated, exits 1"
else fail "SIGKILL of the recorder" "rc=$rc $(cat "$TMP/kill.err")"; fi

# deepcall's work sized for a log far past both limits: 20000 iterations
# made ~1,350 samples, a 65,464-byte log, under check-loaded, which fit the
# 64 KB tmpfs below
( ulimit -f 16; exec "$PMC" record -g -e cpu-clock -F 10000 -o "$TMP/big.log" -- "$HELPERS/deepcall" 2 64 200000 ) >/dev/null 2>"$TMP/fsz.err"; rc=$?
"$PMC" dump -i "$TMP/big.log" >"$TMP/fsz.txt" 2>"$TMP/fsz.derr"; drc=$?
nmsg=$(grep -c "failed" "$TMP/fsz.err")
if [ "$rc" = 1 ] && [ "$nmsg" = 1 ] && grep -q "File too large" "$TMP/fsz.err" && [ "$drc" = 1 ] &&
   grep -q CALLCHAIN "$TMP/fsz.txt" && grep -q truncated "$TMP/fsz.derr"; then
  ok "EFBIG (ulimit -f): one clear message, exit 1, the partial log reads"
else fail "EFBIG" "rc=$rc nmsg=$nmsg drc=$drc $(cat "$TMP/fsz.err")"; fi

if [ "$(id -u)" = 0 ] && mkdir -p "$TMP/tiny" && mount -t tmpfs -o size=64k tmpfs "$TMP/tiny" 2>/dev/null; then
  "$PMC" record -g -e cpu-clock -F 10000 -o "$TMP/tiny/x.log" -- "$HELPERS/deepcall" 2 64 200000 >/dev/null 2>"$TMP/nospc.err"; rc=$?
  "$PMC" dump -i "$TMP/tiny/x.log" >"$TMP/nospc.txt" 2>/dev/null
  nmsg=$(grep -c "failed" "$TMP/nospc.err")
  if [ "$rc" = 1 ] && [ "$nmsg" = 1 ] && grep -q "No space left" "$TMP/nospc.err" && grep -q CALLCHAIN "$TMP/nospc.txt"; then
    ok "ENOSPC (64 KB tmpfs): one clear message, exit 1, the partial log reads"
  else fail "ENOSPC" "rc=$rc nmsg=$nmsg $(cat "$TMP/nospc.err")"; fi
  umount "$TMP/tiny"
else
  skip "ENOSPC on a tiny tmpfs" "cannot mount a tmpfs here"
fi

# --- lost samples reach the summary -----------------------------------------------------
PMC_NSAMPLES=1 PMC_LOGBUFFERSIZE=4 "$PMC" record -g -e cpu-clock -F 100000 -o "$TMP/lost.log" -- \
    "$HELPERS/deepcall" 2 64 3000 >/dev/null 2>"$TMP/lost.err"; rc=$?
lost=$(summary_field "$TMP/lost.err" lost)
drops=$(dumpjson "$TMP/lost.log" | python3 -c '
import json, sys
print(sum(r["count"] for r in map(json.loads, sys.stdin) if r["type"] == "DROPNOTIFY"))')
if [ "$rc" = 0 ] && [ -n "$lost" ] && [ "$lost" -gt 0 ] && [ "$lost" = "$drops" ]; then
  ok "a tiny ring loses samples: the summary's lost ($lost) = the DROPNOTIFY sum"
else fail "lost samples in the summary" "rc=$rc lost=$lost drops=$drops $(cat "$TMP/lost.err")"; fi

# --- the tunables ------------------------------------------------------------------------
PMC_CALLCHAINDEPTH=8 "$PMC" record -g -e cpu-clock -o "$TMP/cd.log" -- "$HELPERS/deepcall" 1 64 3000 >/dev/null 2>&1
mx=$(dumpjson "$TMP/cd.log" | python3 -c '
import json, sys
print(max([r["npc"] for r in map(json.loads, sys.stdin) if r["type"] == "CALLCHAIN"] or [0]))')
check "callchaindepth=8: chains cut at 8 pcs (max $mx)" test "$mx" = 8
# (mincount is a hardware counter's minimum: the simulated PMU's cycles)
PMC_MINCOUNT=2000000 "$PMC" record --backend sim -e cycles -c 1000 -o "$TMP/mc.log" -- \
  "$PMC_ROOT/examples/sim/hot70.wl" >/dev/null 2>"$TMP/mc.err"
per=$(dumpjson "$TMP/mc.log" | python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.stdin]
print(sorted({r["rate"] for r in recs if r["type"] == "PMCALLOCATE"} | {r["period"] for r in recs if r["type"] == "CALLCHAIN"}))')
if [ "$per" = "[2000000]" ] && grep -q "below mincount" "$TMP/mc.err"; then ok "mincount=2000000 raises -c 1000 (and says so)"
else fail "mincount" "$per $(cat "$TMP/mc.err")"; fi
out=$(PMC_NSAMPLES=77 PMC_CALLCHAINDEPTH=9 PMC_MINCOUNT=4242 PMC_NBUFFERS_PCPU=3 PMC_LOGBUFFERSIZE=128 "$PMC" record --show-settings)
if echo "$out" | grep -qE '^nsamples +77 ' && echo "$out" | grep -qE '^callchaindepth +9 ' &&
   echo "$out" | grep -qE '^mincount +4242 ' && echo "$out" | grep -qE '^nbuffers_pcpu +3 ' &&
   echo "$out" | grep -qE '^logbuffersize +128 '; then ok "--show-settings shows the five tunables from the environment"
else fail "--show-settings" "$out"; fi
out=$(PMC_LOGBUFFERSIZE=99999 "$PMC" record --show-settings 2>&1)
if echo "$out" | grep -q "logbuffersize=99999 must be greater than zero and less than or equal to 16384, resetting to 256" &&
   echo "$out" | grep -qE '^logbuffersize +256 '; then ok "logbuffersize above 16 MB resets to 256 with hwpmc's message"
else fail "logbuffersize range check" "$out"; fi
PMC_NSAMPLES=33 "$PMC" record -v -e cpu-clock -o "$TMP/v.log" -- true 2>"$TMP/v.err"
check "-v shows the settings in use" grep -q "nsamples=33" "$TMP/v.err"
# nsamples and nbuffers_pcpu size the kernel rings: look at the recorder's mappings.
ring_kb() {   # env... : the size of the recorder's perf ring mappings, in KB
  env "$@" "$PMC" record -q -e cpu-clock -o "$TMP/ring.log" -f -- sleep 60 >/dev/null 2>&1 & local rp=$!
  local kb=""
  for _ in $(seq 500); do
    kb=$(grep perf_event "/proc/$rp/maps" 2>/dev/null | while read -r range _; do
           echo $(( (0x${range#*-} - 0x${range%-*}) / 1024 )); done | sort -u | tr '\n' ' ')
    [ -n "$kb" ] && break; sleep 0.02
  done
  kill -TERM "$rp"; wait "$rp"; echo "$kb"
}
k1=$(ring_kb PMC_NSAMPLES=16384)       # 16384 x 64 B = 1 MB (+ the control page)
k2=$(ring_kb PMC_NSAMPLES=16384 PMC_NBUFFERS_PCPU=1)   # capped at 1 x 256 KB
k3=$(ring_kb PMC_NSAMPLES=1)           # at least one log buffer: 256 KB
if [ "$k1" = "1028 " ] && [ "$k2" = "260 " ] && [ "$k3" = "260 " ]; then
  ok "rings: nsamples sizes them, nbuffers_pcpu x logbuffersize caps them, one log buffer at least"
else fail "ring sizes from the tunables" "k1='$k1' k2='$k2' k3='$k3'"; fi

# --- signals, status line ------------------------------------------------------------------
setsid bash -c "exec '$PMC' record -e cpu-clock -o '$TMP/int.log' -- sleep 5" >"$TMP/int.out" 2>&1 & sp=$!
for _ in $(seq 200); do [ -s "$TMP/int.log" ] && break; sleep 0.02; done
sleep 0.2; kill -INT -- -"$sp" 2>/dev/null; wait "$sp"; rc=$?
if [ "$rc" = 130 ] && grep -q "samples" "$TMP/int.out" && "$PMC" dump -i "$TMP/int.log" | tail -1 | grep -q CLOSELOG; then
  ok "Ctrl-C: summary, complete log (CLOSELOG), exit 130"
else fail "Ctrl-C" "rc=$rc $(cat "$TMP/int.out")"; fi
"$PMC" record -e cpu-clock -o "$TMP/term.log" -- "$HELPERS/busy" 5000 >"$TMP/term.out" 2>&1 & sp=$!
for _ in $(seq 200); do [ "$(stat -c %s "$TMP/term.log" 2>/dev/null || echo 0)" -gt 10000 ] && break; sleep 0.05; done
kill -TERM "$sp"; wait "$sp"; rc=$?
if [ "$rc" = 143 ] && grep -q "samples" "$TMP/term.out" && "$PMC" dump -i "$TMP/term.log" | tail -1 | grep -q CLOSELOG; then
  ok "SIGTERM to the recorder: the command gets it, log completed, exit 143"
else fail "SIGTERM" "rc=$rc $(cat "$TMP/term.out")"; fi

if grep -q $'\r' "$TMP/c.err"; then fail "no status line when stderr is not a terminal"
else ok "no status line when stderr is not a terminal"; fi
if command -v script >/dev/null; then
  script -qc "'$PMC' record -e cpu-clock -o '$TMP/tty.log' -- '$HELPERS/busy' 600" /dev/null >"$TMP/tty.out" 2>&1 </dev/null
  if grep -q $'\r.*samples, [0-9,]* lost, ' "$TMP/tty.out"; then ok "on a terminal: a live status line (elapsed, samples, lost, bytes)"
  else fail "status line on a terminal" "$(cat -A "$TMP/tty.out" | head -5)"; fi
else
  skip "status line on a terminal" "script(1) is not installed"
fi

# --- the simulated PMU: exact sample counts -------------------------------------------------------
SIM=$PMC_ROOT/examples/sim
"$PMC" record --backend sim -e cycles -c 100003 -o "$TMP/sim.log" -- "$SIM/hot70.wl" 2>"$TMP/sim.err"; rc=$?
if [ "$rc" = 0 ] && dumpjson "$TMP/sim.log" | python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.stdin]
s = [r for r in recs if r["type"] == "CALLCHAIN"]
want = 100009108 // 100003          # docs/simulator.md: hot70 runs 100,009,108 cycles
assert len(s) == want, (len(s), want)
assert all(r["period"] == 100003 for r in s)
assert len({r["pid"] for r in s}) == 1
assert any(r["type"] == "MAP_IN" and r["path"].endswith("hot70.wl") for r in recs)
assert not any(r["type"] == "DROPNOTIFY" for r in recs)'
then ok "sim hot70.wl -c 100003: exactly floor(100009108/100003) = 1000 samples, none lost"
else fail "sim hot70" "rc=$rc $(cat "$TMP/sim.err")"; fi
"$PMC" record --backend sim -g -e cycles -c 1000003 -o "$TMP/simt.log" -- "$SIM/threads.wl" 2>"$TMP/simt.err"; rc=$?
n=$(count_type "$TMP/simt.log" CALLCHAIN)
# counters are per thread per CPU (as perf record's); the 4 threads run on the
# sim's 4 CPUs, so each counts its own periods: main 6,010,000 cycles, 3
# workers 6,000,000 each (the sim is deterministic: the same every run)
want=$(( 6010000 / 1000003 + 3 * (6000000 / 1000003) ))
check "sim threads.wl: exit status 3 passed through; $n samples = per-thread floors ($want)" test "$rc" = 3 -a "$n" = "$want"

# --- usage errors ----------------------------------------------------------------------------------
"$PMC" record -e cylces -o "$TMP/u1.log" -- true 2>"$TMP/u1"; rc=$?
if [ "$rc" = 2 ] && grep -q cylces "$TMP/u1" && [ ! -e "$TMP/u1.log" ]; then ok "bad event: exit 2, named, no log left"
else fail "bad event" "rc=$rc $(cat "$TMP/u1")"; fi
"$PMC" record -o "$TMP/u2.log" 2>/dev/null; rc=$?
check "nothing to record: exit 2" test "$rc" = 2
"$PMC" record -F 100 -c 1000 -o "$TMP/u3.log" -- true 2>/dev/null; rc=$?
check "-F with -c: exit 2" test "$rc" = 2
"$PMC" record --bogus -- true 2>/dev/null; rc=$?
check "unknown option: exit 2" test "$rc" = 2
"$PMC" record -p 1 -- true 2>/dev/null; rc=$?
check "a command and -p: exit 2" test "$rc" = 2
"$PMC" record -C 9999 -l 0.1 2>"$TMP/u6"; rc=$?
check "CPU out of range: exit 2" test "$rc" = 2
"$PMC" record --help | grep -q -- '--show-settings'; check "--help documents the options" test $? = 0

done_testing
