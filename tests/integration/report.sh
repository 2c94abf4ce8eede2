#!/usr/bin/env bash
# pmc report / annotate / diff end to end: known answers (60/30/10 %, a
# shared library, a stripped binary with a separate debug file, inline C++),
# filters, sort keys, call graphs, every export parsed back, perf.data input,
# overwrite protection, usage errors.  Logs come from `pmc record -g`.
. "$(dirname "$0")/lib.sh"
CHK=$PMC_ROOT/tests/helpers/analysis/check_exports.py
W=$TMP/w

if ! sh "$PMC_ROOT/tests/helpers/analysis/build.sh" "$W" >"$TMP/build.out" 2>&1; then
  skip "analysis workloads" "cannot build them: $(tail -1 "$TMP/build.out")"
  done_testing; exit
fi
rec() {  # rec LOG CMD...: sample with call chains, 4 kHz cpu-clock
  local log=$1; shift
  "$PMC" record -q -g -e cpu-clock -F 4000 -o "$log" -f -- "$@" >/dev/null 2>"$TMP/rec.err"
}
if ! rec "$TMP/a.log" "$W/work603010" 40; then
  skip "recording" "pmc record cannot sample here: $(tail -1 "$TMP/rec.err")"
  done_testing; exit
fi

# share SYM FILE: the Self % of SYM in a text report
share() { awk -v s="$2" '$NF == s && $1 ~ /%$/ { sub("%", "", $1); print $1; exit }' "$1"; }

# ---- known answers --------------------------------------------------------
"$PMC" report -i "$TMP/a.log" --color never >"$TMP/a.txt"
check "report exits 0" test $? -eq 0
h=$(share "$TMP/a.txt" hot60); w=$(share "$TMP/a.txt" warm30); c=$(share "$TMP/a.txt" cold10)
# cpu-clock samples CPU time, which a busy 2-vCPU machine skews now and then
# (CI once saw warm30 at 26.3 %): shares off their known answer get one more
# recording; a wrong report would be wrong twice.
if ! approx "${h:-0}" 60 8 || ! approx "${w:-0}" 30 12 || ! approx "${c:-0}" 10 30; then
  echo "# shares $h/$w/$c off 60/30/10: recording once more" >&2
  rec "$TMP/a.log" "$W/work603010" 40 && "$PMC" report -i "$TMP/a.log" --color never >"$TMP/a.txt"
  h=$(share "$TMP/a.txt" hot60); w=$(share "$TMP/a.txt" warm30); c=$(share "$TMP/a.txt" cold10)
fi
check "hot60 ~ 60% (${h:-none})" approx "${h:-0}" 60 8
check "warm30 ~ 30% (${w:-none})" approx "${w:-0}" 30 12
check "cold10 ~ 10% (${c:-none})" approx "${c:-0}" 10 30
check "header: event, samples, lost" grep -q '^# Samples: .*Lost: 0' "$TMP/a.txt"
check "header: recording details" grep -q '^# command: pmc record' "$TMP/a.txt"
check "symbol column names the binary" grep -q 'work603010 .*\[\.\] hot60' "$TMP/a.txt"

"$PMC" report -i "$TMP/a.log" --children --color never >"$TMP/ch.txt"
m=$(awk '$NF == "main" { sub("%","",$1); print $1; exit }' "$TMP/ch.txt")
check "children: main ~ 100% (${m:-none})" approx "${m:-0}" 100 3

"$PMC" report -i "$TMP/a.log" -g caller --graph-layout tree --color never >"$TMP/cg.txt"
check "call graph caller: main calls hot60" awk '/└ main/ { m = 1 } m && /└ hot60/ { f = 1 } END { exit !f }' "$TMP/cg.txt"
"$PMC" report -i "$TMP/a.log" -g callee --graph-layout tree --depth 2 --color never >"$TMP/cge.txt"
check "call graph callee: hot60 called by main, depth 2" \
  awk '/^ *[0-9.]+%  hot60/ { h = 1; next } h && /└ main/ { f = 1 } /└ __libc/ { bad = 1 } END { exit !(f && !bad) }' "$TMP/cge.txt"
