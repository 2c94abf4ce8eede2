/*
 * output.c — the simulated kernel's ring-buffer producer.
 *
 * Records are laid out exactly as the kernel writes them (perf_event.h:
 * PERF_RECORD_SAMPLE fields in the kernel's fixed order for the attr's
 * sample_type, sample_id trailers with sample_id_all, COMM/MMAP2/FORK/EXIT/
 * READ/LOST) into a struct perf_event_mmap_page followed by a power-of-two
 * data area in ordinary memory, with the head/tail protocol: the producer
 * owns data_head (stored with release semantics after the bytes), the
 * consumer owns data_tail (loaded with acquire semantics).  A record that
 * does not fit is dropped and counted; the next one that fits is preceded
 * by a PERF_RECORD_LOST with the count (perf_output_begin).  Wake-ups follow
 * perf: every `watermark` bytes (default half the buffer) or every
 * `wakeup_events` samples; ring_wait returns the rings woken.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend/sim/sim.h"

struct ctx {
	uint32_t pid, tid, cpu;
	uint64_t time;
};

struct buf {
	uint8_t b[8192];
	size_t n;
};

static void put64(struct buf *b, uint64_t v)
{
	if (b->n + 8 <= sizeof(b->b)) {
		memcpy(b->b + b->n, &v, 8);
		b->n += 8;
	}
}

static void put32x2(struct buf *b, uint32_t x, uint32_t y)
{
	if (b->n + 8 <= sizeof(b->b)) {
		memcpy(b->b + b->n, &x, 4);
		memcpy(b->b + b->n + 4, &y, 4);
		b->n += 8;
	}
}

static void putstr(struct buf *b, const char *s)
{
	size_t l = strlen(s) + 1, pad = (l + 7) & ~(size_t)7;

	if (b->n + pad <= sizeof(b->b)) {
		memset(b->b + b->n, 0, pad);
		memcpy(b->b + b->n, s, l);
		b->n += pad;
	}
}

static void header(struct buf *b, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = 0 };

	memcpy(b->b, &h, sizeof(h));
	b->n = sizeof(h);
}

static void finish(struct buf *b)
{
	uint16_t sz = (uint16_t)b->n;

	memcpy(b->b + offsetof(struct perf_event_header, size), &sz, 2);
}

static void sample_id(struct buf *b, const struct pmc_bctr *e, const struct ctx *x)
{
	uint64_t st = e->attr.sample_type;

	if (!e->attr.sample_id_all)
		return;
	if (st & PERF_SAMPLE_TID)
		put32x2(b, x->pid, x->tid);
	if (st & PERF_SAMPLE_TIME)
		put64(b, x->time);
	if (st & PERF_SAMPLE_ID)
		put64(b, e->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		put64(b, e->id);
	if (st & PERF_SAMPLE_CPU)
		put32x2(b, x->cpu, 0);
	if (st & PERF_SAMPLE_IDENTIFIER)
		put64(b, e->id);
}

/* ---- rings ------------------------------------------------------------- */

struct sim_perf_buffer *sim__ring_new(struct pmc_bctr *owner, size_t data_pages)
{
	struct sim_perf_buffer *rb = calloc(1, sizeof(*rb));
	void *mem;

	if (!rb)
		return NULL;
	mem = aligned_alloc(SIM_PAGE_SIZE, (1 + data_pages) * SIM_PAGE_SIZE);
	if (!mem) {
		free(rb);
		return NULL;
	}
	memset(mem, 0, (1 + data_pages) * SIM_PAGE_SIZE);
	rb->page = mem;
	rb->data = (unsigned char *)mem + SIM_PAGE_SIZE;
	rb->size = (uint64_t)data_pages * SIM_PAGE_SIZE;
	rb->page->data_offset = SIM_PAGE_SIZE;
	rb->page->data_size = rb->size;
	rb->watermark = rb->size / 2;
	if (owner->attr.watermark && owner->attr.wakeup_watermark)
		rb->watermark = owner->attr.wakeup_watermark < rb->size ?
				owner->attr.wakeup_watermark : rb->size;
	rb->owner = owner;
	rb->refs = 1;
	rb->consumer = 1;      /* a mapped ring is presumed read */
	return rb;
}

