#!/usr/bin/env bash
# pmc list end to end: the software events with their descriptions, glob
# filters, --json, the hardware heading on a machine without a PMU,
# --classes, and every usage and failure exit status.
. "$(dirname "$0")/lib.sh"

# --- the full list ------------------------------------------------------------
"$PMC" list >"$TMP/all" 2>"$TMP/all.err"; rc=$?
check "pmc list exits 0" test "$rc" = 0
# The software section: heading, then "  NAME [OR ALIAS]  DESCRIPTION" lines.
sed -n '/^Software events:$/,/^$/p' "$TMP/all" | sed '1d;/^$/d' >"$TMP/soft"
if grep -Eq '^  task-clock +Time the task was running' "$TMP/soft"; then ok "task-clock is listed with its description"
else fail "task-clock with its description" "$(cat "$TMP/soft" "$TMP/all.err")"; fi
n=$(wc -l <"$TMP/soft")
nodesc=$(awk '{ sub(/^  /, ""); sub(/ OR [^ ]+/, ""); if (NF < 2) print }' "$TMP/soft")
if [ "$n" -ge 8 ] && [ -z "$nodesc" ]; then ok "all $n software events have a description"
else fail "software events have descriptions" "n=$n, without: $nodesc"; fi
for e in cpu-clock page-faults context-switches cpu-migrations; do
  grep -Eq "^  $e( |$)" "$TMP/soft" || { fail "software event $e listed"; continue; }
  ok "software event $e listed"
done
grep -Eq '^  page-faults OR faults ' "$TMP/soft"; check "aliases shown as 'NAME OR ALIAS'" test $? = 0

# --- globs ----------------------------------------------------------------------
"$PMC" list '*fault*' >"$TMP/g1" 2>&1; rc=$?
if [ "$rc" = 0 ] && grep -Eq '^  page-faults( |$)' "$TMP/g1" && ! grep -q 'task-clock' "$TMP/g1"; then
  ok "'*fault*' lists page-faults and not task-clock"
else fail "'*fault*' glob" "rc=$rc $(cat "$TMP/g1")"; fi
if grep -Eq '^  (minor|major)-faults ' "$TMP/g1" && ! grep -Eq '^  (cycles|instructions|cpu-clock) ' "$TMP/g1"; then
  ok "'*fault*' keeps only matching names"
else fail "'*fault*' keeps only matching names" "$(cat "$TMP/g1")"; fi
"$PMC" list '*FAULT*' 2>/dev/null | grep -Eq '^  page-faults( |$)'
check "globs are case-insensitive" test $? = 0
out=$("$PMC" list cs 2>&1)
if echo "$out" | grep -Eq '^  context-switches OR cs ' && [ "$(echo "$out" | grep -c '^  ')" = 1 ]; then
  ok "a glob matches aliases: 'cs' gives context-switches only"
else fail "glob on an alias" "$out"; fi
out=$("$PMC" list task-clock page-faults 2>&1)
if echo "$out" | grep -Eq '^  task-clock ' && echo "$out" | grep -Eq '^  page-faults ' &&
   [ "$(echo "$out" | grep -c '^  ')" = 2 ]; then ok "several globs: an event is listed if any matches"
else fail "several globs" "$out"; fi

# --- --json ------------------------------------------------------------------------
"$PMC" list --json >"$TMP/l.json" 2>"$TMP/l.err"; rc=$?
if [ "$rc" = 0 ] && python3 - "$TMP/l.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d, list) and len(d) >= 20, len(d)
for e in d:
    for k in ("name", "category", "description", "unit"):
        assert k in e and isinstance(e[k], str), (k, e)
    assert e["name"] and e["description"], e
cats = {"hardware", "software", "cache", "raw", "pmu", "tracepoint", "armv8", "libpfm4"}
assert all(e["category"] in cats for e in d), {e["category"] for e in d} - cats
by = {e["name"]: e for e in d}
assert by["page-faults"]["category"] == "software", by["page-faults"]
assert by["task-clock"]["category"] == "software"
assert "running" in by["task-clock"]["description"].lower(), by["task-clock"]
assert by["cycles"]["category"] == "hardware"
assert len(by) == len(d), "duplicate names"
PY
then ok "--json: valid, name/category/description/unit, page-faults is software"
else fail "--json" "rc=$rc $(head -c 600 "$TMP/l.json") $(cat "$TMP/l.err")"; fi
"$PMC" list --json '*fault*' >"$TMP/g.json" 2>/dev/null
if python3 - "$TMP/g.json" <<'PY'
import json, sys
names = [e["name"] for e in json.load(open(sys.argv[1]))]
assert "page-faults" in names and "task-clock" not in names, names
assert all("fault" in n.lower() or n == "page-faults" for n in names), names
PY
then ok "--json with a glob lists only the matches"; else fail "--json with a glob" "$(cat "$TMP/g.json")"; fi

# Every software name pmc list prints is accepted by pmc stat -e.
bad=""
for e in $(python3 -c 'import json,sys; print(" ".join(e["name"] for e in json.load(open(sys.argv[1])) if e["category"] == "software"))' "$TMP/l.json"); do
  "$PMC" stat -x, -e "$e" -- true >/dev/null 2>&1; rc=$?
  [ "$rc" = 2 ] && bad="$bad $e"
done
check "every listed software event parses in pmc stat -e${bad:+ (not:$bad)}" test -z "$bad"

# --- the hardware heading ----------------------------------------------------------------
hw=$(grep '^Hardware events' "$TMP/all")
if [ -e /sys/bus/event_source/devices/cpu ]; then
  if [ "$hw" = "Hardware events:" ]; then ok "hardware events listed as supported (this machine has a PMU)"
  else fail "hardware heading on a machine with a PMU" "'$hw'"; fi
