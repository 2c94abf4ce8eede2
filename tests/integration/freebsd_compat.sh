#!/usr/bin/env bash
# FreeBSD compatibility as a FreeBSD tool sees it (issue 12): after
# `make install DESTDIR=...`, a client written the way pmccontrol and pmcstat
# are (tests/freebsd/fbsd_client.c: <sys/pmc.h>, <sys/pmclog.h>,
# <sys/cpuset.h>, <sys/sysctl.h>, __FBSDID, sysconf(_SC_CPUSET_SIZE))
# compiles with `pkg-config --cflags --libs libpmc-freebsd` alone, and its
# -L / -l / -s / -d / -e equivalents work: every class pmc_cpuinfo lists has
# event names, and a row disabled by one process is disabled for the next.
# shellcheck disable=SC2046,SC2086
. "$(dirname "$0")/lib.sh"

SANFLAGS=""
SAN=""
if [ "$PMC_BUILD" = build-asan ] || [ -n "${PMC_SANITIZED:-}" ]; then
  SAN="SANITIZE=1"
  SANFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer"
fi
CC=${CC:-cc}
D=$TMP/dest
# PREFIX (not DESTDIR): libpmc-freebsd.pc requires libbsd-overlay and
# others from the system, which a pkg-config sysroot would move too.
make -C "$PMC_ROOT" $SAN install PREFIX="$D/usr" >"$TMP/make.log" 2>&1; rc=$?
if [ "$rc" != 0 ]; then
  fail "make install PREFIX" "exit $rc: $(tail -5 "$TMP/make.log")"; done_testing; exit 1
fi
for h in sys/pmc.h sys/pmclog.h sys/cpuset.h sys/sysctl.h sys/cdefs.h unistd.h sys/event.h kvm.h \
         sys/_cpuset.h sys/user.h libelf.h; do
  [ -f "$D/usr/include/pmc-freebsd/$h" ] || missing="${missing:-} $h"
done
check "the FreeBSD include set is installed under include/pmc-freebsd${missing:+ (missing:$missing)}" test -z "${missing:-}"
if ! command -v pkg-config >/dev/null; then
  skip "the FreeBSD-style client" "pkg-config is not installed"; done_testing; exit 0
fi
if ! pkg-config --exists libbsd-overlay 2>/dev/null; then
  skip "the FreeBSD-style client" "libbsd-dev (pkg-config libbsd-overlay) is not installed"; done_testing; exit 0
fi
export PKG_CONFIG_PATH=$D/usr/lib/pkgconfig
flags=$(pkg-config --cflags --libs libpmc-freebsd 2>&1)
if echo "$flags" | grep -q -- "-I$D/usr/include/pmc-freebsd" && echo "$flags" | grep -q -- "-lpmc-freebsd"; then
  ok "pkg-config libpmc-freebsd: $flags"
else fail "pkg-config libpmc-freebsd" "$flags"; fi

if $CC $SANFLAGS -std=gnu11 -Wall -Wextra -Werror -o "$TMP/fc" "$PMC_ROOT/tests/freebsd/fbsd_client.c" \
     $flags >"$TMP/cc.log" 2>&1; then
  ok "a client written like pmccontrol compiles with that one pkg-config command (-Wall -Wextra -Werror)"
else
  fail "the FreeBSD-style client compiles" "$(head -20 "$TMP/cc.log")"; done_testing; exit 1
fi
export LD_LIBRARY_PATH=$D/usr/lib
FC=$TMP/fc

# -L: every class pmc_cpuinfo lists has a list of event names.
out=$("$FC" L 2>&1); rc=$?
if [ "$rc" = 0 ] && echo "$out" | grep -q '^class SOFT [1-9]'; then
  ok "L: names for every listed class ($(echo "$out" | awk '{printf "%s:%s ", $2, $3}'))"
else fail "L: names for every listed class" "rc=$rc $out"; fi
if [ -d /sys/kernel/tracing/events ] || [ -d /sys/kernel/debug/tracing/events ]; then
  echo "$out" | grep -Eq '^class TRACEPOINT [1-9][0-9]* [a-z0-9_]+:'
  check "L: the TRACEPOINT extension class lists tracepoints" test $? = 0
fi

