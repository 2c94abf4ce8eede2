#!/usr/bin/env bash
# pmc top: a real terminal (tmux: send-keys, capture-pane) showing a known
# workload (60/30/10 %), its keys (sort, zoom and back, pause, resize, q and
# Ctrl-C with the terminal and the shell restored and nothing left running),
# plain-text blocks when standard output is not a terminal, and bad input.
. "$(dirname "$0")/lib.sh"
W=$TMP/w

# ---- bad input (needs nothing but pmc) -------------------------------------
"$PMC" top --help >"$TMP/help" 2>&1
check "--help exits 0 and names the keys" grep -q "Enter or z zoom" "$TMP/help"
"$PMC" top -e no_such_event -l 1 </dev/null >/dev/null 2>"$TMP/e"; rc=$?
check "bad event: exit 2 ($rc)" test "$rc" -eq 2
check "bad event: one clear message" grep -q "pmc top: cannot sample 'no_such_event'" "$TMP/e"
# a process that is gone
sh -c 'exit 0' & gone=$!; wait $gone
"$PMC" top -e cpu-clock -p "$gone" </dev/null >/dev/null 2>"$TMP/e"; rc=$?
check "vanished pid: exit 1 ($rc)" test "$rc" -eq 1
check "vanished pid: says so" grep -q "cannot attach to process $gone" "$TMP/e"
for d in 0 abc -1 nan 1e9; do
  "$PMC" top -d "$d" -l 1 </dev/null >/dev/null 2>"$TMP/e"; rc=$?
  check "bad -d '$d': exit 2 ($rc)" test "$rc" -eq 2
done
check "bad -d: the message says what -d wants" grep -q "refresh interval" "$TMP/e"
"$PMC" top -s nonsense -l 1 </dev/null >/dev/null 2>"$TMP/e"; rc=$?
check "bad -s: exit 2 ($rc)" test "$rc" -eq 2

if ! sh "$PMC_ROOT/tests/helpers/analysis/build.sh" "$W" >"$TMP/build.out" 2>&1; then
  skip "top workloads" "cannot build them: $(tail -1 "$TMP/build.out")"
  done_testing; exit
fi
if ! "$PMC" record -q -e cpu-clock -o "$TMP/probe.log" -- true >/dev/null 2>"$TMP/e"; then
  skip "top" "cannot sample here: $(tail -1 "$TMP/e")"
  done_testing; exit
fi
# a copy named for the screens (its rows show the DSO "topwork")
cp "$W/work603010" "$TMP/topwork"

# share SYM FILE: the first Overhead % of SYM ("[.] SYM") in a block
share() { awk -v s="$1" '$NF == s && $1 ~ /%$/ { sub("%", "", $1); v=$1 } END { print v }' "$2"; }

# ---- not a terminal: plain blocks -----------------------------------------
"$PMC" top -e cpu-clock -d 0.2 -s sym -- "$TMP/topwork" 60 >"$TMP/plain" 2>"$TMP/plain.err" </dev/null
rc=$?
check "plain: exit 0 when the command ends ($rc)" test "$rc" -eq 0
nb=$(grep -c '^pmc top: ' "$TMP/plain")
check "plain: one block per refresh and a last one ($nb)" test "$nb" -ge 2
check "plain: no terminal sequences" bash -c "! grep -q $'\033' '$TMP/plain'"
# the last block is the whole run (read to the log's end)
awk '/^pmc top: /{b=""} {b=b $0 "\n"} END{printf "%s", b}' "$TMP/plain" >"$TMP/last"
h=$(share hot60 "$TMP/last"); w=$(share warm30 "$TMP/last"); c=$(share cold10 "$TMP/last")
check "plain: hot60 ~ 60% (${h:-none})" approx "${h:-0}" 60 20
check "plain: hot60 > warm30 > cold10 ($h $w $c)" \
  awk -v h="${h:-0}" -v w="${w:-0}" -v c="${c:-0}" 'BEGIN { exit !(h > w && w > c && c > 0) }'
