/*
 * perf_sample.c — decode a PERF_RECORD_SAMPLE body (see perf_sample.h):
 * one bounded cursor, every field in the kernel's output order
 * (kernel/events/core.c perf_output_sample; perf's evsel__parse_sample).
 */
#include <errno.h>
#include <string.h>

#include "common/perf_sample.h"

int psample__host_big_endian(void)
{
	const uint16_t one = 1;
	unsigned char b;
	memcpy(&b, &one, 1);
	return b == 0;
}

struct cur {
	const unsigned char *b;
	size_t n, off;
	int be, bad;
};

static uint64_t u64(struct cur *c)
{
	if (c->n - c->off < 8) {
		c->bad = 1;
		c->off = c->n;
		return 0;
	}
	c->off += 8;
	return psample__ld64(c->b + c->off - 8, c->be);
}

/* pid and tid, cpu and res: two u32 in a u64 slot */
static void ld_two32(const unsigned char *q, int be, uint32_t *a, uint32_t *b)
{
	*a = psample__ld32(q, be);
	*b = psample__ld32(q + 4, be);
}

static void two32(struct cur *c, uint32_t *a, uint32_t *b)
{
	if (c->n - c->off < 8) {
		c->bad = 1;
		c->off = c->n;
		*a = *b = 0;
		return;
	}
	ld_two32(c->b + c->off, c->be, a, b);
	c->off += 8;
}

/* `count` items of `size` bytes: a pointer to them, or NULL (and bad). */
static const unsigned char *take(struct cur *c, uint64_t count, size_t size)
{
	const unsigned char *p = c->b + c->off;
	if (c->bad || count > (c->n - c->off) / size) {
		c->bad = 1;
		c->off = c->n;
		return NULL;
	}
	c->off += (size_t)count * size;
	return p;
}

static void regs(struct cur *c, uint64_t mask, struct psample_regs *r)
{
	r->mask = mask;
	r->abi = u64(c);
	r->nr = 0;
	r->regs = NULL;
	if (c->bad || r->abi == PSAMPLE_REGS_ABI_NONE)
		return;
	r->nr = (uint32_t)__builtin_popcountll(mask);
	r->regs = take(c, r->nr, 8);
}

static void read_block(struct cur *c, uint64_t rf, struct psample *s)
{
	s->read.stride = 8 * (1 + !!(rf & PSAMPLE_FMT_ID) + !!(rf & PSAMPLE_FMT_LOST));
	if (rf & PSAMPLE_FMT_GROUP) {
		s->read.nr = u64(c);
		if (rf & PSAMPLE_FMT_TOTAL_TIME_ENABLED)
			s->read.time_enabled = u64(c);
		if (rf & PSAMPLE_FMT_TOTAL_TIME_RUNNING)
			s->read.time_running = u64(c);
		s->read.values = take(c, s->read.nr, s->read.stride);
		return;
	}
	/* value, [enabled], [running], [id], [lost]: psample__read_value
	 * steps over the times between the value and its id. */
	s->read.nr = 1;
	s->read.values = c->b + c->off;
	u64(c);
	if (rf & PSAMPLE_FMT_TOTAL_TIME_ENABLED)
		s->read.time_enabled = u64(c);
	if (rf & PSAMPLE_FMT_TOTAL_TIME_RUNNING)
		s->read.time_running = u64(c);
	if (rf & PSAMPLE_FMT_ID)
		u64(c);
	if (rf & PSAMPLE_FMT_LOST)
		u64(c);
	if (c->bad)
		s->read.values = NULL;
}

void psample__read_value(const struct psample *s, uint64_t rf, uint64_t i,
    struct psample_readval *out)
{
	const unsigned char *p;
	size_t k = 1;

	memset(out, 0, sizeof(*out));
	if (!s->read.values || i >= s->read.nr)
		return;
	if (rf & PSAMPLE_FMT_GROUP) {
		p = s->read.values + (size_t)i * s->read.stride;
	} else {
		p = s->read.values;
		k += !!(rf & PSAMPLE_FMT_TOTAL_TIME_ENABLED) + !!(rf & PSAMPLE_FMT_TOTAL_TIME_RUNNING);
	}
	out->value = psample__ld64(p, s->big_endian);
	if (rf & PSAMPLE_FMT_ID)
		out->id = psample__ld64(p + 8 * k++, s->big_endian);
	if (rf & PSAMPLE_FMT_LOST)
		out->lost = psample__ld64(p + 8 * k, s->big_endian);
}

/* The fields of perf record's and pmc record's samples (with -g): all of
 * fixed size, the call chain last.  Such a body is decoded with one length
 * check up front instead of one per field (a report decodes millions). */
