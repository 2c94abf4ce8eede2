#!/usr/bin/env bash
# pmc report --tui: the browser in a real terminal (tmux: send-keys,
# capture-pane) on the 60/30/10 workload's recording, checked against the
# text report and pmc annotate: the first row, a call graph opened, the
# annotate view, a zoom and back, the symbol filter, a resize, and the
# terminal given back as it was (stty, cursor, alternate screen) after q,
# SIGTERM and a crash signal.  Plus when it does not browse (a pipe,
# --stdio, PMC_PAGER) and bad uses of --tui.
. "$(dirname "$0")/lib.sh"
W=$TMP/w

# ---- not a terminal --------------------------------------------------------
"$PMC" report --tui -i /dev/null </dev/null >/dev/null 2>"$TMP/e"; rc=$?
check "--tui off a terminal: exit 2 ($rc)" test "$rc" -eq 2
check "--tui off a terminal: says so" grep -q "must be a terminal" "$TMP/e"
"$PMC" report --tui -F json -i /dev/null </dev/null >/dev/null 2>"$TMP/e"; rc=$?
check "--tui with -F json: exit 2 ($rc)" test "$rc" -eq 2

if ! sh "$PMC_ROOT/tests/helpers/analysis/build.sh" "$W" >"$TMP/build.out" 2>&1; then
  skip "analysis workloads" "cannot build them: $(tail -1 "$TMP/build.out")"
  done_testing; exit
fi
if ! "$PMC" record -q -g -e cpu-clock -F 4000 -o "$TMP/a.log" -f -- "$W/work603010" 40 \
    >/dev/null 2>"$TMP/rec.err"; then
  skip "recording" "pmc record cannot sample here: $(tail -1 "$TMP/rec.err")"
  done_testing; exit
