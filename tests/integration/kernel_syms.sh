#!/usr/bin/env bash
# Kernel symbols and the files a report opens (issue 9 item 4, issue 11
# items 1 and 2):
#  - a recording from another kernel (its build id edited here, in a pmc log's
#    KSYMSRC and in perf.data's build-id table) shows addresses and says why,
#    never this machine's names;
#  - the kernel-symbol cache ($XDG_CACHE_HOME/pmc): created 0700/0600, never
#    written through a planted symlink or into a directory of another user or
#    open to others, and crafted, truncated or edited cache files neither
#    crash the report nor rename symbols;
#  - a recording whose mapped binary is now a FIFO or a character device
#    finishes report/annotate/diff (timeout here only turns a hang into a
#    failure; it is not a speed limit).
. "$(dirname "$0")/lib.sh"
unset PMC_NO_KSYM_CACHE

if ! "$PMC" record -q -e cpu-clock -F 4000 -o "$TMP/k.log" -- dd if=/dev/zero of=/dev/null \
     bs=4k count=400000 >/dev/null 2>"$TMP/rec.err"; then
  skip "kernel symbols" "pmc record cannot sample here: $(tail -1 "$TMP/rec.err")"
  done_testing; exit
fi
BID=$(kernel_build_id)
report() { XDG_CACHE_HOME=${XDG:-$TMP/nocache} "$PMC" report -i "$1" --color never -s sym 2>&1; }
PMC_NO_KSYM_CACHE=1 "$PMC" report -i "$TMP/k.log" --color never -s sym >"$TMP/ref.txt" 2>&1
if ! grep -q '\[k\] read_zero' "$TMP/ref.txt"; then
  skip "kernel symbols" "no kernel samples with names (kptr_restrict?)"
  done_testing; exit
fi

