/*
 * records.c — encoders for the pmc log's record payloads (see records.h and
 * docs/log-format.md).  The writer thread translates kernel records with
 * these too, so the encoding of each record type lives in one place.
 */
#include <errno.h>
#include <string.h>

#include "log/records.h"

#define PATH_CAP   (PATH_MAX - 1)
#define NAME_CAP   MAXCOMLEN
#define EVNAME_CAP 4095
#define CMDLINE_CAP 32767

static void begin(struct pmc_logrec *r, int type, size_t fixed)
{
	r->type = type;
	r->len = fixed;
	memset(r->buf, 0, fixed);
}

/* Append s (cut at cap bytes) and its NUL. */
static void put_str(struct pmc_logrec *r, const char *s, size_t cap)
{
	size_t n = s ? strnlen(s, cap) : 0;
	if (r->len + n + 1 > PMCLOG_PAYLOAD_MAX)
		n = PMCLOG_PAYLOAD_MAX - r->len - 1;
	memcpy(r->buf + r->len, s ? s : "", n);
	r->buf[r->len + n] = '\0';
	r->len += n + 1;
}

/* Pad the payload to a multiple of 8 with zeros. */
static int finish(struct pmc_logrec *r)
{
	while (r->len & 7)
		r->buf[r->len++] = 0;
	return 0;
}

#define P32(off, v) pmclog__st32(r->buf + (off), (uint32_t)(v))
#define P64(off, v) pmclog__st64(r->buf + (off), (uint64_t)(v))

int pmc__logrec_header(struct pmc_logrec *r, const struct pmc_logrec_header *h)
{
	begin(r, PMCLOG_TYPE_HEADER, PMCLOG_MIN_HEADER);
	/* only a zstd log holds stack frames: an uncompressed one is still
	 * format 3.1, which format-3 readers read */
	if (h->flags & PMCLOG_HDR_F_ZSTD) {
		P32(0, PMCLOG_FORMAT_MAJOR);
		P32(4, PMCLOG_FORMAT_MINOR);
	} else {
		P32(0, 3);
		P32(4, 1);
	}
	P32(8, h->version);
	P32(12, h->clockid);
	P64(16, h->start_realtime);
	P64(24, h->start_clock);
	P32(32, h->flags);
	P32(36, h->arch);
	put_str(r, h->libversion, 255);
	put_str(r, h->hostname, 255);
	put_str(r, h->kernel, 255);
	put_str(r, h->cpudesc, 255);
	put_str(r, h->cmdline, CMDLINE_CAP);
	return finish(r);
}

int pmc__logrec_initialize(struct pmc_logrec *r, uint32_t version, uint32_t arch,
    uint64_t realtime_ns, const char *cpuid)
{
	begin(r, PMCLOG_TYPE_INITIALIZE, PMCLOG_MIN_INITIALIZE);
	P32(0, version);
	P32(4, arch);
	P64(8, 0);              /* tsc_freq: timestamps are ns */
	P64(16, realtime_ns);
	put_str(r, cpuid, PATH_CAP);
	return finish(r);
}

int pmc__logrec_closelog(struct pmc_logrec *r)
{
	begin(r, PMCLOG_TYPE_CLOSELOG, 0);
	return 0;
}

int pmc__logrec_dropnotify(struct pmc_logrec *r, uint64_t count, pmc_id_t pmc,
    int cpu, uint32_t reason)
{
	begin(r, PMCLOG_TYPE_DROPNOTIFY, PMCLOG_MIN_DROPNOTIFY);
	P64(0, count);
	P32(8, pmc);
	P32(12, cpu);
	P32(16, reason);
	return 0;
}

int pmc__logrec_pmcallocate(struct pmc_logrec *r, pmc_id_t pmc, uint32_t event,
    const char *evname, enum pmc_mode mode, uint32_t flags, uint64_t rate,
    int freq, int cpu)
{
	begin(r, PMCLOG_TYPE_PMCALLOCATE, PMCLOG_MIN_PMCALLOCATE);
	P32(0, pmc);
	P32(4, event);
	P32(8, flags);
	P32(12, mode);
	P64(16, rate);
	P32(24, freq ? 1 : 0);
	P32(28, cpu);
	put_str(r, evname, EVNAME_CAP);
	return finish(r);
}

int pmc__logrec_pmcattach(struct pmc_logrec *r, pmc_id_t pmc, pid_t pid, const char *path)
{
	begin(r, PMCLOG_TYPE_PMCATTACH, PMCLOG_MIN_PMCATTACH);
	P32(0, pmc);
	P32(4, pid);
	put_str(r, path, PATH_CAP);
	return finish(r);
}

