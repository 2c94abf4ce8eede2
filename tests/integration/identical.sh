#!/usr/bin/env bash
# identical.sh — a refactoring changes no output (issue 24: "every output
# byte-identical").
#
# Always: dump and dump --json of tests/data's logs (nothing in them
# depends on this machine's binaries or kernel) against the outputs
# committed in tests/data/identical/.
#
# With PMC_OLD=/path/to/pmc (a build of the merge base): every output of
# scripts/identical.sh — report's sort keys, filters and call-graph forms,
# every -F export (json, folded, speedscope, callgrind, svg, html, pprof),
# script's forms, dump, diff, convert and annotate — old against new, on
# the recordings the benches time: perf record -g and flat of the 60/30/10
# workload (bench/report, bench/script) and pmc convert's log of the -g one,
# pmc record -g of it (bench/record), perf record and pmc record
# --call-graph dwarf of tests/helpers/dwarf (bench/dwarf), pmc record
# --call-graph dwarf of nested inlines (bench/inline), and tests/data's logs.
# Run it as:
#
#   git worktree add /tmp/old BASE && make -C /tmp/old -j2
#   make -j2 && PMC_OLD=/tmp/old/build/pmc PMC_BUILD=build PMC=$PWD/build/pmc \
#       PMC_ROOT=$PWD bash tests/integration/identical.sh
#
# (PMC_ONLY=identical PMC_OLD=... make check runs it in the suite.)  Every
# output that differs is named ("differs: FILE.OUTPUT").
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
CC=${CC:-cc}
W=$TMP/w
sh "$PMC_ROOT/tests/helpers/analysis/build.sh" "$W" >/dev/null
D=$PMC_ROOT/tests/helpers/dwarf
"$CC" -O2 -fomit-frame-pointer -g -fPIC -shared -o "$W/libdw_work.so" "$D/libdw_work.c" &&
"$CC" -O2 -fomit-frame-pointer -g -o "$W/dwarf_work" "$D/dwarf_work.c" -L"$W" -ldw_work \
    -Wl,-rpath,"$W" -lpthread || fail "build tests/helpers/dwarf"
sh "$PMC_ROOT/tests/helpers/toolchains/nested_inline.sh" 60 >"$W/nested.c" &&
"$CC" -O2 -g -o "$W/nested" "$W/nested.c" || fail "build nested_inline.sh 60"

files=("$PMC_ROOT/tests/data/log-v1.log" "$PMC_ROOT/tests/data/log-v2.log")
# pmc's own recordings (bench/record, bench/dwarf, bench/inline)
if "$PMC" record -q -e cpu-clock -F 4000 -g -o "$TMP/rec-g.log" -- "$W/work603010" 2 >/dev/null 2>&1
then files+=("$TMP/rec-g.log"); else fail "pmc record -g of the workload"; fi
if "$PMC" record -q --call-graph dwarf -F 1000 -o "$TMP/rec-dwarf.log" -- "$W/dwarf_work" 1 \
    >/dev/null 2>&1
then files+=("$TMP/rec-dwarf.log"); else fail "pmc record --call-graph dwarf of dwarf_work"; fi
if "$PMC" record -q --call-graph dwarf -o "$TMP/rec-inline.log" -- "$W/nested" >/dev/null 2>&1
then files+=("$TMP/rec-inline.log"); else fail "pmc record --call-graph dwarf of nested inlines"; fi
# perf's (bench/report, bench/script, bench/dwarf)
if command -v perf >/dev/null; then
  if perf_record p-g -g -e cpu-clock -c 10000 -- "$W/work603010" 2; then
    files+=("$TMP/p-g.data")
    "$PMC" convert -i "$TMP/p-g.data" -o "$TMP/p-g-conv.log" >/dev/null 2>&1 &&
      files+=("$TMP/p-g-conv.log")
  else
    fail "perf record -g of the workload"
  fi
  if perf_record p-flat -e cpu-clock -c 10000 -- "$W/work603010" 2
  then files+=("$TMP/p-flat.data"); else fail "perf record of the workload"; fi
  if perf_record p-dwarf --call-graph dwarf -F 1000 -- "$W/dwarf_work" 1
  then files+=("$TMP/p-dwarf.data"); else fail "perf record --call-graph dwarf of dwarf_work"; fi
else
  skip "perf's recordings and their conversion" "perf is missing (scripts/deps.sh: OPTIONAL)"
fi
bash "$PMC_ROOT/scripts/identical.sh" --compare "$PMC_OLD" "$PMC" "${files[@]}" >"$TMP/cmp" 2>&1
rc=$?   # taken apart: a $(...) in check's words would set $? first
check "every output of ${#files[@]} recordings as PMC_OLD's: $(tail -1 "$TMP/cmp")" test "$rc" -eq 0
grep '^differs' "$TMP/cmp" | head -40
done_testing