fi
"$PMC" report -i "$TMP/a.log" --color never >"$TMP/text.txt"
check "a pipe: the text report" grep -q '^# Event: cpu-clock' "$TMP/text.txt"
"$PMC" report -i "$TMP/a.log" -g callee --graph-layout tree --color never >"$TMP/cg.txt"
"$PMC" annotate -i "$TMP/a.log" hot60 --color never >"$TMP/an.txt"
# hot60's share, and that of its caller main in the callee graph
hshare=$(awk '$NF == "hot60" && $1 ~ /%$/ { print $1; exit }' "$TMP/text.txt")
mshare=$(awk '/^ +[0-9.]+%  hot60 / { h = 1; next } h && /└ main/ { print $1; exit }' "$TMP/cg.txt")
# pmc annotate's hottest line (the first of the highest share), tabs expanded
hot=$(expand "$TMP/an.txt" | awk '/^ +[0-9.]+% / { v = $1 + 0; if (v > m) { m = v; l = $0 } }
  END { sub(/ +$/, "", l); print l }')

if ! command -v tmux >/dev/null; then
  skip "the browser in a terminal" "tmux is not installed (scripts/deps.sh installs it)"
  done_testing; exit
fi
SOCK=$TMP/tmux.sock
T() { tmux -S "$SOCK" "$@"; }
trap 'tmux -S "$SOCK" kill-server 2>/dev/null; rm -rf "$TMP"' EXIT
pane() { T capture-pane -p -t tui; }
# wait_until CMD...: until CMD succeeds, the pane captured afresh in
# $TMP/pane before each try.  Bounded (2 minutes): a condition to reach,
# not a check of speed.
wait_until() {
  for _ in $(seq 1 600); do
    pane >"$TMP/pane" 2>/dev/null
    "$@" && return 0
    sleep 0.2
  done
  return 1
}
in_pane() { grep -Eq "$1" "$TMP/pane"; }
not_in_pane() { ! in_pane "$1"; }
wait_for() { wait_until in_pane "$1"; }
wait_gone() { wait_until not_in_pane "$1"; }
rows() { awk '/Samples +Command/ { t = 1; next } t && /%/' "$TMP/pane"; }
# the selected line (reverse video), the header's apart, escapes removed
selected() { T capture-pane -e -p -t tui | grep $'\033\\[7m' | sed -n 2p |
  sed 's/\x1b\[[0-9;]*m//g; s/ *$//'; }

T -f /dev/null new-session -d -s tui -x 120 -y 32 "env PS1='SHELL-READY\$ ' bash --norc --noprofile"
T send-keys -t tui "stty -a >$TMP/stty1; $PMC report -i $TMP/a.log; echo EXIT-\$?; stty -a >$TMP/stty2" Enter

check "opens: the header line (samples, lost, event)" \
  wait_for "^Samples: [0-9,]+ of event 'cpu-clock', Lost: 0"
first=$(rows | head -1)
check "opens: hot60 first ($first)" bash -c "echo '$first' | grep -q '\[\.\] hot60\$'"
fs=$(echo "$first" | awk '{ print $2 }')
check "opens: hot60's share as the text report's ($fs, $hshare)" test "$fs" = "$hshare"
check "opens: the alternate screen (the command line is not shown)" \
  bash -c "! grep -q 'SHELL-READY' '$TMP/pane'"

# Enter: hot60's callers, with the shares of the call graph's text
T send-keys -t tui Enter
check "Enter: hot60's callers shown" wait_for '^ +- +[0-9.]+% +main  \[work603010\]'
tm=$(awk '/ main  \[work603010\]/ { print $2; exit }' "$TMP/pane")
check "Enter: main's share as report -g callee's ($tm, $mshare)" test "$tm" = "$mshare"
T send-keys -t tui Enter
check "Enter again: closed" wait_gone ' main  \[work603010\]'

# a: the annotate view on hot60's hottest line, as pmc annotate's
T send-keys -t tui a
check "a: the annotate view" wait_for '^Annotate hot60 '
sl=$(selected)
check "a: on the hottest line, as pmc annotate's ('$sl')" test "$sl" = "$hot"
T send-keys -t tui Tab
tab_moved() { test "$(selected)" != "$sl"; }
check "Tab: the next hottest line" wait_until tab_moved
T send-keys -t tui Escape
check "Esc: back to the list" wait_gone '^Annotate'

# d: zoom into the binary; Esc: back
T send-keys -t tui d
check "d: zoomed into the binary" wait_for "binary work603010"
check "d: only work603010's rows" bash -c "! awk '/Samples +Command/{t=1;next} t && /%/' '$TMP/pane' | grep -v ' work603010 .*\[\.\]'"
T send-keys -t tui Escape
check "Esc: back out of the zoom" wait_gone 'binary work603010'
check "Esc: the kernel's rows again" grep -q 'kernel.kallsyms' "$TMP/pane"

# /warm: only warm30
T send-keys -t tui / w a r m Enter
check "/warm: the filter in the header" wait_for "symbols 'warm'"
check "/warm: only warm30 ($(rows | wc -l) rows)" bash -c "test \"\$(awk '/Samples +Command/{t=1;next} t && /%/' '$TMP/pane' | awk '{print \$NF}')\" = warm30"

# resize: redrawn to 60x15 without what the wider screen had
fits() { awk 'length($0) > 60 { exit 1 }' "$TMP/pane" && test "$(wc -l <"$TMP/pane")" -le 15; }
T resize-window -t tui -x 60 -y 15 2>/dev/null || T resize-pane -t tui -x 60 -y 15
wait_until fits
check "resize: the header on the first line" bash -c "head -1 '$TMP/pane' | grep -q '^Samples: '"
check "resize: the key line on the last" bash -c "tail -1 '$TMP/pane' | grep -q '?: help'"
check "resize: one table, no garbage" test "$(grep -Ec 'Samples +Command' "$TMP/pane")" -eq 1
check "resize: only warm30 below the titles" bash -c "test \"\$(awk '/Samples +Command/{t=1;next} t && /%/' '$TMP/pane' | wc -l)\" -eq 1"

# ? then q: the terminal as it was
T send-keys -t tui '?'
check "?: the help" wait_for 'annotate the function'
T send-keys -t tui x
wait_gone 'annotate the function' >/dev/null
T send-keys -t tui q
check "q: the shell's screen is back" wait_for 'EXIT-0'
wait_until test -s "$TMP/stty2"
# the window's size changed (the resize above): the rest is as it was
check "q: stty -a as before (but the size)" bash -c "diff <(sed 's/rows [0-9]*; columns [0-9]*;//' '$TMP/stty1') <(sed 's/rows [0-9]*; columns [0-9]*;//' '$TMP/stty2')"
check "q: the cursor visible" test "$(T display -p -t tui '#{cursor_flag}')" = 1
check "q: the alternate screen off" test "$(T display -p -t tui '#{alternate_on}')" = 0

# -g caller: hot60's graph from the outermost caller down, as the text
# report's -g caller prints it under hot60 (perf's layout)
"$PMC" report -i "$TMP/a.log" -g caller --stdio --color never >"$TMP/gc.txt"
awk '/\[\.\] hot60$/ { e = 1; next } e && /^$/ { exit } e && /---|^ +[A-Za-z_]/ {
  sub(/^ *(---)?/, ""); print }' "$TMP/gc.txt" >"$TMP/gc.names"