int pmc__logrec_pmcdetach(struct pmc_logrec *r, pmc_id_t pmc, pid_t pid)
{
	begin(r, PMCLOG_TYPE_PMCDETACH, PMCLOG_MIN_PMCDETACH);
	P32(0, pmc);
	P32(4, pid);
	return 0;
}

int pmc__logrec_proccsw(struct pmc_logrec *r, pmc_id_t pmc, pid_t pid, pid_t tid,
    int cpu, uint64_t value)
{
	begin(r, PMCLOG_TYPE_PROCCSW, PMCLOG_MIN_PROCCSW);
	P32(0, pmc);
	P32(4, pid);
	P32(8, tid);
	P32(12, cpu);
	P64(16, value);
	return 0;
}

int pmc__logrec_procexec(struct pmc_logrec *r, pmc_id_t pmc, pid_t pid, pid_t tid,
    uint64_t baseaddr, uint64_t dynaddr, const char *path)
{
	begin(r, PMCLOG_TYPE_PROCEXEC, PMCLOG_MIN_PROCEXEC);
	P32(0, pmc);
	P32(4, pid);
	P32(8, tid);
	P64(16, baseaddr);
	P64(24, dynaddr);
	put_str(r, path, PATH_CAP);
	return finish(r);
}

int pmc__logrec_procexit(struct pmc_logrec *r, pmc_id_t pmc, pid_t pid, pid_t tid,
    uint64_t value)
{
	begin(r, PMCLOG_TYPE_PROCEXIT, PMCLOG_MIN_PROCEXIT);
	P32(0, pmc);
	P32(4, pid);
	P32(8, tid);
	P64(16, value);
	return 0;
}

int pmc__logrec_procfork(struct pmc_logrec *r, pid_t oldpid, pid_t newpid,
    pid_t oldtid, pid_t newtid)
{
	begin(r, PMCLOG_TYPE_PROCFORK, PMCLOG_MIN_PROCFORK);
	P32(0, oldpid);
	P32(4, newpid);
	P32(8, oldtid);
	P32(12, newtid);
	return 0;
}

int pmc__logrec_sysexit(struct pmc_logrec *r, pid_t pid)
{
	begin(r, PMCLOG_TYPE_SYSEXIT, PMCLOG_MIN_SYSEXIT);
	P32(0, pid);
	return 0;
}

int pmc__logrec_userdata(struct pmc_logrec *r, uint32_t cookie)
{
	begin(r, PMCLOG_TYPE_USERDATA, PMCLOG_MIN_USERDATA);
	P32(0, cookie);
	return 0;
}

int pmc__logrec_map_in(struct pmc_logrec *r, const struct pmc_logrec_map *m)
{
	uint32_t bl = m->buildid ? m->buildid_len : 0;

	if (bl > 20)
		return -EINVAL;
	begin(r, PMCLOG_TYPE_MAP_IN, PMCLOG_MIN_MAP_IN);
	P32(0, m->pid);
	P32(4, bl);
	P64(8, m->start);
	P64(16, m->len);
	P64(24, m->pgoff);
	P32(32, m->prot);
	P32(36, m->mflags);
	if (bl)
		memcpy(r->buf + 40, m->buildid, bl);
	put_str(r, m->path, PATH_CAP);
	return finish(r);
}

int pmc__logrec_map_out(struct pmc_logrec *r, pid_t pid, uint64_t start, uint64_t end)
{
	begin(r, PMCLOG_TYPE_MAP_OUT, PMCLOG_MIN_MAP_OUT);
	P32(0, pid);
	P64(8, start);
	P64(16, end);
	return 0;
}

/*
 * Call chains are kernel pcs then user pcs (that is how the kernel walks
 * them), so the user/kernel flag of every pc is usually told by one number:
 * how many leading pcs are kernel ones.  That number goes in cpuflags2
 * (with PMCLOG_CC2_KPREFIX set) and no per-pc mask is written, so a sample
 * costs no more than perf's.  A chain that mixes them otherwise keeps the
 * per-pc mask (cpuflags2 = 0).
 */
/* The CALLCHAIN record's user-stack extension (docs/log-format.md). */
static void put_ustack(struct pmc_logrec *r, const struct pmc_logrec_ustack *u)
{
	size_t off = r->len, room;
	uint32_t len = u->stack ? u->len : 0;

	P32(off, u->abi);
	P32(off + 4, u->nregs);
	P64(off + 8, u->mask);
	for (uint32_t i = 0; i < u->nregs; i++)
		P64(off + 16 + 8 * i, u->regs[i]);
	off += 16 + 8 * (size_t)u->nregs;
	room = PMCLOG_PAYLOAD_MAX - off - 8;
	if (len > room)
		len = (uint32_t)(room & ~(size_t)7);
	P32(off, len);
	P32(off + 4, u->len);         /* what the kernel copied, before any cut */
	if (len)
		memcpy(r->buf + off + 8, u->stack, len);
	r->len = off + 8 + len;
	finish(r);
}

