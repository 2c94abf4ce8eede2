#!/usr/bin/env bash
# Mappings after FORK (google/perf_data_converter's perf.data.remmap-3.2):
# a process forks, then the parent maps another library's code at the
# address where the child runs the first library.  The child's samples
# belong to the library it had at its birth: perf copies the parent's
# mappings at FORK, and later ones are the parent's alone.  Per-DSO shares
# of pmc report equal perf report's on the same perf.data, and a pmc
# recording of the same program puts the child's samples in libfoo.so.
source "$(dirname "$0")/lib.sh"

cat >"$TMP/lib.c" <<'C'
volatile unsigned long sink;
void NAME_spin(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * 7; }
C
cat >"$TMP/remap.c" <<'C'
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	void *h = argc == 4 ? dlopen(argv[1], RTLD_NOW) : NULL;
	void (*spin)(unsigned long) = h ? (void (*)(unsigned long))dlsym(h, "foo_spin") : NULL;
	unsigned long lo = 0, hi = 0, off = 0, a = (unsigned long)spin;
	char perm[8], line[512];
	int found = 0, st;
	FILE *m = fopen("/proc/self/maps", "r");
	while (spin && m && !found && fgets(line, sizeof line, m))
		found = sscanf(line, "%lx-%lx %7s %lx", &lo, &hi, perm, &off) == 4 && a >= lo && a < hi;
	if (!found)
		return 2;
	pid_t c = fork();
	if (c == 0) {               /* the child runs libfoo.so's code */
		spin(strtoul(argv[3], NULL, 0));
		_exit(0);
	}
	usleep(20000);              /* then the parent maps libbar.so there */
	int fd = open(argv[2], O_RDONLY);
	if (fd < 0 || mmap((void *)lo, hi - lo, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_FIXED,
	    fd, (off_t)off) == MAP_FAILED)
		return 2;
	waitpid(c, &st, 0);
	return 0;
}
C
# the two libraries from one source: the same layout, so the code segment
# of one fits where the other's was
sed 's/NAME/foo/' "$TMP/lib.c" >"$TMP/foo.c"
sed 's/NAME/bar/' "$TMP/lib.c" >"$TMP/bar.c"
if ! cc -O1 -shared -fPIC -o "$TMP/libfoo.so" "$TMP/foo.c" ||
   ! cc -O1 -shared -fPIC -o "$TMP/libbar.so" "$TMP/bar.c" ||
   ! cc -O1 -o "$TMP/remap" "$TMP/remap.c" -ldl; then
  fail "build the remap program"; done_testing; exit
fi
RUN=("$TMP/remap" "$TMP/libfoo.so" "$TMP/libbar.so" 300000000)

# child LOG: the forked child's pid.  The checks are of its samples: the
# parent may run libfoo.so's destructors at its exit, at the addresses that
# are libbar.so's by then, and so be sampled in libbar.so (as perf script
# says too)
child() { "$PMC" script -i "$1" --show-task-events 2>/dev/null |
          sed -n 's/.*PERF_RECORD_FORK(\([0-9]*\):.*/\1/p' | head -1; }
# share DSO REPORT-FILE: the percentage of a --sort dso report's DSO row (0 if none)
share() { awk -v d="$1" '!/^#/ && $NF == d { sub(/%/, "", $1); print $1; f = 1; exit }
                          END { if (!f) print 0 }' "$2"; }

# pmc's own recording
if "$PMC" record -e cpu-clock -o "$TMP/r.log" -- "${RUN[@]}" >/dev/null 2>"$TMP/rec.err"; then
  "$PMC" report -i "$TMP/r.log" --pid "$(child "$TMP/r.log")" --sort dso >"$TMP/log.rep" 2>&1
  foo=$(share libfoo.so "$TMP/log.rep"); bar=$(share libbar.so "$TMP/log.rep")
  check "pmc recording: the child's samples in libfoo.so ($foo %), none in libbar.so ($bar %)" \
    awk -v f="$foo" -v b="$bar" 'BEGIN { exit !(f >= 50 && b == 0) }'
else
  fail "pmc record of the remap program" "$(tail -2 "$TMP/rec.err")"
fi

# perf's recording, read by both
if ! command -v perf >/dev/null 2>&1; then
  skip "pmc report equals perf report on the remap recording" "perf is not installed"
elif ! perf_record p -e cpu-clock -- "${RUN[@]}"; then
  skip "pmc report equals perf report on the remap recording" "perf record failed: $(tail -1 "$TMP/p.err")"
else
  c=$(child "$TMP/p.data")
  # perf_oracle: perf 6.1 aborts now and then (an empty report, "0 %", once)
  perf_oracle perf report -i "$TMP/p.data" --stdio --pid "$c" --sort dso >"$TMP/perf.rep"
  "$PMC" report -i "$TMP/p.data" --pid "$c" --sort dso >"$TMP/pmc.rep" 2>&1
  for d in libfoo.so libbar.so; do
    a=$(share "$d" "$TMP/pmc.rep"); b=$(share "$d" "$TMP/perf.rep")
    check "perf.data: $d share: pmc $a % = perf $b %" \
      awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; exit !(d <= 0.01 && d >= -0.01) }'
  done
  check "perf.data: libfoo.so holds the child's samples" \
    awk -v f="$(share libfoo.so "$TMP/pmc.rep")" 'BEGIN { exit !(f >= 50) }'
fi
done_testing
