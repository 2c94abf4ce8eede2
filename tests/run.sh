#!/usr/bin/env bash
# Runs the whole suite: every unit-test program (cmocka, TAP output) and every
# integration script (TAP output through tests/integration/lib.sh).  Counts
# individual test cases, prints each failure, and ends with the closing line
# "N passed, N failed, N skipped".  Exit 0 only if nothing failed.
# PMC_ONLY="NAME ...": only the unit programs and scripts of those names
# (test_analysis, dwarf ...), e.g. to try tests/loaded.sh on a few.
set -u
cd "$(dirname "$0")/.."
B=${PMC_BUILD:-build}
export PMC_BUILD=$B PMC=$PWD/$B/pmc PMC_ROOT=$PWD
export CMOCKA_MESSAGE_OUTPUT=TAP
if [ -n "${PMC_SANITIZED:-}" ]; then
  # allocator_may_return_null: an allocation too big to make returns NULL as
  # glibc's does (tests feed sizes near SIZE_MAX to check the ENOMEM answer)
  # instead of ASan aborting the program.
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1:allocator_may_return_null=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
pass=0 fail=0 skip=0
failed_names=()
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
# PMCADMIN row state is machine-wide (lib/core/rows.c): tests keep theirs
# here, not in /run/pmc.
export PMC_RUNDIR=$log/run

wanted() {             # $1 = a test's name: 1 if PMC_ONLY is unset or names it
  [ -z "${PMC_ONLY:-}" ] && return 0
  case " $PMC_ONLY " in *" $1 "*) return 0 ;; esac
  return 1
}

run_one() {            # $1 = display name, rest = command
  local name=$1; shift
  local out=$log/out rc
  timeout 600 "$@" >"$out" 2>"$log/err" </dev/null; rc=$?
  local p f s ns
  # A skip is a test line with a SKIP directive, "ok" or "not ok" (cmocka
  # 1.1 prints its skip() as "not ok N # SKIP").
  p=$(grep -cE '^ok ' "$out" | tr -d ' ')
  s=$(grep -cE '^ok .*# ?[Ss][Kk][Ii][Pp]' "$out" | tr -d ' ')
  ns=$(grep -cE '^not ok .*# ?[Ss][Kk][Ii][Pp]' "$out" | tr -d ' ')
  f=$(grep -cE '^not ok ' "$out" | tr -d ' ')
  p=$((p - s)); f=$((f - ns)); s=$((s + ns))
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    f=1; echo "not ok - $name exited with status $rc" >>"$out"
  fi
  pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
  if [ "$f" -ne 0 ]; then
    failed_names+=("$name")
    echo "---- $name: FAILED ($f)"; grep -E '^not ok|^#' "$out" | grep -vE '# ?[Ss][Kk][Ii][Pp]' | head -40
    echo "---- stderr:"; tail -40 "$log/err"
  else
    printf '%-40s %3d passed, %d skipped\n' "$name" "$p" "$s"
    grep -E '^(not )?ok .*# ?[Ss][Kk][Ii][Pp]' "$out" | sed 's/^/    /'
  fi
}

for t in "$B"/tests/test_*; do
  [ -x "$t" ] || continue
  wanted "$(basename "$t")" || continue
  run_one "unit/$(basename "$t")" "$t"
done
for t in tests/integration/*.sh; do
  [ "$(basename "$t")" = lib.sh ] && continue
  wanted "$(basename "$t" .sh)" || continue
  run_one "integration/$(basename "$t" .sh)" bash "$t"
done

echo
[ ${#failed_names[@]} -gt 0 ] && echo "failed: ${failed_names[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