int pmc__logrec_callchain(struct pmc_logrec *r, const struct pmc_logrec_sample *s)
{
	return pmc__logrec_callchain_ustack(r, s, NULL);
}

int pmc__logrec_callchain_ustack(struct pmc_logrec *r, const struct pmc_logrec_sample *s,
    const struct pmc_logrec_ustack *u)
{
	return pmc__logrec_callchain_ext(r, s, u, NULL);
}

int pmc__logrec_callchain_ext(struct pmc_logrec *r, const struct pmc_logrec_sample *s,
    const struct pmc_logrec_ustack *u, const struct pmc_logrec_raw *raw)
{
	uint32_t n = s->npc, nk = 0, prefix = 1;

	if (n == 0 || n > PMC_CALLCHAIN_DEPTH_MAX)
		return -EINVAL;
	for (uint32_t i = 0; i < n; i++) {
		int user = (s->pcflags[i] & PMC_CC_F_USERSPACE) != 0;
		if (!user && nk == i)
			nk++;
		else if (!user)
			prefix = 0;       /* a kernel pc after a user one */
	}
	uint32_t nmask = prefix ? 0 : (n + 63) / 64;
	int ustack = u && u->nregs > 0 && u->nregs <= 64;
	begin(r, PMCLOG_TYPE_CALLCHAIN, PMCLOG_MIN_CALLCHAIN + 8 * (n + nmask));
	P32(0, s->pmc);
	P32(4, s->pid);
	P32(8, s->tid);
	P32(12, PMC_CALLCHAIN_TO_CPUFLAGS(s->cpu, s->pcflags[0] & PMC_CC_F_USERSPACE));
	P32(16, (prefix ? PMCLOG_CC2_KPREFIX | nk : 0) | (ustack ? PMCLOG_CC2_USTACK : 0));
	P32(20, n);
	P64(24, s->period);
	for (uint32_t i = 0; i < n; i++) {
		int user = (s->pcflags[i] & PMC_CC_F_USERSPACE) != 0;
		P64(32 + 8 * i, s->pcs[i]);
		if (!prefix && user)
			r->buf[32 + 8 * n + i / 8] |= (unsigned char)(1u << (i % 8));
	}
	if (ustack)
		put_ustack(r, u);
	/* a payload that does not fit is left out: a cut one would not decode */
	if (raw && (raw->len == 0 || raw->bytes) &&
	    raw->len <= PMCLOG_PAYLOAD_MAX - r->len - PMCLOG_RAW_MIN) {
		size_t off = r->len;
		P32(16, pmclog__ld32(r->buf + 16) | PMCLOG_CC2_RAW);
		P32(off, raw->flags);
		P32(off + 4, raw->len);
		if (raw->len)
			memcpy(r->buf + off + 8, raw->bytes, raw->len);
		r->len = off + 8 + raw->len;
		finish(r);
	}
	return 0;
}

int pmc__logrec_tracedata(struct pmc_logrec *r, uint64_t total, uint64_t offset,
    const unsigned char *bytes, uint32_t len)
{
	if (len > PMCLOG_TRACEDATA_CHUNK || offset > total || len > total - offset)
		return -EINVAL;
	begin(r, PMCLOG_TYPE_TRACEDATA, PMCLOG_MIN_TRACEDATA);
	P64(0, total);
	P64(8, offset);
	P32(16, len);
	if (len)
		memcpy(r->buf + PMCLOG_MIN_TRACEDATA, bytes, len);
	r->len += len;
	return finish(r);
}

/* The bytes of a CALLCHAIN payload that make its chain: the pcs and, in
 * the mask form, the mask; 0 if it cannot be interned. */
static size_t chain_bytes(const unsigned char *cc, size_t cclen)
{
	uint32_t cf2, n;
	size_t need;

	if (cclen < PMCLOG_MIN_CALLCHAIN)
		return 0;
	cf2 = pmclog__ld32(cc + 16);
	n = pmclog__ld32(cc + 20);
	if ((cf2 & (PMCLOG_CC2_USTACK | PMCLOG_CC2_RAW)) || n == 0 || n > PMC_CALLCHAIN_DEPTH_MAX ||
	    pmclog__ld64(cc + 24) > UINT32_MAX)
		return 0;
	need = 8 * ((size_t)n + ((cf2 & PMCLOG_CC2_KPREFIX) ? 0 : (n + 63) / 64));
	return cclen - PMCLOG_MIN_CALLCHAIN >= need ? need : 0;
}

