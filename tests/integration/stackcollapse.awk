# stackcollapse.awk — `perf script` output to folded stacks, the way
# FlameGraph's stackcollapse-perf.pl folds it: the command name first, then
# the frames outermost first, offsets (+0x...) dropped, inlined frames kept,
# ';' in names turned into ':'; one line per distinct stack with its count.
# -v kernel=1: stackcollapse-perf.pl --kernel: a frame whose DSO is
# bracketed ([kernel.kallsyms], a module), not [unknown], gets "_[k]".
function flush() {
  if (comm != "") {
    s = comm
    for (i = n; i >= 1; i--) s = s ";" f[i]
    cnt[s]++
  }
  comm = ""; n = 0
}
/^[^ \t]/ {
  flush(); line = $0
  sub(/[ \t]+[0-9]+(\/[0-9]+)?[ \t]+(\[[0-9]+\][ \t]+)?[0-9]+\.[0-9]+:.*/, "", line)
  comm = line; next
}
/^[ \t]+[0-9a-f]+ / {
  l = $0; sub(/^[ \t]+[0-9a-f]+ /, "", l)
  mod = ""; if (match(l, / \([^()]*\)$/)) mod = substr(l, RSTART + 2, RLENGTH - 3)
  sub(/ \([^()]*\)$/, "", l)
  sub(/\+0x[0-9a-f]+$/, "", l); gsub(/;/, ":", l)
  if (kernel && mod ~ /^\[/ && mod !~ /unknown/) l = l "_[k]"
  f[++n] = l; next
}
/^$/ { flush() }
END { flush(); for (s in cnt) print s, cnt[s] }
