#!/bin/sh
# The main job on bundled examples: count a workload's events (perf stat's
# view), then per process of a small process tree (hwpmc's PROCEXIT view).
set -e
B=${PMC_BUILD:-build}
echo "== pmc stat: a workload that touches 2000 fresh pages =="
"$B/pmc" stat -e task-clock,page-faults,context-switches,cycles -- "$B/helpers/touch_pages" 2000
echo "== pmc stat --per-process: a parent and 3 children (tests/helpers/forktree.c) =="
"$B/pmc" stat --per-process -e page-faults,task-clock -- "$B/helpers/forktree" 3 500 | sed -n '/Per-process/,$p'
echo "== pmc list software =="
"$B/pmc" list software
