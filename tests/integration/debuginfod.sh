#!/usr/bin/env bash
# A report does not load libdwfl's debuginfod client when debuginfod can
# have nothing to give (issue 26 item 3: loading libdebuginfod, with curl
# and OpenSSL, was 4-5 ms of every report of a binary without a separate
# debug file, about a third of an everyday report's CPU).  libdwfl asks
# debuginfod last, after the local files; with no server named
# (DEBUGINFOD_URLS) and no copy in the client's cache there is nothing to
# ask.  With a server named, or a copy cached, the client is loaded as
# before, and the report is the same in every case.
source "$(dirname "$0")/lib.sh"
CC=${CC:-cc}
if ! command -v strace >/dev/null; then
  skip "debuginfod client" "strace is not installed (apt-get install strace)"; done_testing; exit
fi
if [ ! -e /usr/lib/x86_64-linux-gnu/libdebuginfod.so.1 ] &&
   ! ls /usr/lib/*/libdebuginfod*.so* >/dev/null 2>&1; then
  skip "debuginfod client" "libdebuginfod is not installed (apt-get install libdebuginfod1)"
  done_testing; exit
fi
# a stripped workload (its function in .dynsym, no .symtab) with no separate
# debug file: libdwfl looks for one, as for most system libraries
cat >"$TMP/spin.c" <<'EOF'
volatile unsigned long sink;
__attribute__((noinline)) void spin(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }
int main(void) { spin(300000000UL); return 0; }
EOF
if ! "$CC" -O1 -rdynamic -Wl,--build-id -o "$TMP/spin" "$TMP/spin.c" 2>"$TMP/cc.err" ||
   ! strip "$TMP/spin" 2>>"$TMP/cc.err"; then
  skip "debuginfod client" "cannot build the workload: $(head -1 "$TMP/cc.err")"; done_testing; exit
fi
if ! "$PMC" record -q -e cpu-clock -o "$TMP/s.log" -- "$TMP/spin" 2>"$TMP/rec.err"; then
  skip "debuginfod client" "pmc record cannot sample here: $(tail -1 "$TMP/rec.err")"; done_testing; exit
fi
BID=$(readelf -n "$TMP/spin" | awk '/Build ID/ { print $3; exit }')

# REPORT NAME [ENV...]: the report's output in $TMP/NAME.txt (its messages
# in NAME.err: LeakSanitizer, in a sanitized build, says there that it
# cannot run under strace), the files it opened in $TMP/NAME.st
report() {
  local name=$1; shift
  env -u DEBUGINFOD_URLS -u DEBUGINFOD_CACHE_PATH HOME="$TMP/home" XDG_CACHE_HOME= "$@" \
    strace -f -qq -e trace=openat -o "$TMP/$name.st" \
    "$PMC" report -i "$TMP/s.log" --sort dso,sym >"$TMP/$name.txt" 2>"$TMP/$name.err"
}
loaded() { grep -q 'libdebuginfod' "$TMP/$1.st"; }
mkdir -p "$TMP/home"

report none
check "no server, nothing cached: the report names the workload's function" grep -q ' spin$' "$TMP/none.txt"
check "no server, nothing cached: libdebuginfod is not loaded" bash -c "! grep -q libdebuginfod '$TMP/none.st'"

report url DEBUGINFOD_URLS=http://127.0.0.1:9
check "a server named: libdwfl asks debuginfod (its client is loaded)" loaded url
check "a server named: the same report" cmp -s "$TMP/none.txt" "$TMP/url.txt"

# the DWARF unwinder's binaries (their own libdwfl sessions) the same way
if "$PMC" record -q --call-graph dwarf -e cpu-clock -o "$TMP/d.log" -- "$TMP/spin" 2>"$TMP/recd.err"; then
  dreport() {
    local name=$1; shift
    env -u DEBUGINFOD_URLS -u DEBUGINFOD_CACHE_PATH HOME="$TMP/home" XDG_CACHE_HOME= "$@" \
      strace -f -qq -e trace=openat -o "$TMP/$name.st" \
      "$PMC" report -i "$TMP/d.log" -g caller >"$TMP/$name.txt" 2>"$TMP/$name.err"
  }
  dreport dnone
  dreport durl DEBUGINFOD_URLS=http://127.0.0.1:9
  check "report -g of a DWARF recording, no server: libdebuginfod is not loaded" \
    bash -c "! grep -q libdebuginfod '$TMP/dnone.st'"
  check "report -g of a DWARF recording: the same with a server named" \
    bash -c "grep -q ' spin' '$TMP/dnone.txt' && cmp -s '$TMP/dnone.txt' '$TMP/durl.txt'"
else
  skip "report -g of a DWARF recording" "pmc record --call-graph dwarf: $(tail -1 "$TMP/recd.err")"
fi

# a copy in the client's cache (a file that is no debug file: libdwfl
# rejects it, and the report stays the same)
mkdir -p "$TMP/dcache/$BID"
printf 'not an ELF file' >"$TMP/dcache/$BID/debuginfo"
report cached DEBUGINFOD_CACHE_PATH="$TMP/dcache"
check "a copy in the client's cache: libdwfl asks debuginfod" loaded cached
check "a copy in the client's cache: the same report" cmp -s "$TMP/none.txt" "$TMP/cached.txt"
done_testing
