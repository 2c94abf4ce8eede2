#!/usr/bin/env bash
# identical.sh — a refactoring changes no output (issue 24: "every output
# byte-identical").  Always: dump and dump --json of tests/data's logs
# (nothing in them depends on this machine's binaries or kernel) against the
# outputs committed in tests/data/identical/.  With PMC_OLD=/path/to/pmc (a
# build of the merge base, e.g. from `git worktree add`): every output of
# scripts/identical.sh (report's sort keys, call graphs and exports, script,
# dump, diff, annotate) of a fresh perf.data, its pmc convert and a pmc
# record of the bundled workload, and of tests/data's logs, old against new.
source "$(dirname "$0")/lib.sh"

cd "$PMC_ROOT/tests/data" || exit 1
for f in log-v1.log log-v2.log; do
  for k in dump dump_json; do
    args=(); [ $k = dump_json ] && args=(--json)
    "$PMC" dump -i "$f" "${args[@]}" >"$TMP/$f.$k" 2>&1
    check "$f: $k as committed (tests/data/identical/$f.$k)" cmp -s "$TMP/$f.$k" "identical/$f.$k"
  done
done

if [ -z "${PMC_OLD:-}" ]; then
  skip "every output as PMC_OLD's" "PMC_OLD unset (a pmc built from the merge base)"
  done_testing; exit
fi
W=$TMP/w
sh "$PMC_ROOT/tests/helpers/analysis/build.sh" "$W" >/dev/null
files=("$PMC_ROOT/tests/data/log-v1.log" "$PMC_ROOT/tests/data/log-v2.log")
if "$PMC" record -q -e cpu-clock -c 100000 -g -o "$TMP/rec.log" -- "$W/work603010" 2 >/dev/null 2>&1
then files+=("$TMP/rec.log"); else fail "pmc record of the workload"; fi
if command -v perf >/dev/null && perf_record p -g -e cpu-clock -c 10000 -- "$W/work603010" 2; then
  files+=("$TMP/p.data")
  "$PMC" convert -i "$TMP/p.data" -o "$TMP/conv.log" >/dev/null 2>&1 && files+=("$TMP/conv.log")
else
  skip "a perf.data and its conversion" "perf is missing or failed (scripts/deps.sh: OPTIONAL)"
fi
bash "$PMC_ROOT/scripts/identical.sh" --compare "$PMC_OLD" "$PMC" "${files[@]}" >"$TMP/cmp" 2>&1
rc=$?   # before the check's words, whose $(tail) would reset $?
check "every output as PMC_OLD's: $(tail -1 "$TMP/cmp")" test $rc -eq 0
grep '^differs' "$TMP/cmp" | head -20
done_testing