# -d in one process, -l in another: hwpmc's row state is the machine's.
"$FC" d 0 1 2>"$TMP/d.err"; rc=$?
st=$("$FC" l | awk '$1 == 0 && $2 == 1 {print $3, $4}')
if [ "$rc" = 0 ] && [ "$st" = "DISABLED STANDALONE" ]; then ok "d 0 1 in one process; another sees CPU 0 row 1 DISABLED STANDALONE"
else fail "a disabled row is seen by the next process" "rc=$rc '$st' $(cat "$TMP/d.err")"; fi
"$FC" e -1 1; rc=$?
n=$("$FC" l | grep -c DISABLED)
check "e -1 1 (all CPUs not halted, from machdep.hlt_cpus): no row disabled any more" test "$rc" = 0 -a "$n" = 0
"$FC" d -1 2 && n=$("$FC" l | awk '$2 == 2 && $3 == "DISABLED"' | wc -l)
ncpu=$(getconf _NPROCESSORS_ONLN)
check "d -1 2 disables row 2 on every online CPU ($n of $ncpu)" test "${n:-0}" = "$ncpu"
"$FC" e -1 2
# An unprivileged user measures its own process with LOG_PROCEXIT and
# LOG_PROCCSW (hwpmc lets users measure their own processes; with
# perf_event_paranoid >= 2 the PMC counts user mode, as perf does).
U=$(mktemp -d /tmp/pmc-fbsd-XXXXXX); chmod 755 "$U"; cp "$FC" "$U/fc"; chmod 755 "$U/fc"
cp -a "$D/usr/lib/." "$U/"
out=$(LD_LIBRARY_PATH=$U PMC_RUNDIR=$U/run setpriv --reuid=65534 --regid=65534 --clear-groups "$U/fc" u 2>&1); rc=$?
rm -rf "$U"
if [ "$rc" = 0 ] && echo "$out" | grep -Eq '^self 0x8 [1-9][0-9]{6,}$' && echo "$out" | grep -Eq '^self 0x4 [1-9][0-9]{6,}$'; then
  ok "an unprivileged user counts itself with LOG_PROCEXIT and LOG_PROCCSW ($(echo $out))"
else fail "unprivileged LOG_PROCEXIT/LOG_PROCCSW on oneself" "rc=$rc $out"; fi

# FreeBSD's base beyond pmc(3), from libpmc-freebsd (issue 23)
out=$("$FC" k 2>&1); rc=$?
check "k: runs (rc=$rc)" test "$rc" = 0
want() { echo "$out" | grep -qx -- "$1"; }
check "sys/queue.h TAILQ_FOREACH_SAFE and nitems (libbsd)" want "queue 6 1"
check "kqueue EVFILT_TIMER: one expiry of a one-shot 10 ms timer" want "timer 1 7 1"
check "kqueue EVFILT_SIGNAL: the delivery of an ignored signal" want "signal 1 10 1"
check "kqueue EVFILT_READ: bytes readable in a pipe" want "read 1 5"
check "kqueue EVFILT_READ on a regular file: readable while bytes remain" want "file 1 1"
check "kqueue EVFILT_PROC NOTE_EXIT: exit status 3, the child still to reap" want "proc 1 1 3 1"
check "kevent EV_DELETE of an unknown knote: ENOENT" want "enoent -1 1"
check "kvm_getprocs KERN_PROC_PID: one entry, our pid and command name" want "kvm 1 1 fc"
check "kvm_getprocs KERN_PROC_PROC: the process list" want "kvm-all 1"
check "cpuset_getaffinity CPU_LEVEL_ROOT: every online CPU" want "cpuset 1"
check "sysctl {CTL_KERN, KERN_CLOCKRATE}: hz 1000, stathz 127, profhz 8128" want "clockrate 1000 127 8128"
check "sysctlbyname vm.ndomains" want "ndomains 1"
check "elf_getshnum returns nonzero on success (elftoolchain's convention)" want "elf_getshnum 1 1"
check "getopt stops at the first operand (BSD)" want "getopt a -1 2 op"
check "reallocarray moves a block it grows (as libpmcstat expects)" want "realloc-moves 1"
echo "$out" | grep -q "errc: No such file or directory"
check "errc (libbsd)" test $? = 0

# -s
out=$("$FC" s); rc=$?
echo "$out" | grep -Eq '^system calls: +[1-9]'
check "s: driver statistics count the calls" test "$rc" = 0 -a $? = 0

# FreeBSD-only names
out=$("$FC" x 2>&1); rc=$?
exp_ncpu=$ncpu
want() { echo "$out" | grep -qx -- "$1"; }
if [ "$rc" = 0 ] && want "nsamples 512" && want "ncpu $exp_ncpu" && echo "$out" | grep -q '^cpuid .* same$' &&
   want "logical_cpus_mask 0" && want "unknown -1 1" && want "write -1 1"; then
  ok "sysctlbyname: kern.hwpmc.nsamples, hw.ncpu, kern.hwpmc.cpuid = pmc_cpuid, logical_cpus_mask; ENOENT, EPERM"
else fail "sysctlbyname" "rc=$rc $out"; fi
check "cpuset_t: 1024 CPUs, CPU_SET/ISSET/COUNT" want "cpuset 1 0 2 1024"
check "pmc_name_of_event on the K8, ARMV7 and TSC blocks" \
  want "k8 FP_DISPATCHED_FPU_OPS..NB_HT_BUS2_BANDWIDTH armv7 EVENT_00H tsc TSC"