int pmc__logrec_chain(struct pmc_logrec *r, uint32_t id, const unsigned char *cc, size_t cclen)
{
	size_t nb = chain_bytes(cc, cclen);

	if (nb == 0 || id == 0 || id > PMCLOG_CHAIN_ID_MAX)
		return -EINVAL;
	begin(r, PMCLOG_TYPE_CHAIN, PMCLOG_MIN_CHAIN);
	P32(0, id);
	memcpy(r->buf + 4, cc, 8);              /* pmcid, pid */
	memcpy(r->buf + 12, cc + 16, 8);        /* cpuflags2, npc */
	memcpy(r->buf + PMCLOG_MIN_CHAIN, cc + PMCLOG_MIN_CALLCHAIN, nb);
	r->len += nb;
	return 0;
}

int pmc__logrec_chainsample(struct pmc_logrec *r, uint32_t id, const unsigned char *cc,
    size_t cclen)
{
	if (chain_bytes(cc, cclen) == 0 || id == 0 || id > PMCLOG_CHAIN_ID_MAX)
		return -EINVAL;
	begin(r, PMCLOG_TYPE_CHAINSAMPLE, PMCLOG_MIN_CHAINSAMPLE);
	P32(0, id);
	memcpy(r->buf + 4, cc + 8, 8);          /* tid, cpuflags */
	P32(12, pmclog__ld64(cc + 24));         /* period, <= UINT32_MAX */
	return 0;
}

int pmc__logrec_thr_create(struct pmc_logrec *r, pid_t tid, pid_t pid, uint32_t flags,
    const char *name)
{
	begin(r, PMCLOG_TYPE_THR_CREATE, PMCLOG_MIN_THR_CREATE);
	P32(0, tid);
	P32(4, pid);
	P32(8, flags);
	put_str(r, name, NAME_CAP);
	return finish(r);
}

int pmc__logrec_thr_exit(struct pmc_logrec *r, pid_t tid, pid_t pid)
{
	begin(r, PMCLOG_TYPE_THR_EXIT, PMCLOG_MIN_THR_EXIT);
	P32(0, tid);
	P32(4, pid);
	return 0;
}

int pmc__logrec_proc_create(struct pmc_logrec *r, pid_t pid, uint32_t flags, const char *comm)
{
	begin(r, PMCLOG_TYPE_PROC_CREATE, PMCLOG_MIN_PROC_CREATE);
	P32(0, pid);
	P32(4, flags);
	put_str(r, comm, NAME_CAP);
	return finish(r);
}

int pmc__logrec_comm(struct pmc_logrec *r, pid_t pid, pid_t tid, uint32_t flags,
    const char *name)
{
	begin(r, PMCLOG_TYPE_COMM, PMCLOG_MIN_COMM);
	P32(0, pid);
	P32(4, tid);
	P32(8, flags);
	put_str(r, name, NAME_CAP);
	return finish(r);
}

int pmc__logrec_throttle(struct pmc_logrec *r, pmc_id_t pmc, int throttled, int cpu)
{
	begin(r, PMCLOG_TYPE_THROTTLE, PMCLOG_MIN_THROTTLE);
	P32(0, pmc);
	P32(4, throttled ? 1 : 0);
	P32(8, cpu);
	return 0;
}

int pmc__logrec_switch(struct pmc_logrec *r, pmc_id_t pmc, pid_t pid, pid_t tid, int cpu,
    uint32_t flags)
{
	begin(r, PMCLOG_TYPE_SWITCH, PMCLOG_MIN_SWITCH);
	P32(0, pmc);
	P32(4, pid);
	P32(8, tid);
	P32(12, cpu);
	P32(16, flags);
	return 0;
}

int pmc__logrec_ksymsrc(struct pmc_logrec *r, const char *path, const char *release,
    const uint8_t *buildid, uint32_t buildid_len)
{
	uint32_t bl = buildid ? buildid_len : 0;

	if (bl > 20)
		return -EINVAL;
	begin(r, PMCLOG_TYPE_KSYMSRC, PMCLOG_MIN_KSYMSRC);
	P32(0, bl);
	if (bl)
		memcpy(r->buf + 4, buildid, bl);
	put_str(r, path, PATH_CAP);
	put_str(r, release, 255);
	return finish(r);
}

int pmc__logrec_ksymbol(struct pmc_logrec *r, uint64_t addr, uint32_t len,
    uint16_t ksymtype, uint16_t flags, const char *name)
{
	begin(r, PMCLOG_TYPE_KSYMBOL, PMCLOG_MIN_KSYMBOL);
	P64(0, addr);
	P32(8, len);
	pmclog__st16(r->buf + 12, ksymtype);
	pmclog__st16(r->buf + 14, flags);
	put_str(r, name, 255);
	return finish(r);
}