T resize-window -t tui -x 120 -y 32 2>/dev/null || T resize-pane -t tui -x 120 -y 32
T send-keys -t tui "clear; $PMC report -g caller -i $TMP/a.log; echo EXIT-\$?" Enter
wait_for '^Samples: ' >/dev/null
T send-keys -t tui Enter
wait_for '^ +- +[0-9.]+% +__libc_start_call_main' >/dev/null
awk '/\[\.\] hot60$/ { e = 1; next } e && /^[-+] +[0-9.]+%/ { exit }
  e && /%/ { print $(NF - 1) }' "$TMP/pane" >"$TMP/tui.names"
check "-g caller: Enter shows hot60's chain as report -g caller ($(tr '\n' ' ' <"$TMP/tui.names"))" \
  bash -c "test -s '$TMP/tui.names' && cmp -s '$TMP/gc.names' '$TMP/tui.names'"
# (the chain's last frame has no mark: nothing more to open)
hs=$(awk '/ hot60  \[work603010\]/ { match($0, /[0-9.]+%/); print substr($0, RSTART, RLENGTH); exit }' "$TMP/pane")
check "-g caller: the chain's hot60 at its entry's share ($hs, $hshare)" test "$hs" = "$hshare"
T send-keys -t tui q
wait_for 'EXIT-0' >/dev/null

# the keys not tried above, on the same recording
T send-keys -t tui "clear; $PMC report -i $TMP/a.log; echo EXIT-\$?" Enter
wait_for '^Samples: ' >/dev/null
last=$(awk '/Samples +Command/ { t = 1; next } t && /%/ { l = $NF } END { print l }' "$TMP/text.txt")
T send-keys -t tui End
sel_is() { selected | grep -q " $1\$"; }
check "End: the last row selected ($last)" wait_until sel_is "$last"
T send-keys -t tui Home
check "Home: hot60 selected again" wait_until sel_is hot60
T send-keys -t tui PgDn
pg_moved() { ! sel_is hot60; }
check "PgDn: a page down" wait_until pg_moved
T send-keys -t tui Home E
opened() { test "$(grep -Ec '^- +[0-9.]+%' "$TMP/pane")" -ge 3; }
check "E: every entry's call graph open (hot60, warm30, cold10)" wait_until opened
T send-keys -t tui E
check "E again: all closed" wait_gone '^- +[0-9.]+%'
T send-keys -t tui e
check "e: the entry's whole call graph" wait_for '^ +[0-9.]+% +__libc_start_call_main'
T send-keys -t tui e c
check "c: zoomed into the command" wait_for "command work603010"
T send-keys -t tui Escape
check "Esc: out of the command's zoom" wait_gone "command work603010"
T send-keys -t tui t
check "t without a tid key: says to sort by tid" wait_for "no thread to zoom into: sort by tid"
T send-keys -t tui s C-u t i d , s y m Enter
check "s tid,sym: the columns Tid and Symbol" wait_until bash -c "grep -Eq 'Samples +Pid:Command +Symbol|Samples +[A-Za-z:]+ +Symbol' '$TMP/pane' && ! grep -q 'Shared Object' '$TMP/pane'"
T send-keys -t tui Home t
check "t: zoomed into hot60's thread" wait_for "thread [0-9]+"
T send-keys -t tui Escape
check "Esc: out of the thread's zoom" wait_gone ", thread [0-9]+"
T send-keys -t tui s C-u s y m Enter
check "s sym: one column, Symbol" wait_until bash -c "grep -Eq 'Samples +Symbol' '$TMP/pane' && ! grep -q 'Command' '$TMP/pane'"
rm -f "$TMP/stty2"
T send-keys -t tui C-c
check "Ctrl-C: quits" wait_for 'EXIT-'
T send-keys -t tui "stty -a >$TMP/stty2" Enter
wait_until test -s "$TMP/stty2"
check "Ctrl-C: stty -a as before" bash -c "diff <(sed 's/rows [0-9]*; columns [0-9]*;//' '$TMP/stty1') <(sed 's/rows [0-9]*; columns [0-9]*;//' '$TMP/stty2')"
check "Ctrl-C: the cursor visible" test "$(T display -p -t tui '#{cursor_flag}')" = 1
check "Ctrl-C: the alternate screen off" test "$(T display -p -t tui '#{alternate_on}')" = 0