first=$(awk '/Overhead/ { getline; print $NF; exit }' "$TMP/last")
check "plain: the first row is hot60 ($first)" test "$first" = hot60
check "plain: the command's output went to stderr" grep -qx '[01]' "$TMP/plain.err"

# -p with -l: a running process, for a while
"$TMP/topwork" 100000 >/dev/null & busy=$!
"$PMC" top -e cpu-clock -d 0.5 -l 1.5 -s comm,sym -p "$busy" >"$TMP/p.txt" 2>"$TMP/p.err" </dev/null
rc=$?
check "-p -l: exit 0 ($rc)" test "$rc" -eq 0
check "-p -l: its functions" grep -Eq 'topwork +\[\.\] (hot60|warm30|cold10)' "$TMP/p.txt"
check "-p: the watched process still runs" kill -0 "$busy"
kill "$busy"; wait "$busy" 2>/dev/null

# -g: a Children column, main() holding (nearly) all of it
"$PMC" top -e cpu-clock -g -d 0.5 -s sym -- "$TMP/topwork" 20 >"$TMP/g.txt" 2>/dev/null </dev/null
awk '/^pmc top: /{b=""} {b=b $0 "\n"} END{printf "%s", b}' "$TMP/g.txt" >"$TMP/glast"
check "-g: Children and Self columns" grep -q 'Children *Self' "$TMP/glast"
mc=$(awk '$NF == "main" { sub("%", "", $1); print $1; exit }' "$TMP/glast")
check "-g: main's children ~ 100% (${mc:-none})" awk -v m="${mc:-0}" 'BEGIN { exit !(m > 85) }'

# lost samples are shown: a tiny ring at a high rate loses some (as in record.sh)
PMC_NSAMPLES=1 PMC_LOGBUFFERSIZE=4 "$PMC" top -g -e cpu-clock -F 100000 -d 0.5 -- \
    "$PMC_ROOT/$PMC_BUILD/helpers/deepcall" 2 64 3000 >"$TMP/lost.txt" 2>/dev/null </dev/null
lost=$(awk '/^pmc top: / { match($0, /lost [0-9,]+/); v = substr($0, RSTART + 5, RLENGTH - 5) } END { gsub(",", "", v); print v }' "$TMP/lost.txt")
check "lost samples shown in the header (${lost:-none})" test "${lost:-0}" -gt 0

# ---- a real terminal ---------------------------------------------------------
if ! command -v tmux >/dev/null; then
  skip "top in a terminal" "tmux is not installed (scripts/deps.sh installs it)"
  done_testing; exit
fi
SOCK=$TMP/tmux.sock
T() { tmux -S "$SOCK" "$@"; }
# Only the processes this script started are looked at or killed (another
# run of this script may be going on at the same time): the pane's shell,
# the pmc it runs, and that pmc's command.
WPIDS=
trap 'tmux -S "$SOCK" kill-server 2>/dev/null; [ -n "$WPIDS" ] && kill -KILL $WPIDS 2>/dev/null; rm -rf "$TMP"' EXIT
pane() { T capture-pane -p -t top; }
pane_pid() { T display -p -t top '#{pane_pid}'; }
# workload_pid: the command of the pmc that the pane's shell runs
workload_pid() {
  local p
  p=$(pgrep -P "$(pane_pid)" -x pmc) && pgrep -P "$p" -x topwork
}
# gone PID: no such process (a zombie still counts as there)
gone() { ! kill -0 "$1" 2>/dev/null; }
no_children() { ! pgrep -P "$(pane_pid)" >/dev/null; }
# wait_until CMD...: until CMD succeeds, the pane captured afresh in
# $TMP/pane before each try.  Bounded (2 minutes), so a broken top fails
# instead of hanging; a condition to reach, not a check of speed.
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
wait_for() { wait_until in_pane "$1"; }         # until the pane shows REGEX
wait_gone() { wait_until not_in_pane "$1"; }    # until it no longer does
T -f /dev/null new-session -d -s top -x 120 -y 32 "env PS1='SHELL-READY\$ ' bash --norc --noprofile"
T send-keys -t top "clear; $PMC top -e cpu-clock -d 0.5 -s sym -- $TMP/topwork 100000" Enter

