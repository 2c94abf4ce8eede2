/*
 * workload.c — parse simulated workload files and compute their exact
 * totals (format: docs/simulator.md; structures: workload.h).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmc.h"
#include "backend/sim/workload.h"
#include "common/error.h"
#include "common/grow.h"

#define TOTAL_LIMIT (1ull << 62)
#define TASK_LIMIT  100000ull

struct pctx {
	const char *path;
	int line;
};

/* -EINVAL, with "FILE:LINE: what" as the reason. */
__attribute__((format(printf, 2, 3)))
static int perr(struct pctx *c, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return pmc__err(-EINVAL, "%s:%d: %s", c->path, c->line, what);
}

/* Split a line into whitespace-separated tokens (in place). */
static int tokenize(char *s, char **tok, int max)
{
	int n = 0;

	while (*s) {
		while (*s && isspace((unsigned char)*s))
			s++;
		if (!*s || *s == '#')
			break;
		if (n == max)
			return -1;
		tok[n++] = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
	return n;
}

/* Decimal with optional _ separators and a k/M/G suffix (powers of 1000). */
static int parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0, mul = 1;
	int digits = 0;

	for (; *s; s++) {
		if (*s == '_')
			continue;
		if (*s >= '0' && *s <= '9') {
			if (v > (UINT64_MAX - 9) / 10)
				return -1;
			v = v * 10 + (uint64_t)(*s - '0');
			digits++;
			continue;
		}
		break;
	}
	if (!digits)
		return -1;
	if (*s) {
		if ((*s == 'k' || *s == 'K') && !s[1])
			mul = 1000;
		else if (*s == 'M' && !s[1])
			mul = 1000000;
		else if (*s == 'G' && !s[1])
			mul = 1000000000;
		else
			return -1;
	}
	if (__builtin_mul_overflow(v, mul, &v))
		return -1;
	*out = v;
	return 0;
}

static int valid_name(const char *s)
{
	if (!*s || strlen(s) >= SIMWL_NAME_MAX)
		return 0;
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.')
			return 0;
	return 1;
}

int simwl__find_func(const struct simwl *w, const char *name)
{
	for (int i = 0; i < w->nfuncs; i++)
		if (!strcmp(w->funcs[i].name, name))
			return i;
	return -1;
}

int simwl__find_proc(const struct simwl *w, const char *name)
{
	for (int i = 0; i < w->nprocs; i++)
		if (!strcmp(w->procs[i].name, name))
			return i;
	return -1;
}

void simwl__free(struct simwl *w)
{
	if (!w)
		return;
	for (int i = 0; i < w->nfuncs; i++)
		free(w->funcs[i].ops);
	free(w->funcs);
	free(w->procs);
	free(w);
}

static const struct {
	const char *key;
	enum simwl_q q;
} qkeys[] = {
	{ "cycles", SIMWL_CYCLES },
	{ "instructions", SIMWL_INSNS }, { "insns", SIMWL_INSNS },
	{ "cache-references", SIMWL_CACHE_REFS }, { "cache_refs", SIMWL_CACHE_REFS },
	{ "cache-misses", SIMWL_CACHE_MISSES }, { "cache_misses", SIMWL_CACHE_MISSES },
	{ "branches", SIMWL_BRANCHES },
	{ "branch-misses", SIMWL_BRANCH_MISSES }, { "branch_misses", SIMWL_BRANCH_MISSES },
};