# --children: main's inclusive share as the text report's
"$PMC" report -i "$TMP/a.log" --children --stdio --color never >"$TMP/ch.txt"
cmain=$(awk '$NF == "main" && $1 ~ /%$/ { print $1; exit }' "$TMP/ch.txt")
T send-keys -t tui "clear; $PMC report --children -i $TMP/a.log; echo EXIT-\$?" Enter
check "--children: the Children column" wait_for '^ +Children +Self +Samples'
T send-keys -t tui / m a i n Enter
wait_for "symbols 'main'" >/dev/null
tmain=$(awk '$NF == "main" && $2 ~ /%$/ { print $2; exit }' "$TMP/pane")
check "--children: main's children share as report --children's ($tmain, $cmain)" \
  test -n "$cmain" -a "$tmain" = "$cmain"
T send-keys -t tui q
wait_for 'EXIT-0' >/dev/null

# several events: Tab goes from one to the next; each event's rows are the
# text report's of that event
two_first() {   # the first row of event $1 in $TMP/two.txt: share and symbol
  awk -v ev="$1" '/^# Event: / { e = ($3 == ev); next } e && $1 ~ /%$/ { print $1, $NF; exit }' \
    "$TMP/two.txt"; }
first_row() { rows | head -1 | awk '{ print $2, $NF }'; }
if "$PMC" record -q -g -e cpu-clock,page-faults -F 4000 -o "$TMP/two.log" -f -- \
    "$W/work603010" 20 >/dev/null 2>&1; then
  "$PMC" report -i "$TMP/two.log" --stdio --color never >"$TMP/two.txt"
  T send-keys -t tui "clear; $PMC report -i $TMP/two.log; echo EXIT-\$?" Enter
  check "two events: the first one's header, Tab offered" wait_for "^Samples: [0-9,]+ of event '[a-z-]+' \(Tab: next\)"
  ev1=$(sed -n "s/^Samples: [0-9,]* of event '\([a-z-]*\)'.*/\1/p" "$TMP/pane" | head -1)
  check "two events: $ev1's first row as the text report's ($(first_row); $(two_first "$ev1"))" \
    test "$(first_row)" = "$(two_first "$ev1")"
  T send-keys -t tui Tab
  check "Tab: the other event" wait_gone "of event '$ev1'"
  ev2=$(sed -n "s/^Samples: [0-9,]* of event '\([a-z-]*\)'.*/\1/p" "$TMP/pane" | head -1)
  check "Tab: $ev2's first row as the text report's ($(first_row); $(two_first "$ev2"))" \
    test -n "$ev2" -a "$(first_row)" = "$(two_first "$ev2")"
  T send-keys -t tui Tab
  check "Tab again: back to $ev1" wait_for "of event '$ev1'"
  T send-keys -t tui q
  wait_for 'EXIT-0' >/dev/null
else
  skip "two events" "pmc record -e cpu-clock,page-faults failed here"
fi

# --wall: the on- and off-CPU time of a 'pmc record --off-cpu' log as one
# event, the text report's rows
if "$PMC" record -q -g --off-cpu -o "$TMP/off.log" -f -- sh -c "$W/work603010 10; sleep 0.3" \
    >/dev/null 2>&1; then
  "$PMC" report -i "$TMP/off.log" --wall --stdio --color never >"$TMP/two.txt"
  T send-keys -t tui "clear; $PMC report --wall -i $TMP/off.log; echo EXIT-\$?" Enter
  check "--wall: the wall-time event" wait_for "^Samples: [0-9,]+ of event 'wall-time'"
  check "--wall: the first row as the text report's ($(first_row); $(two_first wall-time))" \
    test "$(first_row)" = "$(two_first wall-time)"
  T send-keys -t tui q
  wait_for 'EXIT-0' >/dev/null
