#!/usr/bin/env bash
# perf.data that is not quite this machine's, or not whole (issue 25 item 6):
#  - a recording whose [vdso] is another kernel's (its build id in perf's
#    build-id table differs from this vDSO's) is not symbolized with this
#    machine's vDSO, and the report says why;
#  - kernel-mode samples of a perf.data without the kernel's MMAP go to
#    [unknown], as perf puts them (per-DSO shares equal perf report's);
#  - a perf.data cut after its data (the feature sections missing) is
#    reported with a warning, not silently.
. "$(dirname "$0")/lib.sh"
command -v perf >/dev/null || { skip "foreign and cut perf.data" "perf is not installed"; done_testing; exit; }

cat >"$TMP/vd.c" <<'C'
#include <time.h>
int main(void)
{
	struct timespec t;
	volatile unsigned long s = 0;
	for (long i = 0; i < 20000000; i++) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		s += (unsigned long)t.tv_nsec;
	}
	return 0;
}
C
cc -O1 -o "$TMP/vd" "$TMP/vd.c" || { fail "build the vDSO program"; done_testing; exit; }
if ! perf_record vd -e cpu-clock -- "$TMP/vd"; then
  skip "foreign and cut perf.data" "perf record failed: $(tail -1 "$TMP/vd.err")"; done_testing; exit
fi

# a perf.data rewritten by python: flip FILE's build id in the build-id table
# (HEADER_BUILD_ID), or turn the kernel's MMAP into a FINISHED_ROUND of the
# same size (which readers skip)
rewrite() {
  python3 - "$@" <<'PY'
import struct, sys
what, src, dst = sys.argv[1:4]
b = bytearray(open(src, 'rb').read())
data_off, data_sz = struct.unpack_from('<QQ', b, 40)
done = 0
if what == "bid":
    feats = struct.unpack_from('<4Q', b, 72)
    k = 0
    for bit in range(256):
        if not (feats[bit // 64] >> (bit % 64)) & 1:
            continue
        off, sz = struct.unpack_from('<QQ', b, data_off + data_sz + 16 * k); k += 1
        p = off
        while bit == 2 and p < off + sz:
            typ, misc, size = struct.unpack_from('<IHH', b, p)
            if bytes(b[p + 36:p + size]).split(b'\0')[0] == sys.argv[4].encode():
                for i in range(20):
                    b[p + 12 + i] ^= 0x5a
                done = 1
            p += size
else:
    p = data_off
    while p + 8 <= data_off + data_sz:
        typ, misc, size = struct.unpack_from('<IHH', b, p)
        if size < 8:
            break
        at = p + (40 if typ == 1 else 72)
        if typ in (1, 10) and struct.unpack_from('<i', b, p + 8)[0] == -1 and \
           bytes(b[at:at + 17]) == b'[kernel.kallsyms]':
            struct.pack_into('<I', b, p, 12)
            done = 1
        p += size
open(dst, 'wb').write(b)
sys.exit(0 if done else 1)
PY
}

# --- the vDSO -----------------------------------------------------------------
"$PMC" report -i "$TMP/vd.data" --sort dso,sym >"$TMP/vd.rep" 2>&1
if ! grep -q '\[vdso\] .*__vdso_clock_gettime' "$TMP/vd.rep"; then
  skip "another kernel's [vdso]" "clock_gettime does not run in the vDSO here (no [vdso] samples)"
elif rewrite bid "$TMP/vd.data" "$TMP/vdf.data" "[vdso]"; then
  ok "this machine's recording: [vdso] symbolized (__vdso_clock_gettime)"
  "$PMC" report -i "$TMP/vdf.data" --sort dso,sym >"$TMP/vdf.rep" 2>&1
  check "another kernel's [vdso]: not symbolized with this machine's" \
    bash -c "! grep -q '__vdso_' '$TMP/vdf.rep'"
  check "another kernel's [vdso]: the report says why" grep -q "vDSO is not this kernel's" "$TMP/vdf.rep"
else
  fail "rewrite the [vdso] build id" "no [vdso] in perf's build-id table"
fi

# --- kernel samples without the kernel's MMAP ---------------------------------
if ! perf_record k -e cpu-clock -- "$HELPERS/touch_pages" 20000; then
  fail "perf record of a page-fault workload" "$(tail -1 "$TMP/k.err")"
elif ! rewrite kmap "$TMP/k.data" "$TMP/nok.data"; then
  fail "remove the kernel's MMAP" "perf wrote none"
else
  share() { awk -v d="$1" '!/^#/ && $NF == d { sub(/%/, "", $1); s += $1 } END { print s + 0 }' "$2"; }
  perf report -i "$TMP/nok.data" --stdio --sort dso >"$TMP/nok.perf" 2>/dev/null
  "$PMC" report -i "$TMP/nok.data" --sort dso >"$TMP/nok.pmc" 2>&1
  for d in '[unknown]' '[kernel.kallsyms]'; do
    a=$(share "$d" "$TMP/nok.pmc"); b=$(share "$d" "$TMP/nok.perf")
    check "no kernel MMAP: $d share: pmc $a % = perf $b %" \
      awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; exit !(d <= 0.01 && d >= -0.01) }'
  done
fi

# --- feature sections cut off -------------------------------------------------
python3 -c '
import struct, sys
b = open(sys.argv[1], "rb").read()
o, n = struct.unpack_from("<QQ", b, 40)
open(sys.argv[2], "wb").write(b[:o + n + 24])' "$TMP/vd.data" "$TMP/cut.data"
"$PMC" report -i "$TMP/cut.data" --sort dso >"$TMP/cut.rep" 2>"$TMP/cut.err"; rc=$?
check "features cut off: warned on stderr (exit $rc)" grep -q "feature sections .* missing" "$TMP/cut.err"
check "features cut off: the report's header says so" grep -q "^# WARNING: .*feature sections" "$TMP/cut.rep"
check "features cut off: the samples are all there" \
  test "$(grep -o 'Samples: [0-9,]*' "$TMP/cut.rep")" = "$(grep -o 'Samples: [0-9,]*' "$TMP/vd.rep")"
done_testing
