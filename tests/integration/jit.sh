#!/usr/bin/env bash
# JIT code (issue 9): code in anonymous executable memory named through the
# process's perf map (node --perf-basic-prof) and through a jitdump file
# (tests/helpers/jitgen.c: generated code, perf's jitdump format, the file
# mapped PROT_EXEC as perf's JIT agents do), with designed sample shares.
. "$(dirname "$0")/lib.sh"

# share SYM FILE: the Self % of SYM in a text report
share() { awk -v s="$2" '$NF == s && $1 ~ /%$/ { sub("%", "", $1); print $1; exit }' "$1"; }
rec() {  # rec LOG CMD...
  local log=$1; shift
  "$PMC" record -q -e cpu-clock -F 4000 -o "$log" -f -- "$@" >"$TMP/rec.out" 2>"$TMP/rec.err"
}

# ---- jitdump: generated code with 60/30/10 % of the time ---------------------
if ! rec "$TMP/j.log" "$HELPERS/jitgen" "$TMP" 3000; then
  if [ -s "$TMP/rec.err" ] && grep -q "no code generator" "$TMP/rec.err"; then
    skip "jitdump" "jitgen has no code generator for $(uname -m)"
  else
    skip "jitdump" "pmc record cannot sample here: $(tail -1 "$TMP/rec.err")"
  fi
else
  "$PMC" report -i "$TMP/j.log" --color never >"$TMP/j.txt"
  check "jitdump report exits 0" test $? -eq 0
  h=$(share "$TMP/j.txt" jit_hot60); w=$(share "$TMP/j.txt" jit_warm30)
  c=$(share "$TMP/j.txt" jit_cold10)
  # shares among the three generated functions (the rest is start-up)
  read -r sh sw sc tot < <(awk -v h="${h:-0}" -v w="${w:-0}" -v c="${c:-0}" \
    'BEGIN { t = h + w + c; if (t == 0) t = 1; printf "%.2f %.2f %.2f %.2f\n", 100*h/t, 100*w/t, 100*c/t, t }')
  check "jitdump: generated code holds the samples (${tot}%)" awk -v t="$tot" 'BEGIN{exit !(t >= 90)}'
  # the shares are designed in work, sampled in CPU time: on a busy machine
  # the phases' time per unit of work drifts apart by up to ~2 points (57.91
  # seen in a make check beside other work; sampling noise at ~12,000
  # samples is 0.5 point), so 3 points
  close3() { awk -v a="$1" -v b="$2" 'BEGIN{d=a-b; if(d<0)d=-d; exit !(d <= 3)}'; }
  check "jit_hot60 60% within 3 points ($sh)" close3 "$sh" 60
  check "jit_warm30 30% within 3 points ($sw)" close3 "$sw" 30
  check "jit_cold10 10% within 3 points ($sc)" close3 "$sc" 10
  check "jitdump names the dso jit-PID.dump" grep -q 'jit-[0-9]*\.dump  *\[\.\] jit_hot60' "$TMP/j.txt"
  "$PMC" report -i "$TMP/j.log" -s sym,srcline --color never >"$TMP/jl.txt"
  check "jitdump debug info gives source lines (jitgen.js:10)" grep -q 'jitgen.js:10' "$TMP/jl.txt"
fi

# ---- perf as the oracle: `perf inject --jit` of a perf.data of jitgen ----------
mkdir -p "$TMP/pj"
if ! command -v perf >/dev/null 2>&1; then
  skip "perf inject --jit oracle" "perf is not installed"
elif ! perf record -q -k mono -e cpu-clock -o "$TMP/pj/jit.data" -- "$HELPERS/jitgen" "$TMP/pj" 1500 \
     >/dev/null 2>&1 || ! perf inject --jit -i "$TMP/pj/jit.data" -o "$TMP/pj/inj.data" >/dev/null 2>&1; then
  skip "perf inject --jit oracle" "perf record -k mono / perf inject --jit failed here"
else
  perf report -i "$TMP/pj/inj.data" --stdio --sort sym 2>/dev/null |
    awk '/\[\.\] jit_/ { print $NF, $1 }' | sort >"$TMP/pj/perf.txt"
  "$PMC" report -i "$TMP/pj/jit.data" -s sym --color never |
    awk '/\[\.\] jit_/ { print $NF, $1 }' | sort >"$TMP/pj/pmc.txt"
  check "jitdump in a perf.data: pmc's shares = perf inject --jit's ($(tr '\n' ' ' <"$TMP/pj/pmc.txt"))" \
    bash -c "[ \$(wc -l <'$TMP/pj/pmc.txt') -eq 3 ] && cmp -s '$TMP/pj/perf.txt' '$TMP/pj/pmc.txt'"
fi

# ---- node --perf-basic-prof: /tmp/perf-PID.map for //anon code -----------------
if ! command -v node >/dev/null 2>&1; then
  skip "node --perf-basic-prof" "node is not installed"
else
  cat >"$TMP/jit.js" <<'JS'
function hotLoop(n) { let s = 0; for (let i = 0; i < n; i++) { s += (i * 7) % 13; } return s; }
let t = 0; for (let k = 0; k < 300; k++) t += hotLoop(1e6); console.log(t);
JS
  # node leaves its map behind: remove the one of this run (it names our script)
  trap 'for m in /tmp/perf-*.map; do grep -qs "$TMP/jit.js" "$m" && rm -f "$m"; done; rm -rf "$TMP"' EXIT
  # (node writes isolate-*-v8.log files into its working directory)
  if ! (cd "$TMP" && rec "$TMP/n.log" node --perf-basic-prof "$TMP/jit.js"); then
    skip "node --perf-basic-prof" "pmc record failed: $(tail -1 "$TMP/rec.err")"
  else
    "$PMC" report -i "$TMP/n.log" --color never >"$TMP/n.txt"
    hl=$(awk '/\[\.\] JS:.*hotLoop/ && $1 ~ /%$/ { sub("%", "", $1); print $1; exit }' "$TMP/n.txt")
    un=$(awk '$3 == "anon" && $NF == "[unknown]" { sub("%", "", $1); print $1; exit }' "$TMP/n.txt")
    check "node: hotLoop named from the perf map (${hl:-none}%)" awk -v v="${hl:-0}" 'BEGIN{exit !(v >= 50)}'
    check "node: no anon [unknown] majority (${un:-0}%)" awk -v v="${un:-0}" 'BEGIN{exit !(v < 10)}'
    check "node: the JIT dso is the perf map" grep -q 'perf-[0-9]*\.map  *\[\.\] JS:\*hotLoop' "$TMP/n.txt"
  fi
fi
done_testing
