/*
 * convert_to_perf.c — pmc log -> perf.data (`pmc convert --to perf`), so our
 * recordings open in perf report, perf script and the tools built on them.
 *
 * One attr per PMCALLOCATE (the event's own attr when lib/event resolves
 * its name, else software/cpu-clock), each with one synthetic kernel id;
 * the per-CPU PMCs of a system-mode event share one attr, as in perf's own
 * `perf record -a` files;
 * sample_type IP|TID|TIME|ID|CPU|PERIOD|CALLCHAIN with sample_id_all, and
 * REGS_USER|STACK_USER for the samples of --call-graph dwarf recordings
 * (decide_ustack).
 * Samples become SAMPLE (the user mask becomes PERF_CONTEXT_* markers),
 * COMM/PROC_CREATE COMM, PROCFORK/THR_CREATE FORK, THR_EXIT EXIT, MAP_IN
 * MMAP2 (with its build id), DROPNOTIFY LOST/LOST_SAMPLES, THROTTLE,
 * KSYMBOL; FINISHED_ROUND every ROUND_EVERY records.  A log without the
 * kernel's mapping (pmc record writes none) gets perf's kernel MMAP
 * ("[kernel.kallsyms]_text", pgoff where _text is) and one per module
 * before its first sample, from /proc/kallsyms and /proc/modules, when the
 * recording's kernel is the running one (kernel_maps): perf resolves no
 * kernel address without them.
 *
 * File mode (a seekable output): header | data | feature table + features
 * (HOSTNAME, OSRELEASE, VERSION, NRCPUS, CPUDESC, CMDLINE, EVENT_DESC,
 * BUILD_ID, SAMPLE_TIME) | ids | attrs — perf finds attrs and ids by offset
 * and the features right after the data, so attrs may come last, which
 * lets the data stream out before every PMCALLOCATE is known.
 * Pipe mode (anything else): pipe header, FEATURE records from the log's
 * HEADER, HEADER_ATTR + EVENT_UPDATE(name) per PMCALLOCATE, then the data.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include <elfutils/libdwelf.h>
#include <gelf.h>

#include "common/error.h"
#include "common/fdio.h"
#include "common/grow.h"
#include "common/sysinfo.h"
#include "perfdata/perfdata.h"
#include "perfdata/format.h"
#include "symbols/symbols.h"

#define ATTR_SIZE   112                    /* PERF_ATTR_SIZE_VER5: every perf >= 5.5 reads it */
#define SAMPLE_TYPE (PSAMPLE_IP | PSAMPLE_TID | PSAMPLE_TIME | PSAMPLE_ID | PSAMPLE_CPU | PSAMPLE_PERIOD | \
	PSAMPLE_CALLCHAIN)
#define TRAILER_LEN 32                     /* TID, TIME, ID, CPU */
#define ROUND_EVERY 4096
#define WBUF_SIZE   (256u * 1024u)
#ifdef PMC_VERSION_STRING
#define PMC_VERSION_STRING_OR PMC_VERSION_STRING
#else
#define PMC_VERSION_STRING_OR "unknown"
#endif

struct wattr {
	pmc_id_t pmcid;
	uint64_t kid;                 /* the synthetic kernel id */
	unsigned char attr[ATTR_SIZE];
	char *name;
	uint64_t rate;                /* a system-mode PMC's: other CPUs' PMCs of */
	uint32_t flags;               /* the same event join this attr */
	int percpu, freq;
	int ustack;                   /* samples carry user regs + stack: 1, 0 not yet known, -1 no */
	int raw;                      /* samples carry PERF_SAMPLE_RAW (a tracepoint's fields) */
	int decided;                  /* its first sample has set raw and the call chain */
	int emitted;                  /* pipe mode: its HEADER_ATTR is out */
	uint64_t umask;               /* their register mask (one per attr, as perf parses it) */
};

struct walias {                   /* another CPU's PMC of a system-mode event */
	pmc_id_t pmcid;
	int attr;
};

struct wbid {
	int32_t pid;
	uint16_t misc;
	uint8_t size;
	uint8_t id[20];
	char *path;
};

struct pw {
	int fd, pipe;
	unsigned char *buf;
	size_t len;
	uint64_t written;             /* bytes written so far (file offset) */
	int err;

	struct wattr *attrs;
	int nattrs, acap;
	struct walias *alias;
	int nalias, alcap;
	struct wbid *bids;
	int nbids, bcap;

	char *hostname, *osrelease, *cpudesc, *cmdline;
	uint8_t kbid[20];             /* the recording's kernel (KSYMSRC) */
	uint32_t kbidlen;
	int kmaps;                    /* its maps: 1 written or recorded, 0 not yet */
	uint32_t max_cpu;
	uint64_t first_ts, last_ts;
	uint64_t nrec, nsamples;
	unsigned char *tdata;         /* perf's tracing data (TRACEDATA records) */
	uint64_t tdtotal, tdhave;     /* complete when tdhave == tdtotal != 0 */
	unsigned char rec[65536 + 64];
};

/* ---- output ----------------------------------------------------------- */

static void st16(unsigned char *b, uint16_t v) { memcpy(b, &v, 2); }
static void st32(unsigned char *b, uint32_t v) { memcpy(b, &v, 4); }
static void st64(unsigned char *b, uint64_t v) { memcpy(b, &v, 8); }

static int wflush(struct pw *w)
{
	size_t done;

	if (!w->err && w->len)
		w->err = pmc__write_full(w->fd, w->buf, w->len, &done);
	w->len = 0;
	return w->err;
}

static void wbytes(struct pw *w, const void *p, size_t n)
{
	const unsigned char *c = p;
	w->written += n;
	while (n && !w->err) {
		size_t room = WBUF_SIZE - w->len, k = n < room ? n : room;
		memcpy(w->buf + w->len, c, k);
		w->len += k;
		c += k;
		n -= k;
		if (w->len == WBUF_SIZE)
			wflush(w);
	}
}

/* A record's header (struct perf_event_header) at h: type, misc 0, size. */
static void st_hdr(unsigned char *h, uint32_t type, uint16_t size)
{
	st32(h, type);
	st16(h + 4, 0);
	st16(h + 6, size);
}

/* perf's FINISHED_ROUND: the records before it may be put in time order. */
static void put_round(struct pw *w)
{
	unsigned char r[8];
	st_hdr(r, PD_REC_FINISHED_ROUND, 8);
	wbytes(w, r, 8);
}

static void w32(struct pw *w, uint32_t v) { unsigned char b[4]; st32(b, v); wbytes(w, b, 4); }
static void w64(struct pw *w, uint64_t v) { unsigned char b[8]; st64(b, v); wbytes(w, b, 8); }

