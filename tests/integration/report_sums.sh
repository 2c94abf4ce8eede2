#!/usr/bin/env bash
# pmc report stores per-group sums, not samples, when it only adds samples up
# (prof_load_opts.sums: every output but speedscope, and pmc diff and
# annotate, without --time), and reads text and JSON reports in the file's
# own order.  On a perf.data of real programs nobody here wrote (a shell
# forking and exec'ing ls, python3 and xz: names that change mid-recording),
# every output is byte-identical to the sample-by-sample path (a --time
# window that keeps everything turns sums off), and the per-command shares
# are perf report's.
. "$(dirname "$0")/lib.sh"
export HOME=$TMP/home
mkdir -p "$HOME"
if ! command -v perf >/dev/null; then
  skip "report sums vs samples" "perf is not installed"; done_testing; exit
fi
for prog in python3 xz; do
  if ! command -v $prog >/dev/null; then
    skip "report sums vs samples" "$prog is not installed"; done_testing; exit
  fi
done
head -c 3000000 /dev/urandom >"$TMP/blob"
if ! perf_record r -g -F 4000 -e cpu-clock -- sh -c "for i in 1 2 3 4 5 6; do
    ls -R /usr/lib >/dev/null 2>&1; python3 -c 'sum(range(300000))'; xz -6 -c $TMP/blob >/dev/null; done"; then
  skip "report sums vs samples" "perf record cannot sample here: $(tail -1 "$TMP/r.err")"
  done_testing; exit
fi
D=$TMP/r.data
n=$(perf script -i "$D" -F comm 2>/dev/null | sort -u | wc -l)
check "the recording names several commands ($n)" test "$n" -ge 4

for args in "" "-g callee" "-g caller" "--children" "-s pid,tid,comm,dso,sym" \
            "-s sym,srcline" "-F json" "-F json -g caller" "-F folded" "-F pprof" \
            "-F callgrind" "-F svg" "-F html"; do
  # shellcheck disable=SC2086
  "$PMC" report $args -i "$D" -o "$TMP/sums.out" -f >/dev/null 2>"$TMP/sums.err"
  # shellcheck disable=SC2086
  "$PMC" report $args --time 0%-100% -i "$D" -o "$TMP/each.out" -f >/dev/null 2>"$TMP/each.err"
  if [ -s "$TMP/sums.out" ] && cmp -s "$TMP/sums.out" "$TMP/each.out"; then
    ok "report ${args:-(flat)}: sums give the samples' output"
  else
    fail "report ${args:-(flat)}: sums give the samples' output" \
      "$(cmp "$TMP/sums.out" "$TMP/each.out" 2>&1 | head -1) $(head -1 "$TMP/sums.err")"
  fi
done
"$PMC" diff "$D" "$D" >"$TMP/d1" 2>&1
"$PMC" diff --time 0%-100% "$D" "$D" >"$TMP/d2" 2>&1
check "diff: sums give the samples' output" cmp -s "$TMP/d1" "$TMP/d2"
"$PMC" annotate -i "$D" main >"$TMP/a1" 2>&1
"$PMC" annotate --time 0%-100% -i "$D" main >"$TMP/a2" 2>&1
check "annotate: sums give the samples' output" cmp -s "$TMP/a1" "$TMP/a2"

# The sums are kept, not dropped for a second reading sample by sample: on
# a recording of one exec'd program (enable-on-exec: no sample before its
# COMM, so no sum can straddle a rename) the file is read once.  (The shell's
# recording above may be read twice, correctly: a child sampled just after
# its exec on one CPU can come in the file before its COMM record, written
# by another CPU's ring in the same round.)
if command -v strace >/dev/null; then
  if perf_record x -g -F 4000 -e cpu-clock -- xz -6 -c "$TMP/blob"; then
    X=$TMP/x.data
    strace -f -o "$TMP/st" -e trace=openat "$PMC" report -i "$X" >/dev/null 2>&1
    k=$(grep -c "\"$X\"" "$TMP/st")
    check "the flat report of one program reads the file once ($k)" test "$k" = 1
    strace -f -o "$TMP/st" -e trace=openat "$PMC" report -g caller -i "$X" >/dev/null 2>&1
    k=$(grep -c "\"$X\"" "$TMP/st")
    check "its call-graph report reads the file once ($k)" test "$k" = 1
    "$PMC" report -g caller -i "$X" -o "$TMP/x1" -f >/dev/null 2>&1
    "$PMC" report -g caller --time 0%-100% -i "$X" -o "$TMP/x2" -f >/dev/null 2>&1
    check "... and gives the samples' output" cmp -s "$TMP/x1" "$TMP/x2"
    strace -f -o "$TMP/st" -e trace=openat "$PMC" report -i "$D" >/dev/null 2>&1
    echo "# the shell's recording was read $(grep -c "\"$D\"" "$TMP/st") time(s)"
  else
    skip "the report reads the file once" "perf record of xz failed: $(tail -1 "$TMP/x.err")"
  fi
else
  skip "the report reads the file once" "strace is not installed"
fi

# per command: perf report's sample counts (perf cuts long names to its
# column, so the names are compared by their first 8 bytes)
perf report -i "$D" --stdio -n --no-children -g none -s comm 2>/dev/null |
  awk '!/^#/ && NF >= 3 { print substr($3, 1, 8), $2 }' | sort >"$TMP/perf.comm"
"$PMC" report -i "$D" -s comm --color never 2>/dev/null |
  awk '!/^#/ && NF >= 3 { print substr($3, 1, 8), $2 }' | sort >"$TMP/pmc.comm"
check "samples per command = perf report -s comm's" \
  eval '[ -s "$TMP/perf.comm" ] && cmp -s "$TMP/perf.comm" "$TMP/pmc.comm"'
done_testing
