/*
 * fuzz_perfdata_file.c — libFuzzer harness for the perf.data reader's file
 * descriptor paths (analysis/perfdata/reader*.c): the input is read from a
 * seekable file (pread, sections found by offset) and, when it fits in a
 * pipe's buffer, from a pipe (read(2) only: pipe-mode streaming, and
 * file-mode data held in memory).  From the file it is read twice: as
 * events, and as a flat report reads (the samples' leaves to a sink, as
 * the file holds them).  fuzz_perfdata.c covers the memory path.
 * Built by `make fuzz` (docs/fuzzing.md); replayed by the normal suite.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perfdata/perfdata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every pc and flag handed out is read (ASan sees an over-read). */
static void sink(void *arg, const struct perfdata_sample *s)
{
	uint64_t *sum = arg;
	for (uint32_t i = 0; i < s->npc; i++)
		*sum += s->pcs[i] ^ s->flags[i];
	*sum += s->hash;
}

static void drain(int fd, int flat)
{
	static struct pmclog_ev ev;
	static uint64_t sum;
	struct perfdata *p = perfdata__open(fd);

	if (!p) {
		(void)pmc_errmsg();
		return;
	}
	if (flat) {
		(void)perfdata__set_sample_sink(p, sink, &sum);
		perfdata__set_sample_leaf(p, 1);
		perfdata__set_sample_unordered(p, 1);
	}
	for (int n = 0; n < 100000 && perfdata__read(p, &ev) == 0; n++)
		;
	(void)pmc_errmsg();
	(void)perfdata__truncated(p);
	perfdata__close(p);
}

static int write_all(int fd, const uint8_t *d, size_t n)
{
	while (n) {
		ssize_t w = write(fd, d, n);
		if (w <= 0)
			return -1;
		d += w;
		n -= (size_t)w;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz.data", MFD_CLOEXEC), pfd[2];

	if (fd >= 0) {
		if (write_all(fd, data, size) == 0) {
			drain(fd, 0);
			drain(fd, 1);
		}
		close(fd);
	}
	if (pipe2(pfd, O_CLOEXEC) == 0) {
		/* the whole input must fit, or the write would block */
		if (fcntl(pfd[1], F_SETPIPE_SZ, 1 << 20) >= (int)size &&
		    write_all(pfd[1], data, size) == 0) {
			close(pfd[1]);
			pfd[1] = -1;
			drain(pfd[0], 0);
		}
		if (pfd[1] >= 0)
			close(pfd[1]);
		close(pfd[0]);
	}
	return 0;
}