/* perf's do_write_string: u32 length (NUL included, padded to 64), bytes */
static void wstring(struct pw *w, const char *s)
{
	static const unsigned char zero[PD_NAME_ALIGN];
	size_t n = strlen(s) + 1, len = (n + PD_NAME_ALIGN - 1) & ~(size_t)(PD_NAME_ALIGN - 1);
	w32(w, (uint32_t)len);
	wbytes(w, s, n);
	wbytes(w, zero, len - n);
}

static size_t string_size(const char *s)
{
	size_t n = strlen(s) + 1;
	return 4 + ((n + PD_NAME_ALIGN - 1) & ~(size_t)(PD_NAME_ALIGN - 1));
}

/* ---- attrs ------------------------------------------------------------- */

static struct wattr *find_attr(struct pw *w, pmc_id_t pmcid)
{
	for (int i = 0; i < w->nattrs; i++)
		if (w->attrs[i].pmcid == pmcid)
			return &w->attrs[i];
	for (int i = 0; i < w->nalias; i++)
		if (w->alias[i].pmcid == pmcid)
			return &w->attrs[w->alias[i].attr];
	return NULL;
}

/*
 * A system-mode event is one PMC per CPU in the log (pmc record -a) but one
 * attr in perf.data, as perf record -a writes it: a PMCALLOCATE with a CPU
 * whose event, mode, flags and rate equal an earlier one's joins its attr.
 * 1 if it did.
 */
static int join_percpu_attr(struct pw *w, const struct pmclog_ev_pmcallocate *al)
{
	if (al->pl_cpu < 0 || !PMC_IS_SYSTEM_MODE((enum pmc_mode)al->pl_mode))
		return 0;
	for (int i = 0; i < w->nattrs; i++) {
		const struct wattr *a = &w->attrs[i];
		if (!a->percpu || a->rate != al->pl_rate || a->freq != (int)al->pl_freq ||
		    a->flags != al->pl_flags || strcmp(a->name, al->pl_evname && *al->pl_evname ?
		    al->pl_evname : "cpu-clock") != 0)
			continue;
		if (GROW(w->alias, w->nalias, w->alcap) < 0)
			return 0;
		w->alias[w->nalias++] = (struct walias){ al->pl_pmcid, i };
		return 1;
	}
	return 0;
}

static void flush_attrs(struct pw *w);

static struct wattr *add_attr(struct pw *w, pmc_id_t pmcid, const char *name, uint64_t rate,
    int freq, uint32_t pmcflags)
{
	struct wattr *a;
	struct perf_event_attr attr;
	uint64_t flags;
	uint32_t type = PD_TYPE_SOFTWARE;
	uint64_t config = 0, config1 = 0, config2 = 0;

	if (GROW(w->attrs, w->nattrs, w->acap) < 0)
		return NULL;
	a = &w->attrs[w->nattrs];
	memset(a, 0, sizeof(*a));
	a->pmcid = pmcid;
	a->kid = 1000 + (uint64_t)w->nattrs;
	a->name = strdup(name && *name ? name : "cpu-clock");
	if (!a->name)
		return NULL;
	flags = PD_ATTR_DISABLED | PD_ATTR_INHERIT | PD_ATTR_MMAP | PD_ATTR_COMM | PD_ATTR_TASK |
	    PD_ATTR_SAMPLE_ID_ALL | PD_ATTR_MMAP2 | PD_ATTR_COMM_EXEC | PD_ATTR_USE_CLOCKID;
	int known = name && *name && pmc_event_attr(name, &attr) == 0;
	if (!known)
		pmc__clear_reason();     /* not a failure: the event is written as a name */
	if (known && attr.type <= 0xFFFF) {
		type = attr.type;
		config = attr.config;
		config1 = attr.config1;
		config2 = attr.config2;
		if (attr.exclude_user)
			flags |= PD_ATTR_EXCLUDE_USER;
		if (attr.exclude_kernel)
			flags |= PD_ATTR_EXCLUDE_KERNEL;
		if (attr.exclude_hv)
			flags |= PD_ATTR_EXCLUDE_HV;
	}
	if (freq)
		flags |= PD_ATTR_FREQ;
	a->raw = type == PERF_TYPE_TRACEPOINT;   /* its fields: perf record's RAW */
	st32(a->attr + PD_AOFF_TYPE, type);
	st32(a->attr + PD_AOFF_SIZE, ATTR_SIZE);
	st64(a->attr + PD_AOFF_CONFIG, config);
	st64(a->attr + PD_AOFF_PERIOD, rate ? rate : 1);
	/* a pipe's attrs go out before the records after them: a tracepoint's
	 * samples are taken to carry their fields (if the log has tracing data:
	 * flush_attrs), and a call chain only if the PMC recorded them (file
	 * mode decides by the first sample: decide_raw) */
	st64(a->attr + PD_AOFF_SAMPLE_TYPE, a->raw ? (SAMPLE_TYPE | PSAMPLE_RAW) &
	    ~((pmcflags & PMC_F_CALLCHAIN) ? 0 : (uint64_t)PSAMPLE_CALLCHAIN) : SAMPLE_TYPE);
	st64(a->attr + PD_AOFF_READ_FORMAT, 0);
	st64(a->attr + PD_AOFF_FLAGS, flags);
	st64(a->attr + PD_AOFF_CONFIG1, config1);
	st64(a->attr + PD_AOFF_CONFIG2, config2);
	st32(a->attr + PD_AOFF_CLOCKID, 1);   /* CLOCK_MONOTONIC: the log's clock */
	st16(a->attr + PD_AOFF_MAX_STACK, PMC_CALLCHAIN_DEPTH_MAX);
	w->nattrs++;
	return a;
}

/* The attr a sample's pmcid names; one is made up for an unannounced id. */
static struct wattr *attr_of(struct pw *w, pmc_id_t pmcid)
{
	struct wattr *a = find_attr(w, pmcid);
	char name[32];
	if (a)
		return a;
	snprintf(name, sizeof(name), "pmc-0x%x", pmcid);
	return add_attr(w, pmcid, name, 1, 0, 0);
}

/* ---- records ------------------------------------------------------------ */

static void put_rec(struct pw *w, uint32_t type, uint16_t misc, size_t size)
{
	st32(w->rec, type);
	st16(w->rec + 4, misc);
	st16(w->rec + 6, (uint16_t)size);
	wbytes(w, w->rec, size);
	if (++w->nrec % ROUND_EVERY == 0)
		put_round(w);
}

/* sample_id_all: TID, TIME, ID, CPU */
static size_t trailer(struct pw *w, size_t off, int32_t pid, int32_t tid, uint64_t ts,
    uint32_t cpu)
{
	uint64_t kid = w->nattrs ? w->attrs[0].kid : 0;
	st32(w->rec + off, (uint32_t)pid);
	st32(w->rec + off + 4, (uint32_t)tid);
	st64(w->rec + off + 8, ts);
	st64(w->rec + off + 16, kid);
	st32(w->rec + off + 24, cpu);
	st32(w->rec + off + 28, 0);
	return off + TRAILER_LEN;
}

