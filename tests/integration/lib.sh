# Sourced by integration tests.  Emits TAP so tests/run.sh can count cases.
#   ok NAME / fail NAME [WHY] / skip NAME WHY / check NAME CMD... / done_testing
set -u
: "${PMC_ROOT:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${PMC_BUILD:=build}"
: "${PMC:=$PMC_ROOT/$PMC_BUILD/pmc}"
HELPERS=$PMC_ROOT/$PMC_BUILD/helpers
_n=0; _failed=0
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
# PMCADMIN row state is machine-wide (lib/core/rows.c): each script keeps its own.
export PMC_RUNDIR=$TMP/run
ok()   { _n=$((_n+1)); echo "ok $_n - $1"; }
fail() { _n=$((_n+1)); _failed=$((_failed+1)); echo "not ok $_n - $1${2:+: $2}"; }
skip() { _n=$((_n+1)); echo "ok $_n - $1 # SKIP ${2:-}"; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else fail "$name"; fi; }
# approx A B PCT: true if A is within PCT percent of B
approx() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN{d=a-b; if(d<0)d=-d; m=(b<0?-b:b); exit !(d <= m*p/100.0)}'; }
done_testing() { echo "1..$_n"; [ "$_failed" -eq 0 ]; }
# perf: the perf command, but tried again when perf itself aborts (perf 6.1
# now and then dies of SIGABRT/SIGSEGV, 128 + signal): `perf record` to a
# file (a cut perf.data), and the readers (report, script, diff, annotate,
# inject, evlist, buildid-list) of a named file, whose output and messages
# are held until a run ends without a signal.  A recording to stdout (-o -)
# and a reader of standard input run once, as their input or output may
# already be consumed.  Defined only where perf is installed (tests ask
# `command -v perf`).
type -P perf >/dev/null 2>&1 && perf() {
  local try rc a prev=""
  if [ "${1:-}" = record ]; then
    for a in "$@"; do
      { [ "$prev" = -o ] && [ "$a" = - ]; } || [ "$a" = -o- ] && { command perf "$@"; return; }
      prev=$a
    done
    for try in 1 2 3; do
      command perf "$@"; rc=$?
      [ "$rc" -lt 128 ] && return "$rc"
    done
    return "$rc"
  fi
  case "${1:-}" in
    report|script|diff|annotate|inject|evlist|buildid-list) ;;
    *) command perf "$@"; return ;;
  esac
  local named=0
  [ "$1" = diff ] && named=1
  for a in "$@"; do
    [ "$prev" = -i ] && { [ "$a" = - ] && { command perf "$@"; return; }; named=1; }
    case "$a" in -i-|--input=-) command perf "$@"; return ;; -i?*|--input=*) named=1 ;; esac
    prev=$a
  done
  [ "$named" = 1 ] || { command perf "$@"; return; }
  local out err
  out=$(mktemp "${TMPDIR:-/tmp}/perf.out.XXXXXX") err=$(mktemp "${TMPDIR:-/tmp}/perf.err.XXXXXX")
  for try in 1 2 3; do
    command perf "$@" >"$out" 2>"$err" </dev/null; rc=$?
    [ "$rc" -lt 128 ] && ! grep -q 'assertion failed' "$err" && break
  done
  cat "$out"; cat "$err" >&2
  rm -f "$out" "$err"
  return "$rc"
}
# perf_record NAME PERF-ARGS... -- COMMAND: a perf.data at $TMP/NAME.data,
# perf's messages in $TMP/NAME.err (perf 6.1 itself now and then aborts,
# "assertion failed at util/build-id.c": the oracle gets three tries before
# its failure is a failure)
perf_record() {
  local name=$1 try; shift
  local rc
  for try in 1 2 3; do
    rm -f "$TMP/$name.data"
    command perf record -q -o "$TMP/$name.data" "$@" >/dev/null 2>"$TMP/$name.err" && return 0
    rc=$?
    # an abort (SIGABRT/SIGSEGV: 128 + signal) or an assertion is tried again
    [ "$rc" -ge 128 ] || grep -q 'assertion failed' "$TMP/$name.err" || return 1
  done
  return 1
}
# perf_oracle CMD...: the standard output of a perf command used as the oracle
# (perf report, perf script ...), its stderr dropped; perf 6.1 aborts now and
# then (SIGABRT/SIGSEGV, or "assertion failed"), so an abort is tried again,
# up to three times, before its (empty or cut) output is what the check sees
perf_oracle() {
  local try rc
  for try in 1 2 3; do
    "$@" >"$TMP/.oracle.out" 2>"$TMP/.oracle.err"; rc=$?
    [ "$rc" -lt 128 ] && ! grep -q 'assertion failed' "$TMP/.oracle.err" && break
  done
  cat "$TMP/.oracle.out"
  rm -f "$TMP/.oracle.out" "$TMP/.oracle.err"
  return "$rc"
}
# kernel_build_id: the running kernel's build id (hex, from /sys/kernel/notes),
# empty if it has none
kernel_build_id() { python3 -c '
b=open("/sys/kernel/notes","rb").read(); o=0
while o+12<=len(b):
    nz,dz,ty=(int.from_bytes(b[o+i:o+i+4],"little") for i in (0,4,8))
    d=o+12+((nz+3)&~3)
    if ty==3 and b[o+12:o+15]==b"GNU": print(b[d:d+dz].hex()); break
    o=d+((dz+3)&~3)' 2>/dev/null; }
# served_port FILE: the port pmc exporter printed to FILE ("serving
# http://127.0.0.1:PORT/metrics"), once it has (exporter.sh, exporter_pprof.sh)
served_port() {
  local i
  for i in $(seq 1 500); do
    grep -q 'serving http://' "$1" 2>/dev/null && break
    sleep 0.05
  done
  sed -n 's|.*serving http://127.0.0.1:\([0-9]*\)/metrics.*|\1|p' "$1"
}

# build_dwarf_work DIR: tests/helpers/dwarf's workload (dwarf_work and its
# libdw_work.so, no frame pointers, -g) into DIR with $CC (or cc); on
# failure the compiler's first line is in $TMP/cc.err and it returns 1
build_dwarf_work() {
  local d=$PMC_ROOT/tests/helpers/dwarf cc=${CC:-cc}
  mkdir -p "$1"
  "$cc" -O2 -fomit-frame-pointer -g -fPIC -shared -o "$1/libdw_work.so" "$d/libdw_work.c" 2>"$TMP/cc.err" &&
    "$cc" -O2 -fomit-frame-pointer -g -o "$1/dwarf_work" "$d/dwarf_work.c" -L"$1" -ldw_work \
      -Wl,-rpath,"$1" -lpthread 2>>"$TMP/cc.err"
}
