#!/usr/bin/env bash
# pmc control (pmccontrol): classes, rows, statistics, PMCADMIN.
. "$(dirname "$0")/lib.sh"
out=$("$PMC" control -L)
if echo "$out" | grep -qx SOFT && echo "$out" | grep -qP '^\ttask-clock$'; then ok "-L: SOFT class with task-clock"
else fail "-L" "$out"; fi
out=$("$PMC" control -l)
ncpu=$(getconf _NPROCESSORS_CONF)
if echo "$out" | head -1 | grep -q "^$ncpu .* CPUs present, with [0-9]* PMCs per CPU" &&
   [ "$(echo "$out" | grep -c '^#CPU')" = "$ncpu" ]; then ok "-l: heading and one table per CPU"
else fail "-l" "$(echo "$out" | head -3)"; fi
out=$("$PMC" control -s)
if echo "$out" | grep -q "^system calls: *[0-9]" && echo "$out" | grep -q "kern.hwpmc.logbuffersize *256"; then
  ok "-s: statistics and tunables"; else fail "-s" "$out"; fi
out=$(PMC_LOGBUFFERSIZE=512 "$PMC" control -s)
if echo "$out" | grep -q "kern.hwpmc.logbuffersize *512"; then ok "-s shows a tunable set in the environment"; else fail "-s env" "$out"; fi
if [ "$(id -u)" = 0 ]; then
  out=$("$PMC" control -b sim -c 1 -d 2 -l)
  row=$(echo "$out" | awk '/^#CPU 1:/{f=1;next} /^#CPU/{f=0} f && $1=="2"{print $4, $5}')
  other=$(echo "$out" | awk '/^#CPU 0:/{f=1;next} /^#CPU/{f=0} f && $1=="2"{print $4, $5}')
  # the row is STANDALONE on every CPU (hwpmc: some counter of the row is disabled)
  if [ "$row" = "DISABLED STANDALONE" ] && [ "$other" = "ENABLED STANDALONE" ]; then ok "-c 1 -d 2 disables that CPU's counter; the row becomes STANDALONE"
  else fail "-d" "cpu1: '$row' cpu0: '$other'"; fi
else
  skip "-d" "needs root"
fi
setpriv_ok=0; command -v setpriv >/dev/null && [ "$(id -u)" = 0 ] && setpriv_ok=1
if [ $setpriv_ok = 1 ]; then
  setpriv --reuid=65534 --regid=65534 --clear-groups "$PMC" control -d 0 2>"$TMP/e"; rc=$?
  if [ "$rc" = 1 ] && grep -q "needs root" "$TMP/e"; then ok "unprivileged -d: exit 1, needs root"; else fail "unprivileged -d" "rc=$rc $(cat "$TMP/e")"; fi
else skip "unprivileged -d" "needs root and setpriv"; fi
"$PMC" control -d 99999 2>/dev/null; check "row out of range: exit 2" test $? = 2
for args in "-e ''" "-d ''" "-c '' -e 0" "-e 1x"; do
  eval "\"\$PMC\" control $args" 2>"$TMP/e"; rc=$?
  if [ "$rc" = 2 ] && grep -q "is not a" "$TMP/e"; then ok "control $args: usage error"
  else fail "control $args" "rc=$rc $(cat "$TMP/e")"; fi
done
"$PMC" control 2>/dev/null; check "nothing to do: exit 2" test $? = 2
"$PMC" control --help | grep -q pmccontrol; check "--help" test $? = 0
done_testing