# -g's default layout is perf's: each entry's call graph under it
"$PMC" report -i "$TMP/a.log" -g caller --color never >"$TMP/pg.txt"
check "-g perf layout: hot60's chain under its entry, outermost first" \
  awk '/\[\.\] hot60$/ { e = NR } e && NR == e + 1 && /^ +\|$/ { b = 1 }
       e && NR == e + 2 && /^ +---__libc_start_call_main$/ { c = 1 }
       e && NR == e + 3 && /^ +main$/ { d = 1 } e && NR == e + 4 && /^ +hot60$/ { f = 1 }
       END { exit !(b && c && d && f) }' "$TMP/pg.txt"
check "-g perf layout: no call graph after the table" bash -c "! grep -q '^# Call graph' '$TMP/pg.txt'"
"$PMC" report -i "$TMP/a.log" -g callee --children -s sym --color never >"$TMP/pgc.txt"
# main's callees... with --children, main's entry branches to nothing above
# it but __libc_start_call_main: main, then its caller
check "-g callee --children: main's entry, then its caller" \
  awk '/\[\.\] main$/ { e = NR } e && NR == e + 2 && /^ +---main$/ { c = 1 }
       e && NR == e + 3 && /^ +__libc_start_call_main$/ { f = 1 } END { exit !(c && f) }' "$TMP/pgc.txt"
"$PMC" report -i "$TMP/a.log" -g caller --graph-layout nonsense >/dev/null 2>"$TMP/e"; rc=$?
check "--graph-layout nonsense: exit 2 ($rc)" test "$rc" -eq 2
"$PMC" report -i "$TMP/a.log" -s sym,srcline --color never >"$TMP/sl.txt"
check "srcline: hot60's loop line" grep -Eq 'hot60 +work603010\.c:[0-9]+' "$TMP/sl.txt"
"$PMC" report -i - --color never <"$TMP/a.log" >"$TMP/stdin.txt"
check "stdin (-i -) gives the same report" diff <(grep -v '^# pmc report' "$TMP/a.txt") <(grep -v '^# pmc report' "$TMP/stdin.txt")

# ---- filters and limits ----------------------------------------------------
"$PMC" report -i "$TMP/a.log" --sym hot60 --percentage relative --color never >"$TMP/f.txt"
check "--sym --percentage relative: one function at 100%" grep -Eq '^ +100\.00% .*hot60' "$TMP/f.txt"
check "--sym: others gone" bash -c "! grep -q warm30 '$TMP/f.txt'"
"$PMC" report -i "$TMP/a.log" --percent-limit 20 --color never >"$TMP/pl.txt"
check "--percent-limit hides cold10" bash -c "grep -q hot60 '$TMP/pl.txt' && ! grep -q cold10 '$TMP/pl.txt'"
"$PMC" report -i "$TMP/a.log" --comm nosuchcomm --color never >"$TMP/nc.txt"
check "--comm with no match: 0 shown" grep -q 'Shown after filters: 0 samples' "$TMP/nc.txt"
"$PMC" report -i "$TMP/a.log" --time 0,0.000001 --color never >"$TMP/t.txt"
check "--time window cuts samples" grep -q 'Shown after filters' "$TMP/t.txt"
"$PMC" report -i "$TMP/a.log" -s comm,pid,tid,cpu,dso --color never >"$TMP/k.txt"
check "--sort comm,pid,tid,cpu,dso" grep -q 'Command .*Pid .*Tid .*CPU .*Shared Object' "$TMP/k.txt"
"$PMC" report -i "$TMP/a.log" -s nosuch 2>/dev/null
check "bad sort key: usage error" test $? -eq 2
"$PMC" report -i "$TMP/nonexistent.log" 2>/dev/null
check "missing input: exit 1" test $? -eq 1

# ---- exports ------------------------------------------------------------------
n=$(grep '^# Samples:' "$TMP/a.txt" | head -1 | awk '{ gsub(",", "", $3); print $3 }')
"$PMC" report -i "$TMP/a.log" -F folded -o "$TMP/a.folded"
got=$(python3 "$CHK" folded "$TMP/a.folded")
check "folded sums to the sample count ($got, $n)" test "$got" = "samples=$n"
check "folded line comm;...;main;hot60" grep -q '^work603010;.*main;hot60 [0-9]' "$TMP/a.folded"
"$PMC" report -i "$TMP/a.log" -F folded -o "$TMP/a.folded" 2>/dev/null
check "-o refuses to overwrite without -f" test $? -eq 1
"$PMC" report -i "$TMP/a.log" -F folded -o "$TMP/a.folded" -f
check "-f overwrites" test $? -eq 0