check "tty: the first screen shows hot60 on top" wait_for '^ +[0-9.]+% +[0-9]+ +\[\.\] hot60'
wp=$(workload_pid); WPIDS="$WPIDS $wp"
check "tty: the command runs under pmc (${wp:-none})" test -n "$wp"
# the first row of the table is hot60, near its share
row=$(awk '/Overhead/ { getline; print; exit }' "$TMP/pane")
hp=$(echo "$row" | awk '{ sub("%", "", $1); print $1 }')
check "tty: hot60 is the first row ($row)" bash -c "echo '$row' | grep -q 'hot60'"
check "tty: hot60's share near 60% of the command's (${hp:-none})" approx "${hp:-0}" 60 25
check "tty: the key line" grep -q 'q quit' "$TMP/pane"
check "tty: the alternate screen (the command line is not shown)" \
  bash -c "! grep -q 'SHELL-READY' '$TMP/pane'"

# z: zoom into the selected row's first key (here its symbol); Backspace: back
T send-keys -t top z
check "z: zoomed into the symbol" wait_for "zoom: Symbol '\[\.\] hot60'"
check "z: only hot60's row" bash -c "! awk '/Overhead/{t=1;next} t && /%/' '$TMP/pane' | grep -v 'hot60'"
T send-keys -t top BSpace
check "Backspace: back out of the zoom" wait_gone 'zoom:'

# s: the next sort order, another header
T send-keys -t top s
check "s: the sort order changes (dso,sym)" wait_for 'sort: dso,sym'
check "s: a Shared Object column" grep -q 'Shared Object' "$TMP/pane"

# Enter: zoom into the selected row's DSO; Escape: back
T send-keys -t top Enter
check "Enter: zoomed into the DSO" wait_for "zoom: Shared Object 'topwork'"
check "zoom: only topwork's rows" bash -c "! awk '/Overhead/{t=1;next} t && /%/' '$TMP/pane' | grep -v ' topwork '"
T send-keys -t top Escape
check "Escape: back out of the zoom" wait_gone 'zoom:'

# p: the counts freeze
T send-keys -t top p
wait_for 'PAUSED' >/dev/null
snap() {  # snap N: the header's count and the rows, now
  pane >"$TMP/full$1"
  grep '^pmc top' "$TMP/full$1" | sed 's/([0-9]*\/s)//' >"$TMP/p$1"
  awk '/Overhead/{t=1;next} t && /%/' "$TMP/full$1" >"$TMP/r$1"
}
sleep 0.6; snap 1
sleep 1.6; snap 2
check "p: paused is shown" grep -q 'PAUSED' "$TMP/full2"
check "p: the sample count holds still ($(cat "$TMP/p1" | grep -o 'samples [0-9,]*'))" cmp -s "$TMP/p1" "$TMP/p2"
check "p: the rows hold still" cmp -s "$TMP/r1" "$TMP/r2"
T send-keys -t top p
check "p again: running again" wait_gone 'PAUSED'

# a resized terminal: redrawn to the new size, the key line at its bottom
key_line_last() { tail -n 1 "$TMP/pane" | grep -q 'q quit'; }
fits_90() { awk 'length($0) > 90 { exit 1 }' "$TMP/pane"; }
redrawn_90() { key_line_last && fits_90; }
T resize-window -t top -x 90 -y 18 2>/dev/null || T resize-pane -t top -x 90 -y 18
wait_until redrawn_90
check "resize: the key line on the last row" key_line_last
check "resize: lines cut to the width" fits_90

# q: the shell comes back, the command is killed and reaped, no pmc left
T send-keys -t top q
check "q: the shell's screen is back" wait_for 'SHELL-READY'
check "q: the alternate screen is gone" bash -c "! grep -q 'q quit' '$TMP/pane'"
check "q: the command is not left running" wait_until gone "${wp:-0}"
check "q: nothing left under the pane's shell" wait_until no_children
# The marker the shell prints is not in the line typed (TTY-$((6*7)) prints
# TTY-42): the echoed command line must not pass for stty's output.
T send-keys -t top "stty -a | grep -o ' -\\?icanon' ; echo TTY-\$((6*7))" Enter
wait_for '^TTY-42$' >/dev/null
check "q: the terminal is cooked again (icanon)" grep -qx ' icanon' "$TMP/pane"

