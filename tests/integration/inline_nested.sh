#!/usr/bin/env bash
# Nested inlining (issue 22 item 3): main -> f0 -> ... -> f(N-1), every
# level always_inline (tests/helpers/toolchains/nested_inline.sh), N = 6,
# 50 and 1,000.  Known answer: addr2line -i at the hot pc lists every level,
# innermost first, with its line.  pmc must show each level, in order, in
# report -g (caller -> callee), script (frames at the sampled pc, as perf
# does for DWARF-unwound stacks), folded stacks and -s srcline.  Before,
# libdw's dwarf_getscopes jumped from the innermost copy to its definition:
# main -> f5 with f0..f4 gone, and depth 500 took 101 s in report -g.
source "$(dirname "$0")/lib.sh"
GEN=$PMC_ROOT/tests/helpers/toolchains/nested_inline.sh
CC=${CC:-cc}
command -v addr2line >/dev/null || { skip "nested inlining" "addr2line (binutils) is not installed"; done_testing; exit; }

for N in 6 50 1000; do
  B=$TMP/nest$N
  sh "$GEN" $N >"$B.c"
  if ! "$CC" -O2 -g -o "$B" "$B.c" 2>"$TMP/cc.err"; then
    skip "depth $N" "cannot build with $CC: $(head -1 "$TMP/cc.err")"; continue
  fi
  "$PMC" record --call-graph dwarf -o "$B.log" -- "$B" >/dev/null 2>"$TMP/rec.err" ||
    { fail "depth $N: pmc record" "$(tail -2 "$TMP/rec.err")"; continue; }
  "$PMC" script -i "$B.log" >"$B.script" 2>/dev/null
  # the hot pc: the most frequent first frame of the samples in main
  hot=$(awk 'BEGIN { RS = "" } / main\+0x/ { split($0, l, "\n"); split(l[2], f, " "); n[f[1]]++ }
    END { for (a in n) if (n[a] > best) { best = n[a]; h = a }; print h }' "$B.script")
  [ -n "$hot" ] || { fail "depth $N: samples in main" "$(head -5 "$B.script")"; continue; }
  addr2line -i -f -e "$B" "0x$hot" >"$B.a2l"
  awk 'NR % 2 == 1' "$B.a2l" >"$B.want"                 # innermost first
  want_n=$(wc -l <"$B.want")
  if [ "$want_n" -ne $((N + 1)) ] || [ "$(head -1 "$B.want")" != "f$((N - 1))" ]; then
    skip "depth $N" "addr2line -i gives $want_n levels at 0x$hot, not $((N + 1))"; continue
  fi
  # script: the frames at the hot pc of one such sample, innermost first
  awk -v h="$hot" 'BEGIN { RS = "" } { split($0, l, "\n"); split(l[2], f, " ")
      if (f[1] != h) next
      for (i = 2; i in l; i++) { split(l[i], f, " "); if (f[1] != h) break; s = f[2]; sub(/\+0x.*/, "", s); print s }
      exit }' "$B.script" >"$B.got"
  if cmp -s "$B.want" "$B.got"; then ok "depth $N: script shows the $((N + 1)) levels as addr2line -i"
  else fail "depth $N: script" "$(diff "$B.want" "$B.got" | head -6 | tr '\n' ' ')"; fi
  # report -g: main then f0 ... f(N-1), each the only callee of the one above
  tac "$B.want" >"$B.rwant"
  "$PMC" report -i "$B.log" -g caller --graph-layout tree --stdio 2>/dev/null |
    awk -v b="[nest$N]" '$NF == b { s = $(NF - 1); if (s == "main") on = 1; if (on) print s; next } on { exit }' >"$B.tree"
  if cmp -s "$B.rwant" <(head -$((N + 1)) "$B.tree"); then ok "depth $N: report -g main -> f0 -> ... -> f$((N - 1))"
  else fail "depth $N: report -g" "$(diff "$B.rwant" <(head -$((N + 1)) "$B.tree") | head -6 | tr '\n' ' ')"; fi
  # folded: the heaviest stack ends main;f0;...;f(N-1)
  "$PMC" report -i "$B.log" -F folded 2>/dev/null | sort -t' ' -k2 -n | tail -1 | awk '{ print $1 }' |
    tr ';' '\n' | awk '$0 == "main" { on = 1 } on' >"$B.fold"
  if cmp -s "$B.rwant" "$B.fold"; then ok "depth $N: folded stack main;f0;...;f$((N - 1))"
  else fail "depth $N: folded" "$(diff "$B.rwant" "$B.fold" | head -6 | tr '\n' ' ')"; fi
  # srcline: the hot entry's line is the innermost level's (addr2line's first)
  line=$(sed -n 2p "$B.a2l"); line=${line##*/}; line=${line%% *}
  "$PMC" report -i "$B.log" -s sym,srcline --stdio 2>/dev/null | grep -v '^#' | awk 'NF { print $NF; exit }' >"$B.src"
  check "depth $N: -s sym,srcline at $line" [ "$(cat "$B.src")" = "$line" ]
done
done_testing