"$PMC" report -i "$TMP/a.log" -F pprof -o "$TMP/a.pb.gz"
python3 "$CHK" pprof "$TMP/a.pb.gz" >"$TMP/pp.txt"
check "pprof decodes" test $? -eq 0
check "pprof sample total = log ($n)" grep -q "samples=$n " "$TMP/pp.txt"
ph=$(awk '$1 == "self" && $2 == "hot60" { print $3 }' "$TMP/pp.txt")
check "pprof hot60 ~ 60% (${ph:-none})" approx "${ph:-0}" 60 8
if command -v go >/dev/null; then
  # the real consumer: go tool pprof reads it and counts every sample
  gs=$(HOME=$TMP GOCACHE=$TMP/gocache go tool pprof -raw "$TMP/a.pb.gz" 2>/dev/null |
       awk '/^Samples:/{f=1;next} f && /^ +[0-9]+ /{s+=$1} END{print s+0}')
  check "go tool pprof reads it: $gs samples (log $n)" test "$gs" = "$n"
  top=$(HOME=$TMP GOCACHE=$TMP/gocache go tool pprof -top "$TMP/a.pb.gz" 2>/dev/null | grep -c ' hot60$')
  check "go tool pprof -top lists hot60" test "$top" -ge 1
else
  skip "go tool pprof reads it" "go is not installed (Debian golang-go)"
fi

"$PMC" report -i "$TMP/a.log" -F speedscope -o "$TMP/a.speedscope.json"
python3 "$CHK" speedscope "$TMP/a.speedscope.json" >"$TMP/ss.txt"
check "speedscope: schema's required fields" test $? -eq 0
check "speedscope: one sample per log sample" grep -q "samples=$n " "$TMP/ss.txt"

"$PMC" report -i "$TMP/a.log" -F callgrind -o "$TMP/a.callgrind"
got=$(python3 "$CHK" callgrind "$TMP/a.callgrind")
check "callgrind self costs = totals = samples ($got)" test "$got" = "self=$n totals=$n"

"$PMC" report -i "$TMP/a.log" -F json >"$TMP/a.json"
check "json parses, samples = $n" python3 -c "
import json,sys; d=json.load(open('$TMP/a.json')); e=d['events'][0]
assert e['samples']==$n and abs(sum(x['self_samples'] for x in e['entries'])-$n)==0, e['samples']"

"$PMC" report -i "$TMP/a.log" -F svg -o "$TMP/a.svg"
out=$(python3 "$CHK" svg "$TMP/a.svg")
check "svg well-formed, widths add up ($out)" test $? -eq 0
check "svg root is all $n samples" bash -c "echo '$out' | grep -q 'samples=$n\$'"
check "svg has hot60 and its script" bash -c "grep -q '<title>hot60 ' '$TMP/a.svg' && grep -q 'function zoom' '$TMP/a.svg'"

"$PMC" report -i "$TMP/a.log" -F html -o "$TMP/a.html"
check "html written" test -s "$TMP/a.html"
CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -n "$CHROME" ]; then
  dom=$(timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --dump-dom "file://$TMP/a.html" 2>/dev/null)
  check "html: scripts ran without errors in headless Chromium" bash -c "echo \"\$1\" | grep -q 'id=\"status\">ready<'" _ "$dom"
  check "html: shows the top function" bash -c "echo \"\$1\" | grep -q '<td>hot60</td>'" _ "$dom"
else
  skip "html in headless Chromium" "chromium is not installed (apt-get install chromium)"
  skip "html shows the top function" "chromium is not installed"
fi

# ---- annotate -------------------------------------------------------------------
"$PMC" annotate -i "$TMP/a.log" hot60 --color never >"$TMP/an.txt"
check "annotate exits 0" test $? -eq 0
check "annotate: instructions from capstone" grep -Eq '^ +[0-9.]+% +[0-9]+ +[0-9a-f]+ +(imul|add|cmp|jne|mov)' "$TMP/an.txt"
check "annotate: source lines with the text" grep -q 'SPIN(6 \* n, x);' "$TMP/an.txt"
check "annotate: the loop line has most samples" \
  awk '/SPIN\(6/ { sub("%","",$1); exit !($1 + 0 > 80) }' "$TMP/an.txt"
"$PMC" annotate -i "$TMP/a.log" nosuchfunction 2>/dev/null
check "annotate: unknown function, exit 1" test $? -eq 1