#define FIXED_HEAD (PSAMPLE_IDENTIFIER | PSAMPLE_IP | PSAMPLE_TID | PSAMPLE_TIME | \
	PSAMPLE_ADDR | PSAMPLE_ID | PSAMPLE_STREAM_ID | PSAMPLE_CPU | PSAMPLE_PERIOD)
/* ... and those a sample_id_all trailer repeats, in the same order */
#define TRAILER_BITS (PSAMPLE_TID | PSAMPLE_TIME | PSAMPLE_ID | PSAMPLE_STREAM_ID | \
	PSAMPLE_CPU | PSAMPLE_IDENTIFIER)

/* The offset of field `bit` when present (-1 when not), o moved past it. */
static int16_t field(uint64_t st, uint64_t bit, int *o)
{
	if (!(st & bit))
		return -1;
	*o += 8;
	return (int16_t)(*o - 8);
}

void psample__layout_init(struct psample_layout *l)
{
	uint64_t st = l->sample_type;
	int o = 0, i;

	field(st, PSAMPLE_IDENTIFIER, &o);
	l->o_ip = field(st, PSAMPLE_IP, &o);
	l->o_tid = field(st, PSAMPLE_TID, &o);
	l->o_time = field(st, PSAMPLE_TIME, &o);
	l->o_addr = field(st, PSAMPLE_ADDR, &o);
	l->o_id = field(st, PSAMPLE_ID, &o);
	l->o_stream = field(st, PSAMPLE_STREAM_ID, &o);
	l->o_cpu = field(st, PSAMPLE_CPU, &o);
	l->o_period = field(st, PSAMPLE_PERIOD, &o);
	if (l->o_id < 0 && (st & PSAMPLE_IDENTIFIER))
		l->o_id = 0;
	l->head = (uint16_t)o;
	l->fixed = !(st & ~(FIXED_HEAD | PSAMPLE_CALLCHAIN));
	l->trailer = (uint8_t)(8 * __builtin_popcountll(st & TRAILER_BITS));
	/* perf's evsel id_pos / is_pos: IDENTIFIER first in a sample and
	 * last in a trailer; else ID after the fields before it */
	l->id_pos = (st & PSAMPLE_IDENTIFIER) ? 0 : (st & PSAMPLE_ID) ? (int8_t)(l->o_id / 8) : -1;
	i = 1 + !!(st & PSAMPLE_CPU) + !!(st & PSAMPLE_STREAM_ID);
	l->is_pos = (st & PSAMPLE_IDENTIFIER) ? 1 : (st & PSAMPLE_ID) ? (int8_t)i : -1;
}

/* 0 when decoded; -1 when the body is short: the general path decodes it
 * then, and says so the one way. */
static int parse_fast(struct psample *s, const struct psample_layout *l,
    const unsigned char *b, size_t n, int be)
{
	struct psample_fixed f;

	if (psample__parse_fixed(l, b, n, be, &f) < 0)
		return -1;
	s->id = f.id;
	s->ip = f.ip;
	s->pid = f.pid;
	s->tid = f.tid;
	s->time = f.time;
	s->cpu = f.cpu;
	s->period = f.period;
	s->callchain_nr = f.chain_nr;
	s->callchain = f.chain;
	if (l->o_addr >= 0)
		s->addr = psample__ld64(b + l->o_addr, be);
	if (l->o_stream >= 0)
		s->stream_id = psample__ld64(b + l->o_stream, be);
	if (l->o_cpu >= 0)
		s->cpu_res = psample__ld32(b + l->o_cpu + 4, be);
	s->used = l->head + (f.chain ? 8 + 8 * (size_t)f.chain_nr : 0);
	return 0;
}

