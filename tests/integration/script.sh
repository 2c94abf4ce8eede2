#!/usr/bin/env bash
# pmc script (issue 15 item 2): every sample in perf script's format.
# Oracle: on perf.data files recorded here by perf itself (software events),
# `pmc script` and `perf script` print the same lines; with call chains
# (-g and --call-graph dwarf) the same frames for >= 99 % of the samples.
# Then: the folded stacks of pmc script's output (as stackcollapse-perf.pl
# folds them) equal pmc report's folded export; JSON lines; side-band
# records; filters; bad input.
source "$(dirname "$0")/lib.sh"
H=$HELPERS
FOLD=$PMC_ROOT/tests/integration/stackcollapse.awk

# --- bad input (no perf needed) ------------------------------------------------
"$PMC" record -e cpu-clock:u -o "$TMP/w.log" -- "$H/busy" 50 >/dev/null 2>&1
"$PMC" script -i "$TMP/w.log" -F comm,bogus >/dev/null 2>"$TMP/e"; rc=$?
if [ $rc -eq 2 ] && grep -q "'bogus' is not one of" "$TMP/e"; then ok "-F bogus: named, exit 2"
else fail "-F bogus" "exit $rc: $(cat "$TMP/e")"; fi
"$PMC" script -i "$TMP/w.log" -F +pid,period >/dev/null 2>"$TMP/e"; rc=$?
check "-F mixing signed and plain fields: exit 2" [ $rc -eq 2 ]
"$PMC" script -i "$TMP/w.log" --format xml >/dev/null 2>"$TMP/e"; rc=$?
check "--format xml: exit 2" [ $rc -eq 2 ]
"$PMC" script -i "$TMP/w.log" --pid abc >/dev/null 2>"$TMP/e"; rc=$?
check "--pid abc: exit 2" [ $rc -eq 2 ]
"$PMC" script -i "$TMP/missing.log" >/dev/null 2>"$TMP/e"; rc=$?
if [ $rc -eq 1 ] && grep -q "missing.log" "$TMP/e"; then ok "missing input: named, exit 1"
else fail "missing input" "exit $rc: $(cat "$TMP/e")"; fi
sz=$(stat -c %s "$TMP/w.log")
head -c $((sz * 2 / 3)) "$TMP/w.log" >"$TMP/cut.log"
"$PMC" script -i "$TMP/cut.log" >"$TMP/cut.out" 2>"$TMP/e"; rc=$?
if [ $rc -eq 1 ] && [ -s "$TMP/e" ] && [ -s "$TMP/cut.out" ]; then
  ok "truncated log: what was read printed, '$(head -c 80 "$TMP/e")', exit 1"
else fail "truncated log" "exit $rc: $(cat "$TMP/e")"; fi
head -c 10 "$TMP/w.log" >"$TMP/tiny.log"
"$PMC" script -i "$TMP/tiny.log" >/dev/null 2>"$TMP/e"; rc=$?
check "10-byte log: exit 1 with a message" [ $rc -eq 1 ] && [ -s "$TMP/e" ]

# a lone unresolved frame: a stripped library's static function under its
# exported caller: stackcollapse-perf.pl folds perf script's "[unknown]" for
# it, and so does the folded export (it printed the address, 0x0000...)
cat >"$TMP/lib.c" <<'EOF2'
volatile unsigned long sink;
static __attribute__((noinline)) void inner(unsigned long n)
{ for (unsigned long i = 0; i < n; i++) sink += i; }
void lib_spin(unsigned long n) { inner(n); sink++; }
EOF2
cat >"$TMP/main.c" <<'EOF2'
#include <stdlib.h>
void lib_spin(unsigned long n);
int main(int c, char **v) { lib_spin(c > 1 ? strtoul(v[1], 0, 10) : 200000000ul); return 0; }
EOF2
if cc -O0 -fPIC -shared -fno-omit-frame-pointer -o "$TMP/libspin.so" "$TMP/lib.c" &&
   strip "$TMP/libspin.so" && cc -O0 -fno-omit-frame-pointer -o "$TMP/lonely" "$TMP/main.c" \
     -L"$TMP" -lspin -Wl,-rpath,"$TMP"; then
  "$PMC" record -g -e cpu-clock:u -F 2000 -o "$TMP/lone.log" -- "$TMP/lonely" >/dev/null 2>&1
  "$PMC" report -i "$TMP/lone.log" -F folded >"$TMP/lone.folded" 2>/dev/null
  "$PMC" script -i "$TMP/lone.log" --no-inline | awk -f "$FOLD" >"$TMP/lone.sc"
  main_unknown=$(grep -c ';lib_spin;\[unknown\] ' "$TMP/lone.folded")
  if [ "$main_unknown" -gt 0 ] && ! grep -q ';0x[0-9a-f]*[ ;]' "$TMP/lone.folded" &&
     grep -q ';lib_spin;\[unknown\] ' "$TMP/lone.sc"; then
    ok "a stripped library's lone frame folds as [unknown], as stackcollapse of script"
  else fail "a stripped library's lone frame folds as [unknown]" "$(grep -m2 lib_spin "$TMP/lone.folded")"; fi