static int parse_lines(struct simwl *w, const char *text, struct pctx *c, int pass)
{
	const char *p = text;
	char buf[1024], *tok[16];
	int cur = -1, capf = 0, capp = 0;

	if (pass == 1) {
		capf = w->nfuncs;
		capp = w->nprocs;
	}
	c->line = 0;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		int n;

		c->line++;
		if (len >= sizeof(buf))
			return perr(c, "line too long");
		memcpy(buf, p, len);
		buf[len] = '\0';
		p = e ? e + 1 : p + len;
		n = tokenize(buf, tok, 16);
		if (n < 0)
			return perr(c, "too many words");
		if (n == 0)
			continue;

		if (!strcmp(tok[0], "function")) {
			if (n != 2 || !valid_name(tok[1]))
				return perr(c, "expected: function NAME");
			if (pass == 0) {
				if (simwl__find_func(w, tok[1]) >= 0)
					return perr(c, "function '%s' defined twice", tok[1]);
				if (GROW(w->funcs, w->nfuncs, capf) < 0)
					return -ENOMEM;
				memset(&w->funcs[w->nfuncs], 0, sizeof(w->funcs[0]));
				strcpy(w->funcs[w->nfuncs].name, tok[1]);
				w->funcs[w->nfuncs].line = c->line;
				w->nfuncs++;
			}
			cur = simwl__find_func(w, tok[1]);
			continue;
		}
		if (!strcmp(tok[0], "process")) {
			struct simwl_proc pr;

			cur = -1;
			if (n < 2 || !valid_name(tok[1]))
				return perr(c, "expected: process NAME entry=FUNCTION [exit=CODE] [comm=NAME]");
			if (pass == 1)
				continue;
			if (simwl__find_proc(w, tok[1]) >= 0)
				return perr(c, "process '%s' defined twice", tok[1]);
			memset(&pr, 0, sizeof(pr));
			strcpy(pr.name, tok[1]);
			snprintf(pr.comm, sizeof(pr.comm), "%.15s", tok[1]);
			pr.entry = -1;
			pr.line = c->line;
			for (int i = 2; i < n; i++) {
				char *eq = strchr(tok[i], '=');
				uint64_t v;

				if (!eq)
					return perr(c, "expected KEY=VALUE, got '%s'", tok[i]);
				*eq++ = '\0';
				if (!strcmp(tok[i], "entry")) {
					/* resolved after pass 0 (stored by name) */
					if (!valid_name(eq))
						return perr(c, "bad function name '%s'", eq);
					pr.entry = -2;
					snprintf(pr.entry_name, sizeof(pr.entry_name), "%s", eq);
				} else if (!strcmp(tok[i], "exit")) {
					if (parse_u64(eq, &v) || v > 255)
						return perr(c, "exit code must be 0..255");
					pr.exit_code = (int)v;
				} else if (!strcmp(tok[i], "comm")) {
					snprintf(pr.comm, sizeof(pr.comm), "%.15s", eq);
				} else {
					return perr(c, "unknown process key '%s'", tok[i]);
				}
			}
			if (pr.entry != -2)
				return perr(c, "process '%s' needs entry=FUNCTION", pr.name);
			if (GROW(w->procs, w->nprocs, capp) < 0)
				return -ENOMEM;
			w->procs[w->nprocs++] = pr;
			continue;
		}
		if (pass == 0)
			continue;

		/* pass 1: operations */
		{
			struct simwl_func *f;
			struct simwl_op op;

			if (cur < 0)
				return perr(c, "'%s' outside a function", tok[0]);
			f = &w->funcs[cur];
			memset(&op, 0, sizeof(op));
			op.line = c->line;
			op.count = 1;
			if (!strcmp(tok[0], "work")) {
				op.kind = SIMWL_WORK;
				for (int i = 1; i < n; i++) {
					char *eq = strchr(tok[i], '=');
					uint64_t v;
					size_t k;

					if (!strcmp(tok[i], "kernel")) {
						op.kernel = 1;
						continue;
					}
					if (!eq)
						return perr(c, "expected KEY=VALUE, got '%s'", tok[i]);
					*eq++ = '\0';
					for (k = 0; k < sizeof(qkeys) / sizeof(qkeys[0]); k++)
						if (!strcmp(qkeys[k].key, tok[i]))
							break;
					if (k == sizeof(qkeys) / sizeof(qkeys[0]))
						return perr(c, "unknown work key '%s' (cycles, instructions, "
							    "cache-references, cache-misses, branches, branch-misses)",
							    tok[i]);
					if (parse_u64(eq, &v) || v >= TOTAL_LIMIT)
						return perr(c, "bad number '%s'", eq);
					op.q[qkeys[k].q] = v;
				}
				if (op.q[SIMWL_CYCLES] == 0)
					return perr(c, "work needs cycles=N with N >= 1");
				for (int k = 1; k < SIMWL_NQ; k++)
					if (op.q[k] / SIMWL_MAX_PER_CYCLE > op.q[SIMWL_CYCLES] ||
					    (op.q[k] / SIMWL_MAX_PER_CYCLE == op.q[SIMWL_CYCLES] &&
					     op.q[k] % SIMWL_MAX_PER_CYCLE))
						return perr(c, "more than %d events of one kind per cycle",
							    SIMWL_MAX_PER_CYCLE);
			} else if (!strcmp(tok[0], "call") || !strcmp(tok[0], "thread") ||
				   !strcmp(tok[0], "fork")) {
				int isfork = tok[0][0] == 'f';

				op.kind = tok[0][0] == 'c' ? SIMWL_CALL :
					  tok[0][0] == 't' ? SIMWL_THREAD : SIMWL_FORK;
				if (n < 2 || n > 3)
					return perr(c, "expected: %s %s [COUNT]", tok[0],
						    isfork ? "PROCESS" : "FUNCTION");
				op.target = isfork ? simwl__find_proc(w, tok[1])
						   : simwl__find_func(w, tok[1]);
				if (op.target < 0)
					return perr(c, "unknown %s '%s'",
						    isfork ? "process" : "function", tok[1]);
				if (n == 3 && (parse_u64(tok[2], &op.count) ||
					       op.count >= TOTAL_LIMIT))
					return perr(c, "bad count '%s'", tok[2]);
				if (op.kind != SIMWL_CALL && op.count > SIMWL_MAX_SPAWN)
					return perr(c, "at most %d per %s", SIMWL_MAX_SPAWN, tok[0]);
			} else if (!strcmp(tok[0], "wait")) {
				op.kind = SIMWL_WAIT;
				if (n != 1)
					return perr(c, "expected: wait");
			} else {
				return perr(c, "unknown statement '%s'", tok[0]);
			}
			if (f->nops == SIMWL_MAX_OPS)
				return perr(c, "more than %d statements in '%s'",
					    SIMWL_MAX_OPS, f->name);
			if (GROW(f->ops, f->nops, f->capops) < 0)
				return -ENOMEM;
			f->ops[f->nops++] = op;
		}
	}
	return 0;
}

