#!/usr/bin/env bash
# pmc's heap (issue 26, fixed cost): a report touching 10 MB of tables used
# to fault it in 4 KB at a time, ~2,700 faults of ~5 us on a VM, 20-30 % of
# its CPU.  tools/pmc/main.c's heap_setup reserves the heap's first 64 MB at
# once and advises it for transparent huge pages.  Checked on the kernel's
# own account of a running pmc (its [heap] mappings' VmFlags in
# /proc/PID/smaps: "hg" is MADV_HUGEPAGE), not on time.
. "$(dirname "$0")/lib.sh"

if [ ! -e /sys/kernel/mm/transparent_hugepage/enabled ]; then
  skip "the heap is advised for huge pages" "this kernel has no transparent huge pages"
  done_testing; exit
fi
if [ "$PMC_BUILD" = build-asan ] || [ -n "${PMC_SANITIZED:-}" ]; then
  skip "the heap is advised for huge pages" "sanitizer build: its allocator is not glibc's heap"
  done_testing; exit
fi

# a report waiting on its input, long enough to read its mappings
mkfifo "$TMP/in"
"$PMC" report -i - --stdio <"$TMP/in" >"$TMP/out" 2>"$TMP/err" &
pid=$!
exec 3>"$TMP/in"
flags=""
for _ in $(seq 100); do
  flags=$(awk '/^[0-9a-f]+-[0-9a-f]+ / { heap = ($NF == "[heap]") }
               heap && /^VmFlags:/ { print }' "/proc/$pid/smaps" 2>/dev/null)
  [ -n "$flags" ] && break
  sleep 0.05
done
size=$(awk '/^[0-9a-f]+-[0-9a-f]+ / { heap = ($NF == "[heap]") }
            heap && /^Size:/ { kb += $2 } END { print kb + 0 }' "/proc/$pid/smaps" 2>/dev/null)
exec 3>&-
wait "$pid"; rc=$?
check "pmc's heap is found in its smaps" test -n "$flags"
check "a part of the heap is advised for huge pages (VmFlags hg)" grep -q ' hg' <<<"$flags"
check "the heap is reserved up front (${size} KB of address space)" test "${size:-0}" -ge 65536
check "the report still refuses the empty log with one message" \
  test "$rc" != 0 -a "$(grep -c 'truncated at byte 0' "$TMP/err")" = 1
done_testing
