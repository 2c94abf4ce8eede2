/*
 * convert_to_pmclog.c — perf.data -> pmc log (`pmc convert`).
 *
 * Reads perf.data through the reader (so in perf's time order) and writes
 * every record it yields with libpmc's pmclog_writer (pmclog.h), so the
 * converted log says where perf recorded: its HEADER comes from the
 * perf.data, not from this host.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmc.h"
#include "pmclog.h"
#include "perfdata/perfdata.h"

int perfdata__to_pmclog(int in_fd, int out_fd, int zstd, uint64_t *nsamples,
    int *truncated, char *msg, size_t msglen)
{
	struct perfdata *p;
	struct pmclog_ev *ev = NULL;
	struct pmclog_writer *w = NULL;
	uint64_t ns = 0;
	int rc = 0;

	*nsamples = 0;
	*truncated = 0;
	msg[0] = '\0';
	p = perfdata__open(in_fd);
	if (!p) {
		rc = -errno;
		snprintf(msg, msglen, "%s", perfdata__open_errmsg());
		return rc;
	}
	ev = malloc(sizeof(*ev));
	if (!ev) {
		rc = -ENOMEM;
		snprintf(msg, msglen, "out of memory");
		goto out;
	}
	w = pmclog_writer_open(out_fd, zstd ? PMC_LOGF_ZSTD : 0);
	if (!w) {
		rc = -errno;
		snprintf(msg, msglen, "%s", pmc_errmsg());
		goto out;
	}
	while (perfdata__read(p, ev) == 0) {
		if (pmclog_write(w, ev) < 0) {
			if (errno == ENOENT)
				continue;    /* a record a pmc log has no encoding for */
			rc = -errno;
			snprintf(msg, msglen, "%s", pmc_errmsg());
			goto out;
		}
		if (ev->pl_type == PMCLOG_TYPE_CALLCHAIN)
			ns++;
	}
	if (ev->pl_state == PMCLOG_ERROR) {
		rc = -(errno ? errno : EILSEQ);
		snprintf(msg, msglen, "%s", perfdata__errmsg(p));
	}
	*truncated = perfdata__truncated(p);
	if (pmclog_writer_close(w) < 0 && rc == 0) {
		rc = -errno;
		snprintf(msg, msglen, "%s", pmc_errmsg());
	}
	w = NULL;
	*nsamples = ns;
out:
	pmclog_writer_close(w);
	free(ev);
	perfdata__close(p);
	return rc;
}