static int addmul(uint64_t *acc, uint64_t a, uint64_t n)
{
	uint64_t m;

	if (__builtin_mul_overflow(a, n, &m) || __builtin_add_overflow(*acc, m, acc) ||
	    *acc >= TOTAL_LIMIT)
		return -1;
	return 0;
}

/* Exact per-call totals by depth-first search; rejects recursion. */
static int totals(struct simwl *w, int fi, struct pctx *c, int depth)
{
	struct simwl_func *f = &w->funcs[fi];

	if (f->state == 2)
		return 0;
	if (f->state == 1) {
		c->line = f->line;
		return perr(c, "'%s' is reached from itself (recursion is not allowed)", f->name);
	}
	if (depth >= SIMWL_MAX_DEPTH) {
		c->line = f->line;
		return perr(c, "calls nest deeper than %d", SIMWL_MAX_DEPTH);
	}
	f->state = 1;
	for (int i = 0; i < f->nops; i++) {
		struct simwl_op *op = &f->ops[i];
		int g = op->kind == SIMWL_FORK ? w->procs[op->target].entry : op->target;
		int rc;

		c->line = op->line;
		if (op->kind == SIMWL_WORK) {
			for (int k = 0; k < SIMWL_NQ; k++)
				if (addmul(&f->self[k], op->q[k], 1) ||
				    addmul(&f->tree[k], op->q[k], 1))
					return perr(c, "totals too large");
			continue;
		}
		if (op->kind == SIMWL_WAIT)
			continue;
		/* a forked process starts a new stack; a thread too */
		rc = totals(w, g, c, op->kind == SIMWL_CALL ? depth + 1 : depth + 1);
		if (rc)
			return rc;
		c->line = op->line;
		for (int k = 0; k < SIMWL_NQ; k++) {
			if (op->kind != SIMWL_FORK &&
			    addmul(&f->self[k], w->funcs[g].self[k], op->count))
				return perr(c, "totals too large");
			if (addmul(&f->tree[k], w->funcs[g].tree[k], op->count))
				return perr(c, "totals too large");
		}
		if (addmul(&f->nproc, w->funcs[g].nproc + (op->kind != SIMWL_CALL),
			   op->count) || f->nproc > TASK_LIMIT)
			return perr(c, "more than %llu threads and processes",
				    (unsigned long long)TASK_LIMIT);
	}
	f->state = 2;
	if (f->self[SIMWL_CYCLES] == 0) {
		c->line = f->line;
		return perr(c, "function '%s' does no work (add: work cycles=N)", f->name);
	}
	return 0;
}