# ---- a shared library; a stripped binary with .gnu_debuglink --------------------
rec "$TMP/so.log" "$W/shlib_main" 20
"$PMC" report -i "$TMP/so.log" -s dso,sym --color never >"$TMP/so.txt"
check "shared library: lib_spin in libwork.so" grep -Eq 'libwork\.so +\[\.\] lib_spin' "$TMP/so.txt"
"$PMC" report -i "$TMP/so.log" --children -s sym --color never >"$TMP/so2.txt"
lh=$(awk '$NF == "lib_hot" { sub("%","",$1); print $1; exit }' "$TMP/so2.txt")
check "shared library: lib_hot ~ 75% inclusive (${lh:-none})" approx "${lh:-0}" 75 10

rec "$TMP/st.log" "$W/work603010.strip" 20
"$PMC" report -i "$TMP/st.log" --color never >"$TMP/st.txt"
sh=$(share "$TMP/st.txt" hot60)
check "stripped + debuglink: hot60 ~ 60% (${sh:-none})" approx "${sh:-0}" 60 8
"$PMC" report -i "$TMP/st.log" -s sym,srcline --color never >"$TMP/st2.txt"
check "stripped + debuglink: source lines" grep -Eq 'hot60 +work603010\.c:[0-9]+' "$TMP/st2.txt"

# ---- inline-heavy C++ --------------------------------------------------------------
if [ -x "$W/inline_work" ]; then
  rec "$TMP/in.log" "$W/inline_work" 20
  "$PMC" report -i "$TMP/in.log" --color never >"$TMP/in.txt"
  check "C++: demangled ns::run_hot, without parameter list (perf 6.1)" grep -q 'ns::run_hot$' "$TMP/in.txt"
  "$PMC" report -i "$TMP/in.log" -F folded >"$TMP/in.folded"
  check "C++: inlined Accum::step under run_hot" grep -q 'ns::run_hot;ns::Accum<unsigned long>::step ' "$TMP/in.folded"
  "$PMC" report -i "$TMP/in.log" -F folded --no-inline >"$TMP/in2.folded"
  check "C++: --no-inline hides it" bash -c "! grep -q 'Accum' '$TMP/in2.folded'"
  "$PMC" report -i "$TMP/in.log" -s sym,srcline --color never >"$TMP/in3.txt"
  check "C++: the hot lines of the inlined step" grep -Eq 'run_hot.* inline_work\.cc:1[34]$' "$TMP/in3.txt"
else
  skip "C++ inline workload" "no C++ compiler"
fi

# ---- build id: a binary that changed since the recording ------------------------------
cp "$W/work603010" "$TMP/prog"
rec "$TMP/bid.log" "$TMP/prog" 10
if "$PMC" dump -i "$TMP/bid.log" | grep -q 'MAP_IN.*buildid=.*prog'; then
  cp "$W/shlib_main" "$TMP/prog"     # a different binary at the same path
  # HOME without perf's build-id cache (~/.debug), which may hold the
  # original build and would then rightly be used instead
  mkdir -p "$TMP/home"
  HOME=$TMP/home "$PMC" report -i "$TMP/bid.log" --color never >"$TMP/bid.txt"
  check "changed binary is reported" grep -q 'build id differs' "$TMP/bid.txt"
  check "changed binary is not mis-symbolized" bash -c "! grep -q 'prog .*\[\.\] main' '$TMP/bid.txt'"
else
  skip "changed binary is reported" "the log carries no build ids (pmc record does not record them yet)"
fi

# ---- diff ------------------------------------------------------------------------
rec "$TMP/a2.log" "$W/work603010" 20
"$PMC" diff "$TMP/a.log" "$TMP/a2.log" --color never >"$TMP/d.txt"
check "diff exits 0" test $? -eq 0
d=$(awk '$4 == "hot60" { print $3 }' "$TMP/d.txt")
check "diff: two runs of one program, hot60 within 8 points" awk '$4 == "hot60" { d = $3 + 0; exit !(d < 8 && d > -8) }' "$TMP/d.txt"
"$PMC" diff "$TMP/a.log" "$TMP/so.log" --color never >"$TMP/d2.txt"
check "diff: lib_spin grew, hot60 shrank" \
  awk '$4 == "lib_spin" && $3 + 0 > 80 { a = 1 } $4 == "hot60" && $3 + 0 < -50 { b = 1 } END { exit !(a && b) }' "$TMP/d2.txt"
