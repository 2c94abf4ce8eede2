#!/usr/bin/env bash
# The HTML report (issue 27 item 2) in headless Chromium, driven by
# playwright-core (tests/helpers/html/check_report.js), on a recording of
# gcc unwound from DWARF: the table lists every function (main, which has
# no self samples, with the children share `pmc report --children` gives),
# sorting by Self puts the text report's top function first, a search for
# malloc says a matched share equal to the samples of the stacks through a
# matching frame (from the folded export), --flame-by adds a per-process
# level.  A screenshot is kept in $PMC_BUILD/artifacts/html_report.png.
. "$(dirname "$0")/lib.sh"
B=${PMC_BUILD:-build}
case $B in /*) ;; *) B=$PMC_ROOT/$B ;; esac

"$PMC" report -F html --flame-by nonsense -i /dev/null >/dev/null 2>"$TMP/e"; rc=$?
check "--flame-by nonsense: exit 2 ($rc)" test "$rc" -eq 2
check "--flame-by nonsense: says what it takes" grep -q "not comm, pid or tid" "$TMP/e"

if ! command -v gcc >/dev/null 2>&1; then
  skip "HTML report of gcc" "gcc is not installed"; done_testing; exit
fi
python3 -c "
print('\n'.join('int f%d(int x){int s=0;for(int i=0;i<x;i++)s+=i*%d^(s>>3);return s;}'%(i,i) for i in range(600)))" >"$TMP/big.c"
# 250 Hz: under 10 000 samples, so the page keeps every path (it leaves out
# those under 0.01 %) and the matched share is exact
if ! "$PMC" record -q --call-graph dwarf -e cpu-clock -F 250 -o "$TMP/cc.log" -- \
    gcc -O2 -c "$TMP/big.c" -o "$TMP/big.o" >/dev/null 2>"$TMP/rec.err"; then
  skip "HTML report of gcc" "pmc record cannot sample here: $(tail -1 "$TMP/rec.err")"; done_testing; exit
fi
"$PMC" report -i "$TMP/cc.log" -F html -o "$TMP/cc.html"
check "html written" test -s "$TMP/cc.html"
"$PMC" report -i "$TMP/cc.log" --stdio --children --color never >"$TMP/ch.txt"
# sorted by self, from the stacks loaded whole as the page's are (a flat
# report reads only each sample's leaf)
"$PMC" report -i "$TMP/cc.log" --stdio --color never -g caller,100 --graph-layout tree >"$TMP/self.txt"
"$PMC" report -i "$TMP/cc.log" --stdio --color never >"$TMP/flat.txt"
"$PMC" report -i "$TMP/cc.log" -F folded -o "$TMP/cc.folded"
main_ch=$(awk '$NF == "main" && $1 ~ /%$/ { print $1; exit }' "$TMP/ch.txt")
top_self=$(awk '/^#/ { next } $1 ~ /%$/ { print $NF; exit }' "$TMP/self.txt")
# every function with the top self share (a tie may come in either order)
top_share=$(awk '/^#/ { next } $1 ~ /%$/ { print $1; exit }' "$TMP/self.txt")
top_ties=" $(awk -v s="$top_share" '/^#/ { next } $1 == s { printf "%s ", $NF }' "$TMP/self.txt")"
# the folded stacks through a frame matching /malloc/, and all of them
read -r fm ft < <(awk '{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s); t += n;
  k = split(s, fr, ";"); for (i = 2; i <= k; i++) if (fr[i] ~ /malloc/) { m += n; break } }
  END { print m + 0, t + 0 }' "$TMP/cc.folded")
check "the recording has main (${main_ch:-none}) and malloc ($fm samples)" \
  bash -c "test -n '$main_ch' && test '$fm' -gt 0"

# --flame-by pid: the tree's first level names processes ("cc1 [PID]")
"$PMC" report -i "$TMP/cc.log" -F html --flame-by pid -o "$TMP/pid.html"
check "--flame-by pid: a level per process" grep -Eq '"n":"cc1 \[[0-9]+\]","d":""' "$TMP/pid.html"
"$PMC" report -i "$TMP/cc.log" -F html --flame-by comm -o "$TMP/comm.html"
check "--flame-by comm: a level per command" grep -q '"n":"cc1","d":""' "$TMP/comm.html"
check "unresolved frames: never 0x... in the page" bash -c "! grep -q '\"\(n\|sym\)\":\"0x' '$TMP/cc.html'"

PW=$B/node
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  skip "HTML in headless Chromium" "node/npm are not installed (scripts/deps.sh: nodejs npm)"
  done_testing; exit
fi
if [ ! -x /usr/bin/chromium ]; then
  skip "HTML in headless Chromium" "/usr/bin/chromium is not installed (scripts/deps.sh)"
  done_testing; exit
fi
if [ ! -d "$PW/node_modules/playwright-core" ]; then
  mkdir -p "$PW"
  if ! (cd "$PW" && npm install --no-audit --no-fund --no-save playwright-core) >"$TMP/npm.out" 2>&1; then
    skip "HTML in headless Chromium" "npm could not install playwright-core: $(tail -1 "$TMP/npm.out")"
    done_testing; exit
  fi
fi
mkdir -p "$B/artifacts"
node "$PMC_ROOT/tests/helpers/html/check_report.js" "$PW" "$TMP/cc.html" \
  "$B/artifacts/html_report.png" "$(mktemp -d -p "$TMP")" >"$TMP/pw.out" 2>&1
rc=$?
v() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print; exit }' "$TMP/pw.out"; }
check "the page ran (rc $rc, status '$(v status)')" test "$(v status)" = ready
nrows=$(v rows); ntext=$(grep -c '^ .*%' "$TMP/ch.txt")
check "every function in the table ($nrows rows, the text report $ntext)" test "$nrows" = "$ntext"
# the same share, printed to two decimals by JavaScript and by C (a share
# that ends in 5 at the third decimal may round either way: 0.01 apart)
check "main's children share as report --children's ($(v main_children), $main_ch)" \
  awk -v a="$(v main_children)" -v b="$main_ch" 'BEGIN { sub(/%/, "", a); sub(/%/, "", b)
    d = a - b; exit !(a != "" && b != "" && d <= 0.0101 && d >= -0.0101) }'
first_self=$(v first_by_self | awk '{ print $1 }')
check "sorted by Self: the text report's top function first ($(v first_by_self); $top_self at $top_share)" \
  bash -c "case '$top_ties' in *' $first_self '*) exit 0;; esac; exit 1"
ms=$(v matched_samples); total=$(v total)
check "search malloc: a matched share shown ($(v matched))" bash -c "echo '$(v matched)' | grep -Eq '^Matched: [0-9.]+%'"
check "search malloc: the matching stacks' samples ($ms, folded $fm)" test "$ms" = "$fm"
check "search malloc: of all samples ($total, folded $ft)" test "$total" = "$ft"
# kept for a look when the Self order disagrees
cp "$TMP/self.txt" "$TMP/flat.txt" "$TMP/pw.out" "$B/artifacts/" 2>/dev/null
check "a screenshot kept ($B/artifacts/html_report.png)" test -s "$B/artifacts/html_report.png"
done_testing