else
  skip "--wall" "pmc record --off-cpu failed here"
fi

# perf.data: perf's recording of the same workload, two events
if ! command -v perf >/dev/null; then
  skip "perf.data" "perf is not installed (scripts/deps.sh: linux-perf)"
elif ! perf_record pd -g -e cpu-clock,page-faults -F 4000 -- "$W/work603010" 20; then
  skip "perf.data" "perf record cannot sample here: $(tail -1 "$TMP/pd.err")"
else
  "$PMC" report -i "$TMP/pd.data" --stdio --color never >"$TMP/two.txt"
  T send-keys -t tui "clear; $PMC report -i $TMP/pd.data; echo EXIT-\$?" Enter
  wait_for "^Samples: " >/dev/null
  grep -q "of event 'cpu-clock'" "$TMP/pane" || T send-keys -t tui Tab
  check "perf.data: the cpu-clock event" wait_for "^Samples: [0-9,]+ of event 'cpu-clock' \(Tab: next\)"
  check "perf.data: hot60 first, as the text report ($(first_row); $(two_first cpu-clock))" \
    test "$(first_row)" = "$(two_first cpu-clock)"
  T send-keys -t tui Enter
  check "perf.data: Enter shows hot60's caller main" wait_for '^ +- +[0-9.]+% +main  \[work603010\]'
  T send-keys -t tui q
  wait_for 'EXIT-0' >/dev/null
fi

# a terminal that terminfo cannot draw on (TERM=dumb): the text report by
# default, and --tui says why
T send-keys -t tui "clear; TERM=dumb $PMC report -i $TMP/a.log --color never --sym hot60 --comm work603010; echo DUMB-\$?" Enter
check "TERM=dumb: the text report" wait_for '^DUMB-0'
check "TERM=dumb: hot60's text row" grep -Eq '^ +[0-9.]+% +[0-9]+ +work603010 .*\[\.\] hot60$' "$TMP/pane"
T send-keys -t tui "clear; TERM=dumb $PMC report --tui -i $TMP/a.log 2>$TMP/dumb.err; echo DUMB-\$((40+2))-\$?" Enter
check "TERM=dumb --tui: exit 2" wait_for '^DUMB-42-2'
check "TERM=dumb --tui: says why" grep -q "cannot place the cursor" "$TMP/dumb.err"

# SIGTERM, and crash signals: the terminal given back too
T send-keys -t tui "ulimit -c 0" Enter
for sig in TERM SEGV ABRT; do
  rm -f "$TMP/stty1" "$TMP/stty2"
  T send-keys -t tui "clear; stty -a >$TMP/stty1; $PMC report -i $TMP/a.log & echo PID-\$!; fg; stty -a >$TMP/stty2" Enter
  wait_for '^Samples: ' >/dev/null
  pid=$(pgrep -P "$(T display -p -t tui '#{pane_pid}')" -x pmc | head -1)
  kill -s $sig "$pid" 2>/dev/null
  wait_until test -s "$TMP/stty2"
  check "SIG$sig: stty -a as before" cmp -s "$TMP/stty1" "$TMP/stty2"
  check "SIG$sig: the cursor visible" test "$(T display -p -t tui '#{cursor_flag}')" = 1
  check "SIG$sig: the alternate screen off" test "$(T display -p -t tui '#{alternate_on}')" = 0
done

# PMC_PAGER, --stdio: the text report on a terminal
T send-keys -t tui "clear; PMC_PAGER=cat $PMC report -i $TMP/a.log --color never | head -3; $PMC report --stdio -i $TMP/a.log --color never >$TMP/stdio.txt; echo DONE-\$((6*7))" Enter
check "PMC_PAGER, --stdio: text, no browser" wait_for '^DONE-42'
check "--stdio on a terminal: the text report" cmp -s "$TMP/text.txt" "$TMP/stdio.txt"

done_testing
