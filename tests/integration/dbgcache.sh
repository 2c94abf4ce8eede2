#!/usr/bin/env bash
# The cache of decompressed separate debug files (issue 9: `pmc report -g`
# of a DWARF recording inflated libc's and ld.so's zlib-compressed debug
# files in every report).  A report with the cache prints exactly what a
# report without it prints, cold (the copy is made) and warm (the copy is
# read); the copy is libc's debug file with every section uncompressed,
# 0600 in the 0700 cache directory, and a copy whose build id is not the
# module's (planted, or another file's) or whose headers are not the debug
# file's (crafted) is never used.
. "$(dirname "$0")/lib.sh"
unset PMC_NO_KSYM_CACHE
D=$PMC_ROOT/tests/helpers/dwarf
CC=${CC:-cc}
LIBC=$(ldd /bin/true 2>/dev/null | awk '/libc\.so/ { print $3; exit }')
bid() { readelf -n "$1" 2>/dev/null | awk '/Build ID/ { print $3; exit }'; }
CB=$(bid "$LIBC")
DBG=/usr/lib/debug/.build-id/${CB:0:2}/${CB:2}.debug
compressed() { readelf -SW "$1" 2>/dev/null | awk '$2 ~ /^\.debug_/ && $0 ~ / [A-Z]*C[A-Z]* / { n++ } END { print n + 0 }'; }
if [ -z "$CB" ] || [ ! -f "$DBG" ]; then
  skip "debug-file cache" "no separate debug file for $LIBC (apt-get install libc6-dbg)"
  done_testing; exit
fi
if [ "$(compressed "$DBG")" -eq 0 ]; then
  skip "debug-file cache" "$DBG has no compressed sections: nothing to cache"
  done_testing; exit
fi
W=$TMP/w; mkdir -p "$W"
if ! "$CC" -O2 -fomit-frame-pointer -g -fPIC -shared -o "$W/libdw_work.so" "$D/libdw_work.c" 2>"$TMP/cc.err" ||
   ! "$CC" -O2 -fomit-frame-pointer -g -o "$W/dwarf_work" "$D/dwarf_work.c" -L"$W" -ldw_work \
       -Wl,-rpath,"$W" -lpthread 2>>"$TMP/cc.err"; then
  skip "debug-file cache" "cannot build the DWARF workload: $(head -1 "$TMP/cc.err")"; done_testing; exit
fi
if ! "$PMC" record -q --call-graph dwarf -F 2000 -o "$TMP/d.log" -- "$W/dwarf_work" 3 >/dev/null 2>"$TMP/rec.err"; then
  skip "debug-file cache" "pmc record cannot sample here: $(tail -1 "$TMP/rec.err")"; done_testing; exit
fi
report() { "$PMC" report -i "$TMP/d.log" --color never -g --graph-layout tree --stdio 2>&1; }
PMC_NO_KSYM_CACHE=1 report >"$TMP/ref.txt"
check "the reference report shows libc's frames" grep -q '__libc_start_call_main' "$TMP/ref.txt"

X=$TMP/xdg
XDG_CACHE_HOME=$X report >"$TMP/cold.txt"
check "cold cache: the same report as without the cache" cmp -s "$TMP/ref.txt" "$TMP/cold.txt"
C=$X/pmc/debug-$CB
check "the copy of libc's debug file is made" test -f "$C"
check "the copy is 0600 in a 0700 directory" test "$(stat -c %a "$C") $(stat -c %a "$X/pmc")" = "600 700"
check "the copy has no compressed section" test -f "$C" -a "$(compressed "$C")" -eq 0
check "the copy has libc's build id" test "$(bid "$C")" = "$CB"
XDG_CACHE_HOME=$X report >"$TMP/warm.txt"
check "warm cache: the same report" cmp -s "$TMP/ref.txt" "$TMP/warm.txt"

# a copy with another build id (here ld.so's debug copy) under libc's name
LD=$(ls "$X"/pmc/debug-* | grep -v "$CB" | head -1)
if [ -n "$LD" ]; then
  cp "$LD" "$C"
  XDG_CACHE_HOME=$X report >"$TMP/planted.txt"
  check "a copy with another build id is not used" cmp -s "$TMP/ref.txt" "$TMP/planted.txt"
else
  skip "a copy with another build id is not used" "no second debug copy (ld.so) was made"
fi

# a copy with libc's build id but a crafted header (the section table moved,
# as kernel_syms.sh crafts kcache files): not used, and made again
XDG_CACHE_HOME=$X report >/dev/null
python3 -c '
import sys, struct
p = sys.argv[1]; b = bytearray(open(p, "rb").read())
b[40:48] = struct.pack("<Q", 0x0800000000000001)
open(p, "wb").write(b)' "$C"
XDG_CACHE_HOME=$X report >"$TMP/crafted.txt"
check "a copy with a crafted header is not used" cmp -s "$TMP/ref.txt" "$TMP/crafted.txt"
check "a crafted copy is made again" test "$(compressed "$C")" -eq 0 -a "$(bid "$C")" = "$CB"
done_testing
