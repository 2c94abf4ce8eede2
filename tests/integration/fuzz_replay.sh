#!/usr/bin/env bash
# Replays every committed fuzz input through its harness, built as a plain
# program (build/fuzz-replay/NAME, tests/fuzz/replay.c): the seed corpora
# (tests/fuzz/corpus/NAME/) and each crash, hang or leak the fuzzers found
# (tests/fuzz/regress/NAME/, one file per finding, named for what it broke).
# Under `make check-sanitize` this runs with ASan+UBSan, so a regression of a
# memory bug fails here even without clang/libFuzzer.
. "$(dirname "$0")/lib.sh"
R=$PMC_ROOT/$PMC_BUILD/fuzz-replay
n=0
for src in "$PMC_ROOT"/tests/fuzz/fuzz_*.c; do
  h=$(basename "$src" .c); name=${h#fuzz_}
  if [ ! -x "$R/$h" ]; then
    fail "$h built" "$R/$h missing"
    continue
  fi
  for dir in corpus regress; do
    d=$PMC_ROOT/tests/fuzz/$dir/$name
    [ -d "$d" ] || continue
    for f in "$d"/*; do
      [ -f "$f" ] || continue
      n=$((n + 1))
      # a hang guard only: a replay takes well under a second
      if timeout 120 "$R/$h" "$f" >"$TMP/out" 2>&1; then
        ok "$h $dir/$name/$(basename "$f")"
      else
        fail "$h $dir/$name/$(basename "$f")" "$(grep -m1 -E 'ERROR|runtime error|replay:' "$TMP/out" | tail -1)"
      fi
    done
  done
done
[ "$n" -gt 0 ] || fail "fuzz inputs found" "none under tests/fuzz/{corpus,regress}"
done_testing