/* A NUL-terminated string padded to 8 at rec + off; returns the new offset. */
static size_t put_str(struct pw *w, size_t off, const char *s, size_t max)
{
	size_t n = 0, padded;
	while (n < max && s[n])
		n++;
	padded = (n + 1 + 7) & ~(size_t)7;
	memcpy(w->rec + off, s, n);
	memset(w->rec + off + n, 0, padded - n);
	return off + padded;
}

static void note_time(struct pw *w, uint64_t ts)
{
	if (!ts)
		return;
	if (!w->first_ts || ts < w->first_ts)
		w->first_ts = ts;
	if (ts > w->last_ts)
		w->last_ts = ts;
}

/*
 * An attr's samples carry the user registers and stack (perf's --call-graph
 * dwarf layout: REGS_USER and STACK_USER, exclude_callchain_user, so that
 * perf unwinds the user part itself) when the first sample of its PMC has
 * them.  The layout is per attr and a pipe's attrs are out before any
 * sample: stacks are carried in file mode only.
 */
static void decide_ustack(struct pw *w, struct wattr *a, const struct pmclog_ev_callchain *c)
{
	uint64_t flags;
	if (a->ustack)
		return;
	a->ustack = -1;
	if (w->pipe || !c->pl_nuregs || c->pl_nuregs > 64 ||
	    (unsigned)__builtin_popcountll(c->pl_uregs_mask) != c->pl_nuregs)
		return;
	a->ustack = 1;
	a->umask = c->pl_uregs_mask;
	memcpy(&flags, a->attr + PD_AOFF_FLAGS, 8);
	st64(a->attr + PD_AOFF_FLAGS, flags | PD_ATTR_EXCLUDE_CALLCHAIN_USER);
	uint64_t st;
	memcpy(&st, a->attr + PD_AOFF_SAMPLE_TYPE, 8);
	st64(a->attr + PD_AOFF_SAMPLE_TYPE, st | PSAMPLE_REGS_USER | PSAMPLE_STACK_USER);
	st64(a->attr + PD_AOFF_REGS_USER, a->umask);
}

/* REGS_USER and STACK_USER at rec + off; the new offset.  A sample without
 * registers (a kernel thread's) says so (abi NONE, size 0); the stack is
 * cut to what fits a record (perf's u16 size). */
static size_t put_ustack(struct pw *w, struct wattr *a, const struct pmclog_ev_callchain *c,
    size_t off)
{
	uint32_t stack, have;
	if (!c->pl_nuregs || c->pl_uregs_mask != a->umask) {
		st64(w->rec + off, PSAMPLE_REGS_ABI_NONE);
		st64(w->rec + off + 8, 0);
		return off + 16;
	}
	st64(w->rec + off, c->pl_uregs_abi);
	off += 8;
	for (uint32_t i = 0; i < c->pl_nuregs; i++, off += 8)
		st64(w->rec + off, c->pl_uregs[i]);
	have = (uint32_t)(0xFFF8 - off - 16) & ~7u;   /* room left for size, data, dyn_size */
	stack = c->pl_ustack_len < have ? c->pl_ustack_len : have;
	st64(w->rec + off, (stack + 7) & ~7u);
	if (!stack)
		return off + 8;       /* no data, and then no dyn_size either */
	memcpy(w->rec + off + 8, c->pl_ustack, stack);
	memset(w->rec + off + 8 + stack, 0, ((stack + 7) & ~7u) - stack);
	off += 8 + ((stack + 7) & ~7u);
	st64(w->rec + off, stack);
	uint32_t cur;
	memcpy(&cur, a->attr + PD_AOFF_STACK_USER, 4);
	if (((stack + 7) & ~7u) > cur)
		st32(a->attr + PD_AOFF_STACK_USER, (stack + 7) & ~7u);
	return off + 8;
}

/* A kernel or module mapping (pid -1) as perf's synthesized MMAP2. */
static void put_kmap(struct pw *w, uint64_t start, uint64_t len, uint64_t pgoff,
    const char *name, uint64_t ts)
{
	size_t off;
	st32(w->rec + 8, (uint32_t)-1);
	st32(w->rec + 12, (uint32_t)-1);
	st64(w->rec + 16, start);
	st64(w->rec + 24, len);
	st64(w->rec + 32, pgoff);
	memset(w->rec + 40, 0, 24);
	st32(w->rec + 64, 0x5);
	st32(w->rec + 68, 0x2);
	off = put_str(w, 72, name, PATH_MAX);
	off = trailer(w, off, -1, -1, ts, 0);
	put_rec(w, PD_REC_MMAP2, PD_MISC_KERNEL, off);
}

/* The running kernel's text (_text.._etext) and modules, as perf record
 * synthesizes them, if the recording's kernel is the running one (its
 * build id, else its release) and its addresses are not hidden. */
static void kernel_maps(struct pw *w, uint64_t ts)
{
	uint8_t run[20];
	uint32_t rl = pmc__sys_kernel_build_id(run);
	struct utsname u;
	uint64_t text = 0, etext = 0, a;
	char line[512], name[256], t;
	FILE *f;

	w->kmaps = 1;
	if (w->kbidlen && rl ? (rl != w->kbidlen || memcmp(run, w->kbid, rl) != 0) :
	    (w->osrelease && w->osrelease[0] && (uname(&u) != 0 ||
	    strcmp(u.release, w->osrelease) != 0)))
		return;                       /* another kernel: its addresses are unknown */
	if (!(f = fopen("/proc/kallsyms", "re")))
		return;
	while ((!text || !etext) && fgets(line, sizeof(line), f))
		if (sscanf(line, "%" SCNx64 " %c %255s", &a, &t, name) == 3 && (t == 'T' || t == 't')) {
			if (!strcmp(name, "_text"))
				text = a;
			else if (!strcmp(name, "_etext"))
				etext = a;
		}
	fclose(f);
	if (!text || etext <= text)
		return;                       /* kernel.kptr_restrict hides them */
	put_kmap(w, text, etext - text, text, "[kernel.kallsyms]_text", ts);
	if (!(f = fopen("/proc/modules", "re")))
		return;
	while (fgets(line, sizeof(line), f)) {
		uint64_t size;
		char mod[sizeof(name) + 2];
		/* "name size refcount deps state 0xaddress ..." */
		if (sscanf(line, "%255s %" SCNu64 " %*s %*s %*s %" SCNx64, name, &size, &a) == 3 &&
		    a && size) {
			snprintf(mod, sizeof(mod), "[%s]", name);
			put_kmap(w, a, size, 0, mod, ts);
		}
	}
	fclose(f);
}

