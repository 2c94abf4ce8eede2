#!/usr/bin/env bash
# Runs every libFuzzer harness built by `make fuzz` (build-fuzz/fuzz_*) for
# FUZZ_TIME seconds each (default 30), one at a time and niced, on a working
# copy of its committed seed corpus (tests/fuzz/corpus/NAME/; new inputs go
# to build-fuzz/corpus/NAME/, never into the tree).  A crash, leak, timeout
# (FUZZ_TIMEOUT s per input, default 10) or memory blow-up (FUZZ_RSS MB,
# default 2048) stops that harness with its input saved under
# build-fuzz/artifacts/NAME/; copy it to tests/fuzz/regress/NAME/ once fixed
# so the normal suite replays it.  Exit 1 if any harness failed.
set -u
cd "$(dirname "$0")/../.."
T=${FUZZ_TIME:-30}
B=build-fuzz
status=0
for h in "$B"/fuzz_*; do
  [ -x "$h" ] || continue
  name=$(basename "$h")
  name=${name#fuzz_}
  work=$B/corpus/$name art=$B/artifacts/$name
  mkdir -p "$work" "$art"
  seeds=()
  [ -d "tests/fuzz/corpus/$name" ] && seeds+=("tests/fuzz/corpus/$name")
  [ -d "tests/fuzz/regress/$name" ] && seeds+=("tests/fuzz/regress/$name")
  echo "fuzz: $name for ${T}s"
  if nice -n 10 "$h" -max_total_time="$T" -timeout="${FUZZ_TIMEOUT:-10}" \
       -rss_limit_mb="${FUZZ_RSS:-2048}" -max_len=65536 -print_final_stats=1 \
       -artifact_prefix="$art/" "$work" "${seeds[@]}" >"$B/$name.log" 2>&1; then
    grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' "$B/$name.log" | tail -2
  else
    status=1
    echo "fuzz: $name FAILED (see $B/$name.log, input in $art/)"
    grep -E '^==[0-9]+==ERROR|SUMMARY|^artifact_prefix|Test unit written' "$B/$name.log" | head -5
  fi
done
exit $status