int simwl__parse(const char *text, const char *path, struct simwl **out)
{
	struct pctx c = { path ? path : "<workload>", 0 };
	struct simwl *w = calloc(1, sizeof(*w));
	int rc;

	if (!w)
		return pmc__nomem();
	snprintf(w->path, sizeof(w->path), "%s", path ? path : "<workload>");
	rc = parse_lines(w, text, &c, 0);
	if (!rc) {
		for (int i = 0; i < w->nprocs; i++) {
			struct simwl_proc *p = &w->procs[i];

			p->entry = simwl__find_func(w, p->entry_name);
			if (p->entry < 0) {
				c.line = p->line;
				rc = perr(&c, "unknown function '%s'", p->entry_name);
				break;
			}
		}
	}
	if (!rc)
		rc = parse_lines(w, text, &c, 1);
	if (!rc && w->nprocs == 0) {
		c.line = 1;
		rc = perr(&c, "no process (add: process main entry=FUNCTION)");
	}
	for (int i = 0; !rc && i < w->nfuncs; i++)
		rc = totals(w, i, &c, 0);
	for (int i = 0; !rc && i < w->nfuncs; i++)
		w->funcs[i].addr = SIMWL_FUNC_BASE + (uint64_t)i * SIMWL_FUNC_SIZE;
	if (rc) {
		simwl__free(w);
		return rc;
	}
	*out = w;
	return 0;
}