check "PMCLOG_HEADER_* and PMC_CALLCHAIN_TO_CPUFLAGS" want "header 0xee100028 type 16 len 40 magic 1"
check "PMC_CALLCHAIN_TO_CPUFLAGS round trip" want "cpuflags 0x50001 cpu 5"
# The oracle for "a hardware PMU with an event table": sysfs has a core PMU.
if ls /sys/bus/event_source/devices 2>/dev/null | grep -Eq '^(cpu|cpu_core|cpu_atom|armv[78]_.*)$'; then
  echo "$out" | grep -q '^pmu enabled 1 alloc-unknown ENOENT rate 65536$' &&
    echo "$out" | grep -Eq '^pmu first .+ idx 0 alloc 0$'
  check "pmc_pmu_*: enabled with a hardware PMU; lookups by index and name agree" test $? = 0
else
  want "pmu enabled 0 alloc-unknown ENOENT rate 65536"
  check "pmc_pmu_*: no hardware PMU, no table: disabled, ENOENT, FreeBSD's default rate 65536" test $? = 0
fi
# The PowerPC and Arm uncore event blocks (FreeBSD's pmc_events.h: PPC7450
# at 0x13000, PPC970 0x13100, POWER8 0x13200, E500 0x13300, DMC620_PMU_CD2
# 0x14500, DMC620_PMU_C 0x14520, CMN600_PMU 0x14600), tabled as libpmc tables
# them: count, first..last code, first..last name, every code named.
out=$("$FC" b 2>&1); rc=$?
check "b: runs" test "$rc" = 0
check "PPC7450 block: 220 events 0x13000..0x130db" \
  want "ppc7450 220 0x13000..0x130db CYCLE..PREFETCH_ENGINE_FULL named 220"
check "PPC970 block: 50 events 0x13100..0x13131" \
  want "ppc970 50 0x13100..0x13131 INSTR_COMPLETED..ADDER named 50"
check "POWER8 block: 30 events 0x13200..0x1321d" \
  want "power8 30 0x13200..0x1321d CYCLES..INSTR_COMPLETED named 30"
check "E500 block: 157 events 0x13300..0x1339c" \
  want "e500 157 0x13300..0x1339c CYCLES..STWCX_FAILURES named 157"
check "DMC620_PMU_CD2 block: 26 events 0x14500..0x14519" \
  want "dmc620_cd2 26 0x14500..0x14519 clkdiv2_cycle_count..clkdiv2_ranks_in_sref named 26"
check "DMC620_PMU_C block: 3 events 0x14520..0x14522" \
  want "dmc620_c 3 0x14520..0x14522 clk_cycle_count..clk_upload_stall named 3"
check "CMN600_PMU block: 177 events 0x14600..0x146b0" \
  want "cmn600 177 0x14600..0x146b0 dn_rxreq_dvmop..cxla_avg_latency_form_tx_tlp named 177"
check "E500 codes are constant expressions (switch case)" want "e500 L2MMU_MISSES 0x13341"

# A C++ client written as usr.sbin/pmc is: <pmcformat.h>'s event_to_json,
# struct rusage and P_KPROC from <sys/user.h>, std::sort with only the
# containers included.  Its JSON lines parse, with the fields put in.
if ! command -v c++ >/dev/null; then
  skip "the FreeBSD-style C++ client" "c++ is not installed"
elif ! c++ $SANFLAGS -Wall -Wextra -Werror -o "$TMP/fcxx" "$PMC_ROOT/tests/freebsd/fbsd_client_cxx.cc" \
     $flags >"$TMP/cxx.log" 2>&1; then
  fail "a C++ client written like usr.sbin/pmc compiles with that one pkg-config command" "$(head -10 "$TMP/cxx.log")"
else
  ok "a C++ client written like usr.sbin/pmc compiles with that one pkg-config command (-Werror)"
  "$TMP/fcxx" >"$TMP/fcxx.out" 2>&1
  res=$(python3 -c '
import json, sys
l = open(sys.argv[1]).read().splitlines()
a, b = json.loads(l[0]), json.loads(l[1])
print(a["type"], a["pid"], a["flags"], a["pcomm"] == "a\"b\\c\td",
      b["type"], b["tsc"], b["pid"], b["tid"], b["pmcid"], " ".join(b["pc"]), l[2])' "$TMP/fcxx.out" 2>&1)
  check "event_to_json: PROC_CREATE and CALLCHAIN records as JSON lines, strings escaped" \
    test "$res" = "proc_create 42 0x4 True callchain 1000000005 7 8 0x1f00 0x401000 0x401234 sorted 123 rusage 16"
fi
done_testing