else skip "a stripped library's lone frame" "cannot build the workload"; fi

# --- a pmc log ----------------------------------------------------------------
"$PMC" record -g -e cpu-clock:u -F 4000 -o "$TMP/g.log" -- "$H/deepcall" >/dev/null 2>&1
"$PMC" script -i "$TMP/g.log" >"$TMP/g.txt" 2>"$TMP/e"; rc=$?
n=$(grep -c 'cpu-clock:u: $' "$TMP/g.txt")
nd=$(grep -c '	 *[0-9a-f]* descend+0x[0-9a-f]* (.*deepcall)$' "$TMP/g.txt")
if [ $rc -eq 0 ] && [ "$n" -gt 10 ] && [ "$nd" -gt "$n" ]; then
  ok "pmc log with call chains: $n samples, perf's multi-line frames ($nd descend frames)"
else fail "pmc log with call chains" "exit $rc, $n samples, $nd descend frames"; fi
# folding pmc script's output as stackcollapse-perf.pl does = pmc report's folded export
# (which makes a run of unresolved frames one [unknown], issue 9 item 5: a
# sample in ld.so, which has no frame pointers, has such runs; pmc script
# prints every frame, as perf script does).  pmc script names a caller by
# the symbol at its return address, as perf script does, report by the
# call's (return address - 1): in ld.so's _start, the call to _dl_start is
# its last instruction and the label _dl_start_user follows it.
# pmc script prints the zero-address frames perf script prints (a chain's
# "0 [unknown] ([unknown])" where the walk read a 0 return address); the
# folded report leaves them out
"$PMC" script -i "$TMP/g.log" --no-inline |
  grep -Ev '^[[:space:]]+0 \[unknown\] \(\[unknown\]\)$' | awk -f "$FOLD" |
  sed -E 's/\[unknown\](;\[unknown\])+/[unknown]/g; s/;_dl_start_user([; ])/;_start\1/' |
  awk '{ n = $NF; sub(/ [0-9]+$/, ""); s[$0] += n } END { for (k in s) print k " " s[k] }' |
  sort >"$TMP/f1"
# (either may name ld.so's first instruction after the call _dl_start_user:
# a sample there, or a caller's return address)
"$PMC" report -i "$TMP/g.log" --no-inline -F folded | sed -E 's/;_dl_start_user([; ])/;_start\1/' |
  awk '{ n = $NF; sub(/ [0-9]+$/, ""); s[$0] += n } END { for (k in s) print k " " s[k] }' |
  sort >"$TMP/f2"
if [ -s "$TMP/f1" ] && cmp -s "$TMP/f1" "$TMP/f2"; then
  ok "stackcollapse of pmc script = pmc report -F folded ($(wc -l <"$TMP/f1") stacks)"
else fail "stackcollapse of pmc script = pmc report -F folded" "$(diff "$TMP/f1" "$TMP/f2" | head -4 | tr '\n' ' ')"; fi
# JSON: one valid object per sample, the same samples as the text
"$PMC" script -i "$TMP/g.log" --format json >"$TMP/g.json"
if command -v python3 >/dev/null 2>&1; then
  python3 - "$TMP/g.json" "$n" >"$TMP/j" 2>&1 <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == int(sys.argv[2]), (len(rows), sys.argv[2])