/*
 * Tracepoint samples carry their fields (PERF_SAMPLE_RAW), which perf
 * script prints with the tracing data's formats.  In file mode the attrs
 * are written last, so the first sample of an attr decides: RAW when it has
 * a raw payload (a log that pmc record wrote has none), and no CALLCHAIN
 * when it was recorded without one (perf script and perf report print a
 * tracepoint's call chain when its attr has one).  A pipe's attrs are out
 * before any sample (add_attr, flush_attrs): RAW for tracepoint events when
 * the log has tracing data, CALLCHAIN unless the PMCALLOCATE of such an
 * event lacks PMC_F_CALLCHAIN.
 */
static void decide_raw(struct pw *w, struct wattr *a, const struct pmclog_ev_callchain *c)
{
	uint64_t st;
	if (a->decided || w->pipe)
		return;
	a->decided = 1;
	memcpy(&st, a->attr + PD_AOFF_SAMPLE_TYPE, 8);
	a->raw = c->pl_raw != NULL || c->pl_raw_flags;
	st = (st | PSAMPLE_CALLCHAIN) & ~(uint64_t)PSAMPLE_RAW;
	if (a->raw)
		st |= PSAMPLE_RAW;
	if (a->raw && (c->pl_raw_flags & PMCLOG_RAW_F_NOCHAIN))
		st &= ~(uint64_t)PSAMPLE_CALLCHAIN;
	st64(a->attr + PD_AOFF_SAMPLE_TYPE, st);
}

/* PERF_SAMPLE_RAW at rec + off: u32 size, the bytes, padded so that the
 * field ends 8-aligned (as the kernel pads it); the new offset.  A payload
 * the record cannot hold is written empty. */
static size_t put_raw(struct pw *w, const struct pmclog_ev_callchain *c, size_t off)
{
	uint32_t n = c->pl_raw ? c->pl_raw_len : 0;
	if (n > 0xFFF0 - off - 8)
		n = 0;
	uint32_t sz = (uint32_t)(((n + 4 + 7) & ~7u) - 4);
	st32(w->rec + off, sz);
	if (n)
		memcpy(w->rec + off + 4, c->pl_raw, n);
	memset(w->rec + off + 4 + n, 0, sz - n);
	return off + 4 + sz;
}

static void rec_sample(struct pw *w, const struct pmclog_ev *ev)
{
	const struct pmclog_ev_callchain *c = &ev->pl_u.pl_cc;
	struct wattr *a = attr_of(w, c->pl_pmcid);
	size_t off = 8, nrpos;
	uint64_t nr = 0;
	int ctx = -1;
	uint32_t npc = c->pl_npc;

	flush_attrs(w);                   /* before kernel_maps' records; a is new */
	if (!w->kmaps && w->nattrs)
		kernel_maps(w, w->last_ts);
	if (!a)
		return;
	decide_ustack(w, a, c);
	decide_raw(w, a, c);
	uint64_t st;
	memcpy(&st, a->attr + PD_AOFF_SAMPLE_TYPE, 8);
	int unwinds = a->ustack > 0 && c->pl_nuregs && c->pl_uregs_mask == a->umask &&
	    c->pl_ustack && c->pl_ustack_len;
	if (npc > PMC_CALLCHAIN_DEPTH_MAX)
		npc = PMC_CALLCHAIN_DEPTH_MAX;
	st64(w->rec + off, npc ? c->pl_pc[0] : 0);
	off += 8;
	st32(w->rec + off, c->pl_pid);
	st32(w->rec + off + 4, c->pl_tid);
	off += 8;
	st64(w->rec + off, ev->pl_time);
	off += 8;
	st64(w->rec + off, a->kid);
	off += 8;
	st32(w->rec + off, c->pl_cpu);
	st32(w->rec + off + 4, 0);
	off += 8;
	st64(w->rec + off, c->pl_period ? c->pl_period : 1);
	off += 8;
	nrpos = off;
	off += 8;
	if (!(st & PSAMPLE_CALLCHAIN)) {
		off = nrpos;          /* no chain: the IP said it all */
		npc = 0;
	}
	for (uint32_t i = 0; i < npc; i++) {
		int u = (c->pl_pcflags[i] & PMC_CC_F_USERSPACE) != 0;
		if (u && unwinds)
			break;            /* the user part: perf unwinds it from the stack */
		if (u != ctx) {
			st64(w->rec + off, u ? PSAMPLE_CONTEXT_USER : PSAMPLE_CONTEXT_KERNEL);
			off += 8;
			nr++;
			ctx = u;
		}
		st64(w->rec + off, c->pl_pc[i]);
		off += 8;
		nr++;
	}
	if (st & PSAMPLE_CALLCHAIN)
		st64(w->rec + nrpos, nr);
	if (st & PSAMPLE_RAW)
		off = put_raw(w, c, off);
	if (a->ustack > 0)
		off = put_ustack(w, a, c, off);
	if (c->pl_cpu > w->max_cpu)
		w->max_cpu = c->pl_cpu;
	note_time(w, ev->pl_time);
	w->nsamples++;
	put_rec(w, PD_REC_SAMPLE, c->pl_usermode ? PD_MISC_USER : PD_MISC_KERNEL, off);
}

static void add_bid(struct pw *w, int32_t pid, uint16_t misc, const uint8_t *id, uint32_t n,
    const char *path)
{
	for (int i = 0; i < w->nbids; i++)
		if (strcmp(w->bids[i].path, path) == 0)
			return;
	if (GROW(w->bids, w->nbids, w->bcap) < 0)
		return;
	struct wbid *b = &w->bids[w->nbids];
	memset(b, 0, sizeof(*b));
	b->pid = pid;
	b->misc = misc;
	b->size = (uint8_t)(n > 20 ? 20 : n);
	memcpy(b->id, id, b->size);
	b->path = strdup(path);
	if (b->path)
		w->nbids++;
}

/*
 * A pmc log records a binary's executable mapping only; perf's DWARF
 * unwinder (libunwind) reads .eh_frame_hdr through the recording's maps,
 * and it lives in a read-only segment (perf record --call-graph dwarf
 * records every mapping: mmap_data).  So the binary's other PT_LOAD
 * segments get MMAP2 records too, placed by the executable one, when the
 * file is here and is the recorded build.
 */
