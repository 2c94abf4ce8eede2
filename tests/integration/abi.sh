#!/usr/bin/env bash
# libpmc's ABI is explicit (issue 24): lib/libpmc.map names every exported
# symbol in a version node, the library is built with -fvisibility=hidden
# and the headers mark the public declarations PMC_API, and
# scripts/check-abi.py compares what the .so exports with the map.  Here
# the check passes on the build, and refuses libraries with an export
# planted: linked without the version script, with a glob in the map, with
# a listed function that lost its PMC_API.  The CLI's helpers are not
# exported (libpmctools has them).  The headers compile one by one,
# and pmc_libversion() answers the headers' LIBPMC_VERSION.
. "$(dirname "$0")/lib.sh"
B=$PMC_ROOT/$PMC_BUILD
CHECK=$PMC_ROOT/scripts/check-abi.py
MAP=$PMC_ROOT/lib/libpmc.map
CC=${CC:-cc}

check "libpmc.so exports exactly what lib/libpmc.map names" \
    python3 "$CHECK" "$B/libpmc.so" "$MAP"

# The CLI's own helpers are no part of the ABI: they are libpmctools'
# (tools/lib), linked into pmc only.
cli_only='pmc_outfile_open pmc_outfile_fopen pmc_outfile_commit pmc_outfile_abort pmc_fdstream
pmc_event_split pmc_event_split_free pmc_setting_get pmc_setting_name pmc_cpu_topology'
leaked=$(nm -D --defined-only "$B/libpmc.so" | awk '{ sub(/@.*/, "", $3); print $3 }' |
  grep -xF "$(printf '%s\n' $cli_only)")
check "the CLI's helpers are not exported by libpmc.so${leaked:+ (are: $(echo $leaked))}" \
    test -z "$leaked"
check "... nor declared in the public headers" \
    sh -c "! grep -rqwE '$(echo $cli_only | tr ' ' '|')' '$PMC_ROOT/include'"
if command -v nm >/dev/null && [ -x "$PMC" ]; then
  check "pmc carries them itself (libpmctools: outfile__open, evlist__split)" \
      sh -c "nm '$PMC' | grep -qw 'T outfile__open' && nm '$PMC' | grep -qw 'T evlist__split'"
fi

objs=$(find "$B/pic/lib" -name '*.o' 2>/dev/null | sort)
if [ -z "$objs" ] || ! command -v "$CC" >/dev/null; then
  skip "planted exports" "no $CC or no $B/pic/lib objects (build first)"
else
  # A library function marked PMC_API that the map does not name, and one
  # the map names whose declaration has no PMC_API.
  cat >"$TMP/planted.c" <<'C'
