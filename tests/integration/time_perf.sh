#!/usr/bin/env bash
# --time in perf's forms (perf report/script, util/time-utils.c): perf
# script's timestamps ("START,END", several ranges "S1,E1 S2,E2", either side
# empty), percent slices (10%/2, 10%/1,10%/3, 50%) and percent ranges
# (0%-10%,50%-60%), checked against perf report --time and perf script --time
# on one perf.data: the same samples per symbol.  pmc's own form, seconds from
# the recording's start, still works; bad ranges are one usage error each.
. "$(dirname "$0")/lib.sh"
export HOME=$TMP/home
mkdir -p "$HOME"
W=$TMP/w
if ! command -v perf >/dev/null; then
  skip "--time vs perf" "perf is not installed"; done_testing; exit
fi
if ! sh "$PMC_ROOT/tests/helpers/analysis/build.sh" "$W" >"$TMP/build.out" 2>&1; then
  skip "--time vs perf" "cannot build the workloads: $(tail -1 "$TMP/build.out")"
  done_testing; exit
fi
# about 0.7 s of work: the windows below reach 0.3 s past the first sample
# (scale 20 ran 0.24 s on a quiet machine, and "0.25 s after the start,"
# kept nothing)
if ! perf_record t -N -e cpu-clock -F 2000 -- "$W/work603010" 60; then
  skip "--time vs perf" "perf record cannot sample here: $(tail -1 "$TMP/t.err")"
  done_testing; exit
fi
D=$TMP/t.data

# "sym samples" per symbol, sorted: pmc report -s sym / perf report -n -s sym
pmc_syms() { "$PMC" report -i "$D" --color never -s sym "$@" 2>&1 |
  awk '$3 ~ /^\[.\]$/ { print $4, $2 }' | sort; }
perf_syms() { perf_oracle perf report -i "$D" --stdio -n --no-children -s sym "$@" |
  awk '$3 ~ /^\[.\]$/ { print $4, $2 }' | sort; }
# "count sym" of the samples script prints (perf prints sym only with ip)
pmc_script() { "$PMC" script -i "$D" -F ip,sym "$@" 2>&1 | awk '{ print $2 }' | sort | uniq -c; }
perf_script() { perf_oracle perf script -i "$D" -F ip,sym "$@" | awk '{ print $2 }' | sort | uniq -c; }
# equal A B: the same lines, and some (a window that keeps nothing proves nothing);
# when not, the first differences on stderr (the suite prints a failed
# script's stderr)
equal() {
  [ -s "$1" ] && cmp -s "$1" "$2" && return 0
  { echo "# $1 vs $2:"; diff "$1" "$2" | head -8; } >&2
  return 1
}
# same FORM: pmc and perf keep the same samples
same() {
  local n
  perf_syms --time "$1" >"$TMP/perf.syms"
  n=$(awk '{ s += $2 } END { print s + 0 }' "$TMP/perf.syms")
  pmc_syms --time "$1" >"$TMP/pmc.syms"
  check "report --time '$1': perf's samples per symbol ($n samples)" \
    equal "$TMP/perf.syms" "$TMP/pmc.syms"
  perf_script --time "$1" >"$TMP/perf.script"
  pmc_script --time "$1" >"$TMP/pmc.script"
  check "script --time '$1': perf script's samples" equal "$TMP/perf.script" "$TMP/pmc.script"
}

# the recording's span, as perf script prints times
read -r T0 T1 < <(perf script -i "$D" -F time 2>/dev/null | tr -d ':' |
  awk 'NR == 1 { f = $1 } { l = $1 } END { print f, l }')
if [ -z "$T0" ]; then
  fail "perf script prints sample times"; done_testing; exit
fi
at() { awk -v t="$T0" -v d="$1" 'BEGIN { printf "%.6f", t + d }'; }
total=$(perf_syms | awk '{ s += $2 } END { print s }')
check "the recording has samples ($total)" test "${total:-0}" -gt 100

for form in "10%/2" "10%/1,10%/3" "0%-10%" "0%-10%,50%-60%" "50%" "25%/4" \
            "$(at 0.1),$(at 0.3)" ",$(at 0.2)" "$(at 0.25)," "$T0,$T1" \
            "$(at 0.05),$(at 0.1) $(at 0.2),$(at 0.3)"; do
  same "$form"
done

# pmc's form: seconds from the start (perf takes these as timestamps long past).
# The start is the first sample's time to the nanosecond: perf script --ns
# prints it so (its default cuts it to microseconds, and a sample less than a
# microsecond past 0.1 s would then fall on either side), and the sums are
# done in integers
T0NS=$(perf script -i "$D" --ns -F time 2>/dev/null | tr -d ':' | awk 'NR == 1 { print $1; exit }')
atns() {   # T0NS + $1 nanoseconds, as seconds with nine decimals
  local s=${T0NS%.*} f=${T0NS#*.} n
  f=$(printf '%-9s' "$f" | tr ' ' 0)
  n=$(( s * 1000000000 + 10#$f + $1 ))
  printf '%d.%09d' $(( n / 1000000000 )) $(( n % 1000000000 ))
}
n_rel=$(pmc_syms --time 0.1,0.3 | awk '{ s += $2 } END { print s + 0 }')
n_abs=$(pmc_syms --time "$(atns 100000000),$(atns 300000000)" | awk '{ s += $2 } END { print s + 0 }')
check "--time 0.1,0.3 (from the start) = perf's $(atns 100000000),$(atns 300000000) ($n_rel, $n_abs)" \
  test "$n_rel" -gt 0 -a "$n_rel" = "$n_abs"
# the ten tenths make the whole
sum=0
for i in 1 2 3 4 5 6 7 8 9 10; do
  n=$(pmc_syms --time "10%/$i" | awk '{ s += $2 } END { print s + 0 }')
  sum=$((sum + n))
done
check "the ten 10% slices hold every sample once ($sum of $total)" test "$sum" = "$total"

# bad ranges: a usage error with one message
for bad in "10%/0" "nan" "5,3" "%" "1,2,3" "1,5 3,8" "10%/11" "0%-200%"; do
  for cmd in report script annotate diff; do
    case $cmd in
      annotate) args=(-i "$D" hot60) ;;
      diff) args=("$D" "$D") ;;
      *) args=(-i "$D") ;;
    esac
    "$PMC" $cmd --time "$bad" "${args[@]}" >"$TMP/bad.out" 2>&1
    rc=$?
    if [ $rc -ne 2 ] || ! grep -q "^pmc $cmd: --time: '" "$TMP/bad.out" ||
       [ "$(grep -c '^pmc' "$TMP/bad.out")" -ne 1 ]; then
      fail "$cmd --time '$bad': one usage error" "exit $rc: $(head -1 "$TMP/bad.out")"
      continue 2
    fi
  done
  ok "--time '$bad': one usage error in report, script, annotate, diff"
done
done_testing