static void rec_other_segments(struct pw *w, const struct pmclog_ev_map_in *m, uint64_t ts)
{
	int fd = sym__open_regular(m->pl_pathname);
	Elf *e;
	size_t n;
	if (fd < 0)
		return;
	e = elf_version(EV_CURRENT) != EV_NONE ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	if (!e || elf_kind(e) != ELF_K_ELF || elf_getphdrnum(e, &n) != 0)
		goto out;
	if (m->pl_buildid_len) {
		const void *id;
		ssize_t l = dwelf_elf_gnu_build_id(e, &id);
		if (l <= 0 || (size_t)l != m->pl_buildid_len || memcmp(id, m->pl_buildid, (size_t)l))
			goto out;
	}
	GElf_Phdr x, ph;
	size_t xi = n;
	for (size_t i = 0; i < n && xi == n; i++)
		if (gelf_getphdr(e, (int)i, &x) && x.p_type == PT_LOAD && (x.p_flags & PF_X) &&
		    (x.p_offset & ~0xfffULL) == m->pl_pgoff)
			xi = i;
	if (xi == n)
		goto out;
	/* address of a vaddr v: bias + v */
	uint64_t bias = m->pl_start - m->pl_pgoff - ((x.p_vaddr & ~0xfffULL) - (x.p_offset & ~0xfffULL));
	for (size_t i = 0; i < n; i++) {
		if (i == xi || !gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || !ph.p_filesz)
			continue;
		uint64_t va = ph.p_vaddr & ~0xfffULL, end = (ph.p_vaddr + ph.p_filesz + 0xfff) & ~0xfffULL;
		st64(w->rec + 16, bias + va);
		st64(w->rec + 24, end - va);
		st64(w->rec + 32, ph.p_offset & ~0xfffULL);
		st32(w->rec + 64, ((ph.p_flags & PF_R) ? 1 : 0) | ((ph.p_flags & PF_W) ? 2 : 0) |
		    ((ph.p_flags & PF_X) ? 4 : 0));
		put_rec(w, PD_REC_MMAP2, m->pl_buildid_len ? PD_MISC_USER | PD_MISC_MMAP_BUILD_ID :
		    PD_MISC_USER, trailer(w, put_str(w, 72, m->pl_pathname,
		    sizeof(m->pl_pathname)), m->pl_pid, m->pl_pid, ts, 0));
	}
out:
	if (e)
		elf_end(e);
	close(fd);
}

static void rec_other(struct pw *w, const struct pmclog_ev *ev)
{
	uint64_t ts = ev->pl_time;
	size_t off = 8;

	flush_attrs(w);
	switch (ev->pl_type) {
	case PMCLOG_TYPE_COMM: {
		const struct pmclog_ev_comm *c = &ev->pl_u.pl_cm;
		st32(w->rec + 8, (uint32_t)c->pl_pid);
		st32(w->rec + 12, (uint32_t)c->pl_tid);
		off = put_str(w, 16, c->pl_comm, sizeof(c->pl_comm));
		off = trailer(w, off, c->pl_pid, c->pl_tid, ts, 0);
		put_rec(w, PD_REC_COMM, (c->pl_flags & PMCLOG_COMM_F_EXEC) ? PD_MISC_COMM_EXEC : 0,
		    off);
		break;
	}
	case PMCLOG_TYPE_PROC_CREATE: {
		const struct pmclog_ev_proccreate *c = &ev->pl_u.pl_pc;
		st32(w->rec + 8, (uint32_t)c->pl_pid);
		st32(w->rec + 12, (uint32_t)c->pl_pid);
		off = put_str(w, 16, c->pl_pcomm, sizeof(c->pl_pcomm));
		off = trailer(w, off, c->pl_pid, c->pl_pid, ts, 0);
		put_rec(w, PD_REC_COMM, 0, off);
		break;
	}
	case PMCLOG_TYPE_PROCFORK:
	case PMCLOG_TYPE_THR_CREATE:
	case PMCLOG_TYPE_THR_EXIT: {
		int32_t pid, ppid, tid, ptid;
		uint32_t type = PD_REC_FORK;
		if (ev->pl_type == PMCLOG_TYPE_PROCFORK) {
			pid = ev->pl_u.pl_f.pl_newpid;
			ppid = ev->pl_u.pl_f.pl_oldpid;
			tid = ev->pl_u.pl_f.pl_newtid ? ev->pl_u.pl_f.pl_newtid : pid;
			ptid = ev->pl_u.pl_f.pl_oldtid ? ev->pl_u.pl_f.pl_oldtid : ppid;
		} else if (ev->pl_type == PMCLOG_TYPE_THR_CREATE) {
			pid = ppid = ev->pl_u.pl_tc.pl_pid;
			tid = ev->pl_u.pl_tc.pl_tid;
			ptid = pid;
		} else {
			type = PD_REC_EXIT;
			pid = ppid = ev->pl_u.pl_te.pl_pid;
			tid = ptid = ev->pl_u.pl_te.pl_tid;
		}
		st32(w->rec + 8, (uint32_t)pid);
		st32(w->rec + 12, (uint32_t)ppid);
		st32(w->rec + 16, (uint32_t)tid);
		st32(w->rec + 20, (uint32_t)ptid);
		st64(w->rec + 24, ts);
		off = trailer(w, 32, pid, tid, ts, 0);
		put_rec(w, type, 0, off);
		break;
	}
	case PMCLOG_TYPE_MAP_IN: {
		const struct pmclog_ev_map_in *m = &ev->pl_u.pl_mi;
		uint16_t misc = m->pl_pid == -1 ? PD_MISC_KERNEL : PD_MISC_USER;
		if (m->pl_pid == -1 && !strncmp(m->pl_pathname, "[kernel.kallsyms]", 17))
			w->kmaps = 1;             /* recorded: nothing to add */
		st32(w->rec + 8, (uint32_t)m->pl_pid);
		st32(w->rec + 12, (uint32_t)m->pl_pid);
		st64(w->rec + 16, m->pl_start);
		st64(w->rec + 24, m->pl_len);
		st64(w->rec + 32, m->pl_pgoff);
		memset(w->rec + 40, 0, 24);
		if (m->pl_buildid_len) {
			uint32_t n = m->pl_buildid_len > 20 ? 20 : m->pl_buildid_len;
			w->rec[40] = (unsigned char)n;
			memcpy(w->rec + 44, m->pl_buildid, n);
			misc |= PD_MISC_MMAP_BUILD_ID;
			/* perf's build-id table names the kernel "[kernel.kallsyms]" */
			add_bid(w, -1, m->pl_pid == -1 ? PD_MISC_KERNEL : PD_MISC_USER,
			    m->pl_buildid, n, m->pl_pid == -1 &&
			    !strncmp(m->pl_pathname, "[kernel.kallsyms]", 17) ?
			    "[kernel.kallsyms]" : m->pl_pathname);
		}
		st32(w->rec + 64, m->pl_prot ? m->pl_prot : 0x5);
		st32(w->rec + 68, m->pl_mflags ? m->pl_mflags : 0x2);
		off = put_str(w, 72, m->pl_pathname, sizeof(m->pl_pathname));
		off = trailer(w, off, m->pl_pid, m->pl_pid, ts, 0);
		put_rec(w, PD_REC_MMAP2, misc, off);
		if (m->pl_pid >= 0 && m->pl_pathname[0] == '/')
			rec_other_segments(w, m, ts);
		break;
	}
	case PMCLOG_TYPE_KSYMSRC: {
		const struct pmclog_ev_ksymsrc *k = &ev->pl_u.pl_ks;
		w->kbidlen = k->pl_buildid_len > 20 ? 20 : k->pl_buildid_len;
		memcpy(w->kbid, k->pl_buildid, w->kbidlen);
		if (k->pl_buildid_len)
			add_bid(w, -1, PD_MISC_KERNEL, k->pl_buildid, k->pl_buildid_len,
			    "[kernel.kallsyms]");
		break;
	}
	case PMCLOG_TYPE_DROPNOTIFY: {
		const struct pmclog_ev_dropnotify *d = &ev->pl_u.pl_dn;
		struct wattr *a = d->pl_pmcid != PMC_ID_INVALID ? find_attr(w, d->pl_pmcid) : NULL;
		uint32_t cpu = d->pl_cpu >= 0 ? (uint32_t)d->pl_cpu : 0;
		if (d->pl_reason == PMCLOG_DROP_SAMPLES) {
			st64(w->rec + 8, d->pl_count);
			off = trailer(w, 16, -1, -1, ts, cpu);
			put_rec(w, PD_REC_LOST_SAMPLES, 0, off);
		} else if (d->pl_reason == PMCLOG_DROP_RING) {
			st64(w->rec + 8, a ? a->kid : (w->nattrs ? w->attrs[0].kid : 0));
			st64(w->rec + 16, d->pl_count);
			off = trailer(w, 24, -1, -1, ts, cpu);
			put_rec(w, PD_REC_LOST, 0, off);
		}
		break;
	}
	case PMCLOG_TYPE_THROTTLE: {
		const struct pmclog_ev_throttle *t = &ev->pl_u.pl_th;
		struct wattr *a = find_attr(w, t->pl_pmcid);
		uint64_t kid = a ? a->kid : (w->nattrs ? w->attrs[0].kid : 0);
		st64(w->rec + 8, ts);
		st64(w->rec + 16, kid);
		st64(w->rec + 24, kid);
		off = trailer(w, 32, -1, -1, ts, t->pl_cpu >= 0 ? (uint32_t)t->pl_cpu : 0);
		put_rec(w, t->pl_throttled ? PD_REC_THROTTLE : PD_REC_UNTHROTTLE, 0, off);
		break;
	}
	case PMCLOG_TYPE_KSYMBOL: {
		const struct pmclog_ev_ksymbol *k = &ev->pl_u.pl_ksym;
		st64(w->rec + 8, k->pl_addr);
		st32(w->rec + 16, k->pl_len);
		st16(w->rec + 20, k->pl_ksymtype);
		st16(w->rec + 22, k->pl_flags);
		off = put_str(w, 24, k->pl_name, sizeof(k->pl_name));
		off = trailer(w, off, -1, -1, ts, 0);
		put_rec(w, PD_REC_KSYMBOL, PD_MISC_KERNEL, off);
		break;
	}
	default:
		break;
	}
}

