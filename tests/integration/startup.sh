#!/usr/bin/env bash
# What `pmc stat -e task-clock -- CMD` costs before it counts (issue 16,
# start-up): the dynamic loader used to map libpfm4 and relocate its event
# tables (41 000 relocations) and capstone's instruction tables (75 000,
# linked statically into pmc) at every start, most of the command's own
# time, while a software event needs neither.  Both are now opened on first
# use (lib/common/dynlib.h).  Checked on the loader's own account
# (LD_DEBUG, glibc's ld.so), not on time; the counts must be what they were.
. "$(dirname "$0")/lib.sh"

if ! "$PMC" stat -e task-clock -- /bin/true >/dev/null 2>&1; then
  skip "pmc stat start-up" "perf_event_open is not allowed here"; done_testing; exit
fi
LD_DEBUG=libs "$PMC" stat -e task-clock -- /bin/true >/dev/null 2>"$TMP/libs"
if ! grep -q 'calling init:' "$TMP/libs"; then
  skip "pmc stat start-up" "the dynamic loader does not report LD_DEBUG=libs"; done_testing; exit
fi
check "pmc stat still counts (task-clock printed)" grep -q 'task-clock' "$TMP/libs"
check "a software event does not load libpfm4" \
  test "$(grep -c 'calling init: .*libpfm\.so' "$TMP/libs")" = 0
check "pmc stat does not load capstone" \
  test "$(grep -c 'calling init: .*libcapstone\.so' "$TMP/libs")" = 0
if command -v nm >/dev/null; then
  check "capstone is not linked into pmc" test "$(nm "$PMC" 2>/dev/null | grep -c ' cs_disasm$')" = 0
else
  skip "capstone is not linked into pmc" "nm is not installed"
fi

# The relocations the loader applies before pmc's main (its first block of
# statistics: the command's exec gives a second one).  The old link applied
# 123 000 (80 000 in pmc, nearly all capstone's tables; 41 000 in libpfm4);
# now about 5 000.
LD_DEBUG=statistics "$PMC" stat -e task-clock -- /bin/true >/dev/null 2>"$TMP/stats"
rel=$(awk '/number of relative relocations:/ { print $NF; exit }' "$TMP/stats")
if [ "$PMC_BUILD" = build-asan ] || [ -n "${PMC_SANITIZED:-}" ]; then
  # ASan's and UBSan's descriptors of every global and check site are
  # pointers too: ~95 000 relocations of the instrumented build's own
  skip "the loader relocates little before main" "sanitizer build ($rel relative relocations)"
elif [ -z "$rel" ]; then
  skip "the loader relocates little before main" "no LD_DEBUG=statistics relocation count"
else
  check "the loader relocates little before main ($rel relative relocations)" test "$rel" -lt 20000
fi

# What needs libpfm4 still gets it: the library is found and answers
# (lib/event's own unit test checks encodings; here, that an installed pmc
# finds it the same way).  An event name libpfm4 does not know is still
# refused with one message.
"$PMC" stat -e no_such_event_xyz -- /bin/true >/dev/null 2>"$TMP/bad"; rc=$?
check "an unknown event name is still refused" test "$rc" != 0
check "with one message naming it" grep -q 'no_such_event_xyz' "$TMP/bad"
done_testing