int psample__parse(struct psample *s, const struct psample_layout *l, const void *body,
    size_t n, int be)
{
	struct cur c = { body, n, 0, be, 0 };
	uint64_t st = l->sample_type;

	memset(s, 0, sizeof(*s));
	s->present = st;
	s->big_endian = be;
	if (l->fixed && parse_fast(s, l, body, n, be) == 0)
		return 0;
	if (st & PSAMPLE_IDENTIFIER)
		s->id = u64(&c);
	if (st & PSAMPLE_IP)
		s->ip = u64(&c);
	if (st & PSAMPLE_TID)
		two32(&c, &s->pid, &s->tid);
	if (st & PSAMPLE_TIME)
		s->time = u64(&c);
	if (st & PSAMPLE_ADDR)
		s->addr = u64(&c);
	if (st & PSAMPLE_ID)
		s->id = u64(&c);
	if (st & PSAMPLE_STREAM_ID)
		s->stream_id = u64(&c);
	if (st & PSAMPLE_CPU)
		two32(&c, &s->cpu, &s->cpu_res);
	if (st & PSAMPLE_PERIOD)
		s->period = u64(&c);
	if (st & PSAMPLE_READ)
		read_block(&c, l->read_format, s);
	if (st & PSAMPLE_CALLCHAIN) {
		s->callchain_nr = u64(&c);
		s->callchain = take(&c, s->callchain_nr, 8);
	}
	if (st & PSAMPLE_RAW) {
		if (c.n - c.off < 4) {
			c.bad = 1;
		} else {
			s->raw_size = psample__ld32(c.b + c.off, be);
			c.off += 4;
			s->raw = take(&c, s->raw_size, 1);
		}
	}
	if (st & PSAMPLE_BRANCH_STACK) {
		s->branch_nr = u64(&c);
		if (l->branch_sample_type & PSAMPLE_BRANCH_HW_INDEX)
			s->branch_hw_idx = u64(&c);
		s->branch = take(&c, s->branch_nr, 24);
		if (l->branch_sample_type & PSAMPLE_BRANCH_COUNTERS)
			s->branch_counters = take(&c, s->branch_nr, 8);
	}
	if (st & PSAMPLE_REGS_USER)
		regs(&c, l->regs_user, &s->regs_user);
	if (st & PSAMPLE_STACK_USER) {
		s->stack_size = u64(&c);
		if (s->stack_size) {
			s->stack = take(&c, s->stack_size, 1);
			s->stack_dyn_size = u64(&c);
			if (s->stack_dyn_size > s->stack_size)
				c.bad = 1;
		}
	}
	if (st & (PSAMPLE_WEIGHT | PSAMPLE_WEIGHT_STRUCT))
		s->weight = u64(&c);
	if (st & PSAMPLE_DATA_SRC)
		s->data_src = u64(&c);
	if (st & PSAMPLE_TRANSACTION)
		s->transaction = u64(&c);
	if (st & PSAMPLE_REGS_INTR)
		regs(&c, l->regs_intr, &s->regs_intr);
	if (st & PSAMPLE_PHYS_ADDR)
		s->phys_addr = u64(&c);
	if (st & PSAMPLE_CGROUP)
		s->cgroup = u64(&c);
	if (st & PSAMPLE_DATA_PAGE_SIZE)
		s->data_page_size = u64(&c);
	if (st & PSAMPLE_CODE_PAGE_SIZE)
		s->code_page_size = u64(&c);
	if (st & PSAMPLE_AUX) {
		s->aux_size = u64(&c);
		s->aux = take(&c, s->aux_size, 1);
	}
	s->used = c.off;
	return c.bad ? -EINVAL : 0;
}

int psample__parse_read(struct psample *s, uint64_t read_format, const void *body, size_t n,
    int be)
{
	struct cur c = { body, n, 0, be, 0 };

	memset(s, 0, sizeof(*s));
	s->present = PSAMPLE_READ;
	s->big_endian = be;
	read_block(&c, read_format, s);
	s->used = c.off;
	return c.bad ? -EINVAL : 0;
}

int psample__parse_trailer(const struct psample_layout *l, const void *body, size_t n,
    int be, struct psample_trailer *t)
{
	uint64_t st = l->sample_type;
	const unsigned char *q = (const unsigned char *)body + n / 8 * 8;  /* its end */

	memset(t, 0, sizeof(*t));
	if (l->trailer > n / 8 * 8)
		return -1;
	t->size = l->trailer;
	/* from the end: the kernel's __perf_event_header__init_id order */
	if (st & PSAMPLE_IDENTIFIER) {
		q -= 8;
		t->id = psample__ld64(q, be);
		t->has_id = 1;
	}
	if (st & PSAMPLE_CPU) {
		q -= 8;
		t->cpu = psample__ld32(q, be);
		t->has_cpu = 1;
	}
	if (st & PSAMPLE_STREAM_ID)
		q -= 8;
	if (st & PSAMPLE_ID) {
		q -= 8;
		t->id = psample__ld64(q, be);
		t->has_id = 1;
	}
	if (st & PSAMPLE_TIME) {
		q -= 8;
		t->time = psample__ld64(q, be);
		t->has_time = 1;
	}
	if (st & PSAMPLE_TID) {
		q -= 8;
		t->pid = psample__ld32(q, be);
		t->tid = psample__ld32(q + 4, be);
		t->has_tid = 1;
	}
	return 0;
}

uint32_t psample__chain(const struct psample *s, int user, uint8_t user_flag,
    uint64_t *pcs, uint8_t *flags, uint32_t max)
{
	uint32_t n = 0;

	for (uint64_t i = 0; i < s->callchain_nr && n < max; i++) {
		uint64_t pc = psample__u64(s, s->callchain, i);
		if (pc >= PSAMPLE_CONTEXT_MAX) {
			user = psample__context_user(pc, user);
			continue;
		}
		pcs[n] = pc;
		flags[n] = user ? user_flag : 0;
		n++;
	}
	return n;
}