int simwl__load(const char *path, struct simwl **out)
{
	FILE *f = fopen(path, "r");
	char *text = NULL, rp[PATH_MAX];
	size_t len = 0, cap = 0, n;
	int rc;

	if (!f)
		return pmc__err(-errno, "%s: %s", path, strerror(errno));
	do {
		if (len > (64u << 20)) {
			free(text);
			fclose(f);
			return pmc__err(-EFBIG, "%s: file too large", path);
		}
		if (GROW_FROM(text, len, cap, 4096, 65536) < 0) {
			free(text);
			fclose(f);
			return pmc__nomem();
		}
		n = fread(text + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	fclose(f);
	text[len] = '\0';
	if (memchr(text, '\0', len)) {
		free(text);
		return pmc__err(-ENOEXEC, "%s: not a workload file (binary data)", path);
	}
	rc = simwl__parse(text, realpath(path, rp) ? rp : path, out);
	free(text);
	return rc;
}

uint64_t simwl__op_addr(const struct simwl *w, int f, int op)
{
	return w->funcs[f].addr + 0x10 + (uint64_t)op * SIMWL_OP_SIZE;
}

uint64_t simwl__map_len(const struct simwl *w)
{
	return (SIMWL_FUNC_BASE - SIMWL_MAP_START) + (uint64_t)w->nfuncs * SIMWL_FUNC_SIZE;
}

int simwl__func_at(const struct simwl *w, uint64_t addr)
{
	if (addr < SIMWL_FUNC_BASE)
		return -1;
	addr = (addr - SIMWL_FUNC_BASE) / SIMWL_FUNC_SIZE;
	return addr < (uint64_t)w->nfuncs ? (int)addr : -1;
}

void simwl__symbols(const struct simwl *w,
		    void (*cb)(void *arg, const char *name, uint64_t start, uint64_t size),
		    void *arg)
{
	for (int i = 0; i < w->nfuncs; i++)
		cb(arg, w->funcs[i].name, w->funcs[i].addr, SIMWL_FUNC_SIZE);
}

int simwl__write_perfmap(const struct simwl *w, FILE *f)
{
	for (int i = 0; i < w->nfuncs; i++)
		if (fprintf(f, "%llx %llx %s\n", (unsigned long long)w->funcs[i].addr,
			    (unsigned long long)SIMWL_FUNC_SIZE, w->funcs[i].name) < 0)
			return -EIO;
	return 0;
}

static int own_dir(const char *dir)
{
	struct stat st;

	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		return -errno;
	if (lstat(dir, &st) != 0)
		return -errno;
	/* /tmp is shared: a directory someone else made (or a symlink) there
	 * could be swapped under us */
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077))
		return -EPERM;
	return 0;
}

int simwl__write_image(struct simwl *w)
{
	const char *tmp = getenv("TMPDIR");
	const char *base = strrchr(w->path, '/') ? strrchr(w->path, '/') + 1 : w->path;
	char dir[1024], part[4200];
	char *text = NULL;
	size_t len = 0;
	uint64_t h = 0xcbf29ce484222325ull;     /* FNV-1a 64 */
	FILE *f = open_memstream(&text, &len);
	int rc = 0, fd;

	if (!f || fputs(PMC_SIM_IMAGE_MAGIC, f) < 0 || simwl__write_perfmap(w, f) != 0 ||
	    fclose(f) != 0) {
		free(text);
		pmc__set_reason("sim: out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)text[i]) * 0x100000001b3ull;
	snprintf(dir, sizeof(dir), "%s/pmc-sim-%u", tmp && *tmp == '/' ? tmp : "/tmp",
	    (unsigned)geteuid());
	if ((rc = own_dir(dir)) == 0) {
		size_t n = strlen(dir);
		snprintf(dir + n, sizeof(dir) - n, "/%016llx", (unsigned long long)h);
		rc = own_dir(dir);
	}
	if (rc) {
		pmc__set_reason("sim: cannot use %s for the workload's symbol map: %s", dir,
		    rc == -EPERM ? "not a private directory of this user" : strerror(-rc));
		free(text);
		return rc;
	}
	if ((size_t)snprintf(w->image, sizeof(w->image), "%s/%s", dir, base) >= sizeof(w->image)) {
		pmc__set_reason("sim: the workload's symbol map path is too long");
		w->image[0] = '\0';
		free(text);
		return -ENAMETOOLONG;
	}
	if (access(w->image, F_OK) == 0) {      /* same text, same name: done */
		free(text);
		return 0;
	}
	snprintf(part, sizeof(part), "%s/.%s.%d", dir, base, (int)getpid());
	fd = open(part, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = -errno;
	} else {
		if (write(fd, text, len) != (ssize_t)len)
			rc = errno ? -errno : -EIO;
		if (close(fd) != 0 && !rc)
			rc = -errno;
		if (!rc && rename(part, w->image) != 0)
			rc = -errno;
		if (rc)
			unlink(part);
	}
	if (rc) {
		pmc__set_reason("sim: cannot write the workload's symbol map %s: %s", w->image,
		    strerror(-rc));
		w->image[0] = '\0';
	}
	free(text);
	return rc;
}
