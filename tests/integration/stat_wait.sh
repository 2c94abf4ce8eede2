#!/usr/bin/env bash
# How `pmc stat -- CMD` waits (issue 16, start-up): for the command's exit
# through its pidfd, not in naps (a 2 ms nap loop noticed an exit up to 2 ms
# late), and its target-exit watcher is woken to stop, never sleeping on an
# empty set (its 50 ms poll period held pmc_fini, so the whole command, by
# up to 50 ms).  Checked on the system calls (strace), not on time; the
# counts must be what they were.
. "$(dirname "$0")/lib.sh"

if ! command -v strace >/dev/null; then
  skip "pmc stat waits without naps" "strace is not installed"; done_testing; exit
fi
if ! "$PMC" stat -e task-clock -- /bin/true >/dev/null 2>&1; then
  skip "pmc stat waits without naps" "perf_event_open is not allowed here"; done_testing; exit
fi
strace -f -o "$TMP/st" -e trace=clock_nanosleep,nanosleep,poll,ppoll,pidfd_open \
  "$PMC" stat -e task-clock -- /bin/true >/dev/null 2>"$TMP/err"
check "pmc stat still counts (task-clock printed)" grep -q 'task-clock' "$TMP/err"
check "the command's exit is waited for on its pidfd" grep -q 'pidfd_open(' "$TMP/st"
check "no naps while waiting (clock_nanosleep)" test "$(grep -c 'nanosleep(' "$TMP/st")" = 0
check "the watcher never sleeps on an empty poll set" test "$(grep -c 'poll(\[\], 0' "$TMP/st")" = 0
"$PMC" stat -e task-clock,context-switches -- sh -c 'exit 3' >/dev/null 2>"$TMP/e2"; rc=$?
check "the command's exit status is passed on" test "$rc" = 3
done_testing
