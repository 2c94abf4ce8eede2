#!/usr/bin/env bash
# tests/freebsd/run.sh [FREEBSD_SRC=DIR] — FreeBSD's own pmc programs, built
# UNMODIFIED from a FreeBSD source tree (freebsd/freebsd-src's paths) with
# nothing but `pkg-config --cflags --libs libpmc-freebsd`, run on known
# workloads (issue 23).  FreeBSD's code is never part of this repository:
# the tree is given by FREEBSD_SRC (environment or argument).  Without it
# every check is a SKIP with that reason.
#
#   usr.sbin/pmccontrol     builds; -L lists classes
#   usr.sbin/pmcstat        with lib/libpmcstat (SRCS of both Makefiles):
#                           SOFT-CLOCK.HARD counts in ticks within 2 % of the
#                           workload's CPU time or of pmc stat -p on the same
#                           process: -p, -d, -t, -w, -C -w, -s (bounds), -E;
#                           -n 100000 -P cpu-clock -O then -R: the sample
#                           count, -m names >= 95 % of a PIE program's user
#                           samples, -G its call graph, -g its gmon file;
#                           -S names the workload's samples
#   usr.sbin/pmcannotate    builds; annotates the PIE program's hot function
#   usr.sbin/pmc            (C and C++) builds; list-events, stat (needs a
#                           hardware PMU), summary -f, filter -j, filter
#   tests/sys/pmc           each ATF program (but pmc_exterr_test, which needs
#                           FreeBSD's kernel) builds; each case runs alone,
#                           as nobody where require.user is unprivileged; it
#                           passes or is skipped for lack of a hardware
#                           counter (or of a set-id program: wall, ping)
#
# TAP through tests/integration/lib.sh; PMC_ROOT is this repository.
# shellcheck disable=SC2046,SC2086
for a in "$@"; do case $a in FREEBSD_SRC=*) FREEBSD_SRC=${a#FREEBSD_SRC=} ;; esac; done
PMC_ROOT=${PMC_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
PMC_BUILD=${PMC_BUILD:-build}
PMC=${PMC:-$PMC_ROOT/$PMC_BUILD/pmc}
export PMC_ROOT PMC_BUILD PMC
. "$PMC_ROOT/tests/integration/lib.sh"

if [ -z "${FREEBSD_SRC:-}" ] || [ ! -d "$FREEBSD_SRC" ]; then
  skip "FreeBSD's programs built from their sources" "FREEBSD_SRC is not set (a freebsd/freebsd-src tree)"
  done_testing; exit 0
fi
S=$(cd "$FREEBSD_SRC" && pwd)
for t in pkg-config cc c++; do
  if ! command -v $t >/dev/null; then
    skip "FreeBSD's programs" "$t is not installed"; done_testing; exit 0
  fi
done

D=$TMP/prefix
make -C "$PMC_ROOT" install PREFIX="$D" >"$TMP/install.log" 2>&1 ||
  { fail "make install PREFIX" "$(tail -5 "$TMP/install.log")"; done_testing; exit 1; }
export PKG_CONFIG_PATH=$D/lib/pkgconfig LD_LIBRARY_PATH=$D/lib
if ! F=$(pkg-config --cflags --libs libpmc-freebsd 2>"$TMP/pc.err"); then
  skip "FreeBSD's programs" "pkg-config libpmc-freebsd: $(cat "$TMP/pc.err")"; done_testing; exit 0
fi
B=$TMP/bin
mkdir -p "$B"

# SRCS of a FreeBSD Makefile (continuation lines joined), .c/.cc only.
srcs() {
  sed -e ':a' -e '/\\$/N; s/\\\n/ /; ta' "$1" | awk '
    /^SRCS[+]?=/ { sub(/^SRCS[+]?=/, ""); for (i = 1; i <= NF; i++) if ($i ~ /\.(c|cc)$/) print $i }'
}

# build NAME DIR [extra sources and cc args]: every SRCS file of
# DIR/Makefile (or every .c/.cc of DIR) into $B/NAME, as bsd.prog.mk does:
# each .c compiled by cc, each .cc by c++, linked by c++ if any is C++.
CF=$(pkg-config --cflags libpmc-freebsd)
build() {
  local name=$1 dir=$S/$2 files="" extra="" link=cc f o objs=""
  shift 2
  [ -d "$dir" ] || return 2
  if [ -f "$dir/Makefile" ] && [ -n "$(srcs "$dir/Makefile")" ]; then
    for f in $(srcs "$dir/Makefile"); do files="$files $dir/$f"; done
  else
    files=$(ls "$dir"/*.c "$dir"/*.cc 2>/dev/null)
  fi
  [ -n "$files" ] || return 2
  for f in "$@"; do case $f in *.c|*.cc) files="$files $f" ;; *) extra="$extra $f" ;; esac; done
  mkdir -p "$TMP/o.$name"; : >"$TMP/$name.cc.log"
  for f in $files; do
    o=$TMP/o.$name/$(basename "$(dirname "$f")")_$(basename "$f").o
    case $f in
      *.cc) link=c++; c++ -c -o "$o" "$f" $extra $CF >>"$TMP/$name.cc.log" 2>&1 || return 1 ;;
      *) cc -c -o "$o" "$f" $extra $CF >>"$TMP/$name.cc.log" 2>&1 || return 1 ;;
    esac
    objs="$objs $o"
  done
  $link -o "$B/$name" $objs $F >>"$TMP/$name.cc.log" 2>&1
}

built() { # name dir [args]: build and report
  local name=$1
  build "$@"; local rc=$?
  if [ $rc = 2 ]; then skip "$name builds" "$2 (its sources) is not in FREEBSD_SRC"; return 1; fi
  if [ $rc = 0 ]; then ok "$name builds unmodified with pkg-config libpmc-freebsd only"; return 0; fi
  fail "$name builds unmodified" "$(grep -m8 -E 'error|undefined' "$TMP/$name.cc.log")"
  return 1
}

# near A B [ABS]: A within 2 % (+ ABS, default 3) of B
near() { awk -v a="$1" -v b="$2" -v e="${3:-3}" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= e + b * 0.02) }'; }
cpums() { awk '/^cpu_ms/ {s += $2} END {print s + 0}' "$@"; }
# the last count pmcstat printed (its counting output: one number per PMC
# a line, after a header line; -w prints a line per interval)
lastcount() { awk 'NF >= 1 && $1 ~ /^[0-9]+$/ {v = $1} END {print v + 0}' "$1"; }
sumcounts() { awk 'NF >= 1 && $1 ~ /^[0-9]+$/ {v += $1} END {print v + 0}' "$1"; }
# every count of the last line (-s: a column per CPU)
lastrow() { awk 'NF >= 1 && $1 ~ /^[0-9]+$/ {v = 0; for (i = 1; i <= NF; i++) v += $i} END {print v + 0}' "$1"; }

cc -O1 -g -fno-omit-frame-pointer -fPIE -pie -o "$B/spin" "$PMC_ROOT/tests/freebsd/spin.c"
N=300000000

# ---- pmccontrol ------------------------------------------------------------
if built pmccontrol usr.sbin/pmccontrol; then
  # -l: every CPU's rows with their class (16 SOFT rows each, hwpmc's
  # SOFT class size); -L on x86 prints the PMU's event table
  # (pmc_pmu_print_counters): nothing where there is no hardware PMU
  "$B/pmccontrol" -l >"$TMP/pcl.out" 2>&1; rc=$?
  ncpu_l=$(grep -c '^#CPU' "$TMP/pcl.out")
  nsoft=$(awk '$3 == "SOFT"' "$TMP/pcl.out" | wc -l)
  if [ $rc -eq 0 ] && [ "$ncpu_l" = "$(getconf _NPROCESSORS_ONLN)" ] && [ "$nsoft" = $((ncpu_l * 16)) ]; then
    ok "pmccontrol -l: $ncpu_l CPUs, 16 SOFT rows each"
  else fail "pmccontrol -l lists every CPU's rows" "exit $rc, $ncpu_l CPUs, $nsoft SOFT rows: $(head -5 "$TMP/pcl.out")"; fi
  "$B/pmccontrol" -L >/dev/null 2>"$TMP/pcL.err"; rc=$?
  check "pmccontrol -L: exit 0" [ $rc -eq 0 ]
fi

# ---- pmcstat + libpmcstat ----------------------------------------------------
LPS=""
if [ -f "$S/lib/libpmcstat/Makefile" ]; then
  for f in $(srcs "$S/lib/libpmcstat/Makefile"); do
    # pmu-events tables are generated at FreeBSD's build: not here
    grep -q 'pmu-events/pmu-events.h' "$S/lib/libpmcstat/$f" || LPS="$LPS $S/lib/libpmcstat/$f"
  done
fi
if built pmcstat usr.sbin/pmcstat -I"$S/lib/libpmcstat" $LPS; then
  P=$B/pmcstat
  # pmc's own reading of the same kind of run, for the record: pmc stat's
  # cpu-clock (ms) of one spin
  own=$("$PMC" stat -x, -e cpu-clock "$B/spin" $N 2>&1 | awk -F, '/cpu-clock/ {print int($1)}' | head -1)
  echo "# pmc stat -e cpu-clock of spin $N: ${own:-?} ms"

  # -p: process-mode counting in ticks (hz 1000); the workload says its
  # CPU time in ms, so the two agree within 2 %
  "$P" -o "$TMP/p.cnt" -p SOFT-CLOCK.HARD "$B/spin" $N >"$TMP/p.out" 2>&1
  t=$(lastcount "$TMP/p.cnt"); m=$(cpums "$TMP/p.out")
  if near "$t" "$m"; then ok "pmcstat -p SOFT-CLOCK.HARD: $t ticks for $m ms of CPU time"
  else fail "pmcstat -p SOFT-CLOCK.HARD counts ticks" "ticks=$t cpu_ms=$m: $(cat "$TMP/p.out")"; fi

  # -d: descendants counted too (a shell running two spins)
  "$P" -o "$TMP/d.cnt" -d -p SOFT-CLOCK.HARD sh -c "'$B/spin' 150000000; '$B/spin' 150000000" >"$TMP/d.out" 2>&1
  t=$(lastcount "$TMP/d.cnt"); m=$(cpums "$TMP/d.out")
  if near "$t" "$m"; then ok "pmcstat -d -p: $t ticks for the two children's $m ms"
  else fail "pmcstat -d -p counts descendants" "ticks=$t cpu_ms=$m: $(cat "$TMP/d.out")"; fi

  # -t: attach to a running process (it sleeps, then execs spin; the
  # sleep leaves pmcstat time to attach first on a loaded machine).  The
  # exec's own CPU time is not counted by an event attached before it (the
  # kernel's; perf stat -p misses it too), so the answer is pmc's own
  # tool attached to the same process at the same time: pmc stat -p.
  sh -c "sleep 3; exec '$B/spin' $N" 2>"$TMP/t.err" &
  tp=$!
  "$PMC" stat -x, -e cpu-clock -p "$tp" >"$TMP/t.pmc" 2>&1 &
  sp=$!
  "$P" -o "$TMP/t.cnt" -t "$tp" -p SOFT-CLOCK.HARD >"$TMP/t.out" 2>&1
  wait $tp; wait $sp
  t=$(lastcount "$TMP/t.cnt"); m=$(awk -F, '/cpu-clock/ {print int($1); exit}' "$TMP/t.pmc")
  if near "$t" "${m:-0}"; then ok "pmcstat -t PID -p: $t ticks, pmc stat -p of the same process ${m} ms"
  else fail "pmcstat -t PID counts the attached process as pmc stat -p" "ticks=$t pmc stat=${m:-?}: $(cat "$TMP/t.out" "$TMP/t.pmc")"; fi

  # -w: a line per interval, incremental (the default) or cumulative (-C);
  # four spins (about 0.7 s on a quiet machine), so that 0.2 s intervals are
  # several whatever the load
  "$P" -o "$TMP/w.cnt" -w 0.2 -p SOFT-CLOCK.HARD "$B/spin" $((N * 4)) >"$TMP/w.out" 2>&1
  t=$(sumcounts "$TMP/w.cnt"); m=$(cpums "$TMP/w.out"); l=$(awk '$1 ~ /^[0-9]+$/' "$TMP/w.cnt" | wc -l)
  if [ "$l" -ge 2 ] && near "$t" "$m"; then ok "pmcstat -w 0.2: $l intervals summing to $t ticks for $m ms"
  else fail "pmcstat -w prints interval counts summing to the total" "lines=$l sum=$t cpu_ms=$m: $(cat "$TMP/w.cnt")"; fi
  "$P" -o "$TMP/c.cnt" -C -w 0.2 -p SOFT-CLOCK.HARD "$B/spin" $((N * 4)) >"$TMP/c.out" 2>&1
  t=$(lastcount "$TMP/c.cnt"); m=$(cpums "$TMP/c.out")
  mono=$(awk '$1 ~ /^[0-9]+$/ { if ($1 < p) bad = 1; p = $1 } END { print bad + 0 }' "$TMP/c.cnt")
  if [ "$mono" = 0 ] && near "$t" "$m"; then ok "pmcstat -C -w: cumulative lines ending at $t ticks for $m ms"
  else fail "pmcstat -C -w prints cumulative counts" "last=$t cpu_ms=$m: $(cat "$TMP/c.cnt")"; fi

  # -s: system mode, every CPU: at least the workload's ticks, at most
  # every CPU's ticks over the run
  ncpu=$(getconf _NPROCESSORS_ONLN)
  s0=$(date +%s%N)
  "$P" -o "$TMP/s.cnt" -s SOFT-CLOCK.HARD "$B/spin" $N >"$TMP/s.out" 2>&1
  wall=$((($(date +%s%N) - s0) / 1000000))
  t=$(lastrow "$TMP/s.cnt"); m=$(cpums "$TMP/s.out")
  if awk -v t="$t" -v m="$m" -v w="$wall" -v n="$ncpu" 'BEGIN { exit !(m > 0 && t >= 0.98 * m - 3 && t <= n * w * 1.02 + 3) }'; then
    ok "pmcstat -s: $t ticks on $ncpu CPUs, >= the workload's $m ms, <= $ncpu x $wall ms"
  else fail "pmcstat -s counts system-wide" "ticks=$t cpu_ms=$m wall=$wall ncpu=$ncpu: $(cat "$TMP/s.cnt")"; fi

  # -P -O, then -R -m: samples of a PIE program named.  (Sampling uses
  # Linux's cpu-clock, in ns, one sample per 100 us of CPU time: hwpmc
  # raises every sampling count to kern.hwpmc.mincount, 1000, and so does
  # libpmc, so SOFT-CLOCK.PROF samples at most 8 times a second.)
  "$P" -O "$TMP/s.log" -n 100000 -P cpu-clock "$B/spin" $N >/dev/null 2>"$TMP/P.err"
  "$P" -R "$TMP/s.log" >"$TMP/s.txt" 2>&1
  "$P" -R "$TMP/s.log" -m "$TMP/m.txt" >/dev/null 2>&1
  # user-mode samples of the exec'ed spin inside its own image (the
  # PROCEXEC line: exec PMCID PID BASEADDR DYNADDR "path")
  mapped() { python3 - "$B/spin" "$1" <<'PY'
import sys
img, pid, dyn, want, n = sys.argv[1], None, 0, False, 0
for line in open(sys.argv[2], errors="replace"):
    f = line.split()
    if not f:
        continue
    if f[0] == "exec" and img in line:
        pid, dyn = f[2], int(f[4], 16)
    elif f[0] == "callchain":
        want = pid is not None and f[1] == pid and f[-1] == "u"
    elif f[0] == "..." and want:
        pc = int(f[1], 16)
        n += dyn <= pc < dyn + (1 << 20)
        want = False
print(n)
PY
  }
  tot=$(mapped "$TMP/s.txt")
  named=$(awk '$2 == "hot" || $2 == "warm" || $2 == "main"' "$TMP/m.txt" | wc -l)
  if [ "$tot" -gt 50 ] && awk -v a="$named" -v t="$tot" 'BEGIN { exit !(a >= 0.95 * t) }'; then
    ok "pmcstat -P -O, -R -m names $named of $tot samples of a PIE program (>= 95 %)"
  else fail "pmcstat -R -m names >= 95 % of a PIE program's samples" "$named of $tot"; fi
  # samples: one per 100 us of CPU time; those counted are spin's own
  # user-mode ones, so its time in the kernel and in libc (more of it on a
  # loaded machine: 7.5 % once) is allowed for: within 10 %
  m=$(cpums "$TMP/P.err")
  exp=$(awk -v m="$m" 'BEGIN { print int(m * 10) }')
  if awk -v a="$tot" -v e="$exp" 'BEGIN { d = a - e; if (d < 0) d = -d; exit !(e > 0 && d <= 3 * sqrt(e) + 0.10 * e + 3) }'; then
    ok "pmcstat -n 100000 -P cpu-clock: $tot samples for $m ms (expected $exp)"
  else fail "pmcstat -P -n: one sample per n profclock ticks" "samples=$tot expected=$exp cpu_ms=$m"; fi
  "$P" -R "$TMP/s.log" -G "$TMP/g.txt" >/dev/null 2>&1
  # (warm's call to hot is a tail call: its caller is main or warm)
  grep -Eq "^[0-9.]+%.*hot @ $B/spin" "$TMP/g.txt" && grep -Eq '^ +[0-9.]+%.* (warm|main)$' "$TMP/g.txt"
  check "pmcstat -R -G: hot @ spin, with its caller" test $? = 0
  # -g: gprof(1) profiles, one per image and PMC, under -D DIR
  mkdir -p "$TMP/gprof"
  (cd "$TMP" && "$P" -R "$TMP/s.log" -D "$TMP/gprof" -g >/dev/null 2>&1)
  # (read here rather than by GNU gprof, which takes FreeBSD's 4.4BSD
  # header with a histcounter_type for its own and misplaces the bins:
  # header {lpc, hpc, ncnt, version, profrate, histcounter_type, spare[3]},
  # then 16-bit bins spanning lpc..hpc; the addresses are the image's own)
  gm=$(find "$TMP/gprof" -name 'spin.gmon' 2>/dev/null | head -1)
  if [ -n "$gm" ]; then
    res=$(python3 - "$gm" "$B/spin" <<'PY'
import struct, subprocess, sys
d = open(sys.argv[1], "rb").read()
lpc, hpc, ncnt, ver, rate, htype = struct.unpack_from("<QQiiii", d, 0)
c = struct.unpack_from("<%dH" % ((ncnt - 48) // 2), d, 48)
syms = sorted((int(a, 16), n) for a, t, n in
              (l.split() for l in subprocess.run(["nm", sys.argv[2]], capture_output=True,
                                                 text=True).stdout.splitlines() if len(l.split()) == 3)
              if t in "tT")
w = (hpc - lpc) / len(c)
def name(pc):
    n = ""
    for a, s in syms:
        if a <= pc:
            n = s
    return n
hot = sum(v for i, v in enumerate(c) if v and name(lpc + i * w + w / 2) == "hot")
print(hot, sum(c))
PY
)
    set -- $res
    if [ "${2:-0}" -gt 50 ] && awk -v h="$1" -v t="$2" -v n="$tot" 'BEGIN { d = t - n; if (d < 0) d = -d; exit !(h >= 0.9 * t && d <= 3) }'; then
      ok "pmcstat -g: spin.gmon holds $2 samples (pmcstat -R: $tot), $1 of them in hot"
    else fail "pmcstat -g writes spin's samples to spin.gmon" "gmon: ${res:-unreadable}, pmcstat -R: $tot"; fi
  else fail "pmcstat -g writes gmon files" "$(find "$TMP/gprof" 2>/dev/null | head)"; fi
  # -S: system-wide sampling; spin's samples named as with -P
  "$P" -O "$TMP/S.log" -n 100000 -S cpu-clock "$B/spin" $N >/dev/null 2>&1
  "$P" -R "$TMP/S.log" -m "$TMP/Sm.txt" >/dev/null 2>&1
  "$P" -R "$TMP/S.log" >"$TMP/S.txt" 2>&1
  named=$(awk '$2 == "hot" || $2 == "warm"' "$TMP/Sm.txt" | wc -l)
  if [ "$named" -gt 50 ]; then ok "pmcstat -S: $named system-wide samples named in spin's hot/warm"
  else fail "pmcstat -S samples the workload system-wide" "$named named: $(head -3 "$TMP/Sm.txt")"; fi
  # -E: the process's count at its exit, in ticks as -p
  "$P" -E -O "$TMP/e.log" -p SOFT-CLOCK.HARD "$B/spin" 200000000 >"$TMP/e.out" 2>&1
  "$P" -R "$TMP/e.log" >"$TMP/e.txt" 2>&1
  ev=$(awk '$1 == "exitval" {v += $4} END {print v + 0}' "$TMP/e.txt")
  m=$(cpums "$TMP/e.out")
  if near "$ev" "$m"; then ok "pmcstat -E: PROCEXIT says $ev ticks for $m ms of CPU time"
  else fail "pmcstat -E in ticks" "exitval=$ev cpu_ms=$m"; fi
fi

# ---- pmcannotate -------------------------------------------------------------
# (it runs `pmcstat -R LOG -m FILE` from PATH)
if built pmcannotate usr.sbin/pmcannotate && [ -f "$TMP/s.log" ]; then
  out=$(cd "$TMP" && PATH=$B:$PATH TMPDIR=$TMP "$B/pmcannotate" "$TMP/s.log" "$B/spin" 2>&1)
  echo "$out" | grep -q "Profile trace for function: hot()"
  check "pmcannotate annotates the PIE program's hot function" test $? = 0
fi

# ---- usr.sbin/pmc (C and C++) ----------------------------------------------------
if built pmc usr.sbin/pmc -I"$S/lib/libpmcstat" $LPS; then
  # list-events prints the CPU's PMU event table: none without a PMU
  "$B/pmc" list-events >"$TMP/list.txt" 2>&1
  check "pmc list-events runs" test $? = 0
  hwpmu=0
  for d in /sys/bus/event_source/devices/cpu /sys/bus/event_source/devices/cpu_core /sys/bus/event_source/devices/armv8_pmuv3*; do
    [ -e "$d" ] && hwpmu=1
  done
  # stat counts FreeBSD's six hardware defaults (unhalted-cycles,
  # instructions, ... LLC-MISSES): it needs a hardware PMU
  "$B/pmc" stat "$B/spin" 100000000 >"$TMP/pstat.out" 2>&1
  if [ $hwpmu = 0 ]; then
    if grep -q 'Cannot allocate process-mode pmc with specification "unhalted-cycles"' "$TMP/pstat.out"; then
      skip "pmc stat counts the workload" "it counts hardware events; this kernel has no hardware PMU"
    else fail "pmc stat without a hardware PMU says why" "$(cat "$TMP/pstat.out")"; fi
  else
    grep -Eq '^ +[0-9]+  instructions' "$TMP/pstat.out"
    check "pmc stat prints the workload's counts" test $? = 0
  fi
  if [ -f "$TMP/s.log" ]; then
    # summary: samples per process name, the names from PROC_CREATE
    # records (which a system-wide log has: -S)
    if [ -f "$TMP/S.log" ]; then
      "$B/pmc" summary -f "$TMP/S.log" >"$TMP/sum.txt" 2>&1
      res=$(python3 - "$TMP/S.txt" "$TMP/sum.txt" <<'PY'
import re, sys
names, want = {}, {}
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r'create\s+(\d+)\s+\S+\s+"(.*)"', line)
    if m:
        names[m.group(1)] = m.group(2)
        continue
    f = line.split()
    if f and f[0] == "callchain" and f[1] in names:
        want[names[f[1]]] = want.get(names[f[1]], 0) + 1
got = {}
for line in open(sys.argv[2], errors="replace"):
    if line.startswith("idx:"):
        continue
    name, _, n = line.rstrip("\n").rpartition(": ")
    if name:
        got[name] = int(n)
bad = [k for k in set(want) | set(got) if want.get(k) != got.get(k)]
print("ok %d %d" % (len(got), sum(got.values())) if want and not bad else
      "bad " + " ".join("%s:%s/%s" % (k, got.get(k), want.get(k)) for k in bad[:5]))
PY
)
      case "$res" in
        ok*) set -- $res; ok "pmc summary -f: $3 samples of $2 process names, as pmcstat -R counts them" ;;
        *) fail "pmc summary counts samples per process as pmcstat -R" "$res" ;;
      esac
    fi
    spinpid=$(awk '$1 == "exec" && /spin/ {print $3; exit}' "$TMP/s.txt")
    cnt=$(awk -v p="$spinpid" '$1 == "callchain" && $2 == p' "$TMP/s.txt" | wc -l)
    "$B/pmc" filter -j "$TMP/s.log" "$TMP/f.json" >"$TMP/fj.out" 2>&1
    jn=$(python3 -c '
import json, sys
n = 0
for l in open(sys.argv[1]):
    if json.loads(l)["type"] == "callchain": n += 1
print(n)' "$TMP/f.json" 2>&1)
    total=$(grep -c '^callchain' "$TMP/s.txt")
    if [ "$jn" = "$total" ]; then ok "pmc filter -j: $jn callchain records as JSON lines, as pmcstat -R says"
    else fail "pmc filter -j writes every record as JSON" "json=$jn pmcstat=$total"; fi
    # usr.sbin/pmc's filter drops the records that match a list unless -x
    # inverts it (cmd_pmc_filter.cc: `(i == pidcount) == exclusive`): -x -p
    # keeps spin's samples only, -p keeps every other process's
    "$B/pmc" filter -x -p "$spinpid" "$TMP/s.log" "$TMP/f.log" >"$TMP/f.out" 2>&1 &&
      "$P" -R "$TMP/f.log" >"$TMP/f.txt" 2>&1
    fc=$(grep -c '^callchain' "$TMP/f.txt" 2>/dev/null)
    "$B/pmc" filter -p "$spinpid" "$TMP/s.log" "$TMP/f2.log" >"$TMP/f2.out" 2>&1 &&
      "$P" -R "$TMP/f2.log" >"$TMP/f2.txt" 2>&1
    fo=$(grep -c '^callchain' "$TMP/f2.txt" 2>/dev/null)
    if [ "${fc:-0}" = "$cnt" ] && [ "$cnt" -gt 0 ] && [ "${fo:-0}" = "$((total - cnt))" ]; then
      ok "pmc filter -x -p / -p: logs pmclog_open reads back, with spin's $cnt samples / the other $fo"
    else fail "pmc filter writes a log pmclog_open reads back" "$(head -3 "$TMP/f.txt" 2>/dev/null) (-x -p: ${fc:-0}, want $cnt; -p: ${fo:-0}, want $((total - cnt)))"; fi
  fi
fi

# ---- tests/sys/pmc (ATF) -----------------------------------------------------------
# Each program builds as bsd.test.mk builds it (ATF_TESTS_C: one .c, with
# libpmc and atf-c); each case runs by itself as kyua would run it, under
# the user its require.user asks for (nobody for "unprivileged").
if [ -d "$S/tests/sys/pmc" ]; then
  if ! pkg-config --exists atf-c 2>/dev/null; then
    skip "tests/sys/pmc" "the ATF runtime (libatf-dev) is not installed"
  else
    A=$(pkg-config --cflags --libs atf-c)
    pass=0 failn=0 skipn=0
    U=$TMP/atf; mkdir -p "$U"; chmod 1777 "$U"; chmod o+x "$TMP" "$B"
    for src in "$S"/tests/sys/pmc/*_test.c; do
      [ -f "$src" ] || { skip "tests/sys/pmc" "no *_test.c in FREEBSD_SRC"; break; }
      t=$(basename "$src" .c)
      [ "$t" = pmc_exterr_test ] && continue    # FreeBSD's kernel only
      if ! cc -o "$B/$t" "$src" $F $A >"$TMP/$t.cc.log" 2>&1; then
        fail "$t builds" "$(grep -m5 error "$TMP/$t.cc.log")"; continue
      fi
      ok "$t builds unmodified with pkg-config libpmc-freebsd and atf-c"
      for c in $("$B/$t" -l 2>/dev/null | awk '/^ident:/ {print $2}'); do
        user=$("$B/$t" -l | awk -v c="$c" '/^ident:/ {id = $2} id == c && $1 == "require.user:" {print $2}')
        r=$U/r.$t.$c; rm -f "$r"
        if [ "$user" = unprivileged ]; then
          (cd "$U" && timeout 300 runuser -u nobody -- "$B/$t" -r "$r" "$c" >"$TMP/o.$t.$c" 2>&1)
        else
          (cd "$U" && timeout 300 "$B/$t" -r "$r" "$c" >"$TMP/o.$t.$c" 2>&1)
        fi
        r=$(head -1 "$r" 2>/dev/null)
        case "$r" in
          passed*) pass=$((pass + 1)); ok "ATF $t:$c${user:+ (as ${user/unprivileged/nobody})}" ;;
          skipped*) skipn=$((skipn + 1))
            # the skips that mean "no hardware counter here", and those
            # for a set-id program (wall, ping) this system does not have
            if echo "$r" | grep -Eqi 'hardware|counting event|vPMU|sampling PMC'; then skip "ATF $t:$c" "${r#skipped: }"
            elif echo "$r" | grep -Eqi 'set-[ug]id (exec target|here)|is not set-gid here'; then
              skip "ATF $t:$c" "${r#skipped: } (a set-id binary; not a counter)"
            else fail "ATF $t:$c skipped for a reason other than a missing hardware counter" "$r"; fi ;;
          *) failn=$((failn + 1)); fail "ATF $t:$c" "${r:-no result} $(tail -3 "$TMP/o.$t.$c")" ;;
        esac
      done
    done
    echo "# ATF: $pass passed, $failn failed, $skipn skipped"
  fi
fi
done_testing
