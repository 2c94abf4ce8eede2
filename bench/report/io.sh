#!/usr/bin/env bash
# bench/report/io.sh — the bytes of a perf.data: what reading a file costs
# the way the perf.data reader reads it (pread into one reused 256 KB
# buffer, analysis/perfdata/reader_source.c) against mapping it the way
# perf report does (util/session.c: mmap windows, here 32 MB, with
# MADV_SEQUENTIAL; and the same with MAP_POPULATE), each touching every
# cache line once as a record walk does.  Prints the best CPU time (user +
# system) of RUNS rounds, the methods taking turns.  Whether mapping pays
# is decided by this (docs/BENCHMARKS.md, "Reading perf.data").
#
#   bench/report/io.sh FILE [RUNS]    (RUNS default 5; FILE in the page cache)
set -eu
FILE=${1:?usage: bench/report/io.sh FILE [RUNS]}
RUNS=${2:-5}
[ -r "$FILE" ] || { echo "bench/report/io.sh: cannot read $FILE" >&2; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat >"$T/io.c" <<'EOF'
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static uint64_t walk(const unsigned char *b, size_t n)
{
	uint64_t s = 0, v;
	for (size_t i = 0; i + 8 <= n; i += 64) {
		memcpy(&v, b + i, 8);
		s += v;
	}
	return s;
}

static unsigned char buf[256 * 1024];

int main(int argc, char **argv)
{
	int fd = open(argv[1], O_RDONLY), how = atoi(argv[2]);
	struct stat st;
	struct rusage ru;
	uint64_t s = 0;
	size_t win = 32u << 20;

	if (fd < 0 || fstat(fd, &st) < 0)
		return 1;
	for (size_t off = 0; off < (size_t)st.st_size;) {
		if (how == 0) {
			ssize_t k = pread(fd, buf, sizeof(buf), (off_t)off);
			if (k <= 0)
				return 1;
			s += walk(buf, (size_t)k);
			off += (size_t)k;
			continue;
		}
		size_t n = (size_t)st.st_size - off < win ? (size_t)st.st_size - off : win;
		unsigned char *m = mmap(NULL, n, PROT_READ,
		    MAP_SHARED | (how == 2 ? MAP_POPULATE : 0), fd, (off_t)off);
		if (m == MAP_FAILED)
			return 1;
		madvise(m, n, MADV_SEQUENTIAL);
		s += walk(m, n);
		munmap(m, n);
		off += n;
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("%.3f %llx\n", (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6, (unsigned long long)s);
	return 0;
}
EOF
cc -O2 -o "$T/io" "$T/io.c"
cat "$FILE" >/dev/null       # in the page cache, as for a report read twice
names=("pread 256 KB (pmc)" "mmap 32 MB windows, MADV_SEQUENTIAL (perf)" "mmap 32 MB windows, MAP_POPULATE")
best=()
for r in $(seq "$RUNS"); do
  for how in 0 1 2; do
    c=$("$T/io" "$FILE" "$how" | cut -d' ' -f1)
    if [ -z "${best[$how]:-}" ] || awk -v a="$c" -v b="${best[$how]}" 'BEGIN{exit !(a<b)}'; then
      best[$how]=$c
    fi
  done
done
echo "$FILE: $(stat -c %s "$FILE") bytes, best CPU (user + system) of $RUNS rounds"
echo
echo "| read | CPU |"
echo "|---|---|"
for how in 0 1 2; do
  echo "| ${names[$how]} | ${best[$how]} s |"
done
