#!/bin/sh
# The main job on bundled examples, writing only under build/demo/:
#   1. count a workload's events (perf stat's view) and per process of a
#      small process tree (hwpmc's PROCEXIT view);
#   2. record a program built to spend 60/30/10 % of its time in three
#      functions, report it, and export a flame graph and an HTML report;
#   3. the same profile on the simulated ARMv8 PMU (exact 70/20/10).
set -e
B=${PMC_BUILD:-build}
D=$B/demo
rm -rf "$D"
mkdir -p "$D"
echo "== pmc stat: a workload that touches 2000 fresh pages =="
"$B/pmc" stat -e task-clock,page-faults,context-switches,cycles -- "$B/helpers/touch_pages" 2000
echo "== pmc stat --per-process: a parent and 3 children (tests/helpers/forktree.c) =="
"$B/pmc" stat --per-process -e page-faults,task-clock -- "$B/helpers/forktree" 3 500 | sed -n '/Per-process/,$p'

echo "== pmc record -g + pmc report: tests/helpers/analysis/work603010.c (60/30/10 %) =="
tests/helpers/analysis/build.sh "$D/w" >/dev/null
"$B/pmc" record -g -o "$D/work.log" -- "$D/w/work603010" 10
"$B/pmc" report -i "$D/work.log" -n 6 --color never
"$B/pmc" report -i "$D/work.log" -F svg -o "$D/work.svg"
"$B/pmc" report -i "$D/work.log" -F html -o "$D/work.html"
echo "flame graph: $D/work.svg   HTML report: $D/work.html"

echo "== the simulated ARMv8 PMU: examples/sim/hot70.wl (70/20/10 % of cycles) =="
"$B/pmc" stat --backend sim -e instructions,cycles -- examples/sim/hot70.wl
"$B/pmc" record -q --backend sim -e cycles -o "$D/sim.log" -- examples/sim/hot70.wl
"$B/pmc" report -i "$D/sim.log" -n 3 --color never | grep -v '^#'