for r in rows:
    assert r["type"] == "sample" and r["event"] == "cpu-clock:u" and r["comm"] == "deepcall", r
    assert r["callchain"] and r["callchain"][0]["ip"] == r["ip"], r
assert any(f["sym"] == "descend" for r in rows for f in r["callchain"])
print("ok")
EOF
  check "--format json: one object per sample, call chains ($(cat "$TMP/j" | head -c 200))" grep -qx ok "$TMP/j"
else skip "--format json" "python3 is not installed"; fi
# side-band: the exec's COMM and the program's mapping
"$PMC" script -i "$TMP/g.log" --show-task-events --show-mmap-events -G >"$TMP/sb.txt"
if grep -q 'PERF_RECORD_COMM exec: deepcall:' "$TMP/sb.txt" && grep -q 'PERF_RECORD_MMAP .*deepcall$' "$TMP/sb.txt" &&
   ! grep -q '^$' "$TMP/sb.txt"; then ok "--show-task-events/--show-mmap-events, -G: one line each"
else fail "side-band records" "$(grep PERF_RECORD "$TMP/sb.txt" | head -3 | tr '\n' ' ')"; fi
# filters are report's
t=$(grep -c 'cpu-clock:u: $' "$TMP/g.txt")
c0=$("$PMC" script -i "$TMP/g.log" --comm nosuchcomm | wc -l)
cs=$("$PMC" script -i "$TMP/g.log" -G --sym work | wc -l)
if [ "$c0" -eq 0 ] && [ "$cs" -gt 0 ] && [ "$cs" -lt "$t" ]; then
  ok "--comm and --sym filter samples ($cs of $t in work)"
else fail "filters" "comm: $c0 lines, sym: $cs of $t"; fi

# --- the oracle: perf script ---------------------------------------------------
if ! command -v perf >/dev/null 2>&1; then
  skip "perf script oracle" "perf is not installed"; done_testing; exit
fi
if ! perf_record probe -e cpu-clock:u -- true; then
  skip "perf script oracle" "perf record cannot sample here: $(head -1 "$TMP/probe.err")"
  done_testing; exit
fi

# same_lines NAME PERF-OUT PMC-OUT: line for line.  A pc in a PLT stub is
# the one difference allowed: perf 6.1 names it after the symbol before it
# (`_init+0x30`), or `@plt` when the stub's relocation has no symbol (libc's
# calls to its own ifuncs); pmc after the stub (`clock_gettime@plt`,
# `strnlen@plt`, synthesized from .rela.plt; pmc-script(1) DIFFERENCES):
# both sides' names are replaced by PLT before comparing such a line.
same_lines() {
  local total same
  total=$(wc -l <"$2")
  same=$(paste -d '\n' "$2" "$3" | awk 'NR % 2 { a = $0; next }
    $0 != a { gsub(/[^ ]+@plt(\+0x[0-9a-f]+)?/, "PLT"); gsub(/_init(\+0x[0-9a-f]+)?/, "PLT", a); gsub(/ @plt(\+0x[0-9a-f]+)?/, " PLT", a) }
    $0 == a { s++ } END { print s + 0 }')
  if [ "$total" -gt 0 ] && [ "$total" -eq "$(wc -l <"$3")" ] && [ "$same" -eq "$total" ]; then
    ok "$1: $total lines, all equal"
  else
    fail "$1" "$same of $total lines equal ($(wc -l <"$3") from pmc): $(diff "$2" "$3" | head -4 | tr '\n' ' ')"
  fi
}
# same_samples NAME PERF-OUT PMC-OUT: >= 99 % of the samples (blank-line
# separated blocks) print the same lines.  perf prints the 0 that ends a
# frame-pointer walk as a frame ("0 [unknown] ([unknown])"); pmc drops it
# (it is not a frame): it is removed from perf's side.
same_samples() {
  awk 'BEGIN { RS = ""; ORS = "\n\n" } { n = split($0, l, "\n"); while (n > 1 && l[n] ~ /^\t +0 \[unknown\] \(\[unknown\]\)$/) n--
       s = l[1]; for (i = 2; i <= n; i++) s = s "\n" l[i]; print s }' "$2" >"$TMP/p.norm"
  awk 'BEGIN { RS = ""; ORS = "\n\n" } { print }' "$3" >"$TMP/q.norm"
  python3 - "$TMP/p.norm" "$TMP/q.norm" >"$TMP/cmp" <<'EOF'
import sys
a = open(sys.argv[1]).read().split("\n\n")
b = open(sys.argv[2]).read().split("\n\n")
a = [x for x in a if x.strip()]; b = [x for x in b if x.strip()]
same = sum(1 for x, y in zip(a, b) if x == y)
frames = sum(x.count("\n") for x in a)
print(len(a), len(b), same, frames)
for x, y in zip(a, b):
    if x != y:
        xl, yl = x.split("\n"), y.split("\n")
        d = [(p, q) for p, q in zip(xl, yl) if p != q][:1] or [("(%d lines)" % len(xl), "(%d lines)" % len(yl))]
        print("first difference: perf %r pmc %r" % d[0]); break
EOF
  read -r na nb same frames <"$TMP/cmp"
  if [ "$na" -gt 0 ] && [ "$na" -eq "$nb" ] && [ $((same * 100)) -ge $((na * 99)) ]; then
    ok "$1: $same of $na samples ($frames frames) print the same frames"
  else
    fail "$1" "$same of $na samples equal ($nb from pmc); $(tail -n +2 "$TMP/cmp" | head -c 300)"
  fi
}