#include <pmc.h>
PMC_API int pmc_planted_export(void);
int pmc_planted_export(void) { return 1; }
int pmc_planted_hidden(void);
int pmc_planted_hidden(void) { return 2; }
C
  "$CC" -fPIC -fvisibility=hidden -I"$PMC_ROOT/include" -c "$TMP/planted.c" -o "$TMP/planted.o"
  link() {   # OUT [MAP]: the library's objects and the planted one
    local out=$1; shift
    "$CC" -shared -o "$TMP/$out" $objs "$TMP/planted.o" ${1:+-Wl,--version-script="$1"} \
        -lzstd -lpthread -lm 2>"$TMP/ld.err"
  }
  if link same.so "$MAP" && python3 "$CHECK" "$TMP/same.so" "$MAP" >"$TMP/out" 2>&1; then
    ok "the map keeps a PMC_API function it does not name inside"
  else fail "the map keeps a PMC_API function it does not name inside" "$(cat "$TMP/ld.err" "$TMP/out")"; fi

  link nomap.so && python3 "$CHECK" "$TMP/nomap.so" "$MAP" >"$TMP/out" 2>&1
  check "linked without the version script: refused" \
      grep -q "exports pmc_planted_export, which .* does not name" "$TMP/out"
  check "... and the unversioned exports are named" \
      grep -q 'exports pmc_init as version "", .* puts it in LIBPMC_1' "$TMP/out"
  check "... the hidden function stays hidden even then" \
      sh -c "! grep -q pmc_planted_hidden '$TMP/out'"

  sed 's/^\(\t*\)local:/\1\tpmc_planted_*;\n\1local:/' "$MAP" >"$TMP/glob.map"
  link glob.so "$TMP/glob.map"
  python3 "$CHECK" "$TMP/glob.so" "$TMP/glob.map" >"$TMP/out" 2>&1
  check "a pattern in the map is refused" grep -q 'exports a pattern, "pmc_planted_\*"' "$TMP/out"
  check "... and what it let out is named" grep -q 'exports pmc_planted_export' "$TMP/out"

  sed 's/^\(\t*\)local:/\1\tpmc_planted_hidden;\n\1local:/' "$MAP" >"$TMP/hidden.map"
  link hidden.so "$TMP/hidden.map"
  python3 "$CHECK" "$TMP/hidden.so" "$TMP/hidden.map" >"$TMP/out" 2>&1
  check "a listed function without PMC_API is refused" \
      grep -q 'names pmc_planted_hidden, which .* does not export (no PMC_API' "$TMP/out"
fi

# Each public header compiles on its own, in C and C++ (each includes what
# it needs), and the program sees the library's version.
for h in pmc.h pmclog.h pmc/pmc_events.h pmc/linux.h pmc/event.h pmc/session.h pmc/log.h; do
  printf '#include <%s>\nint main(void) { return 0; }\n' "$h" >"$TMP/h.c"
  if "$CC" -Wall -Wextra -Werror -I"$PMC_ROOT/include" -c "$TMP/h.c" -o "$TMP/h.o" 2>"$TMP/cc.err"; then
    ok "<$h> compiles alone"
  else fail "<$h> compiles alone" "$(head -3 "$TMP/cc.err")"; fi
done
if command -v c++ >/dev/null; then
  printf '#include <pmc.h>\n#include <pmclog.h>\nint main() { return pmc_libversion() != LIBPMC_VERSION; }\n' >"$TMP/v.cc"
  check "the headers compile as C++" c++ -Wall -Werror -I"$PMC_ROOT/include" -c "$TMP/v.cc" -o "$TMP/v.o"
else
  skip "the headers compile as C++" "no c++"
fi
cat >"$TMP/v.c" <<'C'
#include <stdio.h>
#include <pmc.h>
int main(void)
{
	printf("%u %u %d.%d.%d\n", pmc_libversion(), (unsigned)LIBPMC_VERSION,
	    LIBPMC_VERSION_MAJOR, LIBPMC_VERSION_MINOR, LIBPMC_VERSION_PATCH);
	return 0;
}
C
# a sanitized libpmc.so needs the ASan runtime first: the program is built
# with the same flags (as install.sh and freebsd_compat.sh do)
SAN=""
if [ "$PMC_BUILD" = build-asan ] || [ -n "${PMC_SANITIZED:-}" ]; then
  SAN="-fsanitize=address,undefined -fno-omit-frame-pointer"
fi
# $SAN is a list of flags: split on purpose
if "$CC" $SAN -I"$PMC_ROOT/include" "$TMP/v.c" -o "$TMP/v" -L"$B" -lpmc -Wl,-rpath,"$B" 2>"$TMP/cc.err"; then
  read -r run built dotted <<<"$("$TMP/v")"
  check "pmc_libversion() is the headers' LIBPMC_VERSION ($dotted)" test -n "$run" -a "$run" = "$built"
  so=$(readlink "$B/libpmc.so")
  check "the library file carries the same version ($so)" test "$so" = "libpmc.so.$dotted"
else
  fail "a program calls pmc_libversion()" "$(head -3 "$TMP/cc.err")"
fi
done_testing
