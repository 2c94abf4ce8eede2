#!/usr/bin/env bash
# Output files are created safely, by one opener (lib/core/outfile.c) for
# every command (issue 11 item 4, issue 10's ".old", issue 14's "one output
# opener"):
#  - a symlink another user planted in a sticky directory is never followed:
#    record -f -o, report -f -o, convert -f -o, stat -o leave its target alone;
#  - a failed -o write (file size limit, SIGXFSZ ignored) leaves nothing behind
#    that would block the next run;
#  - a second `pmc record` renames the old log to FILE.old (perf's habit),
#    moving a symlink rather than following it;
#  - one wording for "exists, use -f" in every command.
. "$(dirname "$0")/lib.sh"

"$PMC" record -e cpu-clock -o "$TMP/a.log" -- "$HELPERS/busy" 100 >/dev/null 2>&1 ||
  fail "record a log to work on"

# ---- planted symlinks ------------------------------------------------------------
if [ "$(id -u)" != 0 ] || ! id nobody >/dev/null 2>&1; then
  skip "planted symlinks" "needs root and a 'nobody' user to own the link"
else
  S=$TMP/sticky; mkdir "$S"; chmod 1777 "$S"
  victim=$TMP/victim; : >"$TMP/dummy"
  plant() {   # a link owned by nobody in the sticky directory, to the victim
    printf 'secret\n' >"$victim"; chmod 600 "$victim"
    rm -f "$S/out"; ln -s "$victim" "$S/out"; chown -h nobody "$S/out"
  }
  untouched() { [ "$(cat "$victim")" = secret ]; }
  plant; "$PMC" record -f -e cpu-clock -o "$S/out" -- true >/dev/null 2>&1
  check "record -f -o: the planted link's target is untouched" untouched
  check "record -f -o: the log is where the link was" test -f "$S/out" -a ! -L "$S/out"
  plant; "$PMC" report -f -i "$TMP/a.log" -o "$S/out" >/dev/null 2>&1
  check "report -f -o: the planted link's target is untouched" untouched
  plant; "$PMC" stat -o "$S/out" -e task-clock -- true >/dev/null 2>&1
  check "stat -o: the planted link's target is untouched" untouched
  plant; "$PMC" annotate -f -i "$TMP/a.log" -o "$S/out" main >/dev/null 2>&1
  check "annotate -f -o: the planted link's target is untouched" untouched
  plant; "$PMC" convert -f -i "$TMP/a.log" -o "$S/out" >/dev/null 2>&1
  check "convert -f -o: the planted link's target is untouched" untouched
  plant; "$PMC" record -e cpu-clock -o "$S/out" -- true >/dev/null 2>&1
  if untouched && [ -L "$S/out.old" ] && [ "$(readlink "$S/out.old")" = "$victim" ]; then
    ok "record without -f: the planted link is renamed to .old, not followed"
  else fail "record .old on a planted link" "$(ls -l "$S")"; fi
  # a link of our own (or /dev/stdout) is followed as before
  "$PMC" report -f -i "$TMP/a.log" -o /dev/stdout >"$TMP/own.txt" 2>"$TMP/own.err"
  check "report -o /dev/stdout (a trusted link) still works" grep -q '^# Samples' "$TMP/own.txt"
fi

# ---- a failed write leaves nothing behind ----------------------------------------
"$PMC" report -i "$TMP/a.log" -F svg -o "$TMP/big.svg" 2>/dev/null
size=$(stat -c %s "$TMP/big.svg" 2>/dev/null || echo 0)
if [ "$size" -le 4096 ]; then
  skip "failed -o write" "the SVG is only $size bytes"
else
  rm -f "$TMP/big.svg"
  (ulimit -f 2; trap '' XFSZ; exec "$PMC" report -i "$TMP/a.log" -F svg -o "$TMP/f.svg") 2>"$TMP/f.err"
  rc=$?
  left=$(ls -A "$TMP" | grep -c 'f\.svg')
  if [ "$rc" = 1 ] && [ "$left" = 0 ] && grep -q "cannot write '$TMP/f.svg'" "$TMP/f.err"; then
    ok "report -o over the file size limit: exit 1, says so, no partial file left"
  else fail "failed -o write" "rc=$rc left=$left $(cat "$TMP/f.err")"; fi
  "$PMC" report -i "$TMP/a.log" -F svg -o "$TMP/f.svg" 2>/dev/null
  check "... and the next run (no -f) succeeds" test $? = 0 -a -s "$TMP/f.svg"
  (ulimit -f 2; trap '' XFSZ; exec "$PMC" convert -i "$TMP/a.log" -o "$TMP/f.data") 2>"$TMP/c.err"
  rc=$?
  if [ "$(stat -c %s "$TMP/a.log")" -le 4096 ]; then
    skip "convert over the size limit" "the log is too small"
  else
    check "convert -o over the file size limit: exit 1, no partial file" \
      test "$rc" = 1 -a ! -e "$TMP/f.data"
  fi