# ---- another kernel: the build id edited ----------------------------------------
# replace bytes OLD (hex) with NEW (hex) in file IN, writing OUT; prints the count
edit_bytes() { python3 -c '
import sys
b=open(sys.argv[1],"rb").read(); o=bytes.fromhex(sys.argv[3]); n=bytes.fromhex(sys.argv[4])
print(b.count(o)); open(sys.argv[2],"wb").write(b.replace(o,n))' "$@"; }
if [ -z "$BID" ]; then
  skip "another kernel's recording" "this kernel has no build id in /sys/kernel/notes"
else
  OTHER=$(echo "$BID" | tr '0-9a-f' '1-9a-f0')
  n=$(edit_bytes "$TMP/k.log" "$TMP/k2.log" "$BID" "$OTHER")
  check "pmc log: KSYMSRC holds this kernel's build id" test "$n" -ge 1
  report "$TMP/k2.log" >"$TMP/k2.txt"
  check "pmc log from another kernel: no local names" bash -c "! grep -q '\[k\] read_zero' '$TMP/k2.txt'"
  check "pmc log from another kernel: kernel addresses" grep -q '\[k\] 0xffff' "$TMP/k2.txt"
  check "pmc log from another kernel: the warning" grep -q "No kallsyms or vmlinux with build-id $OTHER" "$TMP/k2.txt"
  if command -v perf >/dev/null && perf record -q -o "$TMP/p.data" -e cpu-clock -- dd if=/dev/zero \
       of=/dev/null bs=4k count=200000 >/dev/null 2>&1; then
    report "$TMP/p.data" >"$TMP/p.txt"
    check "perf.data of this kernel: names" grep -q '\[k\] read_zero' "$TMP/p.txt"
    n=$(edit_bytes "$TMP/p.data" "$TMP/p2.data" "$BID" "$OTHER")
    check "perf.data: build-id table holds this kernel's" test "$n" -ge 1
    report "$TMP/p2.data" >"$TMP/p2.txt"
    check "perf.data from another kernel: no local names" bash -c "! grep -q '\[k\] read_zero' '$TMP/p2.txt'"
    check "perf.data from another kernel: the warning" grep -q "No kallsyms or vmlinux with build-id $OTHER" "$TMP/p2.txt"
    perf report -i "$TMP/p2.data" --stdio 2>/dev/null >"$TMP/pp2.txt"
    check "perf agrees: no read_zero for the edited build id" bash -c "! grep -q 'read_zero' '$TMP/pp2.txt'"
  else
    skip "perf.data from another kernel" "perf record is not available here"
  fi
fi

# ---- the kernel-symbol cache ----------------------------------------------------
BOOT=$(cat /proc/sys/kernel/random/boot_id)
OLDHASH=$(python3 -c '
h=1469598103934665603
try: d=open("/proc/modules","rb").read()
except OSError: d=b""
for c in d: h=((h^c)*1099511628211)&(2**64-1)
print("%016x"%h)')
OLDNAME="kallsyms-$BOOT-$OLDHASH"       # the name the first cache used

XDG=$TMP/c1 report "$TMP/k.log" >"$TMP/c1.txt"
check "cache: report with a fresh cache = without cache" cmp -s "$TMP/c1.txt" "$TMP/ref.txt"
check "cache: directory created 0700" test "$(stat -c %a "$TMP/c1/pmc")" = 700
files=$(ls "$TMP/c1/pmc" | wc -l)
check "cache: a file was written" test "$files" -ge 1
check "cache: files are 0600" bash -c "[ -z \"\$(find '$TMP/c1/pmc' -type f ! -perm 600)\" ]"
XDG=$TMP/c1 report "$TMP/k.log" >"$TMP/c1b.txt"
check "cache: second report (from the cache) = without cache" cmp -s "$TMP/c1b.txt" "$TMP/ref.txt"

# files of older formats (megabytes each, read by no pmc of this format) are
# removed when this format's file is written; the debug-info cache's stay
mkdir -p "$TMP/c8/pmc"; chmod 700 "$TMP/c8/pmc"
for f in ksyms-0102-1234 ksyms4-0102-1234 kallsyms-0102-1234 debug-0102 ksyms6-0102-1234 \
    ksyms12-0102-1234 ksymsx-0102; do echo x >"$TMP/c8/pmc/$f"; done
XDG=$TMP/c8 report "$TMP/k.log" >"$TMP/c8.txt"
check "cache: older formats' files removed" test -z "$(ls "$TMP/c8/pmc" | grep -E '^(ksyms4?|kallsyms)-')"
check "cache: the debug-info cache's files stay" test -f "$TMP/c8/pmc/debug-0102"
# a newer pmc's (format 6, 12) are its own: two builds taking turns must
# not delete each other's file at every report; nor is a name of no format
check "cache: newer formats' files stay" test -f "$TMP/c8/pmc/ksyms6-0102-1234" -a \
    -f "$TMP/c8/pmc/ksyms12-0102-1234" -a -f "$TMP/c8/pmc/ksymsx-0102"
check "cache: report with older formats' files = without cache" cmp -s "$TMP/c8.txt" "$TMP/ref.txt"

# an edited cache must not rename symbols: same length, so sizes still match
# (the edited entries fail their seals when a lookup reads them)
for f in "$TMP"/c1/pmc/*; do
  python3 -c 'import sys; p=sys.argv[1]; b=open(p,"rb").read(); open(p,"wb").write(b.replace(b"read_zero", b"evil_zero"))' "$f"
done
# and the first format's name gets an edited copy of the real symbols too
mkdir -p "$TMP/c5/pmc"; chmod 700 "$TMP/c5/pmc"
XDG=$TMP/c5 report "$TMP/k.log" >/dev/null
for f in "$TMP"/c5/pmc/*; do
  python3 -c 'import sys; p=sys.argv[1]; b=open(p,"rb").read(); open(p,"wb").write(b.replace(b"read_zero", b"evil_zero"))' "$f"
done
XDG=$TMP/c1 report "$TMP/k.log" >"$TMP/c1c.txt"
XDG=$TMP/c5 report "$TMP/k.log" >"$TMP/c5.txt"
check "cache edited: symbols keep their names" bash -c "cmp -s '$TMP/c1c.txt' '$TMP/ref.txt' && cmp -s '$TMP/c5.txt' '$TMP/ref.txt'"

# crafted files: 96 bytes whose size check wraps (24 + n*24 + nl == size in 64
# bits), and the real file truncated, with a huge count, or garbage
craft() { python3 - "$@" <<'PY'
import sys, os, struct
kind, path = sys.argv[1], sys.argv[2]
if kind == "wrap96":
    n = 0x0AAAAAAAAAAAAAAB            # n*24 wraps to 8: 96 == 24 + 8 + 64
    b = b"PMCKSYM1" + struct.pack("<QQ", n, 64) + bytes(72)   # entries read past the end
elif kind == "wrap96v2":
    b = b"PMCKSYM2" + bytes(88)
else:
    b = open(path, "rb").read()
    if kind == "trunc": b = b[:96]
    elif kind == "count": b = b[:40] + struct.pack("<Q", 0x0800000000000001) + b[48:]
    # format 5's first entry {start, size, u32 name, u32 module, seal}: a
    # name offset past the names
    elif kind == "names": b = b[:64] + struct.pack("<QQIIQ", 0, 16, 0xfffffff0, 2**32-1, 0) + b[96:]
    elif kind == "garbage": b = os.urandom(len(b))
open(path, "wb").write(b)
PY
}
for kind in wrap96 wrap96v2 trunc count names garbage; do
  rm -rf "$TMP/c6"; mkdir -p "$TMP/c6/pmc"; chmod 700 "$TMP/c6/pmc"
  cp -p "$TMP"/c5/pmc/* "$TMP/c6/pmc/" 2>/dev/null
  XDG=$TMP/c6 report "$TMP/k.log" >/dev/null                       # a real one to start from
  for f in "$TMP"/c6/pmc/*; do craft "$kind" "$f"; chmod 600 "$f"; done
  craft wrap96 "$TMP/c6/pmc/$OLDNAME"; chmod 600 "$TMP/c6/pmc/$OLDNAME"
  XDG=$TMP/c6 report "$TMP/k.log" >"$TMP/c6.txt"; rc=$?
  check "cache crafted ($kind): report exits 0 (rc $rc)" test $rc -eq 0
  check "cache crafted ($kind): same report as without cache" cmp -s "$TMP/c6.txt" "$TMP/ref.txt"
done

# a directory of another user, open to everybody, with symlinks planted for
# the writer's temporary names: nothing is read from or written into it
VICTIM=$TMP/victim; echo secret >"$VICTIM"; chmod 600 "$VICTIM"
mkdir -p "$TMP/c2/pmc"; chmod 777 "$TMP/c2/pmc"; chown nobody "$TMP/c2/pmc" 2>/dev/null
last=$(cat /proc/sys/kernel/ns_last_pid)
for i in $(seq 1 400); do ln -sf "$VICTIM" "$TMP/c2/pmc/$OLDNAME.$((last + i))"; done
XDG=$TMP/c2 report "$TMP/k.log" >"$TMP/c2.txt"
check "cache in another user's directory: symlinked file not overwritten" test "$(cat "$VICTIM")" = secret
check "cache in another user's directory: nothing written" test "$(find "$TMP/c2/pmc" -type f | wc -l)" -eq 0
check "cache in another user's directory: the warning says why" grep -q "cache directory $TMP/c2/pmc is .*: not used" "$TMP/c2.txt"
check "cache in another user's directory: report otherwise unchanged" cmp -s <(grep -v "cache directory\|^# *$\|# Warnings:" "$TMP/c2.txt") <(grep -v "^# *$\|# Warnings:" "$TMP/ref.txt")

# 0755 (what pmc before issue 9 created): ours and only readable by others,
# so it is narrowed to 0700 and used; writable by the group: refused, said
mkdir -p "$TMP/c3/pmc"; chmod 755 "$TMP/c3/pmc"
XDG=$TMP/c3 report "$TMP/k.log" >"$TMP/c3.txt"
check "cache directory 0755 (older pmc's): made 0700" test "$(stat -c %a "$TMP/c3/pmc")" = 700
check "cache directory 0755 (older pmc's): used" test "$(ls -A "$TMP/c3/pmc" | wc -l)" -ge 1
check "cache directory 0755 (older pmc's): same report, no warning" cmp -s "$TMP/c3.txt" "$TMP/ref.txt"
mkdir -p "$TMP/c7/pmc"; chmod 775 "$TMP/c7/pmc"
XDG=$TMP/c7 report "$TMP/k.log" >"$TMP/c7.txt"
check "cache directory 0775 (group can write): refused, nothing written" test "$(ls -A "$TMP/c7/pmc" | wc -l)" -eq 0
check "cache directory 0775: mode left alone" test "$(stat -c %a "$TMP/c7/pmc")" = 775
check "cache directory 0775: the warning says why" grep -q "cache directory $TMP/c7/pmc is writable by other users (needs mode 0700): not used" "$TMP/c7.txt"

mkdir -p "$TMP/c4" "$TMP/elsewhere"; chmod 700 "$TMP/elsewhere"; ln -s "$TMP/elsewhere" "$TMP/c4/pmc"
XDG=$TMP/c4 report "$TMP/k.log" >/dev/null
check "cache directory is a symlink: not followed, nothing written" test "$(ls -A "$TMP/elsewhere" | wc -l)" -eq 0

# ---- mapped binaries that are now FIFOs or devices ----------------------------------
cp "$HELPERS/busy" "$TMP/prog_fifo"; cp "$HELPERS/busy" "$TMP/prog_dev"
"$PMC" record -q -e cpu-clock -o "$TMP/f.log" -- "$TMP/prog_fifo" 100 >/dev/null 2>&1
"$PMC" record -q -e cpu-clock -o "$TMP/d.log" -- "$TMP/prog_dev" 100 >/dev/null 2>&1
rm -f "$TMP/prog_fifo" "$TMP/prog_dev"
mkfifo "$TMP/prog_fifo"
# a terminal nobody types on (the /dev/tty of an interactive report): a pty
# whose master a helper holds open, so reading the slave blocks
python3 -c 'import pty, os, sys, time
m, s = pty.openpty(); print(os.ttyname(s), flush=True); time.sleep(900)' >"$TMP/pty.name" &
PTYPID=$!
for i in $(seq 50); do [ -s "$TMP/pty.name" ] && break; sleep 0.1; done
ln -s "$(cat "$TMP/pty.name")" "$TMP/prog_dev"
# HOME elsewhere: perf's ~/.debug build-id cache could hold these binaries
guard() { HOME=$TMP/home timeout 300 "$@"; }   # a hang becomes exit 124
for l in f d; do
  what=$([ $l = f ] && echo FIFO || echo "character device")
  guard "$PMC" report -i "$TMP/$l.log" --color never >"$TMP/$l.txt" 2>&1; rc=$?
  check "report, binary now a $what: finishes (rc $rc)" test $rc -eq 0
  check "report, binary now a $what: says so" grep -q "not a regular file" "$TMP/$l.txt"
  guard "$PMC" annotate -i "$TMP/$l.log" main >/dev/null 2>&1; rc=$?
  check "annotate, binary now a $what: finishes (rc $rc)" test $rc -ne 124
  guard "$PMC" diff "$TMP/$l.log" "$TMP/$l.log" >/dev/null 2>&1; rc=$?
  check "diff, binary now a $what: finishes (rc $rc)" test $rc -eq 0
done
kill "$PTYPID" 2>/dev/null; wait "$PTYPID" 2>/dev/null

# annotate prints source lines: a source file that is now a FIFO
if command -v gcc >/dev/null 2>&1; then
  printf 'int main(void) { volatile unsigned long x = 0;\n for (unsigned long i = 0; i < 300000000ul; i++)\n  x += i;\n return (int)(x & 1); }\n' >"$TMP/srcfifo.c"
  gcc -g -O0 -o "$TMP/srcfifo" "$TMP/srcfifo.c"
  "$PMC" record -q -e cpu-clock -o "$TMP/s.log" -- "$TMP/srcfifo" >/dev/null 2>&1
  rm -f "$TMP/srcfifo.c"; mkfifo "$TMP/srcfifo.c"
  guard "$PMC" annotate -i "$TMP/s.log" main >"$TMP/s.txt" 2>&1; rc=$?
  check "annotate, source file now a FIFO: finishes (rc $rc)" test $rc -eq 0
  check "annotate, source file now a FIFO: lines only" grep -q "source not found: lines only" "$TMP/s.txt"
else
  skip "annotate, source file now a FIFO" "gcc is not installed"
fi
done_testing
