#!/usr/bin/env bash
# Files a user controls are data, never devices (issue 25 items 9, 10): an
# unprivileged user replaces a binary recorded in their own directory with a
# symbolic link to /proc/kmsg (reading it blocks, and consumes the kernel's
# messages), /proc/self/pagemap or tracefs's trace_pipe.  Root's report,
# script, annotate and -F html end, the report with a warning that names
# the file, and /proc/kmsg is never read: the kernel's log keeps a message
# written before it.  Also XDG_CACHE_HOME as another user's link (the
# /tmp/perf-PID.map link with fs.protected_symlinks=0 is test_analysis's
# test_perfmap_link).
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" != 0 ]; then
  skip "a user's links to kernel files" "needs root (useradd, and root's report is what is attacked)"
  done_testing; exit
fi
if ! command -v useradd >/dev/null; then
  skip "a user's links to kernel files" "useradd is not installed (Debian package passwd)"
  done_testing; exit
fi
U=pmcevil$$
HOMEU=$(mktemp -d /tmp/pmc-evil.XXXXXX)
cleanup() { userdel "$U" 2>/dev/null; rm -rf "$HOMEU" "$TMP"; }
trap cleanup EXIT
useradd -M -d "$HOMEU" -s /bin/sh "$U" || { fail "useradd $U"; done_testing; exit; }
chmod 755 "$HOMEU"; chown "$U" "$HOMEU"
cp "$HELPERS/busy" "$HOMEU/prog"; chown "$U" "$HOMEU/prog"

"$PMC" record -e cpu-clock -F 2000 -o "$TMP/a.log" -- "$HOMEU/prog" 300 >/dev/null 2>"$TMP/rec.err"
check "record the user's program" test -s "$TMP/a.log"

# root's HOME without perf's build-id cache (~/.debug): the binary is read
mkdir -p "$TMP/home"
run() {  # NAME CMD...: the command's output in $TMP/NAME.out; bounded, so a hang fails
  local name=$1; shift
  HOME=$TMP/home timeout 120 "$@" >"$TMP/$name.out" 2>&1
}
for target in /proc/kmsg /proc/self/pagemap /sys/kernel/tracing/trace_pipe; do
  [ -e "$target" ] || { skip "a link to $target" "$target does not exist here"; continue; }
  su -s /bin/sh "$U" -c "rm -f '$HOMEU/prog' && ln -s '$target' '$HOMEU/prog'"
  marker="pmc-hostile-files-$$-$RANDOM"
  [ "$target" = /proc/kmsg ] && echo "$marker" >/dev/kmsg
  run report "$PMC" report -i "$TMP/a.log"; rc=$?
  check "$target: pmc report ends (rc=$rc) with a warning that the link was not followed" \
      sh -c "[ $rc = 0 ] && tail -3 '$TMP/report.out' | grep -q 'prog: a symbolic link of another user.s: not followed'"
  for cmd in "report -F html" "script" "annotate main" "report --sort dso,sym -g"; do
    n=$(echo "$cmd" | tr ' -,' '___')
    run "$n" "$PMC" $cmd -i "$TMP/a.log"; rc=$?
    check "$target: pmc $cmd ends (rc=$rc)" test "$rc" != 124
  done
  if [ "$target" = /proc/kmsg ]; then
    check "/proc/kmsg: the kernel's message is still there (never read)" \
        sh -c "timeout 10 dmesg 2>/dev/null | grep -q '$marker'"
  fi
done

# XDG_CACHE_HOME a link of another user's: root writes nothing through it
mkdir -p "$TMP/victim"; chmod 700 "$TMP/victim"
su -s /bin/sh "$U" -c "ln -s '$TMP/victim' '$HOMEU/cache'"
HOME=$TMP/home XDG_CACHE_HOME=$HOMEU/cache "$PMC" report -i "$TMP/a.log" >/dev/null 2>&1
check "XDG_CACHE_HOME as another user's link: nothing written through it" \
    test -z "$(ls -A "$TMP/victim")"

done_testing