fi

# ---- a valid long name ------------------------------------------------------------
# 251 bytes: the temporary name beside it must still fit NAME_MAX (255)
long=$(printf 'n%.0s' $(seq 247)).out
mkdir "$TMP/long"
for cmd in "report -i $TMP/a.log" "script -i $TMP/a.log" "diff $TMP/a.log $TMP/a.log" \
           "convert -i $TMP/a.log" "annotate -i $TMP/a.log main" "stat -e task-clock"; do
  name=${cmd%% *}
  case $name in stat) $PMC $cmd -o "$TMP/long/$long" -- true ;; *) $PMC $cmd -o "$TMP/long/$long" ;; esac \
    >/dev/null 2>"$TMP/long.err"; rc=$?
  if [ "$rc" = 0 ] && [ -s "$TMP/long/$long" ] && [ "$(ls -A "$TMP/long")" = "$long" ]; then
    ok "$name -o a 251-byte name: written, nothing else left"
  else fail "$name -o a 251-byte name" "rc=$rc $(cat "$TMP/long.err")"; fi
  rm -f "$TMP/long/$long"
done

# ---- perf's .old -----------------------------------------------------------------
mkdir "$TMP/cwd"
( cd "$TMP/cwd" && "$PMC" record -e cpu-clock -- true >/dev/null 2>&1 &&
  cp pmc.log first.log && "$PMC" record -e cpu-clock -- true >/dev/null 2>"$TMP/old.err" )
if cmp -s "$TMP/cwd/first.log" "$TMP/cwd/pmc.log.old" && "$PMC" dump -i "$TMP/cwd/pmc.log" 2>/dev/null |
   tail -1 | grep -q CLOSELOG; then
  ok "a second pmc record renames pmc.log to pmc.log.old (as perf does perf.data)"
else fail "record .old" "$(ls -l "$TMP/cwd") $(cat "$TMP/old.err")"; fi
printf 'mine\n' >"$TMP/cwd/target"; ln -sf target "$TMP/cwd/pmc.log"
( cd "$TMP/cwd" && "$PMC" record -e cpu-clock -- true >/dev/null 2>&1 )
if [ "$(cat "$TMP/cwd/target")" = mine ] && [ -L "$TMP/cwd/pmc.log.old" ] && [ ! -L "$TMP/cwd/pmc.log" ]; then
  ok "record: a symlink at pmc.log is renamed to .old, never followed"
else fail "record .old symlink" "$(ls -l "$TMP/cwd")"; fi

# ---- one wording --------------------------------------------------------------------
echo keep >"$TMP/keep"
for cmd in "report -i $TMP/a.log" "annotate -i $TMP/a.log main" "diff $TMP/a.log $TMP/a.log" \
           "convert -i $TMP/a.log"; do
  name=${cmd%% *}
  $PMC $cmd -o "$TMP/keep" >/dev/null 2>"$TMP/w.err"; rc=$?
  if [ "$rc" = 1 ] && grep -qx "pmc $name: '$TMP/keep' exists; use -f to overwrite it" "$TMP/w.err" &&
     [ "$(cat "$TMP/keep")" = keep ]; then
    ok "$name -o EXISTING: exit 1, \"exists; use -f to overwrite it\""
  else fail "$name -o EXISTING" "rc=$rc $(cat "$TMP/w.err")"; fi
done
"$PMC" report -i "$TMP/a.log" -o "$TMP" 2>"$TMP/d.err"; rc=$?
check "report -o DIRECTORY: exit 1, 'Is a directory'" \
  bash -c "[ $rc = 1 ] && grep -q 'Is a directory' '$TMP/d.err'"

# record -o NAME of 252-255 bytes over an existing NAME: NAME.old would pass
# NAME_MAX, so the backup is NAME cut to 251 bytes + .old, and said
mkdir "$TMP/longbak"
for len in 252 255; do
  name=$(printf 'L%.0s' $(seq "$len")); bak="$(printf 'L%.0s' $(seq 251)).old"
  echo "old log" >"$TMP/longbak/$name"
  (cd "$TMP/longbak" && "$PMC" record -e cpu-clock -o "$name" -- true >/dev/null 2>"$TMP/long.err"); rc=$?
  if [ "$rc" = 0 ] && [ "$(cat "$TMP/longbak/$bak" 2>/dev/null)" = "old log" ] &&
     grep -q "is now '$bak'" "$TMP/long.err" && "$PMC" report -i "$TMP/longbak/$name" >/dev/null 2>&1; then
    ok "record -o over an existing $len-byte name: old log kept as 251 bytes + .old, said"
  else fail "record -o over an existing $len-byte name" "rc=$rc $(head -c 300 "$TMP/long.err")"; fi
  rm -f "$TMP/longbak/"*
done
done_testing
