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
#                           -p SOFT-CLOCK.HARD counts the workload's CPU time
#                           in ticks; -P ... -O then -R -m names >= 95 % of a
#                           PIE program's user samples; -G has its call graph
#   usr.sbin/pmcannotate    builds; annotates the PIE program's hot function
#   usr.sbin/pmc            (C++) builds; list, stat, summary, filter
#   tests/sys/pmc           each ATF program (but pmc_exterr_test, which needs
#                           FreeBSD's kernel) builds; every case passes or is
#                           skipped for lack of a hardware counter
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

# build NAME DIR [extra cc args]: every SRCS file of DIR/Makefile (or every
# .c/.cc of DIR) into $B/NAME; C++ if any source is .cc.
build() {
  local name=$1 dir=$S/$2 files="" cxx=cc f
  shift 2
  [ -d "$dir" ] || return 2
  if [ -f "$dir/Makefile" ] && [ -n "$(srcs "$dir/Makefile")" ]; then
    for f in $(srcs "$dir/Makefile"); do files="$files $dir/$f"; done
  else
    files=$(ls "$dir"/*.c "$dir"/*.cc 2>/dev/null)
  fi
  [ -n "$files" ] || return 2
  case "$files" in *.cc*) cxx=c++ ;; esac
  $cxx -o "$B/$name" $files "$@" $F >"$TMP/$name.cc.log" 2>&1
}

built() { # name dir [args]: build and report
  local name=$1
  build "$@"; local rc=$?
  if [ $rc = 2 ]; then skip "$name builds" "$2 (its sources) is not in FREEBSD_SRC"; return 1; fi
  if [ $rc = 0 ]; then ok "$name builds unmodified with pkg-config libpmc-freebsd only"; return 0; fi
  fail "$name builds unmodified" "$(grep -m8 -E 'error|undefined' "$TMP/$name.cc.log")"
  return 1
}

cc -O1 -g -fno-omit-frame-pointer -fPIE -pie -o "$B/spin" "$PMC_ROOT/tests/freebsd/spin.c"

# ---- pmccontrol ------------------------------------------------------------
if built pmccontrol usr.sbin/pmccontrol; then
  out=$("$B/pmccontrol" -L 2>&1)
  echo "$out" | grep -q SOFT
  check "pmccontrol -L lists the SOFT class" test $? = 0
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
  # -p: process-mode counting in ticks; the workload says its CPU time
  out=$("$P" -p SOFT-CLOCK.HARD "$B/spin" 300000000 2>&1)
  ticks=$(echo "$out" | awk 'NF == 1 && $1 ~ /^[0-9]+$/ {v = $1} END {print v + 0}')
  ms=$(echo "$out" | awk '/^cpu_ms/ {print $2}')
  if [ -n "$ms" ] && awk -v t="$ticks" -v m="$ms" 'BEGIN { d = t - m; if (d < 0) d = -d; exit !(d <= 3 + m * 0.02) }'; then
    ok "pmcstat -p SOFT-CLOCK.HARD: $ticks ticks for $ms ms of CPU time"
  else fail "pmcstat -p SOFT-CLOCK.HARD counts ticks" "ticks=$ticks cpu_ms=$ms: $out"; fi
  # -P -O, then -R -m: samples of a PIE program named
  "$P" -O "$TMP/s.log" -P cpu-clock "$B/spin" 300000000 >/dev/null 2>&1
  "$P" -R "$TMP/s.log" >"$TMP/s.txt" 2>&1
  "$P" -R "$TMP/s.log" -m "$TMP/m.txt" >/dev/null 2>&1
  # user-mode samples of the exec'ed spin inside its own image (the
  # PROCEXEC line: exec PMCID PID BASEADDR DYNADDR "path")
  tot=$(python3 - "$B/spin" "$TMP/s.txt" <<'PY'
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
)
  named=$(awk '$2 == "hot" || $2 == "warm" || $2 == "main"' "$TMP/m.txt" | wc -l)
  if [ "$tot" -gt 50 ] && awk -v a="$named" -v t="$tot" 'BEGIN { exit !(a >= 0.95 * t) }'; then
    ok "pmcstat -R -m names $named of $tot samples of a PIE program (>= 95 %)"
  else fail "pmcstat -R -m names >= 95 % of a PIE program's samples" "$named of $tot"; fi
  "$P" -R "$TMP/s.log" -G "$TMP/g.txt" >/dev/null 2>&1
  # (warm's call to hot is a tail call: its caller is main or warm)
  grep -Eq "^[0-9.]+%.*hot @ $B/spin" "$TMP/g.txt" && grep -Eq '^ +[0-9.]+%.* (warm|main)$' "$TMP/g.txt"
  check "pmcstat -R -G: hot @ spin, with its caller" test $? = 0
  # -E: the process's count at its exit, in ticks as -p
  "$P" -E -O "$TMP/e.log" -p SOFT-CLOCK.HARD "$B/spin" 200000000 >"$TMP/e.out" 2>&1
  "$P" -R "$TMP/e.log" >"$TMP/e.txt" 2>&1
  ev=$(awk '$1 == "exitval" {v += $4} END {print v + 0}' "$TMP/e.txt")
  ms=$(awk '/^cpu_ms/ {print $2}' "$TMP/e.out")
  if [ -n "$ms" ] && awk -v t="$ev" -v m="$ms" 'BEGIN { d = t - m; if (d < 0) d = -d; exit !(d <= 3 + m * 0.02) }'; then
    ok "pmcstat -E: PROCEXIT says $ev ticks for $ms ms of CPU time"
  else fail "pmcstat -E in ticks" "exitval=$ev cpu_ms=$ms"; fi
fi

# ---- pmcannotate -------------------------------------------------------------
if built pmcannotate usr.sbin/pmcannotate && [ -f "$TMP/s.log" ]; then
  out=$(cd "$TMP" && "$B/pmcannotate" "$TMP/s.log" "$B/spin" 2>&1)
  echo "$out" | grep -q "hot"
  check "pmcannotate annotates the PIE program's hot function" test $? = 0
fi

# ---- usr.sbin/pmc ----------------------------------------------------------------
if built pmc usr.sbin/pmc -I"$S/lib/libpmcstat" $LPS; then
  "$B/pmc" list >"$TMP/list.txt" 2>&1
  check "pmc list runs" test $? = 0
  out=$("$B/pmc" stat "$B/spin" 100000000 2>&1)
  check "pmc stat runs the workload and prints counts" test -n "$out"
  if [ -f "$TMP/s.log" ]; then
    "$B/pmc" summary "$TMP/s.log" >"$TMP/sum.txt" 2>&1
    check "pmc summary of a pmcstat log" test $? = 0
    "$B/pmc" filter -p spin "$TMP/s.log" "$TMP/f.log" >"$TMP/f.out" 2>&1 &&
      "$P" -R "$TMP/f.log" >"$TMP/f.txt" 2>&1
    check "pmc filter writes a log pmclog_open reads back" test $? = 0
  fi
fi

# ---- tests/sys/pmc (ATF) -----------------------------------------------------------
if [ -d "$S/tests/sys/pmc" ]; then
  if ! pkg-config --exists atf-c 2>/dev/null; then
    skip "tests/sys/pmc" "the ATF runtime (libatf-dev) is not installed"
  else
    A=$(pkg-config --cflags --libs atf-c)
    pass=0 failn=0 skipn=0
    for src in "$S"/tests/sys/pmc/*_test.c; do
      [ -f "$src" ] || { skip "tests/sys/pmc" "no *_test.c in FREEBSD_SRC"; break; }
      t=$(basename "$src" .c)
      [ "$t" = pmc_exterr_test ] && continue    # FreeBSD's kernel only
      if ! cc -o "$B/$t" "$src" $F $A >"$TMP/$t.cc.log" 2>&1; then
        fail "$t builds" "$(grep -m5 error "$TMP/$t.cc.log")"; continue
      fi
      for c in $("$B/$t" -l 2>/dev/null | awk '/^ident:/ {print $2}'); do
        (cd "$TMP" && timeout 300 "$B/$t" -r "$TMP/r.$t.$c" "$c" >"$TMP/o.$t.$c" 2>&1)
        r=$(head -1 "$TMP/r.$t.$c" 2>/dev/null)
        case "$r" in
          passed*) pass=$((pass + 1)); ok "ATF $t:$c" ;;
          skipped*) skipn=$((skipn + 1))
            if echo "$r" | grep -Eqi 'hardware|counter|pmu|cpu class'; then skip "ATF $t:$c" "${r#skipped: }"
            else fail "ATF $t:$c skipped for a reason other than a missing hardware counter" "$r"; fi ;;
          *) failn=$((failn + 1)); fail "ATF $t:$c" "${r:-no result} $(tail -3 "$TMP/o.$t.$c")" ;;
        esac
      done
    done
    echo "# ATF: $pass passed, $failn failed, $skipn skipped"
  fi
fi
done_testing