"$PMC" diff -F svg "$TMP/a.log" "$TMP/so.log" -o "$TMP/d.svg"
check "diff flame graph: well-formed, widths add up" python3 "$CHK" svg "$TMP/d.svg"
"$PMC" diff "$TMP/a.log" 2>/dev/null
check "diff needs two logs" test $? -eq 2

# ---- the filters: one option table for report, script, diff and annotate -------------
# (tools/pmc/cli.h): the same spellings, perf's --comms/--dsos/--symbols too,
# and the same checks of a bad value.
for c in report script diff annotate; do
  case $c in
    diff) args=("$TMP/a.log" "$TMP/a.log") ;;
    annotate) args=(-i "$TMP/a.log" hot60) ;;
    *) args=(-i "$TMP/a.log") ;;
  esac
  func=(--dsos work603010 --symbols hot60)
  [ $c = annotate ] && func=()      # annotate's function is its operand
  "$PMC" $c "${args[@]}" --comms work603010 "${func[@]}" --cpu 0,1 --time 0, \
      >"$TMP/f.out" 2>"$TMP/f.err"
  check "$c: every filter option, perf's spellings too" test $? -eq 0 -a -s "$TMP/f.out" -a ! -s "$TMP/f.err"
  "$PMC" $c "${args[@]}" --cpu one >/dev/null 2>"$TMP/f.err"
  check "$c --cpu one: a usage error" test $? -eq 2 -a "$(grep -c "'one' is not a CPU number" "$TMP/f.err")" = 1
  "$PMC" $c "${args[@]}" --time 2,1 >/dev/null 2>"$TMP/f.err"
  check "$c --time 2,1: a usage error" test $? -eq 2 -a "$(grep -c "'2,1': END is before START" "$TMP/f.err")" = 1
  [ $c = script ] && continue       # no colour, no --percent-limit
  "$PMC" $c "${args[@]}" --color sometimes >/dev/null 2>"$TMP/f.err"
  check "$c --color sometimes: a usage error" \
      test $? -eq 2 -a "$(grep -c "'sometimes' is not always, never or auto" "$TMP/f.err")" = 1
  [ $c = annotate ] && continue
  "$PMC" $c "${args[@]}" --percent-limit nan >/dev/null 2>"$TMP/f.err"
  check "$c --percent-limit nan: a usage error" \
      test $? -eq 2 -a "$(grep -c "'nan' is not a percentage" "$TMP/f.err")" = 1
done

# ---- perf.data input (through analysis/perfdata) ------------------------------------
if command -v perf >/dev/null && perf record -q -g -F 4000 -o "$TMP/p.data" -- "$W/work603010" 40 >/dev/null 2>&1; then
  "$PMC" report -i "$TMP/p.data" --color never >"$TMP/p.txt"
  check "perf.data: read" grep -q '(perf.data)' "$TMP/p.txt"
  ph=$(share "$TMP/p.txt" hot60)
  check "perf.data: hot60 ~ 60% (${ph:-none})" approx "${ph:-0}" 60 8
else
  skip "perf.data input" "perf record cannot sample here"
fi

# ---- the simulator's workloads (synthetic symbols) -----------------------------------
# issue 6's bar: the 70/20/10 workload reports those shares within 1 point
within1() { awk -v a="$1" -v b="$2" 'BEGIN{d=a-b; if(d<0)d=-d; exit !(a != "" && d <= 1.0)}'; }
# A fixed period (-F 4000's steady state): frequency mode retunes the period
# as Linux does (from 1, low-pass 1/8: docs/simulator.md), so its shares are
# only statistically right; a fixed period makes them exact.
if "$PMC" record -q --backend sim -g -e cycles -c 250000 -o "$TMP/sim.log" -f -- "$PMC_ROOT/examples/sim/hot70.wl" >"$TMP/sim.err" 2>&1; then
  "$PMC" report -i "$TMP/sim.log" --color never >"$TMP/sim.txt"
  sh=$(share "$TMP/sim.txt" hot); sw=$(share "$TMP/sim.txt" warm); sc=$(share "$TMP/sim.txt" cold)
  check "sim hot70.wl: hot 70% within 1 point (${sh:-none})" within1 "${sh:-}" 70
  check "sim hot70.wl: warm 20% within 1 point (${sw:-none})" within1 "${sw:-}" 20
  check "sim hot70.wl: cold 10% within 1 point (${sc:-none})" within1 "${sc:-}" 10
else
  fail "pmc record --backend sim" "$(cat "$TMP/sim.err")"
fi

done_testing