/* ---- header and features ------------------------------------------------- */

#define TDATA_MAX (64ull << 20)           /* as the reader's largest feature section */

static int have_tdata(const struct pw *w)
{
	return w->tdtotal && w->tdhave == w->tdtotal;
}

/*
 * perf's tracing data, from the log's TRACEDATA pieces (in order; a piece
 * out of order or of another total is ignored, and an incomplete whole is
 * not written).  File mode writes it as the HEADER_TRACING_DATA feature
 * section; a pipe gets perf's TRACING_DATA record (u32 size, then the data
 * padded to 8) as soon as it is complete, before the samples after it.
 */
static void on_tracedata(struct pw *w, const struct pmclog_ev_tracedata *t)
{
	if (t->pl_offset == 0 && t->pl_total && t->pl_total <= TDATA_MAX &&
	    t->pl_total != w->tdtotal) {
		unsigned char *b = realloc(w->tdata, (size_t)t->pl_total);
		if (!b)
			return;
		w->tdata = b;
		w->tdtotal = t->pl_total;
		w->tdhave = 0;
	} else if (t->pl_offset == 0 && t->pl_total == w->tdtotal) {
		w->tdhave = 0;                /* sent again: the later one counts */
	}
	if (!w->tdtotal || t->pl_total != w->tdtotal || t->pl_offset != w->tdhave ||
	    t->pl_len > w->tdtotal - w->tdhave)
		return;
	memcpy(w->tdata + w->tdhave, t->pl_bytes, t->pl_len);
	w->tdhave += t->pl_len;
	if (w->pipe && have_tdata(w) && w->tdtotal <= UINT32_MAX - 8) {
		flush_attrs(w);           /* perf gives the formats to the attrs it has */
		static const unsigned char zero[8];
		uint32_t al = (uint32_t)((w->tdtotal + 7) & ~7ull);
		unsigned char h[16];
		st_hdr(h, PD_REC_TRACING_DATA, 16);
		st32(h + 8, al);
		st32(h + 12, 0);
		wbytes(w, h, 16);
		wbytes(w, w->tdata, (size_t)w->tdtotal);
		wbytes(w, zero, al - (size_t)w->tdtotal);
	}
}

static void set_s(char **dst, const char *s)
{
	free(*dst);
	*dst = strdup(s ? s : "");
}

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

/* Feature payloads, written either as sections (file) or records (pipe). */
static size_t feat_size(struct pw *w, int feat)
{
	size_t n = 0;
	switch (feat) {
	case PD_FEAT_TRACING_DATA: return have_tdata(w) ? (size_t)w->tdtotal : 0;
	case PD_FEAT_HOSTNAME: return string_size(or_empty(w->hostname));
	case PD_FEAT_OSRELEASE: return string_size(or_empty(w->osrelease));
	case PD_FEAT_VERSION: return string_size("pmc " PMC_VERSION_STRING_OR);
	case PD_FEAT_CPUDESC: return string_size(or_empty(w->cpudesc));
	case PD_FEAT_NRCPUS: return 8;
	case PD_FEAT_SAMPLE_TIME: return 16;
	case PD_FEAT_CMDLINE: {
		char *s = strdup(or_empty(w->cmdline)), *save = NULL;
		n = 4;
		if (!s)
			return n;
		for (char *t = strtok_r(s, " ", &save); t; t = strtok_r(NULL, " ", &save))
			n += string_size(t);
		free(s);
		return n;
	}
	case PD_FEAT_EVENT_DESC:
		n = 8;
		for (int i = 0; i < w->nattrs; i++)
			n += ATTR_SIZE + 4 + string_size(w->attrs[i].name) + 8;
		return n;
	case PD_FEAT_BUILD_ID:
		for (int i = 0; i < w->nbids; i++) {
			size_t l = strlen(w->bids[i].path) + 1;
			n += 36 + ((l + PD_NAME_ALIGN - 1) & ~(size_t)(PD_NAME_ALIGN - 1));
		}
		return n;
	}
	return 0;
}