void sim__ring_free(struct sim_perf_buffer *rb)
{
	if (!rb)
		return;
	free(rb->page);
	free(rb);
}

static void copy_in(struct sim_perf_buffer *rb, const void *src, size_t n)
{
	uint64_t off = rb->head & (rb->size - 1);
	size_t first = n;

	if (off + n > rb->size)
		first = (size_t)(rb->size - off);
	memcpy(rb->data + off, src, first);
	if (first < n)
		memcpy(rb->data, (const uint8_t *)src + first, n - first);
	rb->head += n;
}

static void rb_write(struct pmc_bctr *e, struct buf *b, const struct ctx *x, int is_sample)
{
	struct sim_perf_buffer *rb = e->rb;
	struct buf lb;
	uint64_t tail;

	if (!rb)
		return;
	finish(b);
	lb.n = 0;
	if (rb->lost) {
		header(&lb, PERF_RECORD_LOST, 0);
		put64(&lb, e->id);
		put64(&lb, rb->lost);
		sample_id(&lb, e, x);
		finish(&lb);
	}
	tail = __atomic_load_n(&rb->page->data_tail, __ATOMIC_ACQUIRE);
	if (rb->head + lb.n + b->n - tail > rb->size) {
		rb->lost++;
		if (is_sample)
			e->lost++;
		return;
	}
	if (lb.n) {
		copy_in(rb, lb.b, lb.n);
		rb->lost = 0;
	}
	copy_in(rb, b->b, b->n);
	__atomic_store_n(&rb->page->data_head, rb->head, __ATOMIC_RELEASE);
	while (rb->head - rb->wakeup > rb->watermark) {
		rb->wakeup += rb->watermark;
		rb->poll = 1;
	}
	if (is_sample && !e->attr.watermark && e->attr.wakeup_events) {
		if (++rb->events >= e->attr.wakeup_events) {
			rb->events -= e->attr.wakeup_events;
			rb->poll = 1;
		}
	}
	if (rb->poll)
		pthread_cond_broadcast(&sim.cond);
}

/* ---- read_format values ---------------------------------------------------- */

static void read_values(struct buf *b, struct sim_att *a)
{
	struct pmc_bctr *e = a->ev;
	uint64_t rf = e->attr.read_format;
	struct pmc_bcount v;

	if (rf & PERF_FORMAT_GROUP) {
		struct pmc_bctr *ld = e->leader;
		struct sim_att *la = sim__att_peer(ld, a);

		if (!la)
			la = a;
		sim__att_read(la, &v);
		put64(b, 1 + (uint64_t)ld->nsibs);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			put64(b, v.enabled);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			put64(b, v.running);
		for (int i = -1; i < ld->nsibs; i++) {
			struct pmc_bctr *m = i < 0 ? ld : ld->sibs[i];
			struct sim_att *ma = i < 0 ? la : sim__att_peer(m, a);
			struct pmc_bcount mv = { 0, 0, 0, 0 };

			if (ma)
				sim__att_read(ma, &mv);
			put64(b, mv.value);
			if (rf & PERF_FORMAT_ID)
				put64(b, m->id);
			if (rf & PERF_FORMAT_LOST)
				put64(b, m->lost);
		}
		return;
	}
	sim__att_read(a, &v);
	put64(b, v.value);
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		put64(b, v.enabled);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		put64(b, v.running);
	if (rf & PERF_FORMAT_ID)
		put64(b, e->id);
	if (rf & PERF_FORMAT_LOST)
		put64(b, e->lost);
}

/* ---- samples ----------------------------------------------------------------- */

/* A sample of a (period: the events it stands for) taken with the running
 * task at ip/el — the pc the interrupt saw. */