if perf_record flat -e cpu-clock:u -F 4000 -- "$H/busy" 300; then
  perf script -i "$TMP/flat.data" 2>/dev/null >"$TMP/flat.perf"
  "$PMC" script -i "$TMP/flat.data" >"$TMP/flat.pmc"
  same_lines "no call chains: pmc script = perf script" "$TMP/flat.perf" "$TMP/flat.pmc"
  F=comm,pid,tid,time,event,period,ip,sym,dso
  perf script -i "$TMP/flat.data" -F $F 2>/dev/null >"$TMP/flatF.perf"
  "$PMC" script -i "$TMP/flat.data" -F $F >"$TMP/flatF.pmc"
  same_lines "-F $F: pmc script = perf script" "$TMP/flatF.perf" "$TMP/flatF.pmc"
  perf script -i "$TMP/flat.data" --ns -F comm,tid,time,ip,sym 2>/dev/null >"$TMP/ns.perf"
  "$PMC" script -i "$TMP/flat.data" --ns -F comm,tid,time,ip,sym >"$TMP/ns.pmc"
  same_lines "--ns -F comm,tid,time,ip,sym: pmc script = perf script" "$TMP/ns.perf" "$TMP/ns.pmc"
  perf script -i "$TMP/flat.data" --show-task-events 2>/dev/null | grep -o 'PERF_RECORD_COMM exec: .*' >"$TMP/c.perf"
  "$PMC" script -i "$TMP/flat.data" --show-task-events | grep -o 'PERF_RECORD_COMM exec: .*' >"$TMP/c.pmc"
  same_lines "--show-task-events: the exec COMM records" "$TMP/c.perf" "$TMP/c.pmc"
else skip "perf script oracle, no call chains" "perf record failed: $(head -1 "$TMP/flat.err")"; fi

if perf_record fp -g -e cpu-clock:u -F 4000 -- "$H/deepcall"; then
  perf script -i "$TMP/fp.data" 2>/dev/null >"$TMP/fp.perf"
  "$PMC" script -i "$TMP/fp.data" >"$TMP/fp.pmc"
  same_samples "-g (frame pointers): pmc script = perf script" "$TMP/fp.perf" "$TMP/fp.pmc"
else skip "perf script oracle, -g" "perf record -g failed: $(head -1 "$TMP/fp.err")"; fi

if perf_record dw --call-graph dwarf -e cpu-clock:u -F 2000 -- "$H/deepcall"; then
  perf script -i "$TMP/dw.data" 2>/dev/null >"$TMP/dw.perf"
  "$PMC" script -i "$TMP/dw.data" >"$TMP/dw.pmc"
  same_samples "--call-graph dwarf: pmc script = perf script" "$TMP/dw.perf" "$TMP/dw.pmc"
else skip "perf script oracle, dwarf" "perf record --call-graph dwarf failed: $(head -1 "$TMP/dw.err")"; fi

done_testing