static void feat_write(struct pw *w, int feat)
{
	switch (feat) {
	case PD_FEAT_TRACING_DATA: wbytes(w, w->tdata, (size_t)w->tdtotal); break;
	case PD_FEAT_HOSTNAME: wstring(w, or_empty(w->hostname)); break;
	case PD_FEAT_OSRELEASE: wstring(w, or_empty(w->osrelease)); break;
	case PD_FEAT_VERSION: wstring(w, "pmc " PMC_VERSION_STRING_OR); break;
	case PD_FEAT_CPUDESC: wstring(w, or_empty(w->cpudesc)); break;
	case PD_FEAT_NRCPUS:
		w32(w, w->max_cpu + 1);
		w32(w, w->max_cpu + 1);
		break;
	case PD_FEAT_SAMPLE_TIME:
		w64(w, w->first_ts);
		w64(w, w->last_ts);
		break;
	case PD_FEAT_CMDLINE: {
		char *s = strdup(or_empty(w->cmdline)), *save = NULL;
		uint32_t nr = 0;
		if (s) {
			char *c = strdup(s);
			for (char *t = strtok_r(c, " ", &save); t; t = strtok_r(NULL, " ", &save))
				nr++;
			free(c);
		}
		w32(w, nr);
		if (s)
			for (char *t = strtok_r(s, " ", &save); t; t = strtok_r(NULL, " ", &save))
				wstring(w, t);
		free(s);
		break;
	}
	case PD_FEAT_EVENT_DESC:
		w32(w, (uint32_t)w->nattrs);
		w32(w, ATTR_SIZE);
		for (int i = 0; i < w->nattrs; i++) {
			wbytes(w, w->attrs[i].attr, ATTR_SIZE);
			w32(w, 1);
			wstring(w, w->attrs[i].name);
			w64(w, w->attrs[i].kid);
		}
		break;
	case PD_FEAT_BUILD_ID:
		for (int i = 0; i < w->nbids; i++) {
			static const unsigned char zero[PD_NAME_ALIGN];
			const struct wbid *b = &w->bids[i];
			size_t l = strlen(b->path) + 1;
			size_t al = (l + PD_NAME_ALIGN - 1) & ~(size_t)(PD_NAME_ALIGN - 1);
			unsigned char h[36];
			memset(h, 0, sizeof(h));   /* type 0: perf's build-id entry */
			st16(h + 4, (uint16_t)(b->misc | PD_MISC_BUILD_ID_SIZE));
			st16(h + 6, (uint16_t)(36 + al));
			st32(h + 8, (uint32_t)b->pid);
			memcpy(h + 12, b->id, b->size);
			h[12 + 20] = b->size;
			wbytes(w, h, 36);
			wbytes(w, b->path, l);
			wbytes(w, zero, al - l);
		}
		break;
	}
}

static void emit_feature_record(struct pw *w, int feat)
{
	size_t sz = 16 + feat_size(w, feat);
	unsigned char h[16];
	if (sz > 0xFFFF)
		return;
	st_hdr(h, PD_REC_HEADER_FEATURE, (uint16_t)sz);
	st64(h + 8, (uint64_t)feat);
	wbytes(w, h, 16);
	feat_write(w, feat);
}

static void emit_attr_records(struct pw *w, struct wattr *a)
{
	a->emitted = 1;
	unsigned char h[8];
	size_t nl = strlen(a->name) + 1, padded = (nl + 7) & ~(size_t)7;
	st_hdr(h, PD_REC_HEADER_ATTR, (uint16_t)(8 + ATTR_SIZE + 8));
	wbytes(w, h, 8);
	wbytes(w, a->attr, ATTR_SIZE);
	w64(w, a->kid);
	if (24 + padded <= 0xFFFF) {
		static const unsigned char zero[8];
		st_hdr(h, PD_REC_EVENT_UPDATE, (uint16_t)(24 + padded));
		wbytes(w, h, 8);
		w64(w, PD_EVENT_UPDATE_NAME);
		w64(w, a->kid);
		wbytes(w, a->name, nl);
		wbytes(w, zero, padded - nl);
	}
}

/*
 * Pipe mode: the attrs not yet out, before the record that needs them.
 * They wait from their PMCALLOCATE to here so that a tracepoint's knows
 * whether the log has tracing data (its TRACEDATA comes right after the
 * PMCALLOCATEs): without it, its samples carry no fields (a log of pmc
 * record), and perf is given no RAW it would parse without formats.
 */
static void flush_attrs(struct pw *w)
{
	for (int i = 0; w->pipe && i < w->nattrs; i++) {
		struct wattr *a = &w->attrs[i];
		if (a->emitted)
			continue;
		if (a->raw && !have_tdata(w)) {
			a->raw = 0;
			st64(a->attr + PD_AOFF_SAMPLE_TYPE, SAMPLE_TYPE);
		}
		emit_attr_records(w, a);
	}
}

/* in bit order, as perf reads the table; TRACING_DATA only when there is one */
static const int file_feats[] = {
	PD_FEAT_TRACING_DATA, PD_FEAT_BUILD_ID, PD_FEAT_HOSTNAME, PD_FEAT_OSRELEASE, PD_FEAT_VERSION, PD_FEAT_NRCPUS,
	PD_FEAT_CPUDESC, PD_FEAT_CMDLINE, PD_FEAT_EVENT_DESC, PD_FEAT_SAMPLE_TIME,
};
#define NFEATS ((int)(sizeof(file_feats) / sizeof(file_feats[0])))