void sim__out_sample(struct sim_cpu *c, struct sim_att *a, uint64_t period, uint64_t ip,
		     int el)
{
	struct pmc_bctr *e = a->ev;
	uint64_t st = e->attr.sample_type;
	struct sim_task *t = c->cur;
	struct ctx x = { 0, 0, (uint32_t)c->id, c->now };
	struct buf b;

	if (!e->rb)
		return;
	if (t) {
		x.pid = (uint32_t)t->pid;
		x.tid = (uint32_t)t->tid;
	}
	header(&b, PERF_RECORD_SAMPLE, el ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER);
	if (st & PERF_SAMPLE_IDENTIFIER)
		put64(&b, e->id);
	if (st & PERF_SAMPLE_IP)
		put64(&b, ip);
	if (st & PERF_SAMPLE_TID)
		put32x2(&b, x.pid, x.tid);
	if (st & PERF_SAMPLE_TIME)
		put64(&b, x.time);
	if (st & PERF_SAMPLE_ADDR)
		put64(&b, 0);
	if (st & PERF_SAMPLE_ID)
		put64(&b, e->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		put64(&b, e->id);
	if (st & PERF_SAMPLE_CPU)
		put32x2(&b, x.cpu, 0);
	if (st & PERF_SAMPLE_PERIOD)
		put64(&b, period);
	if (st & PERF_SAMPLE_READ)
		read_values(&b, a);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		uint64_t ips[SIM_MAX_STACK + 4];
		int max = e->attr.sample_max_stack ? e->attr.sample_max_stack : SIM_MAX_STACK;
		int n = 0, k = 0;

		if (max > SIM_MAX_STACK)
			max = SIM_MAX_STACK;
		if (t)
			n = sim__task_callchain(t, ips, max + 2, el);
		/* drop contexts the attr excludes */
		{
			uint64_t out[SIM_MAX_STACK + 4];
			int skip = 0;

			for (int i = 0; i < n; i++) {
				if (ips[i] == PERF_CONTEXT_KERNEL)
					skip = e->attr.exclude_callchain_kernel;
				else if (ips[i] == PERF_CONTEXT_USER)
					skip = e->attr.exclude_callchain_user;
				if (!skip)
					out[k++] = ips[i];
			}
			put64(&b, (uint64_t)k);
			for (int i = 0; i < k; i++)
				put64(&b, out[i]);
		}
	}
	rb_write(e, &b, &x, 1);
}

/* perf_log_throttle: PERF_RECORD_THROTTLE / UNTHROTTLE (time, id, stream id). */
void sim__out_throttle(struct sim_cpu *c, struct sim_att *a, int unthrottle)
{
	struct pmc_bctr *e = a->ev;
	struct ctx x = { 0, 0, (uint32_t)c->id, c->now };
	struct buf b;

	if (!e->rb)
		return;
	if (a->task) {
		x.pid = (uint32_t)a->task->pid;
		x.tid = (uint32_t)a->task->tid;
	} else if (c->cur) {
		x.pid = (uint32_t)c->cur->pid;
		x.tid = (uint32_t)c->cur->tid;
	}
	header(&b, unthrottle ? PERF_RECORD_UNTHROTTLE : PERF_RECORD_THROTTLE, 0);
	put64(&b, x.time);
	put64(&b, e->id);
	put64(&b, e->id);
	sample_id(&b, e, &x);
	rb_write(e, &b, &x, 0);
}

/* ---- side-band records --------------------------------------------------------- */

static struct ctx task_ctx(const struct sim_task *t, int cpu)
{
	struct ctx x;

	x.pid = (uint32_t)t->pid;
	x.tid = (uint32_t)t->tid;
	x.cpu = (uint32_t)(cpu >= 0 ? cpu : 0);
	x.time = cpu >= 0 && sim.cpus[cpu].cur ? sim.cpus[cpu].now : sim__now();
	return x;
}

typedef void (*emit_fn)(struct pmc_bctr *e, struct sim_task *t, const struct ctx *x, void *arg);

/* Every counter that sees t's side-band: t's own and those of CPU cpu. */
static void for_sb(struct sim_task *t, int cpu, int (*match)(const struct perf_event_attr *),
		   emit_fn fn, void *arg)
{
	struct ctx x = task_ctx(t, cpu);

	if (cpu < 0)
		cpu = 0;
	for (int i = 0; i < t->natts; i++) {
		struct pmc_bctr *e = t->atts[i]->ev;

		/* a per-task counter bound to one CPU sees only what happens
		 * there (the kernel's event_filter_match) */
		if (!t->atts[i]->dead && e->rb && match(&e->attr) &&
		    (e->cpu < 0 || e->cpu == cpu))
			fn(e, t, &x, arg);
	}
	for (int i = 0; i < sim.cpus[cpu].ncatts; i++) {
		struct pmc_bctr *e = sim.cpus[cpu].catts[i]->ev;

		if (e->rb && match(&e->attr))
			fn(e, t, &x, arg);
	}
}

