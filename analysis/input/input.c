/*
 * input.c — the one place that decides how to read an input: by its magic.
 * "\x89PMCLOG" is a pmc log (lib/log's reader: pmclog_open / pmclog_read),
 * "PERFILE2" a perf.data file (analysis/perfdata/).  Pipes are read
 * through a memory parser fed from the fd, so the magic bytes read to decide
 * are not lost.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/input.h"
#include "common/error.h"
#include "common/fdio.h"

#include "perfdata/perfdata.h"

enum kind { K_PMCLOG, K_PERFDATA };

struct pmcstat_input {
	enum kind kind;
	int fd;
	int own_fd;
	int fed;                   /* memory parser fed from fd (pipes) */
	int eof_fed;
	void *log;                 /* pmclog parser */
	struct perfdata *pd;
	int ks_state;              /* 0 before the header, 1 KSYMSRC due, 2 done */
	char truncated[256];       /* input__truncated's answer */
};

struct pmcstat_input *input__open(const char *path, int follow)
{
	struct pmcstat_input *in = calloc(1, sizeof(*in));
	char magic[8];
	struct stat sb;
	ssize_t n;
	int stdin_ = strcmp(path, "-") == 0, e;

	pmc__clear_reason();
	if (!in) {
		pmc__nomem();
		return NULL;
	}
	in->fd = stdin_ ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	in->own_fd = !stdin_;
	if (in->fd < 0) {
		pmc__err(-errno, "cannot open: %s", strerror(errno));
		free(in);
		return NULL;
	}
	if (fstat(in->fd, &sb) < 0) {
		pmc__err(-errno, "cannot open: %s", strerror(errno));
		goto fail;
	}
	int seekable = S_ISREG(sb.st_mode);
	int perf = 0;
	/* A directory is read only if it is perf's (perf record --threads); a
	 * pipe is looked at without consuming it (tee), so the perf.data reader
	 * streams it from its first byte and nothing is held in memory. */
	if (S_ISDIR(sb.st_mode) || S_ISFIFO(sb.st_mode))
		perf = perfdata__sniff(in->fd) == 1;
	if (S_ISDIR(sb.st_mode) && !perf) {
		pmc__err(-EISDIR, "cannot read: %s (a pmc log is a file)", strerror(EISDIR));
		goto fail;
	}
	if (perf) {
		memcpy(magic, "PERFILE2", 8);
		n = 8;
	} else if (seekable) {
		n = pread(in->fd, magic, sizeof(magic), 0);
	} else {
		n = pmc__read_full(in->fd, magic, sizeof(magic));
	}
	if (n == (ssize_t)sizeof(magic) && (memcmp(magic, "PERFILE2", 8) == 0 ||
	    memcmp(magic, "2ELIFREP", 8) == 0)) {
		in->kind = K_PERFDATA;
		if (!perf && !seekable) {
			/* a terminal or socket: the magic is consumed and cannot be
			 * put back (pipes and files are read in place) */
			pmc__err(-ESPIPE, "a perf.data on a terminal or socket: give a file "
			    "or a pipe");
			goto fail;
		}
		in->pd = perfdata__open(in->fd);
		if (!in->pd) {
			pmc__err_wrap(-errno, "cannot read perf.data");
			goto fail;
		}
		return in;
	}
	in->kind = K_PMCLOG;
	if (seekable) {
		in->log = pmclog_open(in->fd);
		if (in->log && follow)
			pmclog_set_follow(in->log, 1);
	} else {
		in->fed = 1;
		in->log = pmclog_open(PMCLOG_FD_NONE);
		if (in->log && n > 0)
			pmclog_feed(in->log, magic, (int)n);
	}
	if (in->log)
		pmclog_set_extensions(in->log, 1);   /* pmc's records too */
	if (!in->log) {
		pmc__err(-errno, "cannot open: %s", strerror(errno));
		goto fail;
	}
	return in;
fail:
	e = errno;
	if (in->own_fd)
		close(in->fd);
	free(in);
	errno = e;
	return NULL;
}

/* perf keeps the kernel's build id in its build-id table ("[kernel.kallsyms]"),
 * a pmc log in KSYMSRC: hand it out as one, after the header, so a report
 * can tell whether the recording's kernel is this one. */
