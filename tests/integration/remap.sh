#!/usr/bin/env bash
# Mappings that change (google/perf_data_converter's perf.data.remmap-3.2):
# a process runs a library's code, forks, then maps another library's code
# at the address where the child runs the first library, and runs that.
# A sample belongs to the library mapped at its address when it was taken:
# the parent's first samples are libfoo.so's, its last ones libbar.so's,
# and the child's libfoo.so's (perf copies the parent's mappings at FORK;
# later ones are the parent's alone).  Per-(pid, DSO) shares of pmc report
# equal perf report's on the same perf.data, and a pmc recording of the
# same program puts the samples in the same libraries.
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
	unsigned long n = strtoul(argv[3], NULL, 0);
	spin(n / 3);                /* the parent runs libfoo.so's code */
	pid_t c = fork();
	if (c == 0) {               /* so does the child */
		spin(n);
		_exit(0);
	}
	usleep(20000);              /* then the parent maps libbar.so there */
	int fd = open(argv[2], O_RDONLY);
	if (fd < 0 || mmap((void *)lo, hi - lo, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_FIXED,
	    fd, (off_t)off) == MAP_FAILED)
		return 2;
	spin(n / 3);                /* and runs libbar.so's at the same address */
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

# pids LOG: the parent's pid and the forked child's
pids() { "$PMC" script -i "$1" --show-task-events 2>/dev/null |
         sed -n 's/.*PERF_RECORD_FORK(\([0-9]*\):[0-9]*):(\([0-9]*\):.*/\2 \1/p' | head -1; }
# share PID DSO REPORT-FILE: the percentage of a --sort pid,dso report's row
# of (PID, DSO), 0 if none (perf writes the pid as PID:COMM, pmc as PID)
share() { awk -v p="$1" -v d="$2" '!/^#/ && $NF == d {
            for (i = 1; i < NF; i++) if ($i == p || index($i, p ":") == 1) {
              sub(/%/, "", $1); print $1; f = 1; exit } }
          END { if (!f) print 0 }' "$3"; }
# within NUMBER LO HI: LO <= NUMBER <= HI
within() { awk -v x="$1" -v l="$2" -v h="$3" 'BEGIN { exit !(x >= l && x <= h) }'; }

# pmc's own recording.  The parent runs libfoo.so and libbar.so for about
# as long each, the child libfoo.so alone for three times as long: of all
# samples, the child's libfoo.so about 60 %, the parent's two libraries
# about 20 % each
if "$PMC" record -e cpu-clock -o "$TMP/r.log" -- "${RUN[@]}" >/dev/null 2>"$TMP/rec.err"; then
  read -r par chi < <(pids "$TMP/r.log")
  "$PMC" report -i "$TMP/r.log" --sort pid,dso >"$TMP/log.rep" 2>&1
  cf=$(share "$chi" libfoo.so "$TMP/log.rep"); cb=$(share "$chi" libbar.so "$TMP/log.rep")
  pf=$(share "$par" libfoo.so "$TMP/log.rep"); pb=$(share "$par" libbar.so "$TMP/log.rep")
  check "pmc recording: the child's samples in libfoo.so ($cf %), none in libbar.so ($cb %)" \
    eval 'within "$cf" 40 80 && within "$cb" 0 0'
  check "pmc recording: the parent's in libfoo.so before the remap ($pf %), in libbar.so after ($pb %)" \
    eval 'within "$pf" 8 35 && within "$pb" 8 35'
else
  fail "pmc record of the remap program" "$(tail -2 "$TMP/rec.err")"
fi

# perf's recording, read by both.  The rows are taken from one report of
# all processes: perf 6.1's --pid filter now and then drops the child's
# samples (its report of the child then shows 0.25 % in the program)
if ! command -v perf >/dev/null 2>&1; then
  skip "pmc report equals perf report on the remap recording" "perf is not installed"
elif ! perf_record p -e cpu-clock -- "${RUN[@]}"; then
  skip "pmc report equals perf report on the remap recording" "perf record failed: $(tail -1 "$TMP/p.err")"
else
  read -r par chi < <(pids "$TMP/p.data")
  perf_oracle perf report -i "$TMP/p.data" --stdio --sort pid,dso >"$TMP/perf.rep"
  "$PMC" report -i "$TMP/p.data" --sort pid,dso >"$TMP/pmc.rep" 2>&1
  for who in "parent $par" "child $chi"; do
    for d in libfoo.so libbar.so; do
      set -- $who
      a=$(share "$2" "$d" "$TMP/pmc.rep"); b=$(share "$2" "$d" "$TMP/perf.rep")
      check "perf.data: the $1's $d share: pmc $a % = perf $b %" \
        awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; exit !(d <= 0.01 && d >= -0.01) }'
    done
  done
  pf=$(share "$par" libfoo.so "$TMP/pmc.rep"); pb=$(share "$par" libbar.so "$TMP/pmc.rep")
  check "perf.data: libfoo.so holds the child's samples" \
    within "$(share "$chi" libfoo.so "$TMP/pmc.rep")" 40 80
  check "perf.data: the parent's in libfoo.so before the remap ($pf %), in libbar.so after ($pb %)" \
    eval 'within "$pf" 8 35 && within "$pb" 8 35'
fi
done_testing