/* After the data: features, ids, attrs; then the header at offset 0. */
static int finish_file(struct pw *w)
{
	uint64_t data_size = w->written - PD_FILE_HDR_SIZE, off, ids_off, attrs_off;
	unsigned char h[PD_FILE_HDR_SIZE];
	uint64_t feat[4] = { 0, 0, 0, 0 };

	/* an attr without samples (perf's dummy event) takes the call chain
	 * setting of the others, which perf report shows for all */
	int keep = 0, drop = 0;
	for (int i = 0; i < w->nattrs; i++) {
		uint64_t st;
		memcpy(&st, w->attrs[i].attr + PD_AOFF_SAMPLE_TYPE, 8);
		if (w->attrs[i].decided)
			*((st & PSAMPLE_CALLCHAIN) ? &keep : &drop) = 1;
	}
	for (int i = 0; i < w->nattrs && drop && !keep; i++) {
		uint64_t st;
		memcpy(&st, w->attrs[i].attr + PD_AOFF_SAMPLE_TYPE, 8);
		if (!w->attrs[i].decided)
			st64(w->attrs[i].attr + PD_AOFF_SAMPLE_TYPE, st & ~(uint64_t)PSAMPLE_CALLCHAIN);
	}
	int nfeats = NFEATS - !have_tdata(w);
	off = w->written + 16 * (uint64_t)nfeats;
	for (int i = 0; i < NFEATS; i++) {
		if (file_feats[i] == PD_FEAT_TRACING_DATA && !have_tdata(w))
			continue;
		size_t sz = feat_size(w, file_feats[i]);
		w64(w, off);
		w64(w, sz);
		off += sz;
		feat[file_feats[i] / 64] |= 1ULL << (file_feats[i] % 64);
	}
	for (int i = 0; i < NFEATS; i++)
		if (file_feats[i] != PD_FEAT_TRACING_DATA || have_tdata(w))
			feat_write(w, file_feats[i]);
	ids_off = w->written;
	for (int i = 0; i < w->nattrs; i++)
		w64(w, w->attrs[i].kid);
	attrs_off = w->written;
	for (int i = 0; i < w->nattrs; i++) {
		wbytes(w, w->attrs[i].attr, ATTR_SIZE);
		w64(w, ids_off + 8 * (uint64_t)i);
		w64(w, 8);
	}
	if (wflush(w) < 0)
		return w->err;

	memset(h, 0, sizeof(h));
	st64(h, PD_MAGIC2);
	st64(h + 8, PD_FILE_HDR_SIZE);
	st64(h + 16, ATTR_SIZE + 16);
	st64(h + 24, attrs_off);
	st64(h + 32, (uint64_t)w->nattrs * (ATTR_SIZE + 16));
	st64(h + 40, PD_FILE_HDR_SIZE);
	st64(h + 48, data_size);
	st64(h + 56, 0);                 /* event_types: unused */
	st64(h + 64, 0);
	for (int i = 0; i < 4; i++)
		st64(h + 72 + 8 * i, feat[i]);
	if (pwrite(w->fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return -errno;
	return 0;
}

static void on_header(struct pw *w, const struct pmclog_ev_header *h)
{
	set_s(&w->hostname, h->pl_hostname);
	set_s(&w->osrelease, h->pl_kernel);
	set_s(&w->cpudesc, h->pl_cpudesc);
	set_s(&w->cmdline, h->pl_cmdline);
	if (w->pipe) {
		emit_feature_record(w, PD_FEAT_HOSTNAME);
		emit_feature_record(w, PD_FEAT_OSRELEASE);
		emit_feature_record(w, PD_FEAT_VERSION);
		emit_feature_record(w, PD_FEAT_CPUDESC);
		emit_feature_record(w, PD_FEAT_CMDLINE);
	}
}

int perfdata__from_pmclog(int in_fd, int out_fd, uint64_t *nsamples, int *truncated)
{
	struct pw *w = calloc(1, sizeof(*w));
	struct pmclog_ev *ev = malloc(sizeof(*ev));
	void *lp = NULL;
	struct stat sb;
	int rc = 0, read_failed = 0;

	*nsamples = 0;
	*truncated = 0;
	pmc__clear_reason();
	if (!w || !ev || !(w->buf = malloc(WBUF_SIZE))) {
		rc = pmc__nomem();
		goto out;
	}
	w->fd = out_fd;
	w->pipe = !(fstat(out_fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    lseek(out_fd, 0, SEEK_SET) == 0);
	lp = pmclog_open(in_fd);
	if (lp)
		pmclog_set_extensions(lp, 1);
	if (!lp) {
		rc = pmc__err(-errno, "cannot read the log: %s", strerror(errno));
		goto out;
	}
	if (w->pipe) {
		unsigned char h[PD_PIPE_HDR_SIZE];
		st64(h, PD_MAGIC2);
		st64(h + 8, PD_PIPE_HDR_SIZE);
		wbytes(w, h, sizeof(h));
	} else {
		unsigned char h[PD_FILE_HDR_SIZE];
		memset(h, 0, sizeof(h));      /* rewritten at the end */
		wbytes(w, h, sizeof(h));
	}
	for (;;) {
		if (pmclog_read(lp, ev) < 0)
			break;
		switch (ev->pl_type) {
		case PMCLOG_TYPE_HEADER:
			on_header(w, &ev->pl_u.pl_h);
			break;
		case PMCLOG_TYPE_PMCALLOCATE: {
			const struct pmclog_ev_pmcallocate *al = &ev->pl_u.pl_a;
			struct wattr *a;
			if (find_attr(w, al->pl_pmcid) || join_percpu_attr(w, al))
				break;
			if ((a = add_attr(w, al->pl_pmcid, al->pl_evname, al->pl_rate,
			    (int)al->pl_freq, al->pl_flags))) {
				a->rate = al->pl_rate;
				a->freq = (int)al->pl_freq;
				a->flags = al->pl_flags;
				a->percpu = al->pl_cpu >= 0 &&
				    PMC_IS_SYSTEM_MODE((enum pmc_mode)al->pl_mode);
			}
			break;
		}
		case PMCLOG_TYPE_CALLCHAIN:
			rec_sample(w, ev);
			break;
		case PMCLOG_TYPE_TRACEDATA:
			on_tracedata(w, &ev->pl_u.pl_td);
			break;
		default:
			rec_other(w, ev);
			break;
		}
		if (w->err)
			break;
	}
	if (!w->err && ev->pl_state == PMCLOG_ERROR) {
		rc = -(errno ? errno : EILSEQ);      /* the reader said why */
		read_failed = 1;
		/* what was read is still written out */
	}
	if (!w->err && ev->pl_state == PMCLOG_EOF)
		*truncated = pmclog_truncated(lp, NULL, NULL);
	if (w->nattrs == 0)
		add_attr(w, 0, "cpu-clock", 1, 0, 0);   /* perf needs one event */
	flush_attrs(w);
	put_round(w);
	if (w->pipe) {
		if (wflush(w) < 0 && !rc)
			rc = w->err;
	} else {
		int frc = finish_file(w);
		if (frc < 0 && !rc)
			rc = frc;
	}
	if (read_failed) {   /* the input's fault, whatever writing said since */
		pmc__clear_reason();
		pmc__err(rc, "cannot read the log: %s", pmclog_errmsg(lp));
	} else if (rc) {
		pmc__err(rc, "cannot write the perf.data: %s", strerror(-rc));
	}
	*nsamples = w->nsamples;
out:
	if (lp)
		pmclog_close(lp);
	if (w) {
		for (int i = 0; i < w->nattrs; i++)
			free(w->attrs[i].name);
		free(w->attrs);
		free(w->alias);
		for (int i = 0; i < w->nbids; i++)
			free(w->bids[i].path);
		free(w->bids);
		free(w->hostname);
		free(w->osrelease);
		free(w->cpudesc);
		free(w->cmdline);
		free(w->tdata);
		free(w->buf);
		free(w);
	}
	free(ev);
	return rc;
}
