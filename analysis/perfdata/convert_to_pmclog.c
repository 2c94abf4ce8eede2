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
#include "common/error.h"
#include "perfdata/perfdata.h"

int perfdata__to_pmclog(int in_fd, int out_fd, int zstd, uint64_t *nsamples,
    int *truncated)
{
	struct perfdata *p;
	struct pmclog_ev *ev = NULL;
	struct pmclog_writer *w = NULL;
	uint64_t ns = 0;
	int rc = 0;

	*nsamples = 0;
	*truncated = 0;
	p = perfdata__open(in_fd);
	if (!p)
		return -errno;
	ev = malloc(sizeof(*ev));
	if (!ev) {
		rc = pmc__nomem();
		goto out;
	}
	w = pmclog_writer_open(out_fd, zstd ? PMC_LOGF_ZSTD : 0);
	if (!w) {
		rc = -errno;	/* the writer said why */
		goto out;
	}
	while (perfdata__read(p, ev) == 0) {
		if (pmclog_write(w, ev) < 0) {
			if (errno == ENOENT)
				continue;    /* a record a pmc log has no encoding for */
			rc = -errno;	/* the writer said why */
			goto out;
		}
		if (ev->pl_type == PMCLOG_TYPE_CALLCHAIN)
			ns++;
	}
	*truncated = perfdata__truncated(p);
	if (ev->pl_state == PMCLOG_ERROR) {
		rc = -(errno ? errno : EILSEQ);      /* the reader said why */
		goto out;
	}
	if (pmclog_writer_close(w) < 0)
		rc = -errno;	/* the writer said why */
	w = NULL;
	*nsamples = ns;
out:
	if (w) {
		/* Closing is a public call that starts a new reason: keep this one. */
		struct pmc__errsave sv;

		pmc__err_save(&sv, rc);
		pmclog_writer_close(w);
		pmc__err_restore(&sv);
	}
	free(ev);
	perfdata__close(p);
	return rc;
}