static int perfdata_ksymsrc(struct pmcstat_input *in, struct pmclog_ev *ev)
{
	int n = perfdata__nbuildids(in->pd);
	for (int i = 0; i < n; i++) {
		const struct perfdata_buildid *b = perfdata__buildid(in->pd, i);
		if (b->pid != -1 || strcmp(b->path, "[kernel.kallsyms]") != 0 || !b->size)
			continue;
		struct pmclog_ev_ksymsrc *k = &ev->pl_u.pl_ks;
		ev->pl_type = PMCLOG_TYPE_KSYMSRC;
		ev->pl_len = 0;
		snprintf(k->pl_pathname, sizeof(k->pl_pathname), "[kernel.kallsyms]");
		k->pl_release[0] = '\0';      /* the header carries perf's osrelease */
		k->pl_buildid_len = b->size > 20 ? 20 : b->size;
		memcpy(k->pl_buildid, b->id, k->pl_buildid_len);
		return 1;
	}
	return 0;
}

int input__read(struct pmcstat_input *in, struct pmclog_ev *ev)
{
	if (in->kind == K_PERFDATA) {
		int rc;
		if (in->ks_state == 1) {
			in->ks_state = 2;
			if (perfdata_ksymsrc(in, ev))
				return 0;
		}
		rc = perfdata__read(in->pd, ev);
		if (rc == 0 && in->ks_state == 0 && ev->pl_type == PMCLOG_TYPE_HEADER)
			in->ks_state = 1;
		return rc;
	}
	for (;;) {
		if (pmclog_read(in->log, ev) == 0)
			return 0;
		if (ev->pl_state != PMCLOG_REQUIRE_DATA)
			return -1;       /* an error says why itself (pmc_errmsg) */
		if (in->fed) {
			static char buf[1 << 16];
			ssize_t r = read(in->fd, buf, sizeof(buf));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				if (in->eof_fed) {
					ev->pl_state = PMCLOG_EOF;
					return -1;
				}
				pmclog_feed(in->log, NULL, 0);
				in->eof_fed = 1;
			} else {
				pmclog_feed(in->log, buf, (int)r);
			}
		} else {
			usleep(100000);   /* follow mode: the writer has not caught up */
		}
	}
}

int input__set_sample_sink(struct pmcstat_input *in, perfdata_sample_fn fn, void *arg)
{
	if (in->kind != K_PERFDATA)
		return -ENOTSUP;
	return perfdata__set_sample_sink(in->pd, fn, arg);
}

void input__set_sample_leaf(struct pmcstat_input *in, int on)
{
	if (in->kind == K_PERFDATA)
		perfdata__set_sample_leaf(in->pd, on);
	else
		pmclog_set_stacks(in->log, !on);   /* stack frames skipped undecoded */
}

void input__set_sample_zeros(struct pmcstat_input *in, int on)
{
	if (in->kind == K_PERFDATA)
		perfdata__set_sample_zeros(in->pd, on);
}

void input__set_sample_unordered(struct pmcstat_input *in, int on)
{
	if (in->kind == K_PERFDATA)
		perfdata__set_sample_unordered(in->pd, on);
}

const char *input__kind(const struct pmcstat_input *in)
{
	return in->kind == K_PERFDATA ? "perf.data" : "pmc log";
}

const char *input__truncated(struct pmcstat_input *in)
{
	char *msg = in->truncated;
	size_t len = sizeof(in->truncated);
	off_t at, last;

	if (in->kind == K_PERFDATA) {
		int nf, cut = perfdata__features_cut(in->pd, &nf);
		if (perfdata__truncated(in->pd))
			snprintf(msg, len, "perf.data truncated (its recorder did not finish, or the "
			    "file was cut): the data ends early");
		else if (cut)
			snprintf(msg, len, "perf.data cut after its data: %d of its %d header "
			    "feature sections (host, OS release, build ids ...) are missing", cut, nf);
		else
			return NULL;
		return msg;
	}
	if (in->kind != K_PMCLOG || !pmclog_truncated(in->log, &at, &last))
		return NULL;
	if (at == last)
		snprintf(msg, len, "log truncated at byte %lld (no CLOSELOG record: the writer "
		    "did not finish)", (long long)at);
	else
		snprintf(msg, len, "log truncated at byte %lld (last complete record at %lld)",
		    (long long)at, (long long)last);
	return msg;
}


void input__close(struct pmcstat_input *in)
{
	if (!in)
		return;
	if (in->pd)
		perfdata__close(in->pd);
	if (in->log)
		pmclog_close(in->log);
	if (in->own_fd)
		close(in->fd);
	free(in);
}
