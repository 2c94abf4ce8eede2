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
  e && /%/ { print $3 }' "$TMP/pane" >"$TMP/tui.names"
check "-g caller: Enter shows hot60's chain as report -g caller ($(tr '\n' ' ' <"$TMP/tui.names"))" \
  bash -c "test -s '$TMP/tui.names' && cmp -s '$TMP/gc.names' '$TMP/tui.names'"
hs=$(awk '/ hot60  \[work603010\]/ { print $2; exit }' "$TMP/pane")
check "-g caller: the chain's hot60 at its entry's share ($hs, $hshare)" test "$hs" = "$hshare"
T send-keys -t tui q
wait_for 'EXIT-0' >/dev/null

# SIGTERM, and a crash signal: the terminal given back too
for sig in TERM SEGV; do
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