# -l on a terminal: top ends by itself, the terminal given back; also when
# the command ends first (it would otherwise stay until q)
T send-keys -t top "clear; $PMC top -l 2 -e cpu-clock -d 0.5 -- $TMP/topwork 100000; echo TOP-ENDED-\$((40+1))" Enter
check "-l 2 on a terminal: top exits by itself" wait_for '^TOP-ENDED-41$'
check "-l 2: nothing left under the pane's shell" wait_until no_children
T send-keys -t top "clear; $PMC top -l 2 -e cpu-clock -d 0.5 -- sleep 1; echo TOP-ENDED-\$((40+2))" Enter
check "-l 2 -- a 1 s command, on a terminal: top exits by itself" wait_for '^TOP-ENDED-42$'
T send-keys -t top "stty -a | grep -o ' -\\?icanon' ; echo TTY-\$((6*8))" Enter
wait_for '^TTY-48$' >/dev/null
check "-l: the terminal is cooked again (icanon)" grep -qx ' icanon' "$TMP/pane"

# Ctrl-C: the same clean end
T send-keys -t top "clear; $PMC top -e cpu-clock -d 0.5 -- $TMP/topwork 100000" Enter
wait_for 'hot60' >/dev/null
wp=$(workload_pid); WPIDS="$WPIDS $wp"
T send-keys -t top C-c
check "Ctrl-C: the shell's screen is back" wait_for 'SHELL-READY'
check "Ctrl-C: the command is not left running (${wp:-none})" wait_until gone "${wp:-0}"
check "Ctrl-C: nothing left under the pane's shell" wait_until no_children

# SIGTERM, and a crash signal (SIGABRT): the terminal given back as it was
# (tools/pmc/term.c: terminfo's way back, written by the crash handler)
T send-keys -t top "ulimit -c 0" Enter
for sig in TERM ABRT; do
  rm -f "$TMP/stty1" "$TMP/stty2"
  T send-keys -t top "clear; stty -a >$TMP/stty1; $PMC top -e cpu-clock -d 0.5 -- $TMP/topwork 100000; stty -a >$TMP/stty2" Enter
  wait_for 'hot60' >/dev/null
  wp=$(workload_pid); WPIDS="$WPIDS $wp"
  pid=$(pgrep -P "$(pane_pid)" -x pmc | head -1)
  kill -s $sig "${pid:-0}" 2>/dev/null
  wait_until test -s "$TMP/stty2"
  check "SIG$sig: stty -a as before" cmp -s "$TMP/stty1" "$TMP/stty2"
  check "SIG$sig: the cursor visible" test "$(T display -p -t top '#{cursor_flag}')" = 1
  check "SIG$sig: the alternate screen off" test "$(T display -p -t top '#{alternate_on}')" = 0
  # a top that crashed could not end its command
  [ -n "$wp" ] && kill -KILL "$wp" 2>/dev/null
done

# a terminal terminfo cannot draw on (TERM=dumb): the plain-text blocks
T send-keys -t top "clear; TERM=dumb $PMC top -l 1 -e cpu-clock -d 0.5 -- $TMP/topwork 100000; echo TOP-DUMB-\$((40+3))" Enter
check "TERM=dumb: top ends" wait_for '^TOP-DUMB-43$'
# the block may be taller than the pane on a busy machine (more kernel
# rows): read it with the pane's scrollback (what `clear` left: top's key
# line is only ever drawn on the alternate screen, which has none)
T capture-pane -p -S -500 -t top >"$TMP/dumb"
check "TERM=dumb: plain blocks, no key line" bash -c "grep -q 'Overhead' '$TMP/dumb' && ! grep -q 'q quit' '$TMP/dumb'"
check "TERM=dumb: never the alternate screen" test "$(T display -p -t top '#{alternate_on}')" = 0

done_testing
