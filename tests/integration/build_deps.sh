#!/usr/bin/env bash
# The build tracks headers for every program it compiles: a unit test (or a
# fuzz-replay harness) compiled and linked in one step writes a dependency
# file as the library objects do, so editing a header a test includes
# rebuilds that test.  make -n -W pretends the header changed without
# touching the tree.
. "$(dirname "$0")/lib.sh"
B=$PMC_BUILD
T=test_log_dump          # includes tests/unit/test_log_util.h
if ! command -v make >/dev/null || [ ! -x "$PMC_ROOT/$B/tests/$T" ]; then
  skip "a unit test depends on its headers" "no make or no $B/tests/$T (build first)"
elif ! make -C "$PMC_ROOT" -q B="$B" "$B/tests/$T" >/dev/null 2>&1; then
  skip "a unit test depends on its headers" "$B/tests/$T is not up to date (run make first)"
else
  make -C "$PMC_ROOT" -n B="$B" -W tests/unit/test_log_util.h "$B/tests/$T" >"$TMP/make.out" 2>&1
  check "a unit test is rebuilt when a header it includes changes" \
      grep -q "tests/unit/$T\.c" "$TMP/make.out"
  make -C "$PMC_ROOT" -n B="$B" -W tests/unit/test_perfdata_util.h "$B/tests/$T" >"$TMP/make.out" 2>&1
  check "... and not for a header it does not include" \
      sh -c "! grep -q 'tests/unit/$T\.c' '$TMP/make.out'"
fi
done_testing