static int m_comm(const struct perf_event_attr *a) { return a->comm; }
static int m_mmap(const struct perf_event_attr *a) { return a->mmap || a->mmap2; }
static int m_task(const struct perf_event_attr *a)
{
	return a->comm || a->mmap || a->mmap2 || a->mmap_data || a->task;
}

static void emit_comm(struct pmc_bctr *e, struct sim_task *t, const struct ctx *x, void *arg)
{
	struct buf b;

	header(&b, PERF_RECORD_COMM, *(int *)arg ? PERF_RECORD_MISC_COMM_EXEC : 0);
	put32x2(&b, (uint32_t)t->pid, (uint32_t)t->tid);
	putstr(&b, t->comm);
	sample_id(&b, e, x);
	rb_write(e, &b, x, 0);
}

void sim__out_comm(struct sim_task *t, int exec)
{
	for_sb(t, t->parent && t->cpu < 0 ? t->parent->cpu : t->cpu, m_comm, emit_comm, &exec);
}

static void emit_mmap(struct pmc_bctr *e, struct sim_task *t, const struct ctx *x, void *arg)
{
	struct buf b;

	(void)arg;
	header(&b, e->attr.mmap2 ? PERF_RECORD_MMAP2 : PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
	put32x2(&b, (uint32_t)t->pid, (uint32_t)t->tid);
	put64(&b, SIMWL_MAP_START);
	put64(&b, simwl__map_len(t->wl));
	put64(&b, 0);                           /* pgoff */
	if (e->attr.mmap2) {
		put32x2(&b, 0, 0);              /* maj, min */
		put64(&b, 0);                   /* ino */
		put64(&b, 0);                   /* ino_generation */
		put32x2(&b, 0x5 /* PROT_READ|PROT_EXEC */, 0x2 /* MAP_PRIVATE */);
	}
	putstr(&b, t->wl->image);   /* the symbol map: see simwl__write_image */
	sample_id(&b, e, x);
	rb_write(e, &b, x, 0);
}

void sim__out_mmap(struct sim_task *t)
{
	for_sb(t, t->parent && t->cpu < 0 ? t->parent->cpu : t->cpu, m_mmap, emit_mmap, NULL);
}

struct task_arg {
	struct sim_task *subject;
	int is_exit;
};

static void emit_task(struct pmc_bctr *e, struct sim_task *it, const struct ctx *x, void *arg)
{
	const struct task_arg *ta = arg;
	struct sim_task *t = ta->subject;
	int is_exit = ta->is_exit;
	struct buf b;
	struct ctx y = *x;

	(void)it;
	header(&b, is_exit ? PERF_RECORD_EXIT : PERF_RECORD_FORK, 0);
	if (is_exit) {
		uint32_t pp = (uint32_t)t->ppid;

		put32x2(&b, (uint32_t)t->pid, pp);
		put32x2(&b, (uint32_t)t->tid, pp);
	} else {
		put32x2(&b, (uint32_t)t->pid, (uint32_t)t->parent->pid);
		put32x2(&b, (uint32_t)t->tid, (uint32_t)t->parent->tid);
	}
	put64(&b, x->time);
	sample_id(&b, e, &y);
	rb_write(e, &b, &y, 0);
}

void sim__out_fork(struct sim_task *t, int is_exit)
{
	struct task_arg ta = { t, is_exit };

	if (is_exit)
		for_sb(t, t->cpu, m_task, emit_task, &ta);
	else if (t->parent)      /* in the parent's context */
		for_sb(t->parent, t->parent->cpu, m_task, emit_task, &ta);
}

void sim__out_read(struct sim_att *a)
{
	struct pmc_bctr *e = a->ev;
	struct sim_task *t = a->task;
	struct ctx x;
	struct buf b;

	if (!e->rb || !t)
		return;
	x = task_ctx(t, t->cpu);
	header(&b, PERF_RECORD_READ, 0);
	put32x2(&b, (uint32_t)t->pid, (uint32_t)t->tid);
	read_values(&b, a);
	sample_id(&b, e, &x);
	rb_write(e, &b, &x, 0);
}
