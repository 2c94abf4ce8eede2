#!/usr/bin/env bash
# The layers are enforced, not just drawn (docs/architecture.md "Layers"):
# scripts/check-layers.py finds an include from a layer a file may not use,
# the per-layer include views make the compiler refuse one, pmc links the
# shared libpmc through its public API, and analysis names the simulator's
# samples from a perf map, without reading workload files.
. "$(dirname "$0")/lib.sh"
B=$PMC_ROOT/$PMC_BUILD
CHECK=$PMC_ROOT/scripts/check-layers.py

check "the tree keeps its layers" python3 "$CHECK" "$PMC_ROOT"

# A copy of the tree with one violation planted at a time.
plant() {   # FILE LINE: copy the tree, add LINE to FILE, run the check
  rm -rf "$TMP/t"; mkdir -p "$TMP/t"
  cp -r "$PMC_ROOT/Makefile" "$PMC_ROOT/include" "$PMC_ROOT/lib" "$PMC_ROOT/analysis" "$TMP/t/"
  mkdir -p "$TMP/t/tools"; cp -r "$PMC_ROOT/tools/pmc" "$PMC_ROOT/tools/lib" "$TMP/t/tools/"
  printf '%s\n' "$2" >>"$TMP/t/$1"
  python3 "$CHECK" "$TMP/t" >"$TMP/out" 2>&1
}
plant lib/backend/sim/sim.h '#include "core/internal.h"'
check "a backend including a core header is refused" \
    grep -q 'lib/backend/sim/sim.h:.*backend includes lib/core/internal.h' "$TMP/out"
plant lib/backend/linux/linux.c '#include "../../core/internal.h"'
check "... also when spelled relative to the file" \
    grep -q 'lib/backend/linux/linux.c:.*backend includes lib/core/internal.h' "$TMP/out"
plant analysis/report/report.c '#include "log/records.h"'
check "analysis including lib/log's private header is refused" \
    grep -q 'analysis/report/report.c:.*analysis includes lib/log/records.h' "$TMP/out"
plant analysis/profile/profile.c '#include "report/report.h"'
check "a room including a room above it is refused (profile -> report)" \
    grep -q 'analysis/profile/profile.c:.*room profile includes analysis/report/report.h' "$TMP/out"
plant analysis/symbols/kcache.c '#include "../profile/tree.h"'
check "... also when spelled relative to the file" \
    grep -q 'analysis/symbols/kcache.c:.*room symbols includes analysis/profile/tree.h' "$TMP/out"
plant analysis/report/diff.c '#include "serve/httpd.h"'
check "report including serve (a room above it) is refused" \
    grep -q 'analysis/report/diff.c:.*room report includes analysis/serve/httpd.h' "$TMP/out"
plant analysis/loose.c '/* a file in no room */'
check "a file of analysis/ outside every room is refused" \
    grep -q 'analysis/loose.c: in no room' "$TMP/out"
plant tools/pmc/cmd_list.c '#include "event/event.h"'
check "the CLI including lib/event is refused" \
    grep -q 'tools/pmc/cmd_list.c:.*tools includes lib/event/event.h' "$TMP/out"
plant tools/lib/outfile.c '#include "report/report.h"'
check "the CLI's helper library including analysis is refused" \
    grep -q 'tools/lib/outfile.c:.*toolslib includes analysis/report/report.h' "$TMP/out"
plant tools/lib/evlist.c '#include "core/settings.h"'
check "... and including lib/core" \
    grep -q 'tools/lib/evlist.c:.*toolslib includes lib/core/settings.h' "$TMP/out"
plant tools/pmc/cmd_stat.c '#include "toolslib/evlist.h"'
check "the CLI including its helper library and lib/common is fine" test ! -s "$TMP/out"
plant lib/common/error.h '#include "pmc.h"'
check "the public header stays usable from the bottom layer" test ! -s "$TMP/out"

# The compiler: a file of a layer sees only its view ($(B)/inc/LAYER).
CC=${CC:-cc}
if ! command -v "$CC" >/dev/null || [ ! -d "$B/inc/backend" ]; then
  skip "the backend's include view" "no $CC or no $B/inc (build first)"
else
  cc_in() { "$CC" -fsyntax-only -D_GNU_SOURCE -I"$PMC_ROOT/include" "$@" -x c - 2>"$TMP/cc.err"; }
  check "backend view: a backend header compiles" \
      cc_in -I"$B/inc/backend" <<<'#include "backend/backend.h"'
  printf '#include "core/internal.h"\n' | cc_in -I"$B/inc/backend"
  check "backend view: a core header does not" grep -q 'core/internal.h' "$TMP/cc.err"
  printf '#include "log/records.h"\n' | cc_in -I"$B/inc/room-report"
  check "analysis view: lib/log's records.h does not" grep -q 'log/records.h' "$TMP/cc.err"
  check "report's view: the profile's header compiles" \
      cc_in -I"$B/inc/room-report" <<<'#include "profile/profile.h"'
  printf '#include "report/report.h"\n' | cc_in -I"$B/inc/room-profile"
  check "profile's view: report's header does not" grep -q 'report/report.h' "$TMP/cc.err"
  check "tools' view: the helper library's header and GROW compile" \
      cc_in -I"$B/inc/tools" <<<'#include "toolslib/outfile.h"
#include "common/grow.h"'
  printf '#include "core/settings.h"\n' | cc_in -I"$B/inc/tools"
  check "tools' view: a core header does not" grep -q 'core/settings.h' "$TMP/cc.err"
fi

# pmc is a client of libpmc.so: it needs it and holds no copy of it.
if command -v readelf >/dev/null && command -v nm >/dev/null; then
  check "pmc needs libpmc.so.1" sh -c "readelf -d '$PMC' | grep -q 'NEEDED.*\[libpmc\.so\.1\]'"
  check "pmc holds no copy of the library" sh -c "! nm '$PMC' | grep -qw 'T pmc_allocate'"
else
  skip "pmc links the shared library" "no readelf/nm"
fi

# The simulator's executables are perf maps: a report names the functions
# from the map its mapping names, even once the workload file is gone.
printf 'process p entry=f\nfunction f\n  call g\nfunction g\n  work cycles=20M\n' >"$TMP/gone.wl"
if "$PMC" record -q --backend sim -e cycles -o "$TMP/s.log" -- "$TMP/gone.wl" >/dev/null 2>&1; then
  rm -f "$TMP/gone.wl"
  "$PMC" report -i "$TMP/s.log" --color never >"$TMP/rep" 2>&1
  check "sim report names g from the perf map" grep -qE 'gone\.wl +\[\.\] g$' "$TMP/rep"
  map=$("$PMC" dump --json -i "$TMP/s.log" | python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    if r["type"] == "MAP_IN": print(r["path"]); break')
  check "the mapping names a perf-map file" grep -qE '^[0-9a-f]+ [0-9a-f]+ g$' "$map"
else
  fail "pmc record --backend sim" "$(cat "$TMP/out" 2>/dev/null)"
fi
done_testing