else
  if [ "$hw" = "Hardware events [not supported on this machine: no hardware PMU]:" ] &&
     grep -q '^Hardware cache events \[not supported' "$TMP/all"; then
    ok "no /sys/bus/event_source/devices/cpu: hardware sections marked not supported"
  else fail "hardware heading without a PMU" "'$hw'"; fi
fi
# The names are listed either way (they parse; counting them is what fails).
grep -Eq '^  cycles OR cpu-cycles ' "$TMP/all"; check "cycles is listed with its alias" test $? = 0

# --- --classes -------------------------------------------------------------------------------
"$PMC" list --classes >"$TMP/c" 2>&1; rc=$?
soft=$(awk '$1 == "SOFT"' "$TMP/c")
if [ "$rc" = 0 ] && [ -n "$soft" ] && [ "$(echo "$soft" | awk '{print $3}')" = 64 ] &&
   [ "$(echo "$soft" | awk '{print $2}')" -gt 0 ]; then ok "--classes: SOFT, width 64 ($soft)"
else fail "--classes SOFT row" "rc=$rc $(cat "$TMP/c")"; fi
# pmc_ncpu(3) is the highest possible CPU + 1 (as hwpmc: CPU numbers index it).
ncpu=$(tr ',-' '\n\n' </sys/devices/system/cpu/possible 2>/dev/null | sort -n | tail -1)
ncpu=$(( ${ncpu:-$(( $(getconf _NPROCESSORS_CONF) - 1 ))} + 1 ))
if head -1 "$TMP/c" | grep -Eq "^backend linux, CPU type [A-Z0-9_]+, $ncpu CPUs?,"; then
  ok "--classes: backend, CPU type and CPU count ($ncpu)"
else fail "--classes header" "$(head -1 "$TMP/c") (expected $ncpu CPUs)"; fi
echo "$soft" | grep -q 'INTERRUPT' && echo "$soft" | grep -q 'READ'
check "--classes: SOFT can interrupt and be read" test $? = 0
"$PMC" list --classes --json >"$TMP/c.json" 2>&1
if python3 - "$TMP/c.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["backend"] == "linux" and d["ncpu"] >= 1, d
cl = {c["class"]: c for c in d["classes"]}
assert cl["SOFT"]["width"] == 64 and cl["SOFT"]["counters"] > 0, cl
assert d["npmc"] == sum(c["counters"] for c in d["classes"]), d
PY
then ok "--classes --json: valid, SOFT width 64, npmc is the sum of the classes"
else fail "--classes --json" "$(cat "$TMP/c.json")"; fi

# --- usage and failures ------------------------------------------------------------------------
"$PMC" list --bogus >"$TMP/o" 2>"$TMP/e"; rc=$?
if [ "$rc" = 2 ] && grep -q "^pmc list: unknown option '--bogus'" "$TMP/e" && [ ! -s "$TMP/o" ]; then
  ok "unknown option: exit 2, message, nothing on stdout"
else fail "unknown option" "rc=$rc $(cat "$TMP/e")"; fi
"$PMC" list --backend >/dev/null 2>"$TMP/e"; rc=$?
check "--backend without its argument: exit 2" test "$rc" = 2
"$PMC" list --backend nosuch >/dev/null 2>"$TMP/e"; rc=$?
if [ "$rc" = 2 ] && grep -q "nosuch" "$TMP/e"; then ok "unknown backend: exit 2, names it"
else fail "unknown backend" "rc=$rc $(cat "$TMP/e")"; fi
"$PMC" list --classes '*' >/dev/null 2>&1; rc=$?
check "--classes with a glob: exit 2" test "$rc" = 2
for h in -h --help; do
  "$PMC" list "$h" >"$TMP/o" 2>"$TMP/e"; rc=$?
  if [ "$rc" = 0 ] && grep -q '^usage: pmc list' "$TMP/o" && grep -q -- '--classes' "$TMP/o" && [ ! -s "$TMP/e" ]; then
    ok "$h: exit 0, usage on stdout"
  else fail "$h" "rc=$rc $(cat "$TMP/o" "$TMP/e")"; fi
done
"$PMC" list 'no-such-event-*' >"$TMP/o" 2>"$TMP/e"; rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" != 2 ] && head -1 "$TMP/e" | grep -q "^pmc list: " &&
   grep -q "no-such-event-" "$TMP/e" && [ ! -s "$TMP/o" ]; then
  ok "a glob matching nothing: exit $rc, 'pmc list: ...' names it"
else fail "a glob matching nothing" "rc=$rc out=$(cat "$TMP/o") err=$(cat "$TMP/e")"; fi
"$PMC" list --json 'no-such-event-*' >"$TMP/o" 2>"$TMP/e"; rc=$?
if [ "$rc" = 1 ] && python3 -c 'import json,sys; assert json.load(open(sys.argv[1])) == []' "$TMP/o"; then
  ok "--json matching nothing: exit 1, an empty array"
else fail "--json matching nothing" "rc=$rc $(cat "$TMP/o" "$TMP/e")"; fi
if [ -w /dev/full ]; then
  "$PMC" list >/dev/full 2>"$TMP/e"; rc=$?
  if [ "$rc" = 1 ] && grep -q "^pmc list: " "$TMP/e"; then ok "write error (/dev/full): exit 1, message"
  else fail "write error" "rc=$rc $(cat "$TMP/e")"; fi
else
  skip "write error" "/dev/full is not writable here"
fi
# NO_COLOR and a pipe: never escape sequences in the output.
if NO_COLOR=1 "$PMC" list 2>/dev/null | grep -q $'\033'; then fail "no colour codes with NO_COLOR or a pipe"
else ok "no colour codes with NO_COLOR or a pipe"; fi

done_testing
